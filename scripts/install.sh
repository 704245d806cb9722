#!/usr/bin/env bash
# Install vaultd into a virtual environment of its own, with the system tools its parser
# tiers use. Works with an externally managed system Python (PEP 668: Debian 12/13,
# Ubuntu 23.04+, Homebrew): nothing is installed into the system's site-packages.
#
#   bash scripts/install.sh              vaultd in ~/.local/share/vaultd/venv, the command
#                                        linked as ~/.local/bin/vaultd; run again to upgrade
#   bash scripts/install.sh --dev        a project-local .venv (editable, test and lint tools)
#   bash scripts/install.sh --uninstall  remove what the first form installed (never a vault)
#
# Settings: PYTHON (the interpreter to build the environment with, 3.11 or newer),
# VAULTD_INSTALL_DIR (default ${XDG_DATA_HOME:-~/.local/share}/vaultd), VAULTD_BIN_DIR
# (default ~/.local/bin).
#
# System packages (poppler-utils for pdftotext, tesseract-ocr for OCR, ffmpeg for video
# slides; python3-venv when the interpreter lacks venv; with --dev also chromium, the
# headless browser the extension tests drive, and espeak-ng, the voice of the tests'
# synthetic talk) are installed with apt-get when it is present and we may use it, or with
# Homebrew on macOS; otherwise the script says what is missing and vaultd degrades.
set -euo pipefail
cd "$(dirname "$0")/.."
project=$(pwd)

mode=user
case "${1:-}" in
  "") ;;
  --dev) mode=dev ;;
  --uninstall) mode=uninstall ;;
  -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "error: unknown option '$1'; use --dev, --uninstall or no option" >&2; exit 2 ;;
esac

install_dir="${VAULTD_INSTALL_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/vaultd}"
bin_dir="${VAULTD_BIN_DIR:-$HOME/.local/bin}"
link="$bin_dir/vaultd"

say() { echo "$*" >&2; }
die() { echo "error: $*" >&2; exit 1; }

if [ "$mode" = uninstall ]; then
  if [ -x "$install_dir/venv/bin/vaultd" ] && {
       [ -f "$HOME/Library/LaunchAgents/org.vaultd.agent.plist" ] ||
       [ -f "${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user/vaultd.service" ]; }; then
    "$install_dir/venv/bin/vaultd" service uninstall >&2 || say "note: the login service could not be removed; run \`vaultd service uninstall\`"
  fi
  if [ -L "$link" ] && [ "$(readlink "$link")" = "$install_dir/venv/bin/vaultd" ]; then rm -f "$link"; fi
  rm -rf "$install_dir"
  say "vaultd uninstalled (removed $install_dir and $link; your vaults are untouched)"
  exit 0
fi

# --- an interpreter: 3.11 or newer ---------------------------------------------------
supported() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; }
PY="${PYTHON:-}"
if [ -n "$PY" ]; then
  supported "$PY" || die "PYTHON=$PY is not Python 3.11 or newer; point PYTHON at one (or unset it)"
else
  for candidate in python3 python3.13 python3.12 python3.11; do
    if command -v "$candidate" >/dev/null 2>&1 && supported "$candidate"; then PY=$candidate; break; fi
  done
  [ -n "$PY" ] || die "vaultd needs Python 3.11 or newer; install it (apt install python3.11, brew install python@3.12) and run this script again"
fi

# --- system packages -------------------------------------------------------------------
has_venv() { "$PY" -c 'import venv, ensurepip' >/dev/null 2>&1; }
sys_pkgs="poppler-utils tesseract-ocr tesseract-ocr-eng ffmpeg"
[ "$mode" = dev ] && sys_pkgs="$sys_pkgs chromium espeak-ng"
if command -v apt-get >/dev/null 2>&1; then
  if ! has_venv; then
    ver=$("$PY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
    sys_pkgs="$sys_pkgs python3-venv python$ver-venv"
  fi
  missing=""
  for p in $sys_pkgs; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
  if [ -n "$missing" ]; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    say "installing system packages:$missing"
    $SUDO apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >&2
  fi
elif command -v brew >/dev/null 2>&1; then
  for p in poppler tesseract ffmpeg; do brew list "$p" >/dev/null 2>&1 || brew install "$p"; done
else
  say "note: no apt-get or brew; install poppler (pdftotext) and tesseract yourself for those tiers"
fi
has_venv || die "$PY has no venv module; install it (apt install python3-venv) and run this script again"

# --- the environment -------------------------------------------------------------------
if [ "$mode" = dev ]; then
  venv="$project/.venv"; spec=(-e "$project[dev]")
else
  venv="$install_dir/venv"; spec=("$project")
fi
fresh=0
if [ ! -x "$venv/bin/python" ] || ! supported "$venv/bin/python"; then
  rm -rf "$venv"; fresh=1
  mkdir -p "$(dirname "$venv")"
  "$PY" -m venv "$venv" || { rm -rf "$venv"; die "could not create a virtual environment at $venv with $PY"; }
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check --quiet)
# pip builds every wheel before it installs any, so a failed build leaves an existing
# environment as it was; a new one is removed so nothing is left half-installed.
if ! "${pip[@]}" install --upgrade "${spec[@]}" >&2; then
  [ "$fresh" = 1 ] && rm -rf "$venv"
  die "installing vaultd's Python packages failed (pip's message is above); if a package needed a compiler, install one (apt install build-essential python3-dev; macOS: xcode-select --install) and run this script again"
fi

if [ "$mode" = dev ]; then
  say "vaultd (dev) installed in $venv; run the tests with: .venv/bin/python -m pytest -q"
  exit 0
fi
mkdir -p "$bin_dir"
ln -sfn "$venv/bin/vaultd" "$link"
say "vaultd $("$venv/bin/vaultd" --version 2>/dev/null | awk '{print $NF}') installed in $venv; command: $link"
case ":$PATH:" in
  *":$bin_dir:"*) ;;
  *) say "note: $bin_dir is not on your PATH; add it (export PATH=\"$bin_dir:\$PATH\" in your shell's profile) or run $link" ;;
esac
