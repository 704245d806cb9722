"""Layout 27 (issue 34, batch 12 of eval/quotes: Congressional Research Service documents,
review copies with line numbers, a bookdown book, the AAS journals), on real pages, with
property tests of the pure rules."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding, pages_of

from vaultd.parse.classify import is_prose, word_count
from vaultd.parse.code import is_code
from vaultd.parse.fontnames import is_bold_font, is_italic_font
from vaultd.parse.line_numbers import drop_document_line_numbers, drop_margin_line_numbers
from vaultd.parse.paras import Line, body_size
from vaultd.parse.sentence_ends import closed_sentence
from vaultd.parse.spans import line_style

# ------------------------------------------------------- a footnote-heavy Word report (CRS)


def test_notes_outweighing_the_body_are_footnotes_and_the_sentence_goes_on_past_them() -> None:
    # CRS R48917: its 9 pt notes hold more characters than its 11 pt text, so the body had
    # been read as 9 pt, no note was a note, and "… The Senate considered 16 amendments to"
    # (p. 4's foot, set ragged right) | "S.Con.Res. 33, one of which was agreed to." broke
    chunks = chunks_of("crs_report_senate_fy2026_budget_resolution.pdf")
    para = holding(chunks, "The Senate considered 16 amendments to S.Con.Res. 33, one of which")
    assert chunk_type(para) == "paragraph"
    assert pages_of(para) == [4, 5]
    for note in ("1 Titles I-IX of the Congressional Budget", "7 The Senate agreed to S.Amdt. 5281"):
        assert chunk_type(holding(chunks, note)) == "footnote"  # (note 7 starts half-way down p. 5)


def test_a_ragged_note_broken_at_the_pages_foot_goes_on_past_words_continued_notice() -> None:
    chunks = chunks_of("crs_report_senate_fy2026_budget_resolution.pdf")
    note = holding(chunks, "The process for waiving points of order varies by chamber. Generally, such")
    assert chunk_type(note) == "footnote"
    assert pages_of(note) == [5, 6]
    assert not any("(continued" in c.text for c in chunks)


def test_a_paragraph_does_not_resume_past_the_list_it_led_into() -> None:
    chunks = chunks_of("crs_report_senate_fy2026_budget_resolution.pdf")
    lead = holding(chunks, "These include, for each fiscal year covered by the budget resolution,")
    assert lead.text.endswith("covered by the budget resolution,")
    assert chunk_type(holding(chunks, "Once both chambers have adopted the budget resolution")) == "paragraph"


def test_a_charts_sources_and_notes_and_the_last_pages_longer_footer_are_no_body_text() -> None:
    chunks = chunks_of("crs_infocus_farm_bill_conservation_title.pdf")
    assert chunk_type(holding(chunks, "Sources: CRS, using Congressional Budget Office")) == "figure"
    assert chunk_type(holding(chunks, "Notes: FY2002-FY2023 are actual spending levels")) == "figure"
    assert not any("crsreports.congress.gov" in c.text for c in chunks)
    para = holding(chunks, "authority for both program types through FY2036. As Congress considers the next")
    assert chunk_type(para) == "paragraph"


# --------------------------------------------------------------------------- line numbers


@pytest.mark.parametrize(("pdf", "words"), [
    # an ACL review copy built for another paper size: its rulers stand inside both columns
    ("acl_review_refusal_subspaces_excerpt.pdf",
     "but follows the geometry of representation space. Figure 1 shows the key contrast"),
    # JOSS's draft: numbers between the sidebar (whose lines end over them) and the text,
    # under a page-wide DRAFT watermark
    ("joss_deeprank2_protein_structures_draft.pdf",
     "geared towards making predictions on 3D protein structures for variety of biologically"),
    # PLOS's template numbers six lines on p. 1, too few to tell there, as on every page after
    ("plos_template_ten_rules_dockerfiles_preprint.pdf",
     "not only can we share data underlying research articles, but we can also share the code"),
])
def test_line_numbers_never_stand_inside_the_text(pdf: str, words: str) -> None:
    assert chunk_type(holding(chunks_of(pdf), words)) == "paragraph"


# ------------------------------------------------------------- running heads and headings


def test_a_books_running_heads_set_low_on_letter_paper_are_furniture() -> None:
    # bookdown's LaTeX book class on letter paper sets them 13 % down the page
    chunks = chunks_of("bookdown_stat_models_simulation_r_excerpt.pdf")
    assert not any("CHAPTER 1. INTRODUCTION" in c.text or "CHAPTER 2. UNDERSTANDING" in c.text for c in chunks)
    para = holding(chunks, "we need a comparison group, so we define a control group of non-parents")
    assert pages_of(para) == [7, 8]


def test_the_aas_journals_italic_subsection_heads_are_headings() -> None:
    chunks = chunks_of("psj_titan_haze_asymmetry_vims_excerpt.pdf")
    assert holding(chunks, "Figure 4 displays various meridional").provenance.section \
        == "3. NSA › 3.1. Meridional Brightness Profiles"
    assert holding(chunks, "Now, we show observations from VIMS cube images").provenance.section \
        == "4. NS Boundary › 4.1. Boundary Latitude"


# ------------------------------------------------------------------- pure rules, property


def _line(text: str, size: float, top: float, x0: float = 72.0, page: int = 0) -> Line:
    return Line(text, (x0, top, x0 + 6.0 * len(text), top + size), size, False, 0, page)


@given(st.integers(min_value=3, max_value=8), st.integers(min_value=2, max_value=4))
def test_notes_under_the_text_leave_the_body_its_size(pages: int, ratio: int) -> None:
    # every page: a few body lines on top, ``ratio`` times as many note lines under them
    text = "the body of the report runs here"
    doc = [[_line(text, 11.0, 72.0 + 13 * k, page=p) for k in range(4)]
           + [_line(text, 9.0, 400.0 + 10 * k, page=p) for k in range(4 * ratio)] for p in range(pages)]
    assert body_size(doc) == 11.0
    # the smaller print set above the larger (a body under big abstracts) stays the body
    flipped = [[_line(text, 11.0, 600.0 + 13 * k, page=p) for k in range(4)]
               + [_line(text, 9.0, 72.0 + 10 * k, page=p) for k in range(4 * ratio)] for p in range(pages)]
    assert body_size(flipped) == 9.0


@given(st.sampled_from(["minimax search. [Knuth and Moore 1975]", "agreed to.7", "shown (Fig. 1c).30",
                        "the end.", "as follows:", "see (Smith 2001)."]))
def test_a_stop_with_a_note_or_a_citation_after_it_closes_a_sentence(text: str) -> None:
    assert closed_sentence(text)


@given(st.sampled_from(["16 amendments to", "the University of Leeds 250", "Kecamatan", "(see [4]",
                        "in the [Knuth] tree", "in the end (see"]))
def test_an_open_clause_closes_no_sentence(text: str) -> None:
    assert not closed_sentence(text)


@pytest.mark.parametrize(("name", "bold", "italic"), [
    ("AdvOT9d60b855.B", True, False), ("AdvOTb4af3d5d.I", False, True), ("AdvOT12345678.BI", True, True),
    ("ABCDEF+AdvOTb4af3d5d.I", False, True), ("AdvOT596495f2", False, False),
])
def test_the_aas_fonts_name_their_style_after_a_stop(name: str, bold: bool, italic: bool) -> None:
    assert (is_bold_font(name), is_italic_font(name)) == (bold, italic)


def _ruler_page(start: int, step: int, font: str) -> list[Line]:
    text = [Line("words of the column set here in its face", (70.0, 80.0 + 13 * k, 290.0, 90.0 + 13 * k),
                 11.0, False, 0, 1, font="NimbusRomNo9L-Regu") for k in range(12)]
    ruler = [Line(f"{start + step * k:03d}", (247.0, 82.0 + 13 * k, 260.0, 89.0 + 13 * k), 8.0, True, 1, 1,
                  font=font) for k in range(12)]
    return text + ruler


@given(st.integers(min_value=0, max_value=900))
def test_a_ruler_over_the_text_counting_by_one_in_its_own_face_is_dropped(start: int) -> None:
    kept = drop_margin_line_numbers(_ruler_page(start, 1, "NimbusSanL-Bold"))
    assert all(not ln.text.isdigit() for ln in kept)


@given(st.integers(min_value=0, max_value=900), st.sampled_from([2, 5, 10]))
def test_numbers_over_the_text_skipping_or_in_the_texts_face_are_kept(start: int, step: int) -> None:
    assert len(drop_margin_line_numbers(_ruler_page(start, step, "NimbusSanL-Bold"))) == 24
    assert len(drop_margin_line_numbers(_ruler_page(start, 1, "NimbusRomNo9L-Regu"))) == 24


def test_a_page_with_few_line_numbers_loses_those_set_as_the_other_pages() -> None:
    def page(n: int, first: int) -> list[Line]:
        lines = [Line("a line of the text of the page", (198.0, 100.0 + 12 * k, 560.0, 110.0 + 12 * k),
                      10.0, False, 0, 1, font="CMR10") for k in range(n)]
        return lines + [Line(str(first + k), (593.0, 102.0 + 12 * k, 596.0 + 3 * (first + k > 9), 107.0 + 12 * k),
                             5.0, False, 1, 1, font="CMSS8") for k in range(n)]
    pages = drop_document_line_numbers([page(4, 1), page(20, 5)])
    assert [ln.text for ln in pages[0] if ln.text.isdigit()] == []
    assert all(not ln.text.isdigit() for ln in pages[1])
    # the same few numbers, no other page numbered: kept
    assert len(drop_document_line_numbers([page(4, 1)])[0]) == 8


# ------------------------------------------------------------------ Chinese (CJK) text


def test_chinese_prose_is_prose_and_breaks_inside_a_word_at_a_pages_foot() -> None:
    # ustcthesis' guide: the list item "Linux/Mac 用户，… 编" | "译论文 main.pdf：" crosses
    # p. 2→3 inside the word 编译; its pages had been read as prose-less title pages
    chunks = chunks_of("ustcthesis_template_user_guide_zh.pdf")
    item = holding(chunks, "这是最简单的方法。编译论文 main.pdf：")
    assert pages_of(item) == [2, 3]
    assert chunk_type(holding(chunks, "本模板要求使用 TeX Live")) == "paragraph"


def test_a_chinese_lines_latin_words_in_a_smaller_face_are_no_small_print() -> None:
    # "ometry, graphicx, … unicode-math。": 9.1 pt Helvetica package names, a 10.5 pt Chinese
    # stop; the line is the 10.5 pt text's, not a footnote
    chunks = chunks_of("ustcthesis_template_user_guide_zh.pdf")
    assert chunk_type(holding(chunks, "另外，模板还对其他宏包提供了支持")) == "paragraph"
    assert chunk_type(holding(chunks, "ometry, graphicx, notoccite")) != "footnote"


@given(st.text(alphabet="的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年", min_size=16, max_size=60))
def test_chinese_with_its_clause_marks_is_prose_and_without_them_is_a_label(words: str) -> None:
    assert is_prose(words[:8] + "，" + words[8:] + "。")
    assert not is_prose(words[:12])  # a title page's 培养单位：… field, a name
    assert word_count(words) >= len(words) // 2


def test_a_chinese_line_takes_the_size_of_its_chinese_text() -> None:
    spans = [{"text": "ometry, graphicx, notoccite", "font": "Helvetica", "size": 9.1, "flags": 0},
             {"text": "。", "font": "STSongti-SC-Light", "size": 10.5, "flags": 0}]
    assert line_style(spans).size == 10.5
    latin = [{"text": "ometry, graphicx, notoccite", "font": "Helvetica", "size": 9.1, "flags": 0},
             {"text": ".", "font": "Times-Roman", "size": 10.5, "flags": 0}]
    assert line_style(latin).size == 9.1  # (the longest span's, as ever)


# ------------------------------------------------------- apparatus and one-line commands


def test_iops_licence_line_and_the_aas_keyword_line_are_front_matter() -> None:
    chunks = chunks_of("psj_titan_haze_asymmetry_vims_excerpt.pdf")
    assert chunk_type(holding(chunks, "Original content from this work may be used under the terms")) == "front"
    assert chunk_type(holding(chunks, "Unified Astronomy Thesaurus concepts:")) == "front"


def test_a_command_set_alone_in_a_typewriter_face_is_code() -> None:
    chunks = chunks_of("plos_template_ten_rules_dockerfiles_preprint.pdf")
    assert chunk_type(holding(chunks, "RUN pip install -r requirements.txt")) == "code"
    assert chunk_type(holding(chunks, "jupyter-repo2docker https://github.com/norvig/pytudes")) == "code"


def _mono(text: str) -> list[Line]:
    return [Line(text, (72.0, 100.0, 300.0, 108.0), 8.0, False, 0, 1, font="CMTT8", mono=True)]


@given(st.sampled_from(["3 https://github.com/allenai/scidocs", "https://texfaq.org/FAQ for more information.",
                        "jane.doe@uni.edu, john@uni.edu", "requirements.txt", "widmung-Umgebung"]))
def test_an_address_a_note_or_a_name_alone_in_a_typewriter_face_is_no_command(text: str) -> None:
    assert not is_code(_mono(text), text)


@given(st.sampled_from(["RUN pip install -r requirements.txt", "docker run --rm -it image",
                        "jupyter-repo2docker https://github.com/norvig/pytudes", "git clone https://x.org/r.git"]))
def test_a_command_alone_in_a_typewriter_face_is_code(text: str) -> None:
    assert is_code(_mono(text), text)


# ------------------------------------------- batch 13: declarations, dates, heads, gutters


def test_the_nature_journals_declarations_after_the_bibliography_are_sections() -> None:
    chunks = chunks_of("scireports_lah10_room_temperature_superconductors.pdf")
    assert holding(chunks, "A.P. Durajski acknowledges the financial support").provenance.section \
        == "Acknowledgements"
    assert holding(chunks, "The authors declare no competing interests").provenance.section \
        == "Competing interests"
    assert chunk_type(holding(chunks, "Received: 5 August 2019; Accepted: 8 January 2020")) == "front"
    natcomms = chunks_of("natcomms_woo_cerebral_pain_contributions.pdf")
    assert holding(natcomms, "This work was funded by NIH").provenance.section == "Acknowledgements"
    assert chunk_type(holding(natcomms, "Reprints and permission information is available")) == "front"


def test_a_declarations_heading_in_another_style_beside_the_entries_leaves_them_entries() -> None:
    # F1000: "Acknowledgements" (9.2 pt roman) stands at the right column's top, beside the
    # left column's "References" (8 pt bold); the entries under it are still entries
    chunks = chunks_of("f1000research_shark_longevity_note.pdf")
    assert chunk_type(holding(chunks, "Frazier BS, Driggers WB III")) == "reference"


def test_a_manuscripts_italic_heads_over_indented_paragraphs_are_headings() -> None:
    # medRxiv's Word manuscript: "Health Education Program" in 11.3 pt italic over a
    # paragraph whose first line is set in half an inch
    chunks = chunks_of("medrxiv_hael_exercise_hypertension_trial.pdf")
    section = holding(chunks, "Participants in the health education intervention attended").provenance.section
    assert (section or "").strip() == "Health Education Program"


def test_two_columns_right_of_a_sidebar_are_read_left_then_right_past_the_title_block() -> None:
    # IOP's ERL: a margin sidebar shifts both columns right of the page's centre; the title
    # block over them is narrower than both
    chunks = chunks_of("iop_erl_corn_yield_carbon_use_efficiency.pdf")
    para = holding(chunks, "Atmospheric carbon dioxide concentrations increased")
    assert "is an important way for humans to affect carbon emissions" in para.text
    assert pages_of(para)[0] == 2 and pages_of(para)[-1] == 3


def test_a_word_manuscript_ragged_as_often_as_even_is_read_as_ragged() -> None:
    # medRxiv: "… in public health settings 4." | "Additionally, there is a scarcity …"
    # flush under it is the paragraph's next sentence (its full lines end an em apart as
    # often as together: 89 and 89; justified double-spaced texts 0.11–0.15 of it)
    chunks = chunks_of("medrxiv_hael_exercise_hypertension_trial.pdf")
    para = holding(chunks, "Combined aerobic and resistance exercise programs benefit overall health")
    assert "public health settings 4 . Additionally, there is a scarcity" in " ".join(para.text.split())


def test_a_heading_style_the_classifier_found_heads_its_other_lines() -> None:
    # MIT Press's Open Mind: "INTRODUCTION" in the bold capitals of "DISCUSSION AND
    # CONCLUSION" (a heading already), its text past the sidebar's "Citation: …" block
    chunks = chunks_of("mitpress_openmind_iq_test_difficulty.pdf")
    assert holding(chunks, "Intelligence tests are central to many areas").provenance.section == "INTRODUCTION"
    # CEUR: a bold example line in its numbered subsections' face is no heading
    ceur = chunks_of("ceur_ontology_aware_annotation_workshop.pdf")
    assert chunk_type(holding(ceur, "Annotations: “v formation” — GO:0097084")) != "heading"


def test_medrxivs_notice_on_its_first_page_is_front_matter() -> None:
    chunks = chunks_of("medrxiv_hael_exercise_hypertension_trial.pdf")
    assert chunk_type(holding(chunks, "This preprint reports new research that has not been certified")) == "front"
