"""Printed pages end to end: a compiled real paper's chunks carry the page the paper
prints (decided from its folios, its /PageLabels and its record), quotes and page links
name it, and a page no printed label was confirmed for is named as the PDF's.

The printed folios of these PDFs were read from their rendered pages (eval/pages/truth.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _papers import stage_pdf

from vaultd.config import Settings
from vaultd.lookup import quote
from vaultd.models import Work
from vaultd.notes.reader import parse_note
from vaultd.pipeline.citations import renderer_for
from vaultd.pipeline.compile import compile_note
from vaultd.vault import Vault

S2ORC = "pdfs-eval/pdfs/acl_2020_s2orc_corpus.pdf"  # ACL 2020, printed pp. 4969–4983
KOREAN = "pdfs/non_english/korean_nars_issue_brief_4pages.pdf"  # prints no folio


def _compiled(vault: Vault, fixtures_dir: Path, key: str, pdf: str, work: Work) -> None:
    stage_pdf(vault, key, fixtures_dir / pdf, work)
    compile_note(vault, Settings(), key)


@pytest.fixture
def s2orc(vault: Vault, fixtures_dir: Path) -> Vault:
    work = Work(type="paper-conference", title="S2ORC: The Semantic Scholar Open Research Corpus",
                issued=[2020], page="4969-4983",
                container_title="Proceedings of the 58th Annual Meeting of the ACL")
    _compiled(vault, fixtures_dir, "lo2020s2orc", S2ORC, work)
    return vault


def test_every_chunk_of_a_paper_paginated_in_its_volume_carries_the_printed_page(
        s2orc: Vault) -> None:
    note = parse_note(s2orc.note_path("lo2020s2orc").read_text(encoding="utf-8"))
    pdf_chunks = [c for c in note.chunks if c.provenance.start is None]
    assert pdf_chunks
    for chunk in pdf_chunks:
        prov = chunk.provenance
        assert prov.page_label == str(4968 + prov.page), (chunk.id, prov.page, prov.page_label)
        assert prov.page_label_status in ("confirmed", "inferred")
        assert prov.page_label_source != "pdf"


def test_a_quote_cites_the_printed_page_and_links_to_the_pdf_page(s2orc: Vault) -> None:
    note = parse_note(s2orc.note_path("lo2020s2orc").read_text(encoding="utf-8"))
    chunk = next(c for c in note.chunks if c.provenance.page == 2
                 and c.provenance.chunk_type == "paragraph" and not c.provenance.regions)
    got = quote(s2orc, "lo2020s2orc", chunk.id, renderer=renderer_for(s2orc, None))
    assert (got["page"], got["page_label"], got["locator"]) == (2, "4970", "p. 4970")
    assert got["page_label_source"] in ("folio", "page-labels", "printed-range", "record")
    assert got["citation"].endswith("p. 4970)")
    text = s2orc.note_path("lo2020s2orc").read_text(encoding="utf-8")
    assert "#page=2&rect=" in text and "|p. 4970]]" in text
    assert "|p. 2]]" not in text


def test_a_paper_printing_no_folio_is_cited_by_its_pdf_page_and_says_so(
        vault: Vault, fixtures_dir: Path) -> None:
    _compiled(vault, fixtures_dir, "nars2020brief", KOREAN,
              Work(type="report", title="NARS issue brief", issued=[2020]))
    note = parse_note(vault.note_path("nars2020brief").read_text(encoding="utf-8"))
    chunk = next(c for c in note.chunks if c.provenance.page == 2)
    assert (chunk.provenance.page_label, chunk.provenance.page_label_source) == (None, "pdf")
    got = quote(vault, "nars2020brief", chunk.id, renderer=renderer_for(vault, None))
    assert got["locator"] == "p. 2 of the PDF" and got["page_label_source"] == "pdf"
    assert got["citation"] == "(NARS Issue Brief, 2020)"  # no page presented as printed
    assert "|p. 2 of the PDF]]" in vault.note_path("nars2020brief").read_text(encoding="utf-8")
    assert json.dumps(got)  # the answer is plain JSON


@pytest.mark.parametrize(("page", "first"), [
    ("4969-4983", "4969"), ("4969–4983", "4969"), ("147 - 156", "147"), ("e0123456", "e0123456"),
    ("S12", "S12"), ("", None), (None, None),
])
def test_the_records_first_page_is_read_from_its_range(page: str | None, first: str | None) -> None:
    from vaultd.parse.folio_reader import record_first_page

    assert record_first_page(page) == first


def test_a_pdf_whose_pages_cannot_be_read_for_folios_cites_every_page_as_the_pdfs() -> None:
    from vaultd.models import Chunk, Provenance
    from vaultd.parse.chunker import with_page_labels

    chunk = Chunk(id="p2s0c1", text="x", provenance=Provenance(
        page=2, page_label="ii", text_sha256="x", char_range=[0, 1], chunk_type="paragraph",
        parser="ocr"))
    [out] = with_page_labels([chunk], [])
    assert (out.provenance.page_label, out.provenance.page_label_source) == (None, "pdf")
