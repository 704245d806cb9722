from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def test_demo_makes_a_note_from_the_generated_paper_and_finds_it_offline(tmp_path: Path) -> None:
    target = tmp_path / "demo"
    result = subprocess.run(
        [sys.executable, "-m", "vaultd", "demo", str(target), "--json", "--timeout", "60"],
        capture_output=True, text=True, timeout=90, check=False)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    note = Path(data["note"])
    assert note.is_file() and note.parent == target / "wiki"
    assert "Verbatim Quotes from Two-Column Papers" in note.read_text(encoding="utf-8")
    assert data["search_hit"]["cite_key"] == data["cite_key"]
    # a passage that answers the demo's question, not a caption or a heading
    assert data["search_hit"]["chunk_type"] == "paragraph"
    assert "it continues at the top of the right column" in json.dumps(data["search_hit"])
    assert data["agent_exit"] == 0
    assert not (target / "Inbox" / "sample-paper.pdf").exists()  # moved to raw/
    assert (target / "raw" / f"{data['cite_key']}.pdf").is_file()


def test_demo_without_a_directory_uses_vaultd_demo_in_the_current_directory(
        tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "vaultd", "--quiet", "demo"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=90, check=False)
    assert result.returncode == 0, result.stderr
    assert f"note:   {tmp_path / 'vaultd-demo' / 'wiki'}" in result.stdout
    assert "search: vaultd search" in result.stdout


def _installed_vaultd() -> str:
    """The `vaultd` command the install put beside this interpreter (what a user runs)."""
    return str(Path(sys.executable).parent / "vaultd")


def test_demo_works_from_a_folder_that_holds_a_folder_named_vaultd(tmp_path: Path) -> None:
    (tmp_path / "vaultd").mkdir()  # the parent of a clone, say: never imported
    (tmp_path / "vaultd" / "cli.py").write_text("raise SystemExit('the wrong vaultd')\n")
    result = subprocess.run([_installed_vaultd(), "--quiet", "demo", "--json"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=90, check=False)
    assert result.returncode == 0, result.stderr
    assert Path(json.loads(result.stdout)["note"]).is_file()


def test_an_agent_that_dies_at_start_shows_its_own_error_line(tmp_path: Path) -> None:
    env = {**os.environ, "VAULTD_PARSER": "bogus"}  # the demo never reads it; the agent does
    result = subprocess.run([_installed_vaultd(), "--quiet", "demo", str(tmp_path / "d")],
                            capture_output=True, text=True, timeout=90, check=False, env=env)
    assert result.returncode == 1
    [line] = result.stderr.splitlines()
    assert line == ("Error: the agent exited with code 1: VAULTD_PARSER=bogus: bad value 'bogus' "
                    "for 'parse.parser' (allowed: 'auto', 'pymupdf', 'marker' or 'pdftotext')")
