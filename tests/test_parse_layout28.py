"""Layout 28 (issue 34, batch 14 of eval/quotes: a Copernicus manuscript numbering every
fifth line, a Frontiers review, a double-spaced working paper, a JMLR article, a NOAA
memo), on real pages, with property tests of the pure rules."""

from __future__ import annotations

import itertools

from hypothesis import assume, given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding, pages_of

from vaultd.models import Chunk
from vaultd.parse.fontnames import is_mono_font
from vaultd.parse.front import is_front_matter
from vaultd.parse.line_numbers import drop_margin_line_numbers
from vaultd.parse.paras import Line, PageInfo, body_size
from vaultd.parse.reading_order import order_page
from vaultd.parse.structure import build_blocks

EGUSPHERE = "egusphere_acp_gcm_liquid_water_path_manuscript_excerpt.pdf"

# ------------------------------------------------------- every fifth line numbered (Copernicus)


def test_a_margin_numbering_every_fifth_line_never_stands_in_the_text() -> None:
    # 8.5 pt numbers (15, 20, 25 …) beside a 10 pt text, six or seven a page: they had become
    # the first word of every fifth line, and each such line a paragraph of its own
    chunks = chunks_of(EGUSPHERE)
    para = holding(chunks, "estimates of anthropogenic perturbations to Earth’s energy budget")
    assert chunk_type(para) == "paragraph"
    assert "radiation absorbed by the climate system" in para.text
    assert "shortwave radiation" in para.text  # not "shortwave 20 radiation"
    assert not any(c.text.strip().isdigit() for c in chunks if chunk_type(c) in ("paragraph", "heading", "front"))
    assert holding(chunks, "Data and methods").text.strip() == "2 Data and methods"


def test_a_capital_with_a_stop_under_a_full_open_line_goes_on_with_its_paragraph() -> None:
    # "… decreasing" | "L. These mechanisms are regime dependent": the variable L ends a
    # clause, no list's item opens there
    para = holding(chunks_of(EGUSPHERE), "increasing turbulent entrainment of subsaturated air at cloud top")
    assert "L. These mechanisms are regime dependent" in para.text


def _numbers(values: list[int], x0: float = 27.0) -> list[Line]:
    return [Line(str(v), (x0, 100.0 + 17 * 5 * k, x0 + 10.0, 108.0 + 17 * 5 * k), 8.5, False, 1, 1,
                 font="NimbusSanL-Regu") for k, v in enumerate(values)]


def _text(lines: int) -> list[Line]:
    return [Line("a line of the manuscript's text set across its measure", (46.0, 98.0 + 17 * k, 548.0, 110.0 + 17 * k),
                 10.0, False, 2, 1, font="NimbusRomNo9L-Regu") for k in range(lines)]


@given(st.integers(min_value=1, max_value=60), st.sampled_from([2, 5, 10]), st.integers(min_value=5, max_value=8))
def test_every_nth_line_numbered_is_dropped_when_the_numbers_step_evenly(first: int, step: int, count: int) -> None:
    start = first * step
    page = _text(5 * count) + _numbers([start + step * k for k in range(count)])
    kept = drop_margin_line_numbers(page)
    assert [ln.text for ln in kept] == [ln.text for ln in _text(5 * count)]


@given(st.lists(st.integers(min_value=1, max_value=400), min_size=5, max_size=7, unique=True))
def test_a_few_margin_numbers_that_do_not_step_evenly_stay(values: list[int]) -> None:
    values.sort()
    steps = {b - a for a, b in itertools.pairwise(values)}
    assume(len(steps) > 1 or 1 in steps or any(v % min(steps) for v in values))
    page = _text(40) + _numbers(values)
    assert len(drop_margin_line_numbers(page)) == len(page)  # five to seven, unevenly: too few to tell


# ------------------------------------------------------------- Frontiers' references band


