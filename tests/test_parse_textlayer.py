"""Unreliable text layers: glyphs mapped to no text or to the wrong text are marked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vaultd.models import Chunk, Provenance
from vaultd.notes.markdown import render_chunk
from vaultd.parse.pymupdf import PyMuPDFParser, load_pymupdf
from vaultd.parse.textlayer import mis_mapped, prose_words, unreliable


@pytest.mark.parametrize("text", [
    "Fexti ¼ 100 FEi ð1Þ",  # = and ( ) of a MathType font mis-mapped
    "S ¼ cos θ ð Þ ¼ A ffiffiffiffiffiffi A2 þ B2 þ C2 p ð2Þ",
    "For a sentence of \ufffd words, we denote this sentence \ufffd= \ufffd1",
    "\ue9d9 Andréa Maria Neves",  # a Private Use Area glyph (an ORCID logo)
    "as in Eq. ð1Þ of the model",  # a mis-mapped equation number alone
    "the total a þ b þ c of the shares",  # two + of a mis-mapped formula
])
def test_mis_mapped_glyphs_make_a_text_unreliable(text: str) -> None:
    assert unreliable(text)


@pytest.mark.parametrize("text", [
    "The ticket costs ¼ of the usual fare.",  # one real fraction is prose
    "Þór and Ðorđe travelled to Reykjavík.",
    "x = (a + b) / 2, as in Eq. (1).",
    "Straße, naïve, café, 東京, 서울",
])
def test_ordinary_text_in_any_script_is_reliable(text: str) -> None:
    assert not unreliable(text)


@given(st.text(st.characters(blacklist_categories=("Co", "Cs"), blacklist_characters="\ufffd¼þðÞ")
               # (nor dingbats, U+2600–27BF: a text a fifth of them or more maps its letters
               # to them, layout 23's rule; ``☀☀☀`` is unreliable)
               .filter(lambda c: not "\u2600" <= c <= "\u27bf")))
def test_text_without_the_telltale_glyphs_is_never_unreliable(text: str) -> None:
    assert not unreliable(text)


_PRIVATE_USE = st.one_of(st.integers(0xE000, 0xF8FF), st.integers(0xF0000, 0x10FFFD)).map(chr)


@given(st.text(), _PRIVATE_USE, st.integers(0, 10_000))
def test_a_private_use_glyph_anywhere_makes_a_text_mis_mapped(text: str, glyph: str, at: int) -> None:
    at %= len(text) + 1
    assert mis_mapped(text[:at] + glyph + text[at:])


def test_a_radical_bar_read_as_ligatures_is_not_prose() -> None:
    assert prose_words("S = A ffiffiffiffiffiffi A2 + B2") == 0
    assert prose_words("we denote this sentence with its words") == 5  # denote … words


def test_a_mis_mapped_formula_is_an_equation_and_its_chunk_is_marked(tmp_path: Path) -> None:
    pymupdf = load_pymupdf()
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 100), "The share of each sector is computed as follows, for every year.", fontsize=10)
    page.insert_text((120, 130), "Fexti ¼ 100 FEi ð1Þ", fontsize=10)
    page.insert_text((72, 160), "where the sums run over all firms of the sector in that year.", fontsize=10)
    doc.save(tmp_path / "m.pdf")
    doc.close()
    parsed = PyMuPDFParser().parse(tmp_path / "m.pdf")
    formula = next(b for b in parsed.blocks if "Fexti" in b.text)
    assert formula.type == "equation" and formula.text_layer == "unreliable"
    assert all(b.text_layer is None for b in parsed.blocks if b is not formula)


def _chunk(**prov: Any) -> Chunk:
    return Chunk(id="p1s0c1", text="For a sentence of \ufffd words.", provenance=Provenance(
        page=1, text_sha256="x", char_range=[0, 1], chunk_type="paragraph", parser="pymupdf", **prov))


def test_the_note_warns_on_an_unreliable_quote_and_keeps_older_notes_unchanged() -> None:
    marked = render_chunk("k", _chunk(text_layer="unreliable"))
    assert "Unreliable text layer" in marked and "text_layer: unreliable" in marked
    plain = render_chunk("k", _chunk())
    assert "Unreliable" not in plain and "text_layer" not in plain


def test_quote_labels_an_unreliable_or_ocr_chunk() -> None:
    from vaultd.notes.pages import chunk_warnings

    def chunk_labels(prov: Provenance) -> list[str]:
        return [label for label, _ in chunk_warnings(prov)]

    assert chunk_labels(_chunk(text_layer="unreliable").provenance)[0].startswith("UNRELIABLE TEXT LAYER")
    assert chunk_labels(_chunk(ocr=True, ocr_confidence=0.8).provenance) == [
        "OCR TEXT, confidence 0.80: check the quote against the PDF page"]
    assert chunk_labels(_chunk().provenance) == []


def test_text_drawn_invisibly_on_a_page_that_shows_its_text_is_not_read(tmp_path: Path) -> None:
    # PLOS's proof queries: invisible text (render mode 3) inside a visible sentence.
    pymupdf = load_pymupdf()
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 100), "Recognising the substantial political weight of the assembly,", fontsize=10)
    page.insert_text((72, 114), "AU: Please check that the edits to the sentence keep its meaning.", fontsize=10,
                     render_mode=3)
    page.insert_text((72, 128), "a special session was held in 2001 and again in 2011.", fontsize=10)
    scan = doc.new_page(width=595, height=842)  # a scan's OCR layer: all of it invisible
    scan.insert_text((72, 100), "An old paper scanned, with its words in an invisible layer.", fontsize=10,
                     render_mode=3)
    doc.save(tmp_path / "h.pdf")
    doc.close()
    parsed = PyMuPDFParser().parse(tmp_path / "h.pdf")
    text = " ".join(b.text for b in parsed.blocks)
    assert "Recognising the substantial" in text and "special session" in text
    assert "Please check" not in text
    assert "An old paper scanned" in text
