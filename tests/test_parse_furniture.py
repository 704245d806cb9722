"""Running headers and footers never enter a quote, wherever near the edge they sit."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from vaultd.parse.furniture import drop_furniture
from vaultd.parse.paras import Line
from vaultd.parse.pymupdf import PyMuPDFParser

BODY = ("Body text on page {n} talks about careful quotes and the pages they come from, "
        "set well inside the text block.")


def _paper(path: Path, pages: int, second_header_y: float) -> Path:
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page(width=612, height=792)
        page.insert_text((54, 40), "Journal of Careful Notes", fontname="helv", fontsize=8)
        # A second header line lower than the usual band (9.5 % of the page height).
        page.insert_text((54, second_header_y), f"Volume 3 (2024) 0120{n}", fontname="helv",
                         fontsize=8)
        page.insert_text((54, 300), BODY.format(n=n), fontname="helv", fontsize=10)
    doc.save(path)
    return path


def test_a_second_header_line_repeated_at_the_same_height_is_furniture(tmp_path: Path) -> None:
    doc = PyMuPDFParser().parse(_paper(tmp_path / "p.pdf", 3, 75.0))
    texts = " | ".join(b.text for b in doc.blocks)
    assert "Volume 3" not in texts and "Journal of Careful Notes" not in texts
    assert all(BODY.format(n=n) in texts for n in (1, 2, 3))


def test_a_line_near_the_edge_that_does_not_repeat_is_kept(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for n, part in ((1, "methods"), (2, "results")):
        page = doc.new_page(width=612, height=792)
        page.insert_text((54, 75), f"Opening line of the {part}, which starts high up.",
                         fontname="helv", fontsize=10)
        page.insert_text((54, 300), BODY.format(n=n), fontname="helv", fontsize=10)
    path = tmp_path / "q.pdf"
    doc.save(path)
    texts = " | ".join(b.text for b in PyMuPDFParser().parse(path).blocks)
    assert "Opening line of the methods" in texts and "Opening line of the results" in texts


def _line(text: str, top: float, page: int, left: float = 72.0) -> Line:
    return Line(text=text, bbox=(left, top, left + 6.0 * len(text), top + 11.0), size=10.0,
                bold=False, block=0, page=page)


def test_a_page_number_set_well_inside_a_thesis_margin_is_furniture() -> None:
    # A4 thesis: page numbers 82 pt above the foot (under the 8.5 % band), each page's
    # last line; the first line of the next page must not start with it.
    pages = [[_line("element of the bra space that is dual to the ket space.", 60.0, p),
              _line("and the rest of the page goes on in the same way.", 700.0, p),
              _line(str(p), 760.0, p, left=316.0)] for p in (1, 2, 3)]
    drop_furniture(pages, [842.0] * 3)
    assert all([ln.text for ln in lines][-1].startswith("and the rest") for lines in pages)


def test_a_number_repeated_at_one_height_above_other_lines_is_not_a_page_number() -> None:
    # A table's last figure at the same height on two pages, with a footnote under it.
    pages = [[_line("Body text of the page, as long as a line of prose is.", 60.0, p),
              _line("12", 750.0, p, left=400.0),
              _line("Footnote text set under the table on each page.", 780.0, p)] for p in (1, 2)]
    drop_furniture(pages, [842.0] * 2)
    assert all(any(ln.text == "12" for ln in lines) for lines in pages)


def test_a_scan_s_running_footer_set_a_few_points_apart_on_each_page_is_furniture() -> None:
    footer = "ACM Transactions on Computer Systems, Vol. 3, No. 1, February 1985."
    tops = [631.0, 629.0, 642.0, 627.0]  # a tenth of the page above the foot, drifting
    pages = [[_line("Body text of the page, as long as a line of prose is.", 60.0, p),
              _line(footer, top, p)] for p, top in enumerate(tops, start=1)]
    drop_furniture(pages, [704.0] * len(tops))
    assert all(footer not in [ln.text for ln in lines] for lines in pages)


def test_two_lines_that_merely_read_alike_near_the_foot_of_two_pages_stay() -> None:
    # The last line of two captions, and footnotes 1 and 11 with the same address.
    pages = [[_line("Body text of the page, as long as a line of prose is.", 300.0, p),
              _line("Symbols filled: leaves. Hollow symbols: stem.", top, p),
              _line(f"{mark} https://github.com/allenai/specter", top + 14.0, p)]
             for p, top, mark in ((1, 742.0, 1), (2, 748.0, 11))]  # in the wide band
    drop_furniture(pages, [842.0, 842.0])
    assert all(len(lines) == 3 for lines in pages)


def test_a_table_caption_repeated_on_the_pages_of_a_long_table_is_kept() -> None:
    # SciELO repeats "Tabla 1 – …" at the same height over each page the table runs on.
    pages = [[_line("Tabla 1 – Índices de divulgación por ítems y por bloques.", 60.0, p),
              _line(f"{p}.1. Se publican los informes de auditoría.", 100.0, p)] for p in (1, 2, 3)]
    drop_furniture(pages, [792.0] * 3)
    assert [lines[0].text for lines in pages] == [
        "Tabla 1 – Índices de divulgación por ítems y por bloques."] * 3


def test_a_floats_continued_on_next_page_note_is_furniture_wherever_it_stands() -> None:
    def line(text: str, y: float) -> Line:
        return Line(text=text, bbox=(72.0, y, 400.0, y + 9.0), size=8.0, bold=False, block=0, page=1)

    pages = [[line("Figure 1. Study design of the farm task, in three phases.", 300.0),
              line("Figure 1 continued on next page", 420.0),
              line("(legend continued on next page)", 500.0),
              line("The study continued on next page count, as the rules said.", 600.0)]]
    drop_furniture(pages, [792.0])
    assert [ln.text for ln in pages[0]] == ["Figure 1. Study design of the farm task, in three phases.",
                                            "The study continued on next page count, as the rules said."]


def test_a_page_number_between_dashes_is_furniture(tmp_path: Path) -> None:
    # German and Italian theses print "- 9 -" under the text block, inside the wide band.
    doc = pymupdf.open()
    for n in (1, 2, 3):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 300), BODY.format(n=n), fontname="helv", fontsize=10)
        page.insert_text((290, 757), f"- {n} -", fontname="helv", fontsize=10)
    path = tmp_path / "dashes.pdf"
    doc.save(path)
    texts = [b.text for b in PyMuPDFParser().parse(path).blocks]
    assert texts == [BODY.format(n=n) for n in (1, 2, 3)]


def _sized(text: str, top: float, page: int, size: float) -> Line:
    return Line(text=text, bbox=(72.0, top, 72.0 + 0.5 * size * len(text), top + size),
                size=size, bold=False, block=0, page=page)


def _thesis(head: str, heading: str) -> list[list[Line]]:
    """A short chapter: its heading (14 pt) on page 1, a running head (8 pt) over page 2
    only — nothing for the repetition rules to see."""
    return [[_sized(heading, 130.0, 1, 14.0), _sized(BODY.format(n=1), 300.0, 1, 10.0)],
            [_sized(head, 40.0, 2, 8.0), _sized(BODY.format(n=2), 90.0, 2, 10.0)]]


def test_a_running_head_that_repeats_a_heading_is_furniture_on_a_single_page() -> None:
    for head, heading in (("HOOFDSTUK 2. ONDERZOEKSVRAAG", "2. Onderzoeksvraag"),
                          ("2.1. HET GEBEUREN", "2.1. Het gebeuren")):
        pages = _thesis(head, heading)
        drop_furniture(pages, [842.0, 842.0])
        assert [ln.text for ln in pages[1]] == [BODY.format(n=2)], head
        assert pages[0][0].text == heading  # the heading itself stays


def test_a_band_line_is_kept_when_no_larger_heading_says_it() -> None:
    cases = (
        ("Opening words of a paragraph", "2. Onderzoeksvraag"),  # says no heading
        ("3:e118; DOI 10.7717/peerj-cs.118", "DOI 10.7717/peerj-cs.118"),  # an identifier
    )
    for head, heading in cases:
        pages = _thesis(head, heading)
        drop_furniture(pages, [842.0, 842.0])
        assert pages[1][0].text == head, head
    same_size = _thesis("2. Onderzoeksvraag", "2. Onderzoeksvraag")
    same_size[0][0].size = 8.5  # a heading set no larger than the line is no echo of it
    drop_furniture(same_size, [842.0, 842.0])
    assert same_size[1][0].text == "2. Onderzoeksvraag"


def test_a_footer_ending_in_page_n_of_m_is_furniture_on_a_single_page() -> None:
    pages = [[_line("Body text of a one-page excerpt that goes on for a while here.", 300.0, 1),
              _line("J.K. Krishnan et al.: Preprint submitted to Elsevier Page 1 of 3", 830.0, 1)]]
    drop_furniture(pages, [842.0])
    assert [ln.text for ln in pages[0]] == ["Body text of a one-page excerpt that goes on for a while here."]


def test_a_small_running_head_set_deeper_than_the_usual_band_is_furniture() -> None:
    # The Annals of Mathematics: 8 pt heads 12.6 % down a 792 pt page, over a 10.9 pt body.
    def at(text: str, top: float, page: int, size: float) -> Line:
        return Line(text=text, bbox=(120.0, top, 120.0 + 0.5 * size * len(text), top + size),
                    size=size, bold=False, block=0, page=page)
    pages = [[at("SAMPLE PAPER", 97.7, p, 8.0), at(BODY.format(n=p), 118.0, p, 10.9),
              at(BODY.format(n=p + 10), 300.0, p, 10.9)] for p in (1, 2, 3)]
    drop_furniture(pages, [792.0] * 3)
    assert all("SAMPLE PAPER" not in ln.text for lines in pages for ln in lines)
    # the same depth in the body's size: a repeated line of sample text or a table header stays
    same = [[at("Aa Bb Cc", 97.7, p, 10.9), at(BODY.format(n=p), 118.0, p, 10.9),
             at(BODY.format(n=p + 10), 300.0, p, 10.9)] for p in (1, 2, 3)]
    drop_furniture(same, [792.0] * 3)
    assert all(lines[0].text == "Aa Bb Cc" for lines in same)


def test_a_paragraphs_one_word_last_line_beside_a_figure_is_kept(tmp_path: Path) -> None:
    # AGU++: a figure in the left column; at the right column's top a paragraph ends with
    # the one-word line "it.", level with the figure and just right of it.
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.draw_rect(pymupdf.Rect(60, 90, 300, 270), color=(0, 0, 0), width=1)
    page.draw_line((80, 120), (280, 250), color=(0, 0, 0), width=1)
    page.insert_text((60, 282), "Figure 1: A framed placeholder for the figure.", fontname="helv", fontsize=9)
    lines = ["the document, preferably in the preamble so that you notice"]
    for k, text in enumerate(["printed twice, once in width 20 and again in 35 pc. To",
                              "enable this, give the double caption command somewhere in", *lines]):
        page.insert_text((311, 103 + 12 * k), text, fontname="helv", fontsize=9)
    page.insert_text((311, 103 + 36), "it.", fontname="helv", fontsize=9)
    path = tmp_path / "beside.pdf"
    doc.save(path)
    texts = " | ".join(b.text for b in PyMuPDFParser().parse(path).blocks)
    assert "so that you notice it." in texts