def test_the_right_columns_text_comes_before_a_bibliography_set_under_both_columns() -> None:
    # p. 4: the text ends in two short columns and ``References`` starts under the left one;
    # the right column's "in the rotorod assay …" had been read as a reference entry
    chunks = chunks_of("frontiers_pharmacol_2015_salvinorin_review.pdf")
    para = holding(chunks, "have been classified as “unbiased” KOPr ligands")
    assert chunk_type(para) == "paragraph"
    assert "in the rotorod assay (White et al., 2014, 2015)" in para.text
    assert pages_of(para) == [4, 4]
    entry = holding(chunks, "Adamson, W. T., Windh, R. T., Blackford, S., and Kuhn")
    assert chunk_type(entry) == "reference"
    assert chunk_type(holding(chunks, "Salvinorin A as a Novel Scaffold for KOPr")) == "heading"


def _col(x0: float, top: float, n: int, size: float, text: str = "words of a column's line of text") -> list[Line]:
    return [Line(f"{text} {k}", (x0, top + 12 * k, x0 + 240.0, top + 12 * k + size), size, False,
                 int(x0 * 1000 + top + k), 1) for k in range(n)]


@given(st.integers(min_value=3, max_value=20), st.integers(min_value=3, max_value=20),
       st.integers(min_value=1, max_value=5), st.integers(min_value=1, max_value=5))
def test_small_print_under_both_columns_is_read_after_both(left: int, right: int, lnotes: int, rnotes: int) -> None:
    body_l, body_r = _col(50.0, 80.0, left, 10.0), _col(310.0, 80.0, right, 10.0)
    below = 80.0 + 12 * max(left, right) + 20.0
    notes_l = _col(50.0, below, lnotes, 8.0, "a note")
    notes_r = _col(310.0, below + 6.0, rnotes, 8.0, "a note")
    order = [ln.text for g in order_page(body_l + body_r + notes_l + notes_r, 612.0) for ln in g]
    text = [ln.text for ln in body_l + body_r]
    assert order[:len(text)] == text  # both columns' text first, then the band's columns
    assert order[len(text):] == [ln.text for ln in notes_l + notes_r]


def test_a_column_whose_text_runs_lower_than_the_others_notes_keeps_them_in_column_order() -> None:
    # per-column footnotes of a full page: the right column's text runs past the left's notes
    body_l, notes_l = _col(50.0, 80.0, 10, 10.0), _col(50.0, 210.0, 2, 8.0, "a note")
    body_r = _col(310.0, 80.0, 14, 10.0)
    order = [ln.text for g in order_page(body_l + notes_l + body_r, 612.0) for ln in g]
    assert order == [ln.text for ln in body_l + notes_l + body_r]


# ------------------------------------------------------ a double-spaced working paper


def test_a_flush_line_under_a_pages_first_full_line_goes_on_with_its_paragraph() -> None:
    # p. 4 opens with the paragraph's last full line, "… in such a GI reshuffling.", and the
    # flush line under it ("Indeed, the average WTP …") goes on: paragraphs indent here
    para = holding(chunks_of("wp_wine_geographical_indications_wtp_excerpt.pdf"),
                   "Before presenting the experiment, we provide a simple theoretical model")
    assert "Indeed, the average WTP probably increases by adding a new high-quality level" in para.text
    assert pages_of(para)[0] == 3 and pages_of(para)[-1] == 4


def test_letter_numbered_subsections_nest_under_roman_numbered_sections() -> None:
    chunks = chunks_of("wp_wine_geographical_indications_wtp_excerpt.pdf")
    para = holding(chunks, "The experiment was performed in June 2018 with 125 consumers")
    assert para.provenance.section == "III. Experimental protocol › A. General setting"


# --------------------------------------------------------------- JMLR's and NOAA's first pages


def _first_page(name: str) -> list[Chunk]:
    return [c for c in chunks_of(name) if c.provenance.page == 1]


