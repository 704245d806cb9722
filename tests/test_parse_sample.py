"""PyMuPDF tier and chunker on the generated sample paper, whose text and boxes are known."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from vaultd.canonical import text_sha256
from vaultd.parse.base import ParsedDocument
from vaultd.parse.chunker import chunk_blocks, document_text
from vaultd.parse.pymupdf import PyMuPDFParser, page_labels
from vaultd.samplepdf import HEADER, SamplePaper, write_sample_paper


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> tuple[SamplePaper, ParsedDocument]:
    path = tmp_path_factory.mktemp("sample") / "sample.pdf"
    paper = write_sample_paper(path)
    return paper, PyMuPDFParser().parse(path)


def test_every_sample_paragraph_is_one_block_with_its_exact_text_in_reading_order(
    sample: tuple[SamplePaper, ParsedDocument],
) -> None:
    paper, doc = sample
    expected = [b.text for b in paper.of_kind("paragraph")]
    got = [b.text for b in doc.blocks if b.type == "paragraph" and b.text != ", ".join(paper.authors)]
    assert got == expected


def test_paragraph_running_into_the_right_column_is_joined_and_its_hyphen_repaired(
    sample: tuple[SamplePaper, ParsedDocument],
) -> None:
    _, doc = sample
    method = next(b for b in doc.blocks if b.text.startswith("The method reads"))
    assert "It learns a representation of the layout" in method.text
    assert method.text.endswith("captured on the first day of the project.")
    assert len(method.pieces) == 2  # left column piece + right column piece


def test_headings_are_found_with_their_numbers_as_section_ids(
    sample: tuple[SamplePaper, ParsedDocument],
) -> None:
    paper, doc = sample
    headings = [b.text for b in doc.blocks if b.type == "heading"]
    assert headings == [b.text for b in paper.of_kind("heading")]
    sub = next(b for b in doc.blocks if b.text == "2.1 Scaled Dot-Product Attention")
    assert sub.section_token == "21"
    after = doc.blocks[doc.blocks.index(sub) + 1]
    assert after.section == "2 Method › 2.1 Scaled Dot-Product Attention"  # its parent path


def test_running_header_and_page_numbers_never_enter_the_text(
    sample: tuple[SamplePaper, ParsedDocument],
) -> None:
    _, doc = sample
    for block in doc.blocks:
        assert HEADER not in block.text
        assert block.text.strip() not in {"1", "2"}


def test_block_boxes_match_where_the_text_was_drawn(sample: tuple[SamplePaper, ParsedDocument]) -> None:
    paper, doc = sample
    by_text = {b.text: b for b in doc.blocks}
    for want in paper.blocks:
        got = by_text[want.text]
        assert got.page == want.page
        assert got.bbox is not None
        for a, b in zip(got.bbox, want.bbox, strict=True):
            assert abs(a - b) <= 4.0, (want.text[:30], got.bbox, want.bbox)


def test_references_carry_their_doi_and_arxiv_ids(sample: tuple[SamplePaper, ParsedDocument]) -> None:
    paper, doc = sample
    refs = [b for b in doc.blocks if b.type == "reference"]
    assert [r.refs for r in refs] == [[f"doi:{paper.doi}"], [f"arxiv:{paper.arxiv_id}"]]


def test_figure_caption_is_a_figure_block_whose_region_covers_the_drawing(
    sample: tuple[SamplePaper, ParsedDocument],
) -> None:
    paper, doc = sample
    fig = next(b for b in doc.blocks if b.type == "figure")
    assert fig.text == "Figure 1: A box and a circle drawn with vector shapes."
    assert fig.figure_region is not None
    rx0, ry0, rx1, ry1 = fig.figure_region
    fx0, fy0, fx1, fy1 = paper.figure_box
    assert rx0 <= fx0 and ry0 <= fy0 and rx1 >= fx1 and ry1 >= fy1


def test_chunk_ids_are_unique_and_char_ranges_index_the_document_text(
    sample: tuple[SamplePaper, ParsedDocument],
) -> None:
    _, doc = sample
    chunks = chunk_blocks(doc.blocks, doc.parser)
    ids = [c.id for c in chunks]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"p\d+s[0-9A-Za-z]+c\d+", i) for i in ids)
    assert "p1s21c1" in ids  # first chunk of section 2.1 on page 1
    text = document_text(chunks)
    for c in chunks:
        start, end = c.provenance.char_range
        assert text[start:end] == c.text
        assert c.provenance.text_sha256 == text_sha256(c.text)


def test_pdf_rect_is_user_space_even_with_a_cropbox_offset(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=600, height=800)
    page.insert_text((100, 200), "Known box here", fontname="helv", fontsize=12)
    page.set_cropbox(pymupdf.Rect(50, 100, 550, 700))
    path = tmp_path / "crop.pdf"
    doc.save(path)
    parsed = PyMuPDFParser().parse(path)
    (block,) = parsed.blocks
    assert block.bbox is not None and block.pdf_rect is not None
    # Text baseline at y=200 from the top of the 800-pt MediaBox = 600 in user space; the
    # CropBox starts 50 pt right and 100 pt down, so the top-left box is shifted by that.
    assert block.bbox[0] == pytest.approx(50.0, abs=0.5)
    left, bottom, right, top = block.pdf_rect
    assert left == pytest.approx(100.0, abs=0.5)
    assert bottom < 600.0 < top
    assert top - bottom == pytest.approx(block.bbox[3] - block.bbox[1], abs=0.01)
    # and the crop of that user-space rect really contains the text
    rect = pymupdf.Rect(left, 800 - top, right, 800 - bottom)  # MediaBox top-left coords
    check = pymupdf.open(path)[0]
    check.set_cropbox(check.mediabox)
    assert "Known box here" in check.get_textbox(rect)


def test_parsing_is_deterministic(sample: tuple[SamplePaper, ParsedDocument], tmp_path: Path) -> None:
    paper, doc = sample
    again = PyMuPDFParser().parse(paper.path)
    assert chunk_blocks(again.blocks, "pymupdf") == chunk_blocks(doc.blocks, "pymupdf")


def test_printed_page_labels_are_kept_beside_the_page_index(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for n in range(3):
        doc.new_page().insert_text((72, 300), f"Body text of page {n + 1}.", fontname="helv", fontsize=11)
    doc.set_page_labels([{"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
                         {"startpage": 1, "prefix": "", "style": "D", "firstpagenum": 2271}])
    path = tmp_path / "labels.pdf"
    doc.save(path)
    blocks = PyMuPDFParser().parse(path).blocks
    assert [(b.page, b.page_label) for b in blocks] == [(1, "i"), (2, "2271"), (3, "2272")]


def test_a_paragraph_running_into_the_next_column_has_a_region_for_each_piece(
    sample: tuple[SamplePaper, ParsedDocument],
) -> None:
    paper, doc = sample
    want = next(b for b in paper.blocks if b.text.startswith("The method reads"))
    got = next(b for b in doc.blocks if b.text.startswith("The method reads"))
    assert len(want.pieces) == 2 and len(got.regions) == 2
    for (page, box), (got_page, got_box, rect) in zip(want.pieces, got.regions, strict=True):
        assert got_page == page
        for a, b in zip(got_box, box, strict=True):
            assert abs(a - b) <= 4.0, (got_box, box)
        assert rect[3] - rect[1] == pytest.approx(got_box[3] - got_box[1], abs=0.01)
    chunk = next(c for c in chunk_blocks(doc.blocks, doc.parser) if c.text.startswith("The method reads"))
    assert chunk.provenance.regions is not None
    assert [r[0] for r in chunk.provenance.regions] == [p for p, _ in want.pieces]
    single = next(c for c in chunk_blocks(doc.blocks, doc.parser) if c.provenance.chunk_type == "paragraph"
                  and c.provenance.regions is None)
    assert single.provenance.pdf_rect is not None  # one piece: bbox and pdf_rect say it all


def test_page_labels_read_once_match_pymupdfs_label_of_each_page() -> None:
    doc = pymupdf.open()
    for _ in range(12):
        doc.new_page()
    doc.set_page_labels([{"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
                         {"startpage": 3, "prefix": "A-", "style": "D", "firstpagenum": 7},
                         {"startpage": 6, "prefix": "", "style": "a", "firstpagenum": 26},
                         {"startpage": 9, "prefix": "App. ", "firstpagenum": 1},
                         {"startpage": 10, "prefix": "", "style": "R", "firstpagenum": 1999}])
    assert page_labels(doc) == [page.get_label() or None for page in doc]
    assert page_labels(doc)[:4] == ["i", "ii", "iii", "A-7"]
    assert page_labels(pymupdf.open()) == []
