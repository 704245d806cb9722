"""Block kinds from text and typography: the heading forms real papers use."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from vaultd.parse.classify import CAPTION_RE, classify, is_figure_caption
from vaultd.parse.pymupdf import PyMuPDFParser

BODY = 10.0


def test_a_numbered_italic_line_on_its_own_is_a_subsection_heading() -> None:
    # MDPI and Elsevier set "2.1. Main Objectives" in italics at the body size.
    assert classify("2.1. Main Objectives", BODY, False, 1, BODY, True, italic=True) \
        == ("heading", "2.1")
    # In roman type a number two levels deep with its stop heads a line standing alone too
    # (A&A's "3.2. gammapy.data" over its "3.3.1. Effective area"); a one-level number, or
    # two levels without the stop, in roman, or an italic sentence, stays body text.
    assert classify("2.1. Main Objectives", BODY, False, 1, BODY, True) == ("heading", "2.1")
    assert classify("2. Main Objectives", BODY, False, 1, BODY, True)[0] == "paragraph"
    assert classify("2.1 Main Objectives", BODY, False, 1, BODY, True)[0] == "paragraph"
    assert classify("2. The patients were followed up.", BODY, False, 1, BODY, True,
                    italic=True)[0] == "paragraph"


def test_a_bold_line_in_capitals_is_a_heading_even_set_small() -> None:
    # Frontiers sets subsection heads in 8.5 pt bold capitals beside 9.5 pt body text.
    assert classify("THE SOCIAL ECOLOGY OF WOLVES", 8.5, True, 1, 9.5, True)[0] == "heading"
    # Not bold, one acronym, or part of a longer block: not a heading.
    assert classify("THE SOCIAL ECOLOGY OF WOLVES", 8.5, False, 1, 9.5, True)[0] == "paragraph"
    assert classify("NASA ESA", 8.5, True, 1, 9.5, True)[0] == "paragraph"
    assert classify("THE SOCIAL ECOLOGY OF WOLVES", 8.5, True, 1, 9.5, False)[0] == "paragraph"


def test_a_heading_set_one_and_a_half_points_above_a_half_point_body_stands_out(
        tmp_path: Path) -> None:
    # PLOS ONE sets 11.5 pt body text and 13 pt section headings in a regular weight.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 100), "Introduction", fontname="helv", fontsize=13)
    y = 130.0
    for n in range(12):
        page.insert_text((54, y), f"Body line {n} of the introduction, which goes on at "
                         "some length in a plain weight.", fontname="helv", fontsize=11.5)
        y += 14
    path = tmp_path / "p.pdf"
    doc.save(path)
    blocks = PyMuPDFParser().parse(path).blocks
    assert (blocks[0].type, blocks[0].text) == ("heading", "Introduction")
    assert blocks[1].type == "paragraph"


def test_a_numbered_line_in_capitals_at_the_body_size_is_a_section_heading() -> None:
    # IEEE sets "I. INTRODUCTION" in small capitals of the body's roman; Wiley "1. INTRODUCTION".
    assert classify("I. INTRODUCTION", 10.0, False, 1, BODY, True) == ("heading", "I")
    assert classify("III. ESTIMATION THEORY", 10.0, False, 1, BODY, True) == ("heading", "III")
    assert classify("1. INTRODUCTION", 10.0, False, 1, BODY, True) == ("heading", "1")
    # A name with an initial, a heading's line inside a longer block, or a line without a
    # number stays text.
    assert classify("A. SMITH AND B. JONES", 10.0, False, 1, BODY, True)[0] == "paragraph"
    assert classify("I. INTRODUCTION", 10.0, False, 2, BODY, False)[0] == "paragraph"
    assert classify("NASA AND ESA MISSIONS", 10.0, False, 1, BODY, True)[0] == "paragraph"


def test_a_big_operator_is_no_heading_but_letter_spaced_capitals_can_be() -> None:
    # TeX draws a display summation as a large "P" (cmex); it stands alone, big and upright.
    assert classify("P", 14.0, False, 1, BODY, True)[0] != "heading"
    assert classify("P NT", 14.0, True, 1, BODY, True)[0] != "heading"
    assert classify("K E Y W O R D S", 12.0, True, 1, BODY, True)[0] == "heading"


def test_a_numbered_line_of_an_algorithm_is_no_heading() -> None:
    # Wiley's algorithm listings number their lines "21:"; the keywords are bold.
    assert classify("21: end procedure", BODY, True, 1, BODY, True)[0] != "heading"
    assert classify("2 Methods", BODY, True, 1, BODY, True)[0] == "heading"


def test_a_theorem_s_label_is_no_section_heading() -> None:
    # Set bold like a heading, a lemma or remark is the paper's text under its section.
    for text in ("Lemma 2.2. Let k ≤ d. Then", "Remark 1", "Theorem 3 (Johnson)", "Proof."):
        assert classify(text, BODY, True, 1, BODY, True)[0] != "heading", text
    for text in ("Definitions of terms", "Example applications", "Hypothesis testing"):
        assert classify(text, BODY, True, 1, BODY, True)[0] == "heading", text


def test_a_numbered_italic_subsubsection_ending_in_a_full_stop_is_a_heading() -> None:
    # acmart (CHI): "6.1.2 Highlighting based on Engagement with other Papers (D1)." in
    # italics on its own line, split from the paragraph under it.
    text = "6.1.2 Highlighting based on Engagement with other Papers (D1)."
    assert classify(text, 9.0, False, 1, 9.0, False, italic=True) == ("heading", "6.1.2")
    # a numbered sentence in roman, or a one-level number, stays a paragraph
    assert classify(text, 9.0, False, 1, 9.0, False)[0] == "paragraph"
    assert classify("2. We release the code and data.", 9.0, False, 1, 9.0, False, italic=True)[0] == "paragraph"


def test_a_paper_s_only_table_or_figure_may_go_unnumbered_after_a_dash() -> None:
    from vaultd.parse.classify import is_figure_caption, is_table_caption

    assert is_table_caption("Tabla - Tendencias en la composición del gasto en salud para población")
    assert is_table_caption("Table – Characteristics of the participants at baseline")
    assert is_figure_caption("Figura - Mapa de los estados estudiados")
    # a sentence about a table, a dash inside a word, or no capital after the dash: none
    assert not is_table_caption("Table tennis players were recruited from two clubs.")
    assert not is_table_caption("Table-top experiments were run in the laboratory.")
    assert not is_figure_caption("Figure - the layout of the stations is shown below")


def test_a_roman_section_s_arabic_subsection_is_numbered() -> None:
    # REVTeX's "II.2. Paper size", bold and centred at the body's size
    assert classify("II.2. Paper size", 10.0, True, 1, BODY, True) == ("heading", "II.2")
    assert classify("VIII.3. Table placement", 10.0, True, 1, BODY, True) == ("heading", "VIII.3")
    assert classify("II. FORMATTING", 10.0, False, 1, BODY, True) == ("heading", "II")


def test_an_appendix_or_supplement_float_is_a_caption() -> None:
    for text in ("Table B1", "Table A1. Commands for abbreviated journal names", "Table S2: Results"):
        assert CAPTION_RE.match(text) and not is_figure_caption(text), text
    for text in ("Figure A1", "Figure S3. Map of the sites", "Fig. S1: Sketch"):
        assert is_figure_caption(text), text
    for text in ("Tables and figures are numbered in order.", "Figure Skating at the Games"):
        assert not CAPTION_RE.match(text), text