def test_jmlrs_masthead_is_front_matter_and_its_centred_title_one_heading() -> None:
    chunks = _first_page("jmlr_smac3_bayesian_optimization_package.pdf")
    assert chunk_type(holding(chunks, "Journal of Machine Learning Research 23 (2022) 1-9")) == "front"
    title = holding(chunks, "SMAC3: A Versatile Bayesian Optimization Package")
    assert chunk_type(title) == "heading"
    assert title.text.endswith("for Hyperparameter Optimization")


def test_a_numbered_section_set_as_large_as_names_is_no_byline() -> None:
    chunks = _first_page("techmemo_noaa_nefsc_fishery_profit_proxies.pdf")
    assert chunk_type(holding(chunks, "2 Cost Coverage")) == "heading"
    para = holding(chunks, "A number of issues are highlighted by the graphs.")
    assert para.provenance.section == "2 Cost Coverage"


@given(st.sampled_from(["Journal of Machine Learning Research", "Machine Learning", "Transactions on Data Science"]),
       st.integers(min_value=1, max_value=99), st.integers(min_value=1990, max_value=2030),
       st.integers(min_value=1, max_value=90))
def test_a_journal_banner_with_volume_year_and_pages_is_front_matter(name: str, volume: int, year: int,
                                                                      first: int) -> None:
    banner = f"{name} {volume} ({year}) {first}-{first + 9} Submitted 8/21; Revised 11/21; Published 2/22"
    assert is_front_matter(banner, at_edge=True)
    # a sentence citing a volume the same way, in the text, is none
    assert not is_front_matter(f"In their survey, {name} {volume} ({year}) {first}-{first + 9} holds it.",
                               at_edge=True)


# ----------------------------------------------------- a US Supreme Court slip opinion

SCOTUS = "scotus_slip_opinion_tarrant_water_compact_excerpt.pdf"


def test_running_lines_stacked_deep_over_a_small_text_block_are_furniture() -> None:
    # a small book page set on letter paper: "2 TARRANT REGIONAL WATER DIST. v. HERRMANN"
    # over "Opinion of the Court", 14 to 17 % down every page, past every band
    chunks = chunks_of(SCOTUS)
    assert not any("Opinion of the Court" in c.text or "TARRANT REGIONAL WATER DIST." in c.text
                   for c in chunks if chunk_type(c) == "paragraph")
    para = holding(chunks, "From this broad plain, it first runs through the Texas Panhandle")
    assert "it turns southward and flows into Louisiana" in para.text
    assert pages_of(para) == [1, 2]


def test_a_narrow_justified_text_block_makes_no_title_page() -> None:
    # its lines are all centred on the page; the first page's text had become front matter
    para = holding(chunks_of(SCOTUS), "The Red River Compact, (or Compact), 94 Stat. 3305")
    assert chunk_type(para) == "paragraph"


def test_a_parts_centred_mark_heads_its_text_under_the_part_before() -> None:
    chunks = chunks_of(SCOTUS)
    para = holding(chunks, "The Red River (or River) begins in the Llano Estacado Mesa")
    assert para.text.startswith("The Red River")
    assert [s.strip() for s in (para.provenance.section or "").split("›")] == ["I", "A"]
    later = holding(chunks, "In the years since the Red River Compact was ratified by Congress")
    assert [s.strip() for s in (later.provenance.section or "").split("›")] == ["I", "B"]


def test_a_notes_quoted_paragraphs_leave_the_sentence_over_them_whole() -> None:
    # note 4 "… the two relevant paragraphs provide:" quotes "(2) Whenever the flow …" in
    # its small print, half-way down p. 5; the text's "… allows up-" | "stream States" goes on
    chunks = chunks_of(SCOTUS)
    para = holding(chunks, "Subbasin 5’s allocation scheme allows upstream States to keep the water")
    assert pages_of(para)[-1] == 6
    assert chunk_type(holding(chunks, "NOTICE: This opinion is subject to formal revision")) == "front"


def _block(lines: list[tuple[str, float, float, float]], font: str = "CenturySchoolbook") -> list[Line]:
    return [Line(text, (x0, top, x1, top + 11.0), 11.0, False, 7, 1, font=font) for text, x0, top, x1 in lines]


