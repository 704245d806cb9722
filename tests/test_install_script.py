"""scripts/install.sh as a user meets it: refusals in one line, nothing left behind."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "install.sh"


def _run(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {"PATH": os.environ["PATH"], "HOME": str(tmp_path / "home"),
            "VAULTD_INSTALL_DIR": str(tmp_path / "share" / "vaultd"),
            "VAULTD_BIN_DIR": str(tmp_path / "bin"), **env}
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=60, check=False, env=full)


def test_a_python_older_than_3_11_is_refused_in_one_line_and_nothing_is_installed(
        tmp_path: Path) -> None:
    old = tmp_path / "python3.9"
    old.write_text("#!/bin/sh\nexit 1\n")  # what `sys.exit(version < (3, 11))` gives on 3.9
    old.chmod(0o755)
    result = _run(tmp_path, PYTHON=str(old))
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"error: PYTHON={old} is not Python 3.11 or newer; point PYTHON at one (or unset it)"]
    assert not (tmp_path / "share").exists() and not (tmp_path / "bin").exists()


def test_an_unknown_option_is_a_usage_error(tmp_path: Path) -> None:
    result = _run(tmp_path, "--system")
    assert result.returncode == 2
    assert result.stderr == "error: unknown option '--system'; use --dev, --uninstall or no option\n"


def test_uninstall_removes_the_environment_and_its_link_but_no_other_file(tmp_path: Path) -> None:
    venv_bin = tmp_path / "share" / "vaultd" / "venv" / "bin"
    venv_bin.mkdir(parents=True)
    (venv_bin / "vaultd").write_text("#!/bin/sh\n")
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "vaultd").symlink_to(venv_bin / "vaultd")
    (tmp_path / "bin" / "other").write_text("keep me\n")
    vault = tmp_path / "home" / "Research"
    vault.mkdir(parents=True)
    result = _run(tmp_path, "--uninstall")
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "share" / "vaultd").exists()
    assert not (tmp_path / "bin" / "vaultd").is_symlink()
    assert (tmp_path / "bin" / "other").is_file() and vault.is_dir()
    assert "your vaults are untouched" in result.stderr
