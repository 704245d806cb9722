"""Layout 53 (issue 34): a structured abstract set in a face of its own (its parts opened by
their labels, ``Background:``, ``Methods:``) is no style of the body's, so the subsection
heads the paper sets in that face are heads (OUP's *International Journal of
Epidemiology*). On real pages (batch 84, out of sample, and an earlier paper as a guard)."""

from __future__ import annotations

from quote_pages import chunk_type, chunks_of, holding

from vaultd.parse.paras import Line, Para
from vaultd.parse.title_block import abstract_paras

IJE = "oup_ije_2017_varenicline_smoking_cessation_cohort_excerpt.pdf"


def test_subsection_heads_in_the_abstracts_face_head_their_text() -> None:
    chunks = chunks_of(IJE)
    for words, head in (("The proportions of missing data were similar", "Sensitivity analyses"),
                        ("To date there are only three full-sized RCTs", "Main findings"),
                        ("We obtained data from the Clinical Practice Research Datalink", "Data source and population")):
        para = holding(chunks, words)
        assert chunk_type(para) == "paragraph"
        assert para.provenance.section is not None and para.provenance.section.endswith(head)
    # the abstract itself stays the paper's text
    assert chunk_type(holding(chunks, "There is limited evidence about the effectiveness")) == "paragraph"


def _para(kind: str, text: str) -> Para:
    return Para(kind, [Line(text, (60.0, 100.0, 500.0, 110.0), 10.0, False, 0, 1)], text)  # type: ignore[arg-type]


def test_only_an_abstracts_labelled_parts_are_set_aside() -> None:
    paras = [_para("heading", "Abstract"), _para("paragraph", "Background: There is limited evidence."),
             _para("paragraph", "Methods: This is a cohort study."), _para("paragraph", "What is added by this report?"),
             _para("heading", "Introduction"), _para("paragraph", "Results: in the body, after the abstract.")]
    assert abstract_paras(paras) == {id(paras[1]), id(paras[2])}


def test_a_summary_boxs_questions_stay_heads() -> None:
    # MMWR's summary box under ``Summary``: its questions, no abstract's labels, head their answers
    chunks = chunks_of("mmwr_foodnet_foodborne_infections_2022.pdf")
    para = holding(chunks, "Campylobacter and Salmonella are the leading causes")
    assert para.provenance.section is not None
    assert para.provenance.section.endswith("What is already known about this topic?")
