"""Highlights placed on chunks by position and text (notes/highlight_match), read from the
PDF itself (importers/pdf_annotations) and shown under their chunk (notes/highlights)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pymupdf

from vaultd.canonical import text_sha256
from vaultd.config import load_settings
from vaultd.importers import page_words, read_pdf_highlights
from vaultd.models import Chunk, Highlight, MetaFile, Provenance, Work
from vaultd.notes.highlight_match import find_span, place
from vaultd.notes.markdown import render_note
from vaultd.notes.reader import parse_note
from vaultd.pipeline.compile import compile_note
from vaultd.vault import Vault


def _chunk(cid: str, text: str, rect: list[float], page: int = 1) -> Chunk:
    return Chunk(id=cid, text=text, provenance=Provenance(
        page=page, pdf_rect=rect, text_sha256=text_sha256(text), char_range=[0, len(text)],
        chunk_type="paragraph", parser="pymupdf"))


def test_a_span_is_found_through_layout_repairs_and_takes_in_the_marked_punctuation() -> None:
    text = "The state-of-the-art trans-\nformer is ﬁne. It is fine."
    span = find_span(text, "transformer is fine.", 0.0)  # a hyphen, a line, a ligature
    assert span is not None and text[span[0]:span[1]] == "trans-\nformer is ﬁne."
    assert find_span(text, "It is fine.", 0.0) == [43, 54]
    assert find_span(text, "is fine", 0.9) == [46, 53]  # the occurrence nearest the place
    assert find_span(text, "is coarse", 0.0) is None


def test_a_highlight_over_two_chunks_marks_each_and_one_without_words_is_found_by_text() -> None:
    first = _chunk("p1c1", "Alpha beta gamma.", [70, 700, 300, 712])
    second = _chunk("p1c2", "Delta epsilon.", [70, 680, 300, 692])
    words = {1: [(70.0, 700.0, 100.0, 712.0, "Alpha"), (104.0, 700.0, 130.0, 712.0, "beta"),
                 (134.0, 700.0, 170.0, 712.0, "gamma."), (70.0, 680.0, 100.0, 692.0, "Delta"),
                 (104.0, 680.0, 150.0, 692.0, "epsilon.")]}
    across = Highlight(source="zotero", key="A", page=1, text="gamma. Delta",
                       rects=[[133, 699, 171, 713], [69, 679, 101, 693]])
    by_text = Highlight(source="zotero", key="B", page=1, text="epsilon", rects=[])
    nowhere = Highlight(source="zotero", key="C", page=1, text="zeta", rects=[])
    placed = place([across, by_text, nowhere], [first, second], words)
    assert [(h.key, h.span, h.status) for h in placed.by_chunk["p1c1"]] == [
        ("A", [11, 17], "verified")]
    assert [(h.key, h.span, h.status) for h in placed.by_chunk["p1c2"]] == [
        ("A", [0, 5], "verified"), ("B", [6, 13], "verified")]
    assert [h.key for h in placed.unplaced] == ["C"]


def test_a_highlight_the_pdf_stores_is_read_in_user_space_attached_and_shown(
        vault: Vault, tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=600, height=800)
    page.insert_textbox(pymupdf.Rect(72, 100, 520, 300), "Verbatim quotes are hashed. Every "
                        "claim is traceable to a page and a box of the source.", fontsize=11)
    annot = page.add_highlight_annot(page.search_for("traceable to a page", quads=True))
    annot.set_colors(stroke=(1.0, 0.831, 0.0))
    annot.set_info(content="the promise")
    annot.update()
    page.set_cropbox(pymupdf.Rect(10, 20, 590, 780))  # user space is not MuPDF's page space
    pdf = tmp_path / "marked.pdf"
    doc.save(pdf)
    (mark,) = read_pdf_highlights(pdf)
    assert (mark.kind, mark.comment, mark.color, mark.page) == ("highlight", "the promise",
                                                                "#ffd400", 1)
    words = page_words(pdf, [1])[1]
    under = [w[4] for w in words if w[0] >= mark.rects[0][0] - 1 and w[2] <= mark.rects[0][2] + 1
             and w[1] >= mark.rects[0][1] - 1 and w[3] <= mark.rects[0][3] + 1]
    assert under == ["traceable", "to", "a", "page"]
    shutil.copy(pdf, vault.pdf_path("k"))
    meta = MetaFile.from_work("k", Work(title="Marked"), pdf="raw/k.pdf")
    vault.meta_path("k").write_text(meta.model_dump_json(), encoding="utf-8")
    compile_note(vault, load_settings(vault.config_path), "k")
    text = vault.note_path("k").read_text(encoding="utf-8")
    (chunk,) = [c for c in parse_note(text).chunks if c.highlights]
    (h,) = chunk.highlights
    assert chunk.text[h.span[0]:h.span[1]] == "traceable to a page"  # type: ignore[index]
    assert "> [!quote] Your highlight (yellow, p. 1 of the PDF, from the PDF)\n" \
           "> “traceable to a page”\n> **Comment:** the promise\n" in text
    assert render_note(parse_note(text)) == text
