"""Layout 32 (issue 34, batch 24's unseen works and the kinds they showed): small capitals
drawn as smaller capitals, amsart's numbered heads whose small capitals read as lowercase,
a report's ``Section 2. …`` heads, a slide's title repeated over its slides, a publisher's
``Published by … on behalf of …`` line, a shell session with an address in it, a
flowchart's boxed labels under a caption set over it; on real pages, with property tests
of the pure rules."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding

from vaultd.parse.classify import classify
from vaultd.parse.front import is_front_matter
from vaultd.parse.furniture import drop_furniture
from vaultd.parse.imprints import is_imprint
from vaultd.parse.ligature_glyphs import ligature_text, needs_look
from vaultd.parse.paras import Line
from vaultd.parse.spans import drawn_small_caps

SENATE = "senate_report_youth_sports_concussion_act.pdf"
AMSART = "amsart_rademacher_partial_fractions_conjecture.pdf"
SLIDES = "slides_hbc_rnaseq_troubleshooting.pdf"
GMD = "copernicus_gmd_cmip6_experimental_design.pdf"
NOTEBOOK = "nbconvert_scientific_python_lectures_excerpt.pdf"
ECDC = "ecdc_technical_report_hiv_modelling_platform_excerpt.pdf"
BOOK = "book_mediastudies_killer_fandom_chapter_excerpt.pdf"
COGNITION = "elsevier_cognition_intimate_imitation.pdf"
LANCET = "eclinicalmedicine_ai_dementia_prediction_marker_excerpt.pdf"
ICML = "icml_tau_voice_full_duplex_benchmark_excerpt.pdf"
ACM = "acm_sigcse26_small_lm_programming_feedback.pdf"
OUP = "oup_mbe_species_delimitation_excerpt.pdf"
SANDIA = "techreport_sandia_wind_blade_reference_model.pdf"
HINDAWI = "hindawi_mpe_crude_oil_meemd_gmdh_excerpt.pdf"
PLOS2012 = "plos_one_mody_exome_sequencing_body_pages.pdf"

# ------------------------------------------------------------------------------ heads


def test_a_gpo_reports_heads_in_drawn_small_capitals_head_their_sections() -> None:
    # "P" at 10 pt, "URPOSE OF THE" at 7.8 pt, "B" at 10 pt, "ILL" at 7.8 pt: the line
    # had read as small print in the body's font, and every passage as the title's
    chunks = chunks_of(SENATE)
    head = holding(chunks, "PURPOSE OF THE BILL")
    assert chunk_type(head) == "heading"
    para = holding(chunks, "In recent years, a constant drumbeat of press coverage")
    assert (para.provenance.section or "").endswith("BACKGROUND AND NEEDS")


def test_a_reports_section_by_section_heads_head_their_analysis() -> None:
    para = holding(chunks_of(SENATE), "Section 2 of the bill would provide the sense of Congress")
    assert (para.provenance.section or "").endswith("Section 2. Sense of Congress.")
    assert chunk_type(holding(chunks_of(SENATE), "Section 3 of the bill would make it unlawful")) == "paragraph"


def test_amsarts_numbered_head_in_small_capitals_read_as_lowercase_is_a_heading() -> None:
    para = holding(chunks_of(AMSART), "In his book Topics in Analytic Number Theory [12]")
    assert para.provenance.section == "1. introduction"


def test_a_slides_title_repeated_over_its_slides_heads_each_of_them() -> None:
    # Keynote's "Quality Checks: Raw Data" at 40 pt tops five slides: it had been dropped
    # as a running head, and the slides' bullets went under the deck's title
    chunks = chunks_of(SLIDES)
    item = holding(chunks, "Identify contaminating sequences")
    assert "Quality Checks: Raw Data" in (item.provenance.section or "")
    later = holding(chunks, "Discover contamination from another organism or from DNA")
    assert "Quality Checks: Aligned Data" in (later.provenance.section or "")


def test_a_chapter_titles_second_line_whose_box_reaches_into_the_first_goes_on() -> None:
    # a 36 pt display face's tall boxes overlap: "Fanlike Engagement" | "before Fan Studies"
    para = holding(chunks_of(BOOK), "Most famous serial killers have had fans.")
    assert para.provenance.section == "Fanlike Engagement before Fan Studies"


def test_a_panel_in_two_columns_of_its_own_is_read_before_the_text_under_it() -> None:
    # eClinicalMedicine's "Research in context": its text set in from the page's columns on
    # both sides, the page's gutter its own; its right column had been read after the
    # page's left one, and went on into the Introduction's sentence
    chunks = chunks_of(LANCET)
    added = holding(chunks, "We bridge the gap between AI and clinical translation")
    assert "(UK, Singapore). We demonstrate that the PPM robustly predicts" in added.text
    assert (added.provenance.section or "").endswith("Added value of this study")
    intro = holding(chunks, "Maturing analytical techniques provide a turning point")
    assert "in stratifying individuals, translating models to clinical practice" in intro.text
    assert "demonstrate that the PPM" not in intro.text


def test_a_list_items_line_ending_in_a_colon_goes_on_under_it() -> None:
    # MuPDF cut the item's block where a typewriter word opens its next line
    item = holding(chunks_of(ICML), "Realistic audio exacerbates the gap")
    assert "highly model-specific: grok-voice loses 38% of its Clean capability" in item.text


def test_a_numbered_heads_subtitle_after_its_colon_is_the_heads() -> None:
    # ACM's "4.2 Fine-tuning Small Language Models:" | "Distilling Knowledge From LLMs"
    para = holding(chunks_of(ACM), "In this subsection, we formalise our approach")
    assert (para.provenance.section or "").endswith(
        "4.2 Fine-tuning Small Language Models: Distilling Knowledge From LLMs")


def test_a_journals_banner_a_lost_copyright_sign_a_notice_pages_addresses_and_roman_notes() -> None:
    oup = chunks_of(OUP)
    assert chunk_type(holding(oup, "Mol. Biol. Evol. 31(12):3125–3135")) == "front"
    assert chunk_type(holding(oup, "The Author 2014. Published by Oxford University Press")) == "front"
    sandia = chunks_of(SANDIA)
    assert chunk_type(holding(sandia, "Available to DOE and DOE contractors from")) == "front"
    note = holding(sandia, "The estimated strength for the triax material is set to 700 MPa")
    assert chunk_type(note) == "footnote"  # "iii" in superscript, no stop after it


def test_two_heads_in_title_case_are_no_sentence_going_on_and_head_their_text() -> None:
    # PLOS 2012's two-line head over a table on p. 2 had taken the next page's head as its
    # sentence's rest; at 91 characters it was also past the face-headings rule's length
    chunks = chunks_of(PLOS2012)
    first = holding(chunks, "In subject P01, we identified the heterozygous nonsense mutation")
    assert first.provenance.section == "Exome Sequencing Reveals Three Variants in genes Known to Cause Autosomal Dominant Disease"
    later = holding(chunks, "In the 111 candidate genes, we also identified novel")
    assert later.provenance.section == "Other Rare Variants in the Candidate Gene Set"


def test_a_supporting_information_entry_is_no_tables_caption() -> None:
    # PLOS's "Table S1 Candidate genes …" | "(DOC)": read as a table's caption, the text
    # under it (the Acknowledgments, the Author Contributions) had become the table's
    chunks = chunks_of(PLOS2012)
    assert chunk_type(holding(chunks, "Table S1 Candidate genes with reason for inclusion")) == "paragraph"
    thanks = holding(chunks, "We thank the patients and their families for participation")
    assert chunk_type(thanks) == "paragraph" and thanks.provenance.section == "Acknowledgments"


# ----------------------------------------------------------------- front matter, code, figures


def test_a_books_series_issn_and_a_note_marked_by_any_symbol_are_front_matter() -> None:
    issn = holding(chunks_of(BOOK), "Media Manifold series - issn (online) 2832-6202")
    assert chunk_type(issn) == "front"
    note = holding(chunks_of(COGNITION), "Corresponding author at: Department of Psychology")
    assert chunk_type(note) == "front"  # Elsevier's star, its font mapping it to "⇑"
    assert is_imprint("ISSN 2005-744X")
    assert not is_imprint("We follow the ISSN guidelines of the 2005 edition for all serials in the sample.")
    assert is_front_matter("⇑ Corresponding author.", at_edge=False)
    assert not is_front_matter("⇑ The results in Table 2 show a clear effect of the condition.", at_edge=False)
    assert chunk_type(holding(chunks_of(LANCET), "Equal author contribution; alphabetical order.")) == "front"


def test_a_publishers_on_behalf_of_line_is_front_matter() -> None:
    line = holding(chunks_of(GMD), "Published by Copernicus Publications on behalf of the European")
    assert chunk_type(line) == "front"


def test_a_shell_session_with_an_e_mail_address_in_it_is_code() -> None:
    session = holding(chunks_of(NOTEBOOK), "$ git config --global user.email robert@riken.jp")
    assert chunk_type(session) == "code"


def test_a_flowcharts_boxed_labels_under_its_caption_are_no_paragraphs() -> None:
    # ECDC's Word report sets "Figure 1." over a flowchart whose boxes hold body-size labels
    chunks = chunks_of(ECDC)
    assert not any("Output adjusted data for analysis" in c.text for c in chunks if chunk_type(c) == "paragraph")
    para = holding(chunks, "The tool performs multiple imputations for missing values")
    assert chunk_type(para) == "paragraph"


def test_a_th_ligature_missing_from_the_fonts_map_reads_th_not_t() -> None:
    # Hindawi's Minion Pro draws "Th" as glyph T_h, which its ToUnicode map leaves out:
    # MuPDF read "Te global market", "Tis is an open access article"
    chunks = chunks_of(HINDAWI)
    intro = holding(chunks, "global market price fluctuates dramatically")
    assert intro.text.startswith("The global market price fluctuates dramatically")
    assert "They are also items for the oil mining industry" in holding(chunks, "goods are raw materials").text
    assert not any(needs_look(c.text) for c in chunks if chunk_type(c) == "paragraph")


# ------------------------------------------------------------------------ the pure rules


_LETTERS = st.text(alphabet=string.ascii_letters, min_size=2, max_size=4)


@given(_LETTERS)
def test_a_ligature_glyph_read_as_its_first_letter_is_its_letters(letters: str) -> None:
    name = "_".join(letters)
    assert ligature_text(name, letters[0]) == letters
    assert ligature_text(name + ".alt", letters[0]) == letters  # (a variant's suffix)
    assert ligature_text(name, letters) is None  # read whole already: nothing to mend
    assert ligature_text(letters, letters[0]) is None  # no ligature's name
    assert ligature_text("uni0054_uni0068", "T") is None  # (parts named otherwise: left)


def test_words_a_lost_th_leaves_are_told_from_words() -> None:
    assert needs_look("Te global market price") and needs_look("costs. Tis is an open access")
    assert not needs_look("The global market price. This is. Ten tons. Tea and Tempo.")


def _span(text: str, size: float, font: str = "NewCenturySchlbk-Roman") -> dict[str, object]:
    return {"text": text, "size": size, "font": font, "flags": 4}


_CAPS = st.lists(st.text(alphabet=string.ascii_uppercase, min_size=2, max_size=10), min_size=1, max_size=5)


@given(_CAPS, st.floats(min_value=0.62, max_value=0.88), st.floats(min_value=8.0, max_value=14.0))
def test_capitals_drawn_small_after_each_words_capital_are_small_capitals(
        words: list[str], scale: float, size: float) -> None:
    spans = []
    for w in words:
        spans += [_span(w[0], size), _span(w[1:] + " ", round(size * scale, 1))]
    assert drawn_small_caps(spans) == round(size, 1)


@given(_CAPS, st.floats(min_value=8.0, max_value=14.0))
def test_lowercase_or_whole_capitals_words_are_no_drawn_small_capitals(words: list[str], size: float) -> None:
    small = round(size * 0.78, 1)
    lowered = [s for w in words for s in (_span(w[0], size), _span(w[1:].lower() + " ", small))]
    assert drawn_small_caps(lowered) == 0.0  # mixed case with a smaller word in it
    whole = [s for w in words for s in (_span(w + " ", size), _span(w + " ", small))]
    assert drawn_small_caps(whole) == 0.0  # a word in capitals at the larger size
    even = [_span(w + " ", size) for w in words]
    assert drawn_small_caps(even) == 0.0  # one size


def test_section_heads_need_their_stop_and_their_face() -> None:
    assert classify("Section 2. Sense of Congress. ", 10.0, False, 1, 10.0, True, italic=True)[0] == "heading"
    assert classify("SEC. 3. DEFINITIONS.", 10.0, True, 1, 10.0, True)[0] == "heading"
    # the body's roman, or no stop after the number: a sentence
    assert classify("Section 2. Sense of Congress.", 10.0, False, 1, 10.0, True)[0] == "paragraph"
    assert classify("Section 2 of the bill would provide the sense.", 10.0, False, 1, 10.0, True,
                    italic=True)[0] == "paragraph"


def _top(text: str, size: float, page: int) -> Line:
    return Line(text, (100.0, 24.0, 600.0, 24.0 + size), size, False, 0, page)


def _body(page: int) -> list[Line]:
    return [Line(f"Body text line {k} of the slide with words", (60.0, 150.0 + 30 * k, 650.0, 168.0 + 30 * k),
                 18.0, False, k + 1, page) for k in range(6)]


def test_a_large_title_atop_landscape_pages_stays_and_a_running_head_goes() -> None:
    def pages(title: str, size: float) -> list[list[Line]]:
        return [[_top(title, size, p), *_body(p)] for p in range(1, 5)]

    slides = pages("Quality Checks: Raw Data", 40.0)
    drop_furniture(slides, [540.0] * 4, [720.0] * 4)
    assert all(p[0].text == "Quality Checks: Raw Data" for p in slides)
    portrait = pages("Quality Checks: Raw Data", 40.0)
    drop_furniture(portrait, [540.0] * 4, [400.0] * 4)  # (a report's big running head)
    assert not any(ln.text == "Quality Checks: Raw Data" for p in portrait for ln in p)
    numbered = pages("Case 2", 40.0)  # (a frame's numbered navigation line)
    drop_furniture(numbered, [540.0] * 4, [720.0] * 4)
    assert not any(ln.text == "Case 2" for p in numbered for ln in p)
    small = pages("Introduction to RNA-seq", 14.0)  # (a deck's running line in small print)
    drop_furniture(small, [540.0] * 4, [720.0] * 4)
    assert not any(ln.text == "Introduction to RNA-seq" for p in small for ln in p)
