"""Layout 42 (issue 34): a running line met at another height on page 1 is furniture
there too; a face's variant (``…B+fb``) keeps its weight; run-in heads in capitals, numbered
in a span of their own, or closed by the sentence after them; a margin that changes side
from page to page, and a glossary set in it, are notes; a table's note across the page, a
head across the gutter, a two-line caption, a graph's node names, a table's foot, an
unruled table's long labels, a paragraph's one line at a page's foot, a bold sentence set
out left of its text. On real pages (batches 69 to 71, out of sample, and earlier ones),
with property tests of the pure rules."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding, pages_of

from vaultd.parse.column_bands import column_bands
from vaultd.parse.fontnames import font_family, is_bold_font, is_italic_font
from vaultd.parse.hanging_heads import hanging_heads
from vaultd.parse.margins import page_edges
from vaultd.parse.paras import Line, Para
from vaultd.parse.spans import run_in_lead

HHS = "hhs_author_manuscript_dev_cell_2023_heart_enhancer_ets_affinity_excerpt.pdf"
ASM = "asm_mbio_2022_aspergillus_fumigatus_ortholog_variation_excerpt.pdf"
ANNUAL = "annualreviews_plant_biology_2023_plant_small_rnas_excerpt.pdf"
JAMA = "jama_netw_open_llm_risk_of_bias_assessment.pdf"
CANCER_CELL = "cellpress_cancer_cell_2022_kras_g12c_hapten_immunotherapy_excerpt.pdf"

# ------------------------------------------------------- a running line at another height


def test_a_running_foot_repeated_in_page_ones_banner_is_furniture_there_too() -> None:
    # PMC sets "Dev Cell. Author manuscript; available in PMC 2024 November 06." at the foot
    # of every page and, in 11 pt, in page 1's "HHS Public Access" banner
    chunks = chunks_of(HHS)
    assert not [c for c in chunks if "available in PMC 2024 November 06" in c.text]
    # the banner's citation, not repeated, stays
    assert "doi:10.1016/j.devcel.2023.09.005" in holding(chunks, "Dev Cell. 2023 November 06").text


# ------------------------------------------------------------------ a face's variant


_STYLES = st.sampled_from([("Times-Bold", True, False), ("Times-Italic", False, True),
                           ("AdvOT3b30f6db.B", True, False), ("AdvOT65f8a23b.I", False, True),
                           ("MinionPro-Regular", False, False), ("CMBX10", True, False)])


@given(_STYLES, st.from_regex(r"[a-z0-9]{1,4}", fullmatch=True), st.booleans())
def test_a_faces_variant_after_a_plus_keeps_its_weight_and_slant(
        style: tuple[str, bool, bool], suffix: str, subset: bool) -> None:
    # ASM's ligatures come in "AdvOT3b30f6db.B+fb", the bold face's variant; a subset's
    # prefix "ABCDEF+" names no face either
    name, bold, italic = style
    variant = ("ABCDEF+" if subset else "") + f"{name}+{suffix}"
    assert (is_bold_font(variant), is_italic_font(variant)) == (bold, italic)
    assert font_family(variant) == font_family(name)


def test_a_run_in_head_with_a_ligature_in_another_font_is_still_its_sections_name() -> None:
    # "Functional classi" | "ﬁ" (AdvOT3b30f6db.B+fb) | "cation of PanOrtho genome." | " The total …"
    chunks = chunks_of(ASM)
    for words in ("The total number of genes in the PanOrtho genome was examined",
                  "Notably, the average number of genes in the entire data set"):
        assert holding(chunks, words).provenance.section == "RESULTS › Functional classification of PanOrtho genome"


# ------------------------------------------------------------- run-in heads in capitals


def test_a_run_in_label_in_capitals_closed_by_the_sentences_capital_is_a_head() -> None:
    # ASM: bold 8 pt "IMPORTANCE" then "Aspergillus fumigatus is a cosmopolitan species …"
    para = holding(chunks_of(ASM), "Aspergillus fumigatus is a cosmopolitan species of fungus")
    assert (para.provenance.section or "").endswith("› IMPORTANCE")
    # JAMA Network Open's structured abstract: "IMPORTANCE", "OBJECTIVE", "DESIGN, SETTING, …"
    jama = chunks_of(JAMA)
    assert (holding(jama, "To explore the feasibility and reliability").provenance.section or "").endswith(
        "› OBJECTIVE")


def test_a_genes_name_in_capitals_opening_a_sentence_is_no_head() -> None:
    # Cancer Cell: italic "KRAS G12C" opens "… is one of the most prevalent oncogenic driver
    # mutations": the sentence's subject, closed by no stop and followed by lowercase
    para = holding(chunks_of(CANCER_CELL), "is one of the most prevalent oncogenic driver mutations")
    assert not (para.provenance.section or "").endswith("KRAS G12C")


def _span(text: str, font: str, flags: int = 4) -> dict[str, Any]:
    return {"text": text, "font": font, "flags": flags, "size": 9.0}


@given(st.from_regex(r"[1-9](?:\.[1-9]){0,2}\.?", fullmatch=True),
       st.lists(st.sampled_from(["Primary", "microRNA", "processing", "and", "turnover"]), min_size=1, max_size=5),
       st.booleans())
def test_a_bold_number_set_as_a_span_of_its_own_opens_the_run_in_head(
        number: str, words: list[str], italic_word: bool) -> None:
    # Annual Reviews: "2.1.2." | " Primary microRNA processing and modifications." in bold,
    # then the text in roman; a word of the head may be set bold italic (``MIRNA``)
    head = " ".join(words) + "."
    spans = [_span(number, "JansonTextLTStd-Bold", 20)]
    if italic_word:
        spans.append(_span(" MIRNA", "JansonTextLTStd-BoldItal", 22))
    spans += [_span(" " + head, "JansonTextLTStd-Bold", 20), _span(" Plant pri-miRNAs form", "JansonTextLTStd-Roman")]
    assert run_in_lead(spans) == f"{number}{' MIRNA' if italic_word else ''} {head}"
    # a number in the text's roman opens no head
    assert run_in_lead([_span(number, "JansonTextLTStd-Roman"), *spans[1:]]) == ""


def test_annual_reviews_numbered_run_in_heads_name_their_sections() -> None:
    chunks = chunks_of(ANNUAL)
    assert holding(chunks, "TF-focused studies also identified").provenance.section == "2.1.1. MIRNA transcription"
    assert holding(chunks, "This contrasts with animal systems").provenance.section == \
        "2.1.2. Primary microRNA processing and modifications"


# ------------------------------------------------- a margin that changes side, a glossary in it


def test_margin_glossary_entries_are_notes_wherever_the_margin_stands() -> None:
    # the excerpt's pages keep the printed book's margins: the glossary stands left of the
    # text on p. 4 and right of it on p. 5, which the odd and even pages' edges alone miss
    chunks = chunks_of(ANNUAL)
    for words, page in (("Retrotransposon: a type of transposon", 4),
                        ("Genomic imprinting: an epigenetic phenomenon", 5)):
        note = holding(chunks, words)
        assert chunk_type(note) == "footnote"
        assert note.provenance.page == page
    # the body text beside them keeps its own section, not the glossed term's
    assert holding(chunks, "In rare cases, miRNAs direct DNA methylation").provenance.section == \
        "2.2. Biogenesis of 24-Nucleotide Small Interfering RNAs"
    # and the paragraph p. 5's entry stands beside the rest of is whole, without it
    para = holding(chunks, "Transposons are fragments of genomic DNA")
    assert "Genomic imprinting" not in para.text and pages_of(para) == [4, 5]


def _body(page: int, left: float, right: float, lines: int = 30) -> list[Line]:
    return [Line("text of the body " * 4, (left, 60.0 + 12 * k, right, 69.0 + 12 * k), 9.0, False, 0, page)
            for k in range(lines)]


@given(st.lists(st.booleans(), min_size=2, max_size=8), st.floats(40.0, 60.0), st.floats(60.0, 90.0))
def test_each_pages_edges_follow_its_own_text_when_its_margin_changes_side(
        sides: list[bool], left: float, margin: float) -> None:
    # pages whose wide margin is left (True) or right (False) in any order, as an excerpt
    # of a book keeps them: each page's edges are its own text block's
    width = 365.0
    pages = [_body(i + 1, left + margin if wide_left else left, (left + margin if wide_left else left) + width)
             for i, wide_left in enumerate(sides)]
    for lines, (left_edge, right_edge) in zip(pages, page_edges(pages), strict=True):
        x0, _, x1, _ = lines[0].bbox
        assert left_edge is not None and right_edge is not None
        assert abs(left_edge - x0) <= 1.5 and abs(right_edge - x1) <= 1.5


def test_a_column_left_empty_is_no_margin() -> None:
    # a two-column document's page whose right column holds no text of the body's size (a
    # table, a figure): its side's right edge stays, and a note there is judged by it
    def two_columns(page: int) -> list[Line]:
        return [Line("two columns of body text here", (50.0 + 250.0 * c, 60.0 + 12 * k, 290.0 + 250.0 * c,
                                                        69.0 + 12 * k), 9.0, False, 0, page)
                for c in (0, 1) for k in range(30)]
    pages = [two_columns(1), two_columns(2), two_columns(3), _body(4, 50.0, 290.0)]
    right_edge = page_edges(pages)[3][1]
    assert right_edge is not None and abs(right_edge - 540.0) <= 1.5


# ------------------------------------------------ a report's bands, notes and diagrams

UNESCO = "unesco_report_2021_ai_education_guidance_policymakers_excerpt.pdf"


def test_a_paragraph_left_open_over_a_table_goes_on_atop_the_next_page_not_in_its_note() -> None:
    # p. 1's right column ends "… have come about because of" over Table 1; the table's
    # note under it, set across the page in its own size, opens "Almost all of the world's
    # big technology companies …"; the sentence goes on atop p. 2: "sophisticated refinements …"
    chunks = chunks_of(UNESCO)
    para = holding(chunks, "have come about because of")
    assert "because of sophisticated refinements of these algorithms" in para.text
    assert "Almost all of the world" not in para.text and pages_of(para) == [1, 2]


def test_a_section_head_across_the_page_cuts_it_into_bands() -> None:
    # p. 4: two columns, then "2.3 A brief introduction to AI technologies" on a band across
    # the page, then two columns again; the left column's last paragraph over the band goes
    # on atop the right column ("… which is especially" | "important when ANNs …"), not
    # after the band's text
    chunks = chunks_of(UNESCO)
    para = holding(chunks, "The hidden layers are the key to the power of ANNs")
    assert "important when ANNs and other ML techniques are being used to make decisions" in para.text
    items = holding(chunks, "The use of AI for facial recognition")
    assert "postal sorting" in items.text and "important when ANNs" not in items.text


def test_a_diagrams_labels_under_a_two_line_caption_are_the_figures() -> None:
    # p. 3: "FIGURE 1: THE RELATIONSHIP BETWEEN ARTIFICIAL INTELLIGENCE," | "MACHINE
    # LEARNING, NEURAL NETWORKS AND DEEP LEARNING." over nested circles labelled "Artificial
    # Intelligence" … "Deep Learning": no heads, and the column's paragraph goes on past them
    chunks = chunks_of(UNESCO)
    assert not [c for c in chunks if chunk_type(c) == "heading" and c.text in
                ("Artificial Intelligence", "Machine Learning", "Neural Networks", "Deep Learning")]
    para = holding(chunks, "There are three main ML approaches")
    assert "is provided with even larger amounts of data" in para.text


def _column_lines(x0: float, x1: float, top: float, n: int, block: int) -> list[Line]:
    return [Line("words of a column's text set in lines", (x0, top + 12 * k, x1, top + 12 * k + 9), 9.0, False, block, 1)
            for k in range(n)]


@given(st.floats(280.0, 320.0), st.booleans())
def test_a_bold_numbered_head_across_the_gutter_between_two_column_stretches_cuts_a_band(
        head_right: float, across: bool) -> None:
    # two columns (50–290, 310–550) over and under a bold "2.3 …" head: reaching past the
    # gutter's middle (300), it is a head over both columns; inside the left one, a column's
    # head beside the other column's gap (a float's foot), and the page stays one band
    right = head_right if across else 280.0
    head = Line("2.3 A brief introduction to AI technologies", (55.0, 520.0, right, 534.0), 13.0, True, 9, 1)
    blocks = [_column_lines(50.0, 290.0, 60.0, 30, 1), _column_lines(310.0, 550.0, 60.0, 30, 2), [head],
              _column_lines(50.0, 290.0, 560.0, 12, 3), _column_lines(310.0, 550.0, 560.0, 12, 4)]
    boxed = [((min(ln.bbox[0] for ln in g), min(ln.bbox[1] for ln in g), max(ln.bbox[2] for ln in g),
               max(ln.bbox[3] for ln in g)), g) for g in blocks]
    bands = column_bands(boxed, 300.0, 18.0)
    crosses = head.bbox[0] < 300.0 < head.bbox[2]
    assert len(bands) == (2 if crosses else 1)
    if crosses:
        assert next(g for _, g in bands[1]) == [head]


# ------------------------------------------------------- a table's foot, a graph's nodes

ACS = "acs_jchemeduc_2025_ai4green_electronic_lab_notebook_excerpt.pdf"
ECON = "econsoc_theoretical_economics_2022_stable_aggregate_matchings_excerpt.pdf"
FRONTIERS = "frontiers_pubhealth_2022_smartphone_vision_loss_case_report.pdf"


def test_the_text_under_a_tables_foot_rule_set_larger_than_its_rows_is_no_row() -> None:
    # ACS's Table 1 in 8 pt across the page; under its foot rule both columns go on in
    # 10 pt: "standardization, limited resources, …" | "(Findability, Accessibility, …"
    chunks = chunks_of(ACS)
    table = next(c for c in chunks if chunk_type(c) == "table" and "E-factor" in c.text)
    assert "Findability" not in table.text and "standardization" not in table.text
    para = holding(chunks, "ensure adherence to FAIR principles")
    assert "(Findability, Accessibility, Interoperability, and Reusability)" in para.text
    # a table whose cells are phrases with commas keeps its rows (Frontiers' Table 1)
    frontiers = [c for c in chunks_of(FRONTIERS) if chunk_type(c) == "table" and "Voice call" in c.text]
    assert len(frontiers) == 1 and "Online banking" in frontiers[0].text


def test_a_bulleted_references_head_opens_the_bibliography_and_its_entries_stay_whole() -> None:
    # ACS: "■ REFERENCES"; entry (4)'s second line set flush left under its indented first
    chunks = chunks_of(ACS)
    entry = holding(chunks, "(4) Sustainable University Leadership and Governance")
    assert chunk_type(entry) == "reference" and "2030 Agenda. UNESCO-IESALC" in entry.text
    assert chunk_type(holding(chunks, "(18) Lambert, K. M.")) == "reference"
    assert holding(chunks, "ELNs facilitate data sharing").provenance.section == \
        "Electronic Laboratory Notebooks in Teaching Laboratories"


def test_a_graphs_node_names_over_its_drawing_are_the_figures() -> None:
    # Theoretical Economics p. 3: "w1 w2 w3" over the bipartite graph G of Figure 4; the
    # paragraph left open at p. 2's foot goes on under the figure's caption
    chunks = chunks_of(ECON)
    para = holding(chunks, "Our results rely on the construction of a bipartite graph")
    assert "The vertices V are given by the set of types" in para.text
    assert not [c for c in chunks if c.text.strip() == "w1 w2 w3"]


FRB = "frb_working_paper_2025_household_intertemporal_substitution_excerpt.pdf"


def test_an_unruled_tables_rows_with_long_labels_and_values_under_them_are_its_rows() -> None:
    # the working paper's Table 3, no rule drawn, its caption under it: each estimate's row
    # ("Leeper et al. (2012) expected taxes from one to five years forward -0.33 0.79")
    # and its standard errors' row ("(0.82) (3.50)") under it
    chunks = chunks_of(FRB)
    assert not [c for c in chunks if chunk_type(c) == "paragraph" and "expected taxes from one to five" in c.text]
    table = holding(chunks, "expected taxes from one to five years forward")
    assert chunk_type(table) == "table" and "Romer and Romer (2004)" in table.text


def test_a_paragraphs_one_line_at_a_page_foot_goes_on_past_a_figure_atop_the_next() -> None:
    # p. 5 ends with a paragraph's indented first line, full to the measure, its sentence
    # open ("… lower than suggested by the empirical evidence"); p. 6 opens with Figure 11
    # and its caption, then "I use to discipline my one-asset model." set flush
    para = holding(chunks_of(FRB), "A further concern is that MPCs may be lower")
    assert "the empirical evidence I use to discipline my one-asset model" in para.text
    assert pages_of(para) == [5, 6]


# ------------------------------------------------- heads told by their place or their close


def test_a_bold_sentence_set_out_left_of_the_text_under_it_is_its_head() -> None:
    # PMC's author manuscripts set the text in from the margin and each subsection's head
    # out at it, bold, a sentence with its full stop
    para = holding(chunks_of(HHS), "The role of FGF signaling in specification and migration of heart cells")
    assert (para.provenance.section or "").endswith(
        "Low-affinity ETS sites are prevalent in putative developmental heart enhancers across chordates "
        "and these enhancers are vulnerable to affinity-optimizing SNVs.")


def _hanging_para(text: str, x0: float, y: float, bold: bool, lines: int = 1) -> Para:
    return Para("paragraph", [Line(text, (x0, y + 12 * k, 520.0, y + 12 * k + 10), 10.0, bold, 0, 1)
                              for k in range(lines)], text)


@given(st.floats(0.0, 60.0), st.booleans(), st.sampled_from([".", "", ":"]))
def test_only_a_bold_sentence_standing_out_two_ems_left_of_its_text_is_a_head(
        out: float, bold: bool, stop: str) -> None:
    head = _hanging_para(f"Low-affinity sites are prevalent in heart enhancers{stop}", 90.0, 100.0, bold)
    text = _hanging_para("The role of FGF signaling in specification and migration of heart cells is",
                         90.0 + out, 118.0, False, lines=3)
    hanging_heads([head, text])
    assert (head.type == "heading") == (bold and stop == "." and out >= 20.0)


def test_words_set_apart_closed_by_the_sentence_after_them_are_a_run_in_head() -> None:
    # Theoretical Economics: italic "Computing the CMI" then "Using known results from matroid theory, …"
    para = holding(chunks_of(ECON), "Using known results from matroid theory")
    assert (para.provenance.section or "").endswith("› Computing the CMI")
