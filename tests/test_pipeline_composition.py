"""The one pipeline composition (vaultd/pipeline/ingest.py): the agent and the CLI run the
same capture → compile → index sequence, and a dropped PDF's note is written once."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from vaultd.cli import main_group
from vaultd.config import Settings, load_settings
from vaultd.pipeline.ingest import ingest_item, process
from vaultd.samplepdf import write_sample_paper
from vaultd.vault import Vault, unique_path


@pytest.fixture
def settings(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> Settings:
    monkeypatch.setenv("VAULTD_CAPTURE_MAX_RETRIES", "0")
    monkeypatch.setenv("VAULTD_CAPTURE_ARXIV_INTERVAL_SECONDS", "0")
    return load_settings(vault.config_path)


def _count_writes(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every file an atomic write puts in place (they all end in Path.replace)."""
    written: list[Path] = []
    original = Path.replace

    def counting(self: Path, target: str | Path) -> Path:
        written.append(Path(target))
        return original(self, target)

    monkeypatch.setattr(Path, "replace", counting)
    return written


def _without_capture_time(note: str) -> str:
    return "\n".join(line for line in note.splitlines() if not line.startswith("captured"))


def test_an_inbox_pdf_s_note_is_written_once_with_the_rule_s_tags(
        vault: Vault, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    pdf = vault.inbox / "sample.pdf"
    write_sample_paper(pdf)
    written = _count_writes(monkeypatch)
    result = ingest_item(vault, settings, pdf, action="capture", tags=["to-read", "inbox"])
    (note,) = result.notes
    assert written.count(note) == 1, [vault.rel(p) for p in written]
    head = note.read_text(encoding="utf-8").split("\n---", 1)[0]
    assert "to-read" in head and "inbox" in head and "paper" in head


def test_the_cli_and_the_agent_give_the_same_note(vault: Vault, settings: Settings,
                                                  tmp_path: Path) -> None:
    pdf = tmp_path / "sample.pdf"
    write_sample_paper(pdf)
    via_process = process(vault, settings, str(pdf))
    (key,) = via_process.cite_keys
    first = vault.note_path(key).read_text(encoding="utf-8")
    vault.note_path(key).unlink()
    res = CliRunner().invoke(main_group, ["--vault", str(vault.root), "capture", str(pdf),
                                          "--refresh", "--json"])
    assert res.exit_code == 0, res.output
    assert '"cite_key": "' + key + '"' in res.output
    again = vault.note_path(key).read_text(encoding="utf-8")
    assert _without_capture_time(again) == _without_capture_time(first)


def test_unique_path_never_overwrites(tmp_path: Path) -> None:
    first = tmp_path / "a.error.md"
    assert unique_path(first) == first
    first.write_text("x", encoding="utf-8")
    second = unique_path(first)
    assert second.name == "a.error-2.md" and not second.exists()
