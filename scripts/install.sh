#!/usr/bin/env bash
# Install vaultd and the system tools its parser tiers use.
#   bash scripts/install.sh          runtime only
#   bash scripts/install.sh --dev    plus the test and lint tools
# System packages (poppler-utils for pdftotext, tesseract-ocr for OCR, ffmpeg for video
# slides; with --dev also chromium, the headless browser the extension tests and note
# screenshots drive, and espeak-ng, the voice of the tests' synthetic talk) are
# installed with apt-get when it is present and we may use it, or with Homebrew on macOS;
# otherwise the script says what is missing and vaultd degrades (pdftotext/OCR tiers
# reported unavailable; the browser tests skip, or fail under VAULTD_REQUIRE_FIXTURES=1).
set -euo pipefail
cd "$(dirname "$0")/.."

extra=""
[ "${1:-}" = "--dev" ] && extra="[dev]"

sys_pkgs="poppler-utils tesseract-ocr tesseract-ocr-eng ffmpeg"
[ -n "$extra" ] && sys_pkgs="$sys_pkgs chromium espeak-ng"
if command -v apt-get >/dev/null 2>&1; then
  missing=""
  for p in $sys_pkgs; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
  if [ -n "$missing" ]; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    echo "installing system packages:$missing" >&2
    $SUDO apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >&2
  fi
elif command -v brew >/dev/null 2>&1; then
  for p in poppler tesseract ffmpeg; do brew list "$p" >/dev/null 2>&1 || brew install "$p"; done
else
  echo "note: no apt-get or brew; install poppler (pdftotext) and tesseract yourself for those tiers" >&2
fi

PY="${PYTHON:-python3}"
"$PY" -m pip install --quiet --disable-pip-version-check -e ".${extra}" >&2
