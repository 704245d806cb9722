from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from vaultd.cli import main_group


def test_init_twice_reports_nothing_new_the_second_time(tmp_path: Path) -> None:
    runner = CliRunner()
    first = runner.invoke(main_group, ["init", str(tmp_path / "v")], catch_exceptions=False)
    assert first.exit_code == 0 and "Created" in first.output
    second = runner.invoke(main_group, ["init", str(tmp_path / "v"), "--json"], catch_exceptions=False)
    assert json.loads(second.output)["created"] == []


def test_bad_config_fails_with_one_error_line_and_exit_1(tmp_path: Path) -> None:
    v = tmp_path / "v"
    subprocess.run([sys.executable, "-m", "vaultd", "init", str(v)], check=True, capture_output=True)
    (v / ".vaultd" / "config.toml").write_text('[parse]\nparser = "grobid"\n')
    proc = subprocess.run([sys.executable, "-m", "vaultd", "init", str(v)], capture_output=True, text=True)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "parse.parser" in lines[0]


def test_version_and_help_work() -> None:
    proc = subprocess.run([sys.executable, "-m", "vaultd", "--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and "vaultd" in proc.stdout