@given(st.sampled_from(["I", "II", "IV", "A", "B", "3", "3."]))
def test_a_centred_part_mark_in_the_texts_face_is_a_heading_of_its_own(mark: str) -> None:
    lines = _block([(mark, 300.0, 100.0, 312.0),
                    ("The river begins on the high plain and runs east along the border", 156.0, 113.0, 456.0),
                    ("between the two states, as the compact says it does for all time.", 156.0, 126.0, 456.0)])
    blocks = build_blocks([lines], [PageInfo(1, None, 612.0, 792.0, (1, 0, 0, 1, 0, 0))], "pymupdf")
    assert (blocks[0].type, blocks[0].text.strip()) == ("heading", mark)
    assert blocks[1].text.startswith("The river begins")
    # a fraction's numerator over its denominator is none
    formula = _block([(mark, 300.0, 100.0, 312.0), ("ˆσ √ n", 290.0, 113.0, 322.0)])
    blocks = build_blocks([formula], [PageInfo(1, None, 612.0, 792.0, (1, 0, 0, 1, 0, 0))], "pymupdf")
    assert blocks[0].type != "heading"


# ------------------------------------------ back matter set smaller than the text (Nature)


def test_the_texts_size_leads_the_pages_though_methods_and_references_outweigh_it() -> None:
    # 9.5 pt text on pp. 1-7, 7.5 pt Methods and references (more characters) on pp. 8-11:
    # with the body read as 7.5 pt, the scheme's 7 pt labels had stood inside the paragraph
    chunks = chunks_of("natcomms_nickel_catalysed_amine_arylation.pdf")
    para = holding(chunks, "In the years following the initial development of BHA chemistry")
    assert "alkylphosphine and N-heterocyclic carbene ancillary ligands" in para.text
    assert not any("Want a bulky electron-poor ligand" in c.text for c in chunks if chunk_type(c) == "paragraph")


@given(st.integers(min_value=2, max_value=12), st.integers(min_value=1, max_value=12))
def test_the_size_leading_most_pages_from_the_first_is_the_bodys(text_pages: int, back_pages: int) -> None:
    words = "the text of the page runs on here in its size"
    doc = [[Line(words, (72.0, 72.0 + 14 * k, 400.0, 82.0 + 14 * k), 9.5, False, 0, p) for k in range(20)]
           for p in range(text_pages)]
    doc += [[Line(words, (72.0, 72.0 + 10 * k, 400.0, 80.0 + 10 * k), 7.5, False, 0, p) for k in range(60)]
            for p in range(text_pages, text_pages + back_pages)]
    leads = 2 * text_pages > text_pages + back_pages
    assert body_size(doc) == (9.5 if leads else 7.5)


def test_a_figures_labels_bridging_the_gutter_leave_the_columns_their_order() -> None:
    # ERL's p. 5: the columns stand right of the page's centre (the gutter at 57 %), and the
    # framework diagram's boxes over them bridge the gutter: the page had been read line by
    # line across both columns
    chunks = chunks_of("iop_erl_corn_yield_carbon_use_efficiency.pdf")
    para = holding(chunks, "Our metric computation focuses on crop yield and CUE.")
    assert para.text.endswith("The spatial heterogeneity of the corn CUE is shown in figure 2(a).")
    looping = holding(chunks, "Looping this masking and reducer step through all the image collections")
    assert chunks.index(looping) < chunks.index(para)


# ------------------------------------------------------- batch 16: published articles, a manual


def test_a_front_blocks_next_lines_stay_front_matter() -> None:
    # Ecosphere's dates, copyright and author note, each line a block of its own: the
    # copyright's last line and the "Present address" note had read as a paragraph
    chunks = _first_page("esa_ecosphere_sunflower_agriculture_mutualists_excerpt.pdf")
    assert not any("Present address" in c.text or "Corresponding Editor: A. McCall" in c.text
                   for c in chunks if chunk_type(c) == "paragraph")


