from __future__ import annotations

from pathlib import Path

import pytest

from vaultd.config import Settings, load_settings
from vaultd.daemon.runner import Daemon
from vaultd.daemon.scheduler import (
    refresh_citations_if_styles_changed,
    run_verify,
    start_scheduler,
)
from vaultd.library_bib import export_library_bib
from vaultd.pipeline.ingest import idempotency_key, ingest_item
from vaultd.samplepdf import write_sample_paper
from vaultd.vault import Vault


@pytest.fixture
def settings(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> Settings:
    monkeypatch.setenv("VAULTD_CAPTURE_MAX_RETRIES", "0")
    # Sources point at a closed port; arXiv's 3 s politeness gap would only slow the test.
    monkeypatch.setenv("VAULTD_CAPTURE_ARXIV_INTERVAL_SECONDS", "0")
    return load_settings(vault.config_path)


def _ingest_sample(vault: Vault, settings: Settings, tmp_path: Path) -> str:
    pdf = vault.inbox / "sample.pdf"
    write_sample_paper(pdf)
    result = ingest_item(vault, settings, pdf, action="capture", tags=["inbox"])
    assert result.statuses == ["created"] and result.notes
    return result.cite_keys[0]


def test_verify_writes_a_report_note_the_user_sees(vault: Vault, settings: Settings,
                                                   tmp_path: Path) -> None:
    key = _ingest_sample(vault, settings, tmp_path)
    summary = run_verify(vault)
    report = vault.wiki / "vaultd" / "verify-report.md"
    assert summary["ok"] is True and summary["notes"] == 1
    assert "Result: **OK**" in report.read_text(encoding="utf-8")
    # Tamper with one quote: the next verify names the note.
    note = vault.note_path(key)
    text = note.read_text(encoding="utf-8")
    note.write_text(text.replace("Research notes are only as good", "Research notes are as good"),
                    encoding="utf-8")
    summary = run_verify(vault)
    assert summary["ok"] is False and "DRIFT" in summary["kinds"]
    assert f"wiki/{key}.md" in report.read_text(encoding="utf-8")


def test_library_bib_is_rewritten_only_when_citation_data_changes(
        vault: Vault, settings: Settings, tmp_path: Path) -> None:
    assert export_library_bib(vault) is True  # empty library: header only
    key = _ingest_sample(vault, settings, tmp_path)
    assert export_library_bib(vault) is True
    text = vault.library_bib.read_text(encoding="utf-8")
    assert f"{{{key}," in text and "title = {Verbatim Quotes from {Two-Column} Papers}" in text
    assert export_library_bib(vault) is False


def test_rule_tags_are_added_to_the_note(vault: Vault, settings: Settings,
                                         tmp_path: Path) -> None:
    from vaultd.notes.reader import parse_note

    key = _ingest_sample(vault, settings, tmp_path)
    note = parse_note(vault.note_path(key).read_text(encoding="utf-8"))
    assert "inbox" in note.meta.tags


def test_scheduler_runs_verify_daily_at_the_configured_time(vault: Vault,
                                                            settings: Settings) -> None:
    settings.daemon.verify_at = "04:30"
    daemon = Daemon(vault, settings)
    sched = start_scheduler(daemon)
    try:
        trigger = sched.get_job("verify").trigger
        fields = {f.name: str(f) for f in trigger.fields}
        assert fields["hour"] == "4" and fields["minute"] == "30"
        # (the one-shot "citation-styles" job may already have run and left)
        ids = {j.id for j in sched.get_jobs()}
        assert {"verify", "retry", "enrich", "index", "bib"} <= ids
        assert ids <= {"verify", "retry", "enrich", "index", "bib", "citation-styles"}
    finally:
        sched.shutdown(wait=False)


def test_idempotency_keys_are_arxiv_id_doi_or_content_hash(tmp_path: Path) -> None:
    f = tmp_path / "x.pdf"
    f.write_bytes(b"%PDF-1.4 abc")
    assert idempotency_key(f, "https://arxiv.org/abs/1706.03762v5") == "arxiv:1706.03762"
    assert idempotency_key(f, "https://doi.org/10.1145/ABC.1") == "doi:10.1145/abc.1"
    assert idempotency_key(f, None) == (
        "sha256:" + __import__("hashlib").sha256(b"%PDF-1.4 abc").hexdigest())


def test_a_changed_style_config_rerenders_the_notes_when_the_agent_starts(
        vault: Vault, settings: Settings, tmp_path: Path) -> None:
    key = _ingest_sample(vault, settings, tmp_path)
    # First start: how the notes were rendered is not known (an older vaultd may have
    # written them), so they are rendered again; the note is already current: unchanged.
    assert refresh_citations_if_styles_changed(vault, settings) == 0
    assert refresh_citations_if_styles_changed(vault, settings) == 0  # nothing changed
    settings.citations.styles = ["apa", "nature"]
    assert refresh_citations_if_styles_changed(vault, settings) == 1
    text = vault.note_path(key).read_text(encoding="utf-8")
    assert "### Nature" in text and "### MLA" not in text
    assert refresh_citations_if_styles_changed(vault, settings) == 0
    # A note an older vaultd rendered differently is brought up to date on first start.
    text = text.replace("### Nature", "### Nature (old)")
    vault.note_path(key).write_text(text, encoding="utf-8")
    from vaultd.pipeline.citations import renderer_for

    citer = renderer_for(vault, settings)
    assert citer.db is not None
    citer.db.execute("DELETE FROM citation_meta")
    citer.db.commit()
    citer.close()
    assert refresh_citations_if_styles_changed(vault, settings) == 1
    assert "### Nature (old)" not in vault.note_path(key).read_text(encoding="utf-8")
