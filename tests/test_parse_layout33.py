"""Layout 33 (issue 34, batch 29's unseen works and the kinds they showed): heads in
capitals in a small-capitals face set under the body's size, and in capitals broken over
two blocks; a numbered head set large over two lines ending in a stop; an icon font's glyph
before a heading; a section set in small print (under its head, or filling a page) no
footnote, nor a figure's note where its sentence goes on; a licence set flush right going
on; on real pages, with property tests of the pure rules."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding, pages_of

from vaultd.parse.classify import classify, unmarked
from vaultd.parse.footnotes import page_set_small, section_text
from vaultd.parse.front_blocks import runs_on
from vaultd.parse.paras import Line, Para

BES = "bes_mee_hyradx_ancient_dna_capture_excerpt.pdf"
SNJNL = "snjnl_mosquito_wetland_community_excerpt.pdf"
NEWSLETTER = "ulhpc_newsletter_hpc_2016.pdf"
APS = "aps_prx_minimum_action_phase_transitions.pdf"
NATCOMMS = "natcomms_woo_cerebral_pain_contributions.pdf"
EGUSPHERE = "egusphere_acp_gcm_liquid_water_path_manuscript_excerpt.pdf"

# ------------------------------------------------------------------------------ heads


def test_heads_in_small_capitals_set_under_the_body_head_their_sections() -> None:
    # 7 pt Arial small capitals beside 9 pt Times: they had been paragraphs, and every
    # passage of the methods went under "Materials and methods" alone
    chunks = chunks_of(BES)
    assert chunk_type(holding(chunks, "SAMPLING SITE, CORING AND RADIOCARBON DATING")) == "heading"
    para = holding(chunks, "In June 2014, two new parallel cores")
    assert para.provenance.section == "Materials and methods › SAMPLING SITE, CORING AND RADIOCARBON DATING"


def test_a_head_in_capitals_broken_over_two_blocks_is_one_head() -> None:
    para = holding(chunks_of(BES), "Microbial DNA can represent up to 99%")
    assert (para.provenance.section or "").endswith(
        "CAN WE PREDICT SUCCESS OF A SUBFOSSIL SAMPLE ANALYSIS WITH HYBRIDIZATION CAPTURE METHODS?")
    # APS's section heads in capitals, two lines in the body's size
    head = holding(chunks_of(APS), "FIRST-ORDER PHASE TRANSITIONS")
    assert head.text == "IV. FIRST-ORDER PHASE TRANSITIONS IN A NONEQUILIBRIUM GL SYSTEM"


def test_a_lone_article_a_numbers_no_head() -> None:
    # "A FIRST INSIGHT INTO …" with no "B" head: the article, not a subsection's letter
    para = holding(chunks_of(BES), "Because the wide exome reduction in hyRAD-X")
    assert (para.provenance.section or "").startswith("Materials and methods › A FIRST INSIGHT")


def test_a_numbered_head_over_two_lines_ending_in_a_stop_heads_its_section() -> None:
    para = holding(chunks_of(SNJNL), "A review by Rey et al (2012)")
    assert para.provenance.section == (
        "4 Discussion › 4.1 Vegetation structure as a key driver of mosquito communities including potential vectors.")


def test_a_heading_after_an_icon_fonts_glyph_is_a_heading() -> None:
    # FontAwesome's bullhorn (a private-use code) before "What happened in 2015?"
    assert chunk_type(holding(chunks_of(NEWSLETTER), "What happened in 2015?")) == "heading"


# ------------------------------------------------------------------ small print, no notes


def test_a_methods_paragraph_set_small_goes_on_past_the_figure_that_broke_it() -> None:
    # 8 pt under its head in a page's lower part, then under a figure's caption on the
    # next page: it had been a footnote and the figure's note
    para = holding(chunks_of(BES), "Lago di Origlio is a small lake")
    assert chunk_type(para) == "paragraph"
    assert "to present the paleobotanical A. alba data (pollen, needles) with the new chronology." in para.text
    assert pages_of(para) == [2, 3]


def test_a_page_set_small_throughout_goes_on_across_its_columns() -> None:
    # Nature Communications' Methods, set a point under the body, fill the page
    chunks = chunks_of(NATCOMMS)
    para = holding(chunks, "Preprocessing of fMRI data.")
    assert "stringent of either false discovery rate" in para.text
    later = holding(chunks, "After we obtained predictive maps")
    assert "PCR weights using s.d." in later.text and pages_of(later) == [11, 12]


def test_a_caption_goes_on_in_a_bracket() -> None:
    figure = holding(chunks_of(EGUSPHERE), "Figure 5. PI")
    assert chunk_type(figure) == "figure" and "(dashed arrow). The mean logL" in figure.text


def test_a_licence_set_flush_right_keeps_its_last_line() -> None:
    licence = holding(chunks_of(BES), "This is an open access article under the terms")
    assert chunk_type(licence) == "front"
    assert licence.text.endswith("provided the original work is properly cited and is not used for commercial purposes.")


# ------------------------------------------------------------------------ the pure rules


_CAPS_WORDS = st.lists(st.text(alphabet=string.ascii_uppercase, min_size=4, max_size=10), min_size=2, max_size=6)


@given(_CAPS_WORDS, st.floats(min_value=8.0, max_value=12.0), st.floats(min_value=0.5, max_value=2.0))
def test_capitals_in_small_capitals_set_smaller_are_a_heading(words: list[str], body: float, under: float) -> None:
    text = " ".join(words)
    size = body - under
    assert classify(text, size, False, 1, body, True, small_caps=True)[0] == "heading"
    # in the body's roman, or a sentence's end: no heading
    assert classify(text, size, False, 1, body, True)[0] != "heading"
    assert classify(text + ".", size, False, 1, body, True, small_caps=True)[0] != "heading"


@given(st.sampled_from(["\uf0a1", "\ue001", "★"]), st.text(alphabet=string.ascii_lowercase, min_size=3, max_size=12))
def test_a_symbol_or_icon_before_a_name_is_no_part_of_it(mark: str, word: str) -> None:
    name = word.capitalize() + " happened"
    assert unmarked(f"{mark} {name}") == name
    assert unmarked(name) == name


def _line(text: str, x0: float, y0: float, x1: float, size: float = 8.0, page: int = 1) -> Line:
    return Line(text=text, bbox=(x0, y0, x1, y0 + size), size=size, bold=False, block=0, page=page, font="Times")


@given(st.floats(min_value=6.0, max_value=9.0), st.integers(min_value=2, max_value=30))
def test_a_page_set_small_throughout_is_told_from_a_page_with_notes(size: float, lines: int) -> None:
    body = 10.0
    small = [_line("word " * 12, 50, 50 + 12 * i, 300, size) for i in range(lines)]
    assert page_set_small(small, body) is not None
    with_body = [_line("word " * 12, 50, 50 + 12 * i, 300, body) for i in range(lines)] + small[:2]
    assert page_set_small(with_body, body) is None


def _section_text(prev: Para, line: Line) -> bool:
    return section_text(prev, [line], line.text, None)


def test_text_right_under_a_head_is_under_it_and_a_note_far_below_is_not() -> None:
    head = Para("heading", [_line("DNA EXTRACTION", 60, 600, 150, 7.0)], "DNA EXTRACTION")
    assert _section_text(head, _line("All ancient DNA extractions", 60, 615, 290))
    assert not _section_text(head, _line("1 A note.", 60, 760, 290))  # far below
    assert not _section_text(head, _line("All ancient DNA extractions", 60, 760, 290))  # (its mark aside)
    assert not _section_text(head, _line("All ancient DNA", 320, 615, 540))  # the other column
    para = Para("paragraph", head.lines, "DNA EXTRACTION")
    assert not _section_text(para, _line("All ancient DNA extractions", 60, 615, 290))
    # under a paragraph of its own size, in its column: the section's next paragraph
    above = Para("paragraph", [_line("the column's last line of the paragraph before", 60, 600, 290)], "…")
    assert _section_text(above, _line("SDS-PAGE: CPMV and CCMV samples were diluted", 60, 610, 290))
    assert not _section_text(above, _line("2 A note under it.", 60, 610, 290))


def test_a_licence_set_flush_right_runs_on_and_one_set_flush_left_needs_its_edge() -> None:
    lines = [_line("This is an open access article under the terms of the Creative Commons", 168, 770, 536),
             _line("which permits use, distribution and reproduction in any medium, provided", 156, 780, 536)]
    licence = Para("front", lines, " ".join(ln.text for ln in lines))
    rest = Para("paragraph", [_line("is not used for commercial purposes.", 413, 790, 536)], "is not used …")
    assert runs_on(licence, rest)
    # the same short line ending elsewhere: no flush-right block's line
    astray = Para("paragraph", [_line("is not used for commercial purposes.", 300, 790, 420)], "is not used …")
    assert not runs_on(licence, astray)


# ------------------------------------------------------------------- batch 30's kinds

USGS = "usgs_tm_ucode2005_program_control_excerpt.pdf"
ERICKSON = "book_erickson_algorithms_mst_chapter.pdf"
LORRAINE = "thesis_lorraine_malware_disassembly_fr.pdf"


def test_a_flowcharts_steps_in_the_bodys_size_are_the_figures_and_the_text_goes_on_past_it() -> None:
    # a full-page flowchart between p. 4's foot and p. 6's top; two of its steps, ten
    # words or more in the body's size, had been paragraphs that ended the sentence
    chunks = chunks_of(USGS)
    para = holding(chunks, "Next, for each observation, UCODE_2005 uses information")
    assert "updated parameter estimates. Each observation minus the associated" in para.text
    assert pages_of(para) == [4, 6]
    assert not any("Perturb this parameter and recreate" in c.text for c in chunks
                   if chunk_type(c) in ("paragraph", "list"))


def test_a_statement_framed_across_a_figures_width_stays_text() -> None:
    # Erickson's one-line "Kruskal: Scan all edges …" in a frame over Figure 7.6's graphs
    line = holding(chunks_of(ERICKSON), "Scan all edges by increasing weight; if an edge is safe")
    assert chunk_type(line) == "paragraph"


def test_a_head_with_an_identifiers_underscore_is_a_heading() -> None:
    para = holding(chunks_of(USGS), "Keywords are used to identify most of the data in these files.")
    assert (para.provenance.section or "").endswith("Introduction to UCODE_2005 Input and Output Files")


def test_a_caption_whose_dash_the_font_maps_to_a_control_code_keeps_its_figures_labels() -> None:
    # "Figure 2.11 \x15 Empaquetage d'un binaire": the box labels were paragraphs
    chunks = chunks_of(LORRAINE)
    prose = [c.text for c in chunks if chunk_type(c) in ("paragraph", "list")]
    assert not any("Routine de dépaquetage" in t for t in prose)
    assert any("L'empaqueteur libre UPX" in t or "L’empaqueteur libre UPX" in t for t in prose)


@given(st.text(alphabet=string.ascii_uppercase + string.digits, min_size=2, max_size=8),
       st.text(alphabet=string.ascii_uppercase + string.digits, min_size=1, max_size=6))
def test_an_identifiers_underscore_is_no_formula(left: str, right: str) -> None:
    head = f"Introduction to {left}_{right} Input and Output Files"
    assert classify(head, 14.0, True, 1, 12.0, True)[0] == "heading"


# ------------------------------------------------------------------- batch 31's kinds

RESEARCHSQUARE = "researchsquare_teleround_icu_ux_design_excerpt.pdf"
BMJGH = "bmjgh_standardised_patients_nairobi_excerpt.pdf"
SCIADV = "sciadv_goto_bifurcation_optimization.pdf"
MODPATH = "techreport_usgs_modpath7_user_guide.pdf"


def test_heads_drawn_as_outlines_under_invisible_text_head_their_sections() -> None:
    # Chromium draws the preprint's heads as paths and lays invisible text over them: the
    # heads had been dropped with the hidden text, and every passage had no section
    chunks = chunks_of(RESEARCHSQUARE)
    assert chunk_type(holding(chunks, "INTRODUCTION")) == "heading"
    para = holding(chunks, "This project was approved by the research ethics board")
    assert para.provenance.section == "1.Study design"


def test_a_running_head_over_a_sentence_going_on_is_no_section() -> None:
    # "BMJ Global Health" atop p. 2 of a two-page excerpt, over "such as high child
    # mortality.": the Introduction's first paragraph had stopped at p. 1's foot
    chunks = chunks_of(BMJGH)
    para = holding(chunks, "Throughout Africa, healthcare markets are widely believed")
    assert "such as high child mortality." in para.text and pages_of(para) == [1, 2]
    assert chunk_type(holding(chunks, "BMJ Global Health")) != "heading"


def test_a_head_in_capitals_over_its_first_subsections_head_is_two_heads() -> None:
    # (in one face and size, the two heads stand at one depth)
    chunks = chunks_of(BMJGH)
    assert chunk_type(holding(chunks, "METHODS")) == "heading"
    para = holding(chunks, "We worked with the Advisory Committee of Kenyan doctors")
    assert para.provenance.section == "Study design and participants"
    # Science Advances' METHODS over Ballistic simulated bifurcation, a half point apart
    heads = [c.text for c in chunks_of(SCIADV) if chunk_type(c) == "heading"]
    assert "METHODS" in heads and "Ballistic simulated bifurcation" in heads


def test_a_publishers_imprint_line_on_a_title_pages_back_is_front_matter() -> None:
    line = holding(chunks_of(MODPATH), "U.S. Geological Survey, Reston, Virginia: 2016")
    assert chunk_type(line) == "front"


def test_invisible_text_over_nothing_stays_hidden_and_over_its_outlines_shows() -> None:
    from vaultd.parse.hidden_text import drawn_as_outlines

    class _Page:
        def __init__(self, paths: list[tuple[float, float, float, float]]) -> None:
            self.paths = paths

        def get_bboxlog(self) -> list[tuple[str, tuple[float, float, float, float]]]:
            return [("fill-path", r) for r in self.paths]

    span = {"text": "INTRODUCTION", "alpha": 0, "bbox": (28.0, 266.0, 115.0, 284.0)}
    data = {"blocks": [{"type": 0, "lines": [{"spans": [span]}]}]}
    assert drawn_as_outlines(_Page([(29.1, 270.1, 114.1, 279.3)]).get_bboxlog, data) == {id(span)}
    assert drawn_as_outlines(_Page([]).get_bboxlog, data) == set()  # a proof query over nothing
    assert drawn_as_outlines(_Page([(20.0, 260.0, 130.0, 290.0)]).get_bboxlog, data) == set()  # a box round it
    assert drawn_as_outlines(_Page([(29.0, 270.0, 40.0, 279.0)]).get_bboxlog, data) == set()  # a glyph's worth


def test_a_scans_running_foot_whose_folio_moves_from_end_to_end_is_furniture() -> None:
    # a 1985 memorandum's OCR layer: "February 1985 1", "2 February 1985", "February
    # 1985 35", a few points up or down from page to page
    chunks = chunks_of("nasa_tm_scanned_wireframe_geometry_standard_excerpt.pdf")
    assert not any("February 1985" in c.text for c in chunks)


# ------------------------------------------------------------------- batch 32's kinds

EURURO = "eururo_oraktx_robotic_kidney_transplant_trial_excerpt.pdf"
ADVSCI = "wiley_advsci_s100a9_cowpea_virus_immunotherapy_excerpt.pdf"


def test_a_bracket_left_open_at_a_colon_goes_on_and_the_paragraph_past_the_tables() -> None:
    # "(risk difference: −11%, 95% CI:" | "26 to 3.4; …" (the minus lost to the text
    # layer), then past p. 5's tables, flush, "Graft-related vascular complications …"
    para = holding(chunks_of(EURURO), "At 30-d post-transplant, major surgical complications")
    assert "95% CI: 26 to 3.4; risk ratio: 0.54" in para.text
    assert "Graft-related vascular complications at 30-d post-transplant" in para.text
    assert pages_of(para) == [4, 4, 5]


def test_a_section_set_small_goes_on_under_its_own_text_and_across_the_page() -> None:
    # Advanced Science's Experimental Section in 8 pt beside a 9 pt body: "SDS-PAGE: …" at
    # p. 4's foot had been a footnote, so p. 5's "by staining …" began a paragraph
    para = holding(chunks_of(ADVSCI), "CPMV and CCMV samples were diluted in 100 mm KP")
    assert chunk_type(para) == "paragraph"
    assert "by staining in 0.25% (wt/vol) Coommassie Blue solution" in para.text and pages_of(para) == [4, 5]


def test_wileys_orcid_note_and_initialled_affiliations_are_front_matter() -> None:
    chunks = chunks_of(ADVSCI)
    assert chunk_type(holding(chunks, "The ORCID identification number(s) for the author(s)")) == "front"
    assert chunk_type(holding(chunks, "Y. H. Chung, N. F. Steinmetz Department of Bioengineering")) == "front"


def test_the_column_beside_an_abstract_box_goes_on_after_the_box_in_its_paragraph() -> None:
    # Advanced Science's first page: the Introduction's first paragraph runs from the left
    # column's foot up into the 19-em column beside the abstract box, whose first lines
    # stand 8 pt above the box's top (they had been read before the box, apart)
    para = holding(chunks_of(ADVSCI), "Metastatic cancer remains a challenge to treat and diagnose")
    assert "the median survival time of breast cancer patients with metastatic recurrences" in para.text
    assert "Metastatic melanoma tumors are similar" in para.text
    assert para.text.rstrip().endswith("Targeted therapies can help reduce offtarget effects.")


def test_a_scans_letter_spaced_ocr_layer_marks_its_paragraphs_unreliable() -> None:
    # "The a b i l i t y t o numerically d e f i n e …": not what the page shows
    from vaultd.parse.textlayer import letter_spaced

    chunks = chunks_of("nasa_tm_scanned_wireframe_geometry_standard_excerpt.pdf")
    para = holding(chunks, "numerically d e f i n e")
    assert para.provenance.text_layer == "unreliable"
    assert holding(chunks_of(SNJNL), "A review by Rey et al (2012)").provenance.text_layer is None
    assert letter_spaced("This document. g i v e s the background leading t o t h e adoption")
    assert not letter_spaced("We set x = a b c in the model, with variables a, b and c.")
    assert not letter_spaced("K E Y W O R D S")  # a head's letter spacing, in capitals
