"""Layout 26 (issue 34, batch 11 of eval/quotes: bioRxiv, Nature Communications, the Royal
Society, a NASA report, ACM; and batch 10's CEUR tables), on real pages, with property
tests of the pure rules."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding, pages_of

from vaultd.parse.bare_tables import bare_tables
from vaultd.parse.classify import classify, opens_item
from vaultd.parse.open_tables import rows_past_rules
from vaultd.parse.paras import Line, Para
from vaultd.parse.run_in import run_in_heads

# ------------------------------------------------- CEUR: tables ruled under header and rows


def test_rows_set_against_a_tables_outer_rules_are_its_cells() -> None:
    # CEUR (ICBO 2022) p. 8: Tables 2 and 3 draw a rule under their header and between their
    # rows, none on top and none at the foot; the header rows and the last row had been
    # paragraphs ("Model F1 Jaccard", "Ontology aware model (ELMo) 0.81 0.84").
    chunks = chunks_of("ceur_ontology_aware_annotation_workshop.pdf")
    table2 = holding(chunks, "CRAFT 0.74 0.75 0.82 0.86")
    assert chunk_type(table2) == "table"
    assert table2.text.startswith("Top Top Model Embed. F1 Jaccard")
    table3 = holding(chunks, "BERT 0.77 0.80")
    assert chunk_type(table3) == "table"
    assert table3.text == "Model F1 Jaccard BERT 0.77 0.80 Ontology aware model (ELMo) 0.81 0.84"
    table1 = holding(chunks, "Accurate annotation prediction")
    assert table1.text.startswith("Phrase Gold standard annotation Model’s annotation")
    for cells in ("Model F1 Jaccard", "Ontology aware model (ELMo)", "Phrase Gold standard"):
        assert all(cells not in c.text for c in chunks if chunk_type(c) == "paragraph")


def test_the_columns_text_under_a_centred_caption_goes_on_with_its_paragraph() -> None:
    # MuPDF put the left column's first lines in the block of Table 1's full-width caption;
    # the paragraph they finish had stopped at p. 7's foot on "… recognition and other".
    chunks = chunks_of("ceur_ontology_aware_annotation_workshop.pdf")
    caption = holding(chunks, "Table 1: Examples of accurate")
    assert caption.text == ("Table 1: Examples of accurate, partially accurate, and inaccurate "
                            "annotation predictions.")
    para = holding(chunks, "We also compare the transformer based BERT model")
    assert "named entity recognition and other NLP tasks. Results show that our ontology" in para.text
    assert pages_of(para) == [7, 8]


def test_a_captions_second_line_is_never_the_tables_header() -> None:
    # IOP EES: the centred second caption line stands right on the table's top rule
    chunks = chunks_of("iop_ees_wheat_supplement_conference.pdf")
    caption = holding(chunks, "Table 1. Organoleptic characteristics")
    assert caption.text.endswith("at control points, (М±m) (n=7)")
    assert holding(chunks, "Indicators Characteristic Total score").text.startswith("Indicators")


# ------------------------------------------------------------------------ run-in headings


def test_a_run_in_heading_names_the_section_of_its_paragraphs() -> None:
    # Nature Communications: "Signature development." in bold, the paragraph in roman
    chunks = chunks_of("natcomms_woo_cerebral_pain_contributions.pdf")
    first = holding(chunks, "Signature development. To develop the SIIPS1 pattern")
    assert first.provenance.section == "Results › Signature development"
    assert holding(chunks, "As shown in Fig. 1c and Supplementary Fig. 2").provenance.section \
        == "Results › Signature development"
    assert holding(chunks, "The SIIPS1 also revealed finer-grained structure").provenance.section \
        == "Results › Characterization of local pattern topography"


def test_a_proof_or_a_numbered_label_is_no_run_in_heading() -> None:
    chunks = chunks_of("book_erickson_algorithms_mst_chapter.pdf")
    proof = holding(chunks, "Let G be an arbitrary connected graph with two minimum spanning trees")
    assert proof.provenance.section == "Minimum Spanning Trees › 7.1 Distinct Edge Weights"


def test_an_abstract_label_in_bold_before_its_text_is_the_abstracts_section() -> None:
    chunks = chunks_of("biorxiv_hippocampus_dissociation_transcriptome.pdf")
    assert holding(chunks, "Single-neuron gene expression studies").provenance.section.endswith("› Abstract")


def _line(text: str, lead: str = "", y: float = 100.0) -> Line:
    return Line(text, (50.0, y, 300.0, y + 10.0), 10.0, False, 0, 1, mixed=bool(lead), lead=lead)


def _para(text: str, lead: str) -> Para:
    return Para("paragraph", [_line(text, lead)], text)


@given(st.sampled_from(["Theorem 2.", "Lemma 3.1.", "Step 4:", "Figure 2.", "Table 1.", "Proof."]),
       st.lists(st.sampled_from(["the", "model", "was", "fitted", "to", "data"]), min_size=3, max_size=12))
def test_statements_captions_and_numbered_labels_never_open_a_section(lead: str, words: list[str]) -> None:
    para = _para(f"{lead} {' '.join(words)}", lead)
    run_in_heads([para])
    assert para.runin is None


@given(st.lists(st.sampled_from(["Data", "collection", "Study", "area", "Noise", "estimation"]),
                min_size=1, max_size=6),
       st.sampled_from([".", ":"]),
       st.lists(st.sampled_from(["we", "counted", "birds", "in", "nine", "sectors"]), min_size=3, max_size=12))
def test_a_closed_lead_of_words_before_a_sentence_is_a_run_in_heading(
        name: list[str], stop: str, words: list[str]) -> None:
    lead = " ".join(name).capitalize() + stop
    para = _para(f"{lead} {' '.join(words)}", lead)
    run_in_heads([para])
    assert para.runin == lead[:-1]


def test_an_open_lead_is_no_heading_unless_it_names_an_opening_section() -> None:
    para = _para("Data collection we counted birds in nine sectors", "Data collection")
    run_in_heads([para])
    assert para.runin is None
    abstract = _para("Abstract Single-neuron gene expression studies may be", "Abstract")
    run_in_heads([abstract])
    assert abstract.runin == "Abstract"


def test_a_bracket_lettered_line_set_large_is_a_heading() -> None:
    # the Royal Society's "(a) Study area", 14 pt over an 8.5 pt body
    assert classify("(a) Study area", 14.0, False, 1, 8.5, True)[0] == "heading"
    assert classify("(a) the first of the options", 8.5, False, 1, 8.5, True)[0] == "paragraph"
    chunks = chunks_of("rspb_montane_bird_coexistence.pdf")
    assert holding(chunks, "Climatic conditions are influenced by the mountainous").provenance.section \
        == "2. Methods › (a) Study area"


# -------------------------------------------------- bioRxiv: line numbers, figure labels


def test_line_numbers_between_a_sidebar_and_the_text_are_dropped() -> None:
    chunks = chunks_of("biorxiv_hippocampus_dissociation_transcriptome.pdf")
    para = holding(chunks, "Nervous systems are comprised of diverse cell types")
    assert "express different genes to serve distinct functions. Even within" in para.text


def test_an_axis_title_level_with_a_figure_over_its_caption_is_the_figures() -> None:
    # "log fold difference" (the volcano plot's axis title, left of the heatmap the figure's
    # drawings hold) had been read into the paragraph broken across pp. 3-4 at "disso-"
    chunks = chunks_of("biorxiv_hippocampus_dissociation_transcriptome.pdf")
    para = holding(chunks, "Because the hippocampus is central to learning and memory")
    assert "affected by dissociation. We first examined expression of 240 genes" in para.text
    assert pages_of(para) == [3, 4]
    assert all("log fold difference" not in c.text for c in chunks if chunk_type(c) == "paragraph")


# ------------------------------------------------------------------ a NASA report, ACM


def test_notes_a_point_smaller_opening_with_their_mark_are_footnotes() -> None:
    chunks = chunks_of("techreport_nasa_tmats_users_guide_excerpt.pdf")
    assert chunk_type(holding(chunks, "http://www2.chem.umd.edu/thermobook/")) == "footnote"


def test_a_line_boxed_into_the_next_ones_goes_on_with_it() -> None:
    # "… with a Simulink: While" | "Iteration block, and that …": the Courier span boxes the
    # first line 19 pt tall, 2 pt into the next
    chunks = chunks_of("techreport_nasa_tmats_users_guide_excerpt.pdf")
    para = holding(chunks, "The third example (GasTurbine_Dyn_Template)")
    assert para.text.endswith("that all outside effectors are outside of that subsystem, as shown in Figure 1.")


def test_acms_ccs_concepts_line_is_front_matter() -> None:
    chunks = chunks_of("acm_cpp26_cubical_agda_type_theory.pdf")
    assert chunk_type(holding(chunks, "CCS Concepts: • Theory of computation")) == "front"


# --------------------------------------------------------------- pure rules, properties


@given(st.sampled_from(["○", "•", "▪", "■", "–", "✓"]), st.text(min_size=1, max_size=20))
def test_a_bulleted_line_opens_an_item(mark: str, rest: str) -> None:
    assert opens_item(f"{mark} {rest}")


@given(st.sampled_from(["NLP tasks.", "Iteration block", "and other", "(see below)", "2017). We"]))
def test_words_open_no_item(text: str) -> None:
    assert not opens_item(text)


def _row(text: str, y: float, x0: float = 320.0, x1: float = 540.0, size: float = 9.0) -> Line:
    return Line(text, (x0, y, x1, y + 9.0), size, False, 0, 1)


@given(st.floats(min_value=0.0, max_value=2.0), st.floats(min_value=12.0, max_value=60.0))
def test_rows_packed_on_a_rule_join_the_table_text_standing_off_does_not(touch: float, off: float) -> None:
    box = (320.0, 230.0, 540.0, 300.0)  # rules at 230 (under the header) and 300 (last but one)
    caption = (320.0, 330.0, 540.0, 340.0)  # under the table
    header = _row("Model F1 Jaccard", 230.0 - touch - 9.0)
    last = _row("Ontology aware model 0.81 0.84", 300.0 + touch)
    prose = _row("Column label", 230.0 - off - 9.0 - 9.0)  # standing a gap off: not the header
    grown = rows_past_rules(box, [header, last, prose], [], caption)
    assert grown[1] <= header.bbox[1] and grown[3] >= last.bbox[3]
    assert grown[1] > prose.bbox[3]
    assert grown[0] == box[0] and grown[2] == box[2]


def test_a_line_nearer_the_caption_than_the_table_stays_the_captions() -> None:
    box = (70.0, 547.0, 524.0, 729.0)
    caption = (77.0, 514.0, 522.0, 530.0)
    second = _row("control points, (М±m) (n=7)", 527.0, 235.0, 363.0, 14.0)
    assert rows_past_rules(box, [second], [], caption) == box


# ------------------------------------------------------------- tables without a caption


def test_a_ruled_checklist_without_a_caption_is_a_table() -> None:
    # HSF-TN-2020-01 p. 7: booktabs checklists under headings, no "Table N" caption; their
    # rows had been paragraphs ("Topic Done Possible solution(s) Template")
    chunks = chunks_of("techreport_hsf_project_best_practices_note.pdf")
    table = holding(chunks, "Topic Done Possible solution(s) Template Public repository")
    assert chunk_type(table) == "table"
    assert table.provenance.section == "Checklist › Repository and code checklist"
    # (its Done column holds empty boxes only, so the words' columns join it to Topic)
    assert "| Public repository | github, gitlab | - |" in (table.markdown or "")
    assert all("License + file" not in c.text for c in chunks if chunk_type(c) == "paragraph")


def _cells(text: str, y: float, cells: int = 3, x0: float = 141.0, mono: bool = False) -> Line:
    return Line(text, (x0, y, 470.0, y + 10.0), 10.0, False, 0, 1, mono=mono, cells=cells)


def test_rows_of_cells_between_rules_are_a_table_and_listings_or_prose_are_not() -> None:
    rules = [(241.0, 141.0, 470.0), (264.0, 141.0, 470.0), (330.0, 141.0, 470.0)]
    rows = [_cells("Topic Done Template", 247.0), _cells("Public repository github -", 268.0),
            _cells("License + file MIT", 285.0), _cells("README file Markdown Yes", 302.0)]
    assert bare_tables(rules, rows, []) == [(141.0, 241.0, 470.0, 330.0)]
    assert bare_tables(rules, rows, [(100.0, 200.0, 500.0, 250.0)]) == []  # a table found there already
    listing = [_cells(f"{n} x = f(y)", 247.0 + 17 * n, 2) for n in range(1, 5)]
    assert bare_tables(rules, listing, []) == []  # numbered line by line
    code = [_cells(r.text, r.bbox[1], mono=True) for r in rows]
    assert bare_tables(rules, code, []) == []
    prose = [*rows[:2], _cells("the rules frame a paragraph of running text set in the box", 285.0, 1)]
    assert bare_tables(rules, prose, []) == []
    bullets = [_cells(f"● item {n}", 247.0 + 17 * n, 2) for n in range(4)]
    assert bare_tables(rules, bullets, []) == []


# ---------------------------------------------------- title pages, captions across pages


def test_a_title_page_set_flush_right_is_front_matter_but_its_title() -> None:
    # Think Python's title page: title, subtitle, edition, author and publisher flush right
    chunks = chunks_of("book_thinkpython2_way_of_program_chapter.pdf")
    assert chunk_type(holding(chunks, "Think Python")) == "heading"
    for line in ("2nd Edition, Version 2.2.20", "Allen Downey", "Green Tea Press"):
        assert chunk_type(holding(chunks, line)) == "front"
    assert holding(chunks, "The goal of this book is to teach you").provenance.section == "The way of the program"


def test_a_caption_goes_on_atop_the_next_page_with_its_doi_and_supplements() -> None:
    # eLife 2016: Figure 1's caption breaks at p. 3's foot ("… library covering" |
    # "2677 genes …"), then its DOI line and figure supplement under it on p. 4
    chunks = chunks_of("elife_crispr_sqstm1_tools_article.pdf")
    caption = holding(chunks, "Figure 1. CRISPR-based screening outperforms RNAi")
    assert chunk_type(caption) == "figure" and pages_of(caption) == [3, 4]
    assert "2677 genes with an average of 20 sgRNA" in caption.text
    assert caption.text.endswith("GFP high and GFP low cell populations. DOI: 10.7554/eLife.17290.003")
    assert all("The following figure supplement is available" not in c.text
               for c in chunks if chunk_type(c) == "paragraph")


def test_an_acronyms_digit_does_not_stop_a_run_in_heading() -> None:
    chunks = chunks_of("natcomms_woo_cerebral_pain_contributions.pdf")
    assert holding(chunks, "To evaluate SIIPS1’s predictive performance").provenance.section \
        == "Results › Joint predictive performance of the SIIPS1 and NPS"


def test_a_sentence_ending_in_a_note_mark_goes_on_on_the_flush_line_under_it() -> None:
    # VLDB (ASAP) p. 3: "… (Figure 2, top).3" | "Unable to obtain useful insights …", flush
    # under a full line: one paragraph
    chunks = chunks_of("arxiv_asap_time_series_smoothing_vldb.pdf")
    para = holding(chunks, "Datacenter Monitoring. An on-call datacenter operator")
    assert "stable before the alert (Figure 2, top).3 Unable to obtain useful insights" in para.text


def test_a_title_page_without_prose_is_front_matter_however_it_is_set() -> None:
    # a French thesis: centred title and degree, its jury set flush left under them
    chunks = chunks_of("thesis_lorraine_malware_disassembly_fr.pdf")
    assert chunk_type(holding(chunks, "Composition du jury")) == "front"
    assert chunk_type(holding(chunks, "Laboratoire Lorrain de Recherche en Informatique")) == "front"
    assert chunk_type(holding(chunks, "Désassemblage et détection de logiciels")) == "heading"
    # a NASA report's title page, flush left
    nasa = chunks_of("techreport_nasa_tmats_users_guide_excerpt.pdf")
    assert chunk_type(holding(nasa, "National Aeronautics and Space Administration")) == "front"
    assert chunk_type(holding(nasa, "The Toolbox for the Modeling and Analysis of Thermodynamic Systems")) == "paragraph"


def test_a_two_column_abstract_goes_on_past_the_first_pages_footnote_block() -> None:
    # CEUR (plain two-column article): a fifth of its text blocks open indented, so it
    # indents its paragraphs, and the abstract's flush line atop the right column goes on
    chunks = chunks_of("ceur_ontology_aware_annotation_workshop.pdf")
    abstract = holding(chunks, "Natural language processing models have emerged")
    assert "for pieces of text. We explore the choice of three embeddings" in abstract.text
    assert pages_of(abstract) == [1, 1]


@pytest.mark.parametrize(("pdf", "start", "heading", "under", "section"), [
    # a heading's second line in its size, set in under its number, goes on with it
    ("rspb_montane_bird_coexistence.pdf", "(d) Bird community: variables used to measure the",
     "(d) Bird community: variables used to measure the biotic Eltonian niche",
     "The community of birds in the Virunga volcanoes", "2. Methods"),
    # a heading told by its face alone may wrap over two lines in one style (Wiley)
    ("wiley_ecolevol_bird_pairwise_associations.pdf", "Measurement and visualization of species",
     "Measurement and visualization of species pairwise associations",
     "Our approach for examining species pairwise association", "Introduction"),
])
def test_a_heading_over_two_lines_is_one_heading(pdf: str, start: str, heading: str, under: str,
                                                 section: str) -> None:
    chunks = chunks_of(pdf)
    head = holding(chunks, start)
    assert chunk_type(head) == "heading" and head.text == heading
    assert holding(chunks, under).provenance.section == f"{section} › {heading}"


def test_a_heading_numbered_with_a_bracket_in_a_face_of_its_own() -> None:
    chunks = chunks_of("ieee_access_polyp_segmentation_article.pdf")
    assert chunk_type(holding(chunks, "1) DATA AUGMENTATION")) == "heading"
    assert holding(chunks, "Data augmentation is a common technique").provenance.section.endswith(
        "1) DATA AUGMENTATION")
