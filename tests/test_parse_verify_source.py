"""`vaultd verify --source` re-reads OCRed pages in the language the vault is set to."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from vaultd.models import Author, MetaFile, Work
from vaultd.parse.base import Block, ParsedDocument
from vaultd.vault import Vault

KEY = "scan2024ocr"


def _vault_with_ocr_note(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A compiled note whose chunks came from OCR; returns the languages parse_pdf saw."""
    from vaultd.config import Settings
    from vaultd.pipeline.compile import compile_note

    seen: list[str] = []

    def fake_parse(pdf: Path, parser: str = "auto", *, ocr: bool = True,
                   ocr_language: str = "eng", progress: Any = None) -> ParsedDocument:
        seen.append(ocr_language)
        block = Block(type="paragraph", text="Ein gescannter Absatz über Öl.", page=1,
                      bbox=(72.0, 72.0, 300.0, 90.0), ocr=True, ocr_confidence=0.9)
        return ParsedDocument("pymupdf", "1.24+tesseract-5.3.0", 1, [block])

    monkeypatch.setattr("vaultd.pipeline.compile.parse_pdf", fake_parse)
    monkeypatch.setattr("vaultd.pipeline.verify_source.parse_pdf", fake_parse)
    vault.pdf_path(KEY).write_bytes(b"%PDF-1.4\n% stand-in, parse_pdf is faked\n%%EOF\n")
    work = Work(title="A Scan", authors=[Author(family="Muster", given="Eva")], issued=[2024])
    meta = MetaFile.from_work(KEY, work, pdf=f"raw/{KEY}.pdf", captured_at="2024-01-15T12:00:00+00:00")
    vault.meta_path(KEY).write_text(meta.model_dump_json(by_alias=True), encoding="utf-8")
    compile_note(vault, Settings.model_validate({"parse": {"ocr_language": "deu"}}), KEY)
    return seen


def test_verify_source_reocrs_with_the_vaults_configured_language(
    vault: Vault, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vaultd.pipeline.verify_source import verify_sources

    seen = _vault_with_ocr_note(vault, monkeypatch)
    text = vault.config_path.read_text(encoding="utf-8")
    assert '# ocr_language = "eng"' in text
    vault.config_path.write_text(text.replace('# ocr_language = "eng"', 'ocr_language = "deu"'),
                                 encoding="utf-8")
    report = verify_sources(vault, KEY)
    assert seen == ["deu", "deu"] and report.ok, report.findings


def test_verify_source_uses_an_explicit_ocr_language_over_the_config(
    vault: Vault, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vaultd.pipeline.verify_source import verify_sources

    seen = _vault_with_ocr_note(vault, monkeypatch)
    verify_sources(vault, KEY, ocr_language="eng+deu")
    assert seen[-1] == "eng+deu"


@pytest.mark.parametrize(("recorded", "cause"), [
    ("older", "extraction rules changed since compile"),
    ("same", "quote no longer reproduces"),
])
def test_stale_quote_says_whether_the_extraction_rules_changed(
        vault: Vault, recorded: str, cause: str) -> None:
    from vaultd.canonical import text_sha256
    from vaultd.config import Settings
    from vaultd.notes.markdown import render_note
    from vaultd.notes.reader import parse_note
    from vaultd.pipeline.compile import compile_note
    from vaultd.pipeline.verify_source import verify_sources
    from vaultd.samplepdf import write_sample_paper

    write_sample_paper(vault.pdf_path(KEY))
    meta = MetaFile.from_work(KEY, Work(title="Sample"), pdf=f"raw/{KEY}.pdf",
                              captured_at="2024-01-15T12:00:00+00:00")
    vault.meta_path(KEY).write_text(meta.model_dump_json(by_alias=True), encoding="utf-8")
    path = compile_note(vault, Settings(), KEY).note_path
    note = parse_note(path.read_text(encoding="utf-8"))
    current = note.meta.parser_version
    assert current and "+layout" in current  # the note records the rules that made it
    # What an older vaultd (other word-space rules) would have written for one chunk.
    chunk = next(c for c in note.chunks if c.provenance.chunk_type == "paragraph")
    chunk.text = chunk.text.replace(" ", "", 1)
    chunk.provenance.text_sha256 = text_sha256(chunk.text)
    if recorded == "older":
        note.meta.parser_version = current.replace("+layout", "+layout0")
    path.write_text(render_note(note), encoding="utf-8")
    report = verify_sources(vault, KEY)
    stale = [f for f in report.findings if f.kind == "STALE"]
    assert [f.chunk_id for f in stale] == [chunk.id]
    assert cause in stale[0].message and f"vaultd compile {KEY}" in stale[0].message
    assert not [f for f in report.findings if f.kind == "PDF CHANGED"]


def _compiled_sample(vault: Vault) -> Path:
    from vaultd.config import Settings
    from vaultd.pipeline.compile import compile_note
    from vaultd.samplepdf import write_sample_paper

    write_sample_paper(vault.pdf_path(KEY))
    meta = MetaFile.from_work(KEY, Work(title="Sample"), pdf=f"raw/{KEY}.pdf",
                              captured_at="2024-01-15T12:00:00+00:00")
    vault.meta_path(KEY).write_text(meta.model_dump_json(by_alias=True), encoding="utf-8")
    return compile_note(vault, Settings(), KEY).note_path


def test_a_paragraph_across_columns_links_each_piece_and_verify_source_checks_them(vault: Vault) -> None:
    from vaultd.notes.markdown import render_note
    from vaultd.notes.reader import parse_note
    from vaultd.pipeline.verify_source import verify_sources

    path = _compiled_sample(vault)
    text = path.read_text(encoding="utf-8")
    note = parse_note(text)
    split = next(c for c in note.chunks if c.text.startswith("The method reads"))
    regions = split.provenance.regions
    assert regions is not None and len(regions) == 2  # left column, then right column
    block = text[text.index(f"<!-- chunk id={split.id} -->"):]
    block = block[:block.index("<!-- /chunk -->")]
    links = [line for line in block.splitlines() if line.startswith("[[raw/")]
    assert len(links) == 1 and links[0].count("&rect=") == 2  # one link per piece, on one line
    assert verify_sources(vault, KEY).ok

    # A note whose second region points elsewhere: the quote reproduces, its links do not.
    regions[1] = [regions[1][0], *(v + 40.0 for v in regions[1][1:])]
    path.write_text(render_note(note), encoding="utf-8")
    report = verify_sources(vault, KEY)
    stale = [f for f in report.findings if f.kind == "STALE"]
    assert [f.chunk_id for f in stale] == [split.id]
    assert "not where the note's links point" in stale[0].message
    assert f"vaultd compile {KEY}" in stale[0].message