def test_elseviers_running_citation_head_is_furniture_on_a_page_of_its_own() -> None:
    chunks = chunks_of("elsevier_softx_pybliometrics_scopus_excerpt.pdf")
    assert not any("Kitchin / SoftwareX 10 (2019) 100263" in c.text for c in chunks)


def test_a_tables_title_ruled_off_over_it_leaves_the_rows_a_table() -> None:
    # SoftwareX's "Code metadata": a title between two rules over the rows' own rules, the
    # labels long lowercase phrases beside their values
    chunks = chunks_of("elsevier_softx_pybliometrics_scopus_excerpt.pdf")
    table = holding(chunks, "Permanent link to code/repository used for this code version")
    assert chunk_type(table) == "table"
    assert chunk_type(holding(chunks, "Scopus is one of the citations, bibliometrics")) == "paragraph"


def test_an_admonitions_icon_and_an_m_plus_listing_stay_out_of_the_text() -> None:
    # Asciidoctor PDF: the Font Awesome "i" beside a note had split its paragraph in two,
    # and the M+ 1mn listing had been read as prose
    chunks = chunks_of("asciidoctor_mastersim_cosimulation_user_guide_excerpt.pdf")
    para = holding(chunks, "If a signal input of an FMU slave is connected to the outlet of another slave")
    assert "variable that is not connected to any output" in para.text
    assert chunk_type(holding(chunks, "call setupExperiment() in current slave")) == "code"


@given(st.sampled_from(["mplus1mn-regular", "mplus-1mn-bold", "ABCDEF+mplus1mn-italic"]))
def test_m_plus_1mn_is_a_typewriter_face(font: str) -> None:
    assert is_mono_font(font)
    assert not is_mono_font(font.replace("1mn", "1p"))


def test_a_full_first_line_goes_on_flush_where_paragraphs_are_set_apart_by_space() -> None:
    # the Subversion book sets its paragraphs apart by space, none indented: "… Subversion
    # will do nothing special." (full) | "Now, let's enable substitution …" goes on
    para = holding(chunks_of("book_svnbook_file_portability_ignore_excerpt.pdf"),
                   "With no svn:keywords property set on that file, Subversion will do nothing special.")
    assert "Now, let's enable substitution of the LastChangedDate keyword." in para.text


# -------------------------------------------------------------- batch 17: IEEE, ACM, a white paper


def test_ieees_dropped_capital_before_a_word_in_capitals_and_its_first_page_notes() -> None:
    chunks = chunks_of("ieee_jbhi_lstm_emotion_recognition_excerpt.pdf")
    para = holding(chunks, "emotions are complex processes that are caused by physiological")
    assert para.text.startswith("HUMAN emotions are complex processes")
    assert para.provenance.section == "I. INTRODUCTION"
    for note in ("Manuscript received 1 February 2022", "Cheul Young Park and Uichin Lee are with the"):
        assert chunk_type(holding(chunks, note)) == "front"


def test_acms_ccs_concepts_and_a_subsection_head_under_its_section_head() -> None:
    chunks = chunks_of("acm_chi25_smartphone_antivirus_adoption_excerpt.pdf")
    assert chunk_type(holding(chunks, "Human-centered computing → User studies")) == "front"
    para = holding(chunks, "The need for antivirus software for smartphones has long been")
    assert para.provenance.section == "2 Background and Related Work › 2.1 Mobile Malware and Antivirus"


def test_a_sentence_left_open_before_a_quotation_ends_in_it() -> None:
    # "… in a review of state prison practices, showing that" | a quotation set in from both
    # sides | "Censorship in facilities is a pressing topic …": a new paragraph
    chunks = chunks_of("whitepaper_sfpl_library_services_incarceration_review_excerpt.pdf")
    para = holding(chunks, "Censorship in facilities is a pressing topic for librarians")
    assert para.text.startswith("Censorship in facilities")
