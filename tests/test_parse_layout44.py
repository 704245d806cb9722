"""Layout 44 (issue 34): a body line that merely wraps to open with ``Figure S2.`` is no
caption, so the table over it keeps its text; a head in capitals may hold a term its field
spells in mixed case (``miRNAs``); an italic numbered run-in head filling its line heads
its paragraph; a run-in head numbered as the next of the heading before it stands beside
that heading, not under it. On real pages (batch 73, out of sample, and an earlier one),
with property tests of the pure rules."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding

from vaultd.parse.classify import is_caps_heading
from vaultd.parse.paras import Line
from vaultd.parse.sentence_ends import OPEN_WORDS
from vaultd.parse.tables import can_open_caption

PLOS = "plos_genetics_2011_population_genetics_phylogenetics_selection_excerpt.pdf"
FRONTIERS = "frontiers_cell_neurosci_2013_micrornas_neurodegeneration_excerpt.pdf"
HINDAWI = "hindawi_omcl_2011_ocimum_sanctum_lipid_lowering_excerpt.pdf"
JNE = "iop_jne_2020_deep_brain_stimulation_review_excerpt.pdf"

# ------------------------------------------- a body line opening with a label


def test_a_table_over_a_body_line_opening_with_a_figures_label_keeps_its_text() -> None:
    # PLoS Genetics p. 4: Table 1 (shaded) atop the left column, then "more information
    # available. … is illustrated in" | "Figure S2. In the extreme cases …": read as a
    # figure's caption, the line had made the table its drawing and dropped its text and
    # the line under it
    chunks = chunks_of(PLOS)
    assert chunk_type(holding(chunks, "Table 1. Parameter estimates.")) == "table"
    assert chunk_type(holding(chunks, "0.00583, 0.0172")) == "table"
    para = holding(chunks, "This difference may reflect the response of the smoothing parameter")
    assert "which means there is more information available. The inferred DFE is influenced" in para.text
    assert "illustrated in Figure S2. In the extreme cases" in para.text


def _line(text: str, top: float, block: int = 3) -> Line:
    return Line(text, (58.0, top, 297.0, top + 9.0), 9.0, False, block, 4)


@given(st.sampled_from(sorted(OPEN_WORDS)), st.sampled_from(["Figure S2. In the extreme cases",
                                                             "Fig. 3 shows the same", "Table 4. AI-driven lists"]))
def test_a_label_after_a_line_left_open_in_its_block_opens_no_caption(word: str, label: str) -> None:
    above = _line(f"and this is illustrated in {word}", 226.0)
    line = _line(label, 237.0)
    assert not can_open_caption(line, [above, line])


@given(st.sampled_from(["Figure 2. The frequency of substitutions", "Table 1. Parameter estimates."]))
def test_a_label_after_a_closed_sentence_or_in_a_block_of_its_own_opens_a_caption(label: str) -> None:
    above = _line("the sentence before it ends here.", 226.0)
    line = _line(label, 237.0)
    assert can_open_caption(line, [above, line])
    alone = _line(label, 237.0, block=4)
    assert can_open_caption(alone, [_line("and this is illustrated in", 226.0), alone])


# --------------------------------------------- heads in capitals with a term


@given(st.sampled_from(["miRNAs", "mRNA", "pH", "iPSCs", "mTORC1"]),
       st.sampled_from(["IN NEURODEGENERATIVE DISORDERS", "AND DISEASE RISK", "REGULATION IN NEURONS"]))
def test_a_head_in_capitals_may_hold_a_mixed_case_term(term: str, rest: str) -> None:
    assert is_caps_heading(f"{term} {rest}")
    assert is_caps_heading(f"{rest} OF {term}")


@given(st.sampled_from(["the", "and", "Results", "Methods", "eBay"]))
def test_a_line_of_ordinary_words_or_terms_alone_is_no_head_in_capitals(word: str) -> None:
    assert not is_caps_heading(f"{word} IN DISORDERS and more")
    assert not is_caps_heading("miRNAs mRNAs")


def test_frontiers_head_with_a_mixed_case_term_heads_its_section() -> None:
    para = holding(chunks_of(FRONTIERS), "The dysfunction of miRNAs in neurodegenerative disorders")
    assert para.provenance.section == "miRNAs IN NEURODEGENERATIVE DISORDERS"
    assert not para.text.startswith("miRNAs IN")


# ------------------------------------------------- italic numbered run-in heads


def test_an_italic_numbered_run_in_head_filling_its_line_heads_its_paragraph() -> None:
    # Hindawi: *2.4. Biochemical Evaluation of Liver and Cardiac Injury.* over "Liver function …"
    para = holding(chunks_of(HINDAWI), "Cardiac injury was also evaluated by measuring serum lactate")
    assert (para.provenance.section or "").endswith("› 2.4. Biochemical Evaluation of Liver and Cardiac Injury")


def test_an_italic_line_without_a_number_heads_nothing() -> None:
    # the italic species name opening a sentence is no head: Hindawi's run-ins are numbered
    para = holding(chunks_of(HINDAWI), "Dried leaves of OS were ground into fine powder")
    assert (para.provenance.section or "").endswith("2.1. Extraction of Ocimum sanctum L. Leaves")


def test_a_run_in_head_numbered_next_to_the_heading_before_stands_beside_it() -> None:
    # IOP's heading "3.1.3. DBS stimulation patterns." then the run-in "3.1.4. Non-invasive
    # neuromodulatory approaches." in an italic line of its own
    para = holding(chunks_of(JNE), "As a final open issue in the improvement of the DBS hardware")
    section = para.provenance.section or ""
    assert section.endswith("3.1. DBS set-up › 3.1.4. Non-invasive neuromodulatory approaches")
    assert "3.1.3." not in section
