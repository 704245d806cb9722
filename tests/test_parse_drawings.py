"""A page's drawings as they show (vaultd.parse.drawings): a path is boxed by what its clip
lets through, as a reader sees the page, on real PDFs written here with a clip in force."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from vaultd.parse.drawings import visible_drawings


def _pdf(tmp_path: Path, content: bytes) -> pymupdf.Page:
    """A one-page PDF (A4) whose content stream is ``content``, opened again from disk."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 72), "x")  # gives the page a content stream to replace
    doc.update_stream(page.get_contents()[0], content)
    path = tmp_path / "drawn.pdf"
    doc.save(path)
    return pymupdf.open(path)[0]


def _ink_rows(page: pymupdf.Page) -> tuple[int, int]:
    """The first and last pixel rows (at 1 px per point) with any dark pixel: what shows."""
    pix = page.get_pixmap(dpi=72, colorspace=pymupdf.csGRAY)
    samples = pix.samples
    rows = [y for y in range(pix.height) if min(samples[y * pix.stride:y * pix.stride + pix.width]) < 128]
    return rows[0], rows[-1]


def test_a_curve_running_off_its_clipped_frame_is_boxed_by_what_shows(tmp_path: Path) -> None:
    # a plot's frame from y 400 to 600 (PDF space: 242..442), clipped there; its curve
    # runs from the frame's foot far up the page (an R matplot line off the top)
    page = _pdf(tmp_path, b"q 100 242 300 200 re W n 2 w 100 250 m 400 800 l S Q")
    raw = page.get_cdrawings()
    assert raw[0]["rect"][1] < 50  # MuPDF's box reaches up to the page's top
    (path,) = visible_drawings(page)
    top, bottom = _ink_rows(page)
    assert path["rect"][1] == pytest.approx(400, abs=1)  # the clip's top, where the ink starts
    assert top >= 399 and path["rect"][3] >= bottom - 1


def test_a_path_hidden_whole_by_its_clip_is_no_drawing_and_an_unclipped_one_is_kept(tmp_path: Path) -> None:
    page = _pdf(tmp_path, b"q 100 100 50 50 re W n 300 600 m 400 700 l S Q 2 w 50 50 m 500 50 l S")
    drawn = visible_drawings(page)
    assert len(drawn) == 1  # the line its clip hides is not there
    x0, y0, x1, y1 = drawn[0]["rect"]
    assert (round(x0), round(x1)) == (50, 500) and round(y0) <= 792 <= round(y1) + 1


def test_nested_clips_cut_a_path_to_both(tmp_path: Path) -> None:
    page = _pdf(tmp_path, b"q 0 0 300 842 re W n q 100 0 400 842 re W n 2 w 0 400 m 595 400 l S Q Q")
    (path,) = visible_drawings(page)
    assert round(path["rect"][0]) == 100 and round(path["rect"][2]) == 300
