"""Layout 29 (issue 34, batch 18 of eval/quotes: GAO reports set with side heads, EPA
documents made in Word, a Language Science Press chapter, a Springer mathematics article,
a Pensoft article, an AutoML paper, a USENIX-style white paper), on real pages, with
property tests of the pure rules."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding, pages_of

from vaultd.models import Chunk
from vaultd.parse.block_paras import split_group
from vaultd.parse.classify import heading_number
from vaultd.parse.code import is_code
from vaultd.parse.paras import Line
from vaultd.parse.reading_order import order_page

GAO_TESTIMONY = "gao_testimony_eac_employee_survey.pdf"
GAO_REPORT = "gao_report_performance_information_use_excerpt.pdf"
FACT_SHEET = "factsheet_epa_avert_emissions_tool_word.pdf"
NLA = "report_epa_nla2012_lake_survey_design_word.pdf"


def _index(chunks: list[Chunk], words: str) -> int:
    return next(i for i, c in enumerate(chunks) if words in c.text)


# ----------------------------------------------------------------- GAO's side heads


def test_a_side_head_in_the_margin_heads_the_text_level_with_it() -> None:
    # GAO sets its 17 pt heads in a wide left margin, top-aligned with their section's first
    # line; the head's top falls a hair below the text's, and it had been read after it
    chunks = chunks_of(GAO_TESTIMONY)
    head = _index(chunks, "Overall Survey Response Rate")
    assert chunk_type(chunks[head]) == "heading"
    text = _index(chunks, "The survey was sent to all GAO employees")
    assert head < text
    assert chunks[text].provenance.section == "Overall Survey Response Rate"


def test_a_side_head_wrapped_onto_four_lines_is_a_heading() -> None:
    chunks = chunks_of(GAO_TESTIMONY)
    head = holding(chunks, "Methodology for Content Analysis of Open-Ended Survey Question")
    assert chunk_type(head) == "heading"
    para = holding(chunks, "To give respondents an opportunity to provide additional thoughts")
    assert para.provenance.section == "Methodology for Content Analysis of Open-Ended Survey Question"
    assert chunk_type(holding(chunks, "Analysis of Close-Ended Survey Questions")) == "heading"


def test_a_side_head_on_its_texts_baseline_is_split_off_that_line() -> None:
    # MuPDF gives "Results in Brief" and "Agencies can use performance information …" as one
    # line of one block: the head had read as the paragraph's first words
    chunks = chunks_of(GAO_REPORT)
    head = holding(chunks, "Results in Brief")
    assert chunk_type(head) == "heading" and head.text.strip() == "Results in Brief"
    # (the Highlights page over the letter says it too)
    para = holding([c for c in chunks if c.provenance.page == 5], "Agencies can use performance information to")
    assert chunk_type(para) == "paragraph" and para.text.startswith("Agencies can use")
    assert para.provenance.section == "Results in Brief"


def test_a_dash_opening_a_line_inside_a_sentence_is_no_list_item() -> None:
    para = holding(chunks_of(GAO_TESTIMONY), "GAO should deal with the real problem")
    assert chunk_type(para) == "paragraph"
    assert "the real problem – poor performance, concerns about the lack of domestic partner" in para.text
    assert pages_of(para) == [8, 9]


def test_a_charts_labels_under_its_caption_never_stand_in_paragraphs() -> None:
    # a thick rule over "Figure 3: …" had been taken for the figure, and the bar chart's
    # labels under the caption for text
    chunks = chunks_of(GAO_REPORT)
    prose = [c.text for c in chunks if chunk_type(c) in ("paragraph", "list")]
    for label in ("Key management activities", "Setting program", "Improved results", "Demonstrating"):
        assert not any(label in text for text in prose), label


def test_white_text_with_nothing_drawn_under_it_is_not_read() -> None:
    # GAO's hidden "Letter" tab and Springer's production string "0123456789().: V,-vol"
    assert not any("Leter" in c.text for c in chunks_of(GAO_REPORT))
    chunks = chunks_of("springer_anncomb_cluster_algebra_dominance_regions_excerpt.pdf")
    assert not any("V,-vol" in c.text for c in chunks)
    assert chunk_type(holding(chunks, "Keywords. Cluster algebra, Dominance order")) == "front"


# -------------------------------------------------------------- Word documents (EPA)


def test_a_sidebar_right_of_the_text_is_read_after_it() -> None:
    chunks = chunks_of(FACT_SHEET)
    para = holding(chunks, "AVERT is a free tool with a simple user interface")
    assert para.provenance.section == "What is AVERT?"
    assert _index(chunks, "AVERT is a free tool") < _index(chunks, "Cost-effective ways to reduce air pollution")


def test_a_ragged_paragraph_set_flush_goes_on_past_a_sentences_end_that_leaves_no_room() -> None:
    # the sidebar's "… enhance public health." | "Decision-makers and analysts …": the next
    # word would not have fitted on the line; the document parts its paragraphs by space
    chunks = chunks_of(FACT_SHEET)
    para = holding(chunks, "EPA is committed to helping state and local governments")
    assert "enhance public health. Decision-makers and analysts can use the AVERT tool" in para.text


def test_a_paragraph_running_round_a_map_is_one_paragraph() -> None:
    # narrow beside the map, then across the page under it
    para = holding(chunks_of(FACT_SHEET), "AVERT’s web-based Main Module runs in any major web browser")
    assert "For renewable energy programs, users will need to know the capacity" in para.text
    assert "see the AVERT User Manual" in para.text


def test_a_bullet_set_in_its_own_size_keeps_its_items_second_line() -> None:
    item = holding(chunks_of(FACT_SHEET), "Visit the AVERT website")
    assert chunk_type(item) == "list"
    assert "take online training at www.epa.gov/avert" in item.text


def test_a_data_format_set_in_times_is_code_and_the_first_head_a_heading() -> None:
    chunks = chunks_of(NLA)
    assert chunk_type(holding(chunks, 'PARAMETER["Standard_Parallel_1",29.5]')) == "code"
    assert chunk_type(holding(chunks, "PROJCS[")) == "code"
    head = holding(chunks, "Target population")
    assert chunk_type(head) == "heading"
    assert holding(chunks, "All lakes, reservoirs, and ponds").provenance.section == "Target population"


# ----------------------------------------------------------------------- and the others


def test_a_citation_broken_after_et_al_goes_on_on_the_next_page() -> None:
    para = holding(chunks_of("pensoft_compcytogen_rosa_fish_karyotype_excerpt.pdf"),
                   "Interestingly, FISH under the low hybridization temperature")
    assert "(Fuchs et al. 1995, Tek and Jiang 2004" in para.text
    assert pages_of(para) == [6, 7]


def test_a_licence_footer_in_the_bodys_size_is_front_matter_and_a_quoted_head_numbered() -> None:
    chunks = chunks_of("automl_bibat_bayesian_workflow_template_excerpt.pdf")
    assert chunk_type(holding(chunks, "Submitted to AutoML 2024")) == "front"
    head = holding(chunks, "‘Hello world’ example")
    assert chunk_type(head) == "heading"
    assert holding(chunks, "This section illustrates bibat’s use").provenance.section == "3 ‘Hello world’ example"


def test_a_box_title_under_its_label_does_not_stop_the_paragraph_it_interrupts() -> None:
    # Nature Sustainability: "Box 1" | "Key concepts and terms on …" (18 pt) between the two
    # pieces of "Climate change seriously threatens livestock …"
    chunks = chunks_of("natsust_livestock_climate_priorities.pdf")
    para = holding(chunks, "Climate change seriously threatens livestock productivity")
    assert "that US$994 billion per year in livestock value" in para.text
    assert chunk_type(holding(chunks, "Key concepts and terms on climate change")) == "heading"


# ------------------------------------------------------------------- the pure rules


@given(st.sampled_from(["‘", "“", '"', "'", ""]), st.integers(min_value=1, max_value=30),
       st.sampled_from(["Hello world’ example", "Design choices", "Results"]))
def test_a_section_number_may_stand_before_an_opening_quote(quote: str, number: int, title: str) -> None:
    assert heading_number(f"{number} {quote}{title}") == str(number)


@given(st.lists(st.text(alphabet="abcdefghij ", min_size=20, max_size=60), min_size=3, max_size=8))
def test_lines_of_prose_are_never_program_text(texts: list[str]) -> None:
    lines = [Line(f"{t} word, (a) = b; and more words here", (72.0, 100.0 + 14 * k, 500.0, 112.0 + 14 * k),
                  12.0, False, 1, 1, font="TimesNewRomanPSMT") for k, t in enumerate(texts)]
    assert not is_code(lines, " ".join(ln.text for ln in lines))


@given(st.integers(min_value=3, max_value=9))
def test_a_data_formats_lines_in_a_text_face_are_program_text(n: int) -> None:
    lines = [Line(f'PARAMETER["False_Easting_{k}",0.0],', (90.0, 100.0 + 14 * k, 280.0, 112.0 + 14 * k),
                  12.0, False, 1, 1, font="TimesNewRomanPSMT") for k in range(n)]
    assert is_code(lines, " ".join(ln.text for ln in lines))
    lines[0].text = "[(R/S)-2-methyl-{3-(((R)-1-(N-(benzyloxycarbonyl)amino)-"  # a compound's name: no statement's end
    assert not is_code(lines, " ".join(ln.text for ln in lines))


def _text_block(x0: float, top: float, n: int, block: int, size: float = 11.0,
                width: float = 360.0) -> list[Line]:
    return [Line(f"a line of the section's text set across its measure {block}.{k}",
                 (x0, top + 13 * k, x0 + width, top + 13 * k + size), size, False, block, 1) for k in range(n)]


@given(st.floats(min_value=-3.0, max_value=3.0), st.integers(min_value=2, max_value=4),
       st.integers(min_value=2, max_value=8))
def test_a_side_head_is_read_before_the_text_level_with_its_first_line(shift: float, head_lines: int,
                                                                         text_lines: int) -> None:
    text = _text_block(216.0, 300.0, text_lines, 2)
    head = [Line(f"Side Head Words {k}", (37.0, 300.0 + shift + 20 * k, 150.0, 317.0 + shift + 20 * k), 17.0,
                 False, 1, 1) for k in range(head_lines)]
    above = _text_block(216.0, 200.0, 3, 3)
    order = [ln.text for g in order_page(above + text + head, 612.0) for ln in g]
    assert order == [ln.text for ln in above + head + text]


@given(st.integers(min_value=4, max_value=12), st.integers(min_value=4, max_value=12))
def test_a_main_column_is_read_before_the_sidebar_right_of_it(main: int, side: int) -> None:
    text = _text_block(43.0, 260.0, main, 1, width=355.0)
    sidebar = _text_block(424.0, 250.0, side, 2, width=148.0)
    order = [ln.text for g in order_page(sidebar + text, 612.0) for ln in g]
    assert order == [ln.text for ln in text + sidebar]


def test_a_sentence_end_on_a_flush_paragraphs_line_goes_on_when_the_next_word_would_not_fit() -> None:
    def line(text: str, x1: float, k: int) -> Line:
        return Line(text, (424.0, 500.0 + 15 * k, x1, 512.0 + 15 * k), 11.0, False, 7, 1, font="Calibri")
    group = [line("EPA is committed to helping", 560.0, 0), line("state and local governments", 558.0, 1),
             line("enhance public health.", 532.0, 2), line("Decision-makers and analysts", 566.0, 3)]
    assert len(split_group(group, flush=True)) == 1
    assert len(split_group(group, flush=False)) == 2  # a document not known to set paragraphs flush
    group[3] = line("So the next word fits", 556.0, 3)
    assert len(split_group(group, flush=True)) == 2


# --------------------------------------------------- batch 19: JAMA, JMIR, ONS, a Tufte paper

JAMA = "jama_netw_open_llm_risk_of_bias_assessment.pdf"
JMIR = "jmir_resprotoc_wifi_sensing_older_adults_excerpt.pdf"
ONS = "ons_bulletin_consumer_price_inflation_april_2025_excerpt.pdf"


def test_a_ragged_line_that_leaves_no_room_for_the_next_word_goes_on() -> None:
    # JAMA sets every line as a block of its own, ragged right, and indents its paragraphs:
    # "… consistent model versions." stops 16 pt short of the margin, but "Throughout" would
    # not have fitted there, and the line under it is flush
    chunks = chunks_of(JAMA)
    para = holding(chunks, "For the assessment, the finalized prompt was applied to all RCTs")
    assert "consistent model versions. Throughout the process, strict adherence" in para.text
    assert pages_of(para)[0] == 3 and pages_of(para)[-1] == 4
    para = holding(chunks, "The complete assessment results are summarized in eTable 3")
    assert "in Supplement 1. Both LLM 1 and LLM 2 demonstrated good accuracy" in para.text


def test_an_unnumbered_tables_caption_and_its_abbreviations_are_the_tables() -> None:
    chunks = chunks_of(JAMA)
    assert chunk_type(holding(chunks, "Table. Domain-Specific Accuracy and Consistency")) == "table"
    assert not any("Abbreviations: LLM, large language model; NA" in c.text for c in chunks
                   if chunk_type(c) in ("paragraph", "list"))


def test_text_under_a_figure_in_a_narrow_column_is_no_label_of_it() -> None:
    # JMIR: the column under Figure 1 had been read as the figure's labels, line after
    # line, and lost
    para = holding(chunks_of(JMIR), "Table 1 shows the preliminary accuracy values of ML")
    assert chunk_type(para) == "paragraph"
    assert "confusion can be resolved by gathering more data from these activities and strategically" in para.text


def test_a_head_under_both_columns_is_read_after_the_right_one() -> None:
    chunks = chunks_of(JMIR)
    para = holding(chunks, "This pilot study is poised to make a valuable contribution")
    assert "Our passive sensing device has the potential to identify individuals" in para.text
    assert _index(chunks, "sensing device has the potential") < _index(chunks, "Acknowledgments")


def test_a_sidenote_in_the_texts_font_is_a_note_and_leaves_the_paragraph_whole() -> None:
    chunks = chunks_of("workingpaper_tufte_democracy_trade_agreements_es.pdf")
    para = holding(chunks, "La variable dependiente es la profundidad de un acuerdo")
    assert "modelo Rasch5. Este resultado se expresa en una función logística" in para.text
    assert "psicométricos" not in para.text
    assert chunk_type(holding(chunks, "Corresponde a un tipo de análisis")) == "footnote"


def test_a_dateline_and_a_tables_bold_rows_are_no_headings() -> None:
    chunks = chunks_of(ONS)
    assert chunk_type(holding(chunks, "5 June 2025 07:00")) != "heading"
    assert chunk_type(holding(chunks, "2024 Apr 132.2 3.0 0.5")) != "heading"
    assert holding(chunks, "This error is isolated to one component dataset").provenance.section == "Correction"
    assert chunk_type(holding(chunks, "Consumer Price Inflation team")) == "front"


@given(st.integers(min_value=1, max_value=28), st.sampled_from(["January", "June", "Dec.", "sept"]),
       st.integers(min_value=1900, max_value=2099))
def test_a_date_opening_a_line_has_no_section_number(day: int, month: str, year: int) -> None:
    assert heading_number(f"{day} {month} {year} 07:00") is None


@given(st.lists(st.floats(min_value=-500, max_value=500, allow_nan=False).map(lambda v: f"{v:.1f}"),
                min_size=3, max_size=9), st.sampled_from(["2024 Apr", "CPI", "Jul"]))
def test_a_row_of_figures_is_never_a_heading(figures: list[str], label: str) -> None:
    from vaultd.parse.classify import classify
    kind, _ = classify(f"{label} {' '.join(figures)}", 10.0, True, 1, 10.0, True)
    assert kind != "heading"


def test_a_first_pages_key_points_box_is_read_after_the_abstract_beside_it() -> None:
    # JAMA sets every line as a block of its own: the abstract's lines (0.54 of the page,
    # across its middle) had been read one by one between the Key Points box's, and
    # sentences of the two run into each other
    chunks = chunks_of(JAMA)
    para = holding(chunks, "IMPORTANCE Large language models (LLMs) may facilitate")
    assert "labor-intensive process of systematic reviews. However, the exact methods" in para.text
    points = holding(chunks, "Question Are large language models")
    assert "Are large language models reliable for assessing risk of bias (ROB)" in points.text
    assert _index(chunks, "CONCLUSIONS In this survey study") < _index(chunks, "Question Are large language models")


def test_a_figure_under_its_caption_is_its_own_not_the_one_over_it() -> None:
    # JAMA sets captions over figures: Figure 3's caption had taken Figure 2's drawings over
    # it for its figure, and Figure 3's labels stood as paragraphs
    prose = [c.text for c in chunks_of(JAMA) if chunk_type(c) in ("paragraph", "list")]
    for label in ("Domain 3.e", "Domain 1 Domain 6", "Domain 3.d"):
        assert not any(label in text for text in prose), label


def test_a_tables_label_over_its_next_pages_rows_is_a_caption() -> None:
    chunks = chunks_of("dib_hotel_booking_demand_datasets_excerpt.pdf")
    assert chunk_type(holding(chunks, "Table 1 (continued )")) == "table"
    assert not any("ID is presented instead of designation" in c.text for c in chunks if chunk_type(c) == "paragraph")


def test_a_run_of_small_capitals_in_another_face_inside_a_sentence_leaves_it_whole() -> None:
    # the Federal Register's "… should be sent to the person identified" | "in the FOR
    # FURTHER INFORMATION" (7.3 pt Helvetica capitals among 9 pt Melior) | "CONTACT section."
    para = holding(chunks_of("federal_register_faa_737max_airworthiness_nprm.pdf"),
                   "CBI is commercial or financial information that is both customarily")
    assert "should be sent to the person identified in the FOR FURTHER INFORMATION CONTACT section." in para.text


def test_a_table_ruled_row_by_row_inside_a_longer_stack_of_rules_is_a_table() -> None:
    # Chrome prints a Wikipedia table with a full-width rule under each row; the stack of
    # such rules runs on past it to the next table's top over a list of short lines, and
    # the whole stack had been no table: its rows were read as paragraphs
    chunks = chunks_of("wikipedia_cabinet_office_chrome_print_excerpt.pdf")
    table = holding(chunks, "Name Position Tenure")
    assert chunk_type(table) == "table"
    assert "Sir Alex Chisholm KCB" in table.text
    assert chunk_type(holding(chunks, "The Cabinet Office also supports the work of:")) == "paragraph"


def test_a_bold_head_of_two_lines_stating_a_finding_heads_its_section() -> None:
    chunks = chunks_of("pensoft_compcytogen_rosa_fish_karyotype_excerpt.pdf")
    head = holding(chunks, "FISH using Arabidopsis-type telomere repeat, 5S rDNA and 45S rDNA allows")
    assert chunk_type(head) == "heading"
    para = holding(chunks, "To further evaluate the value of the telomeric repeat (TR)")
    assert "allows unambiguous identification of 3 Rosa wichurana" in (para.provenance.section or "")


def test_a_chemistry_papers_scheme_is_a_figure_and_its_yields_no_text() -> None:
    # ``Scheme 3.`` heads a figure as ``Figure 3.`` does: the scheme's drawn structures are
    # its region, and their labels and yields (``2ba 83% 2ca 84% 2da 84%``) no paragraph
    chunks = chunks_of("chemrxiv_peterson_olefination_preprint.pdf")
    assert chunk_type(holding(chunks, "Scheme 2. Influence of the Siloxy Substituent")) == "figure"
    assert not any("2ba 83%" in c.text for c in chunks if chunk_type(c) == "paragraph")
