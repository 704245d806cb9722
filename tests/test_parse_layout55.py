"""Layout 55 (issue 34): a ragged-right paragraph in a document that indents its
paragraphs goes on past a sentence ended on a line the next word would not have fitted
(the Federal Register); the next printed line of a paragraph that went on past a float is
its own, the float's text read between (*IJE*); a line set off by space past its
paragraph's pitch after a sentence's end opens a new paragraph (*Diabetologia*'s STIX
text, its lines' boxes taller than their pitch); rows set with dot leaders are a table's;
a list of abbreviations under its label, a first page's ``…, see page 1109`` and a
catalogue number are front matter. On real pages (batch 86, out of sample, and earlier
papers), with property tests of the pure rules."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding, pages_of

from vaultd.parse.block_paras import split_group
from vaultd.parse.front import is_declaration
from vaultd.parse.leaders import is_leader_rows
from vaultd.parse.paras import Line

FEDREG = "federal_register_faa_737max_airworthiness_nprm.pdf"
IJE = "oup_ije_2017_varenicline_smoking_cessation_cohort_excerpt.pdf"
IRS = "irs_instructions_form_1116_1995_foreign_tax_credit_excerpt.pdf"
DIABETOLOGIA = "springer_diabetologia_2024_kcnj11_loss_of_function_diabetes_excerpt.pdf"
CIRCULATION = "aha_circulation_2018_hiv_cardiovascular_burden_meta_analysis_excerpt.pdf"


def test_a_ragged_paragraph_goes_on_past_a_sentence_that_filled_its_line() -> None:
    para = holding(chunks_of(FEDREG), "Docket Operations is listed above.")
    assert "Comments will be available in the AD docket shortly after receipt." in para.text


def _ragged(ends: list[float], next_text: str, next_end: float) -> list[Line]:
    texts = ["You may examine the AD docket on", "the internet by searching for and", "locating the docket;",
             "or in person at Docket Operations", "between 9 a.m. and 5 p.m. The street",
             "Docket Operations is listed above."]
    lines = [Line(t, (222.0 + (9.0 if k == 0 else 0.0), 470.0 + 10 * k, x1, 479.0 + 10 * k), 9.0, False, 3, 1)
             for k, (t, x1) in enumerate(zip(texts, ends, strict=True))]
    return [*lines, Line(next_text, (222.0, 530.0, next_end, 539.0), 9.0, False, 3, 1)]


@given(st.lists(st.floats(340.0, 392.0), min_size=5, max_size=5))
def test_a_flush_line_the_stop_left_no_room_for_goes_on_in_a_document_that_indents(rights: list[float]) -> None:
    rights = [*rights[:4], 392.0]  # one line reaches the measure's edge; the last one ends the sentence
    group = _ragged([*rights, 366.0], "Comments will be available in the AD", 381.0)
    if max(rights[:5]) - min(rights[:5]) > 9.0:  # set ragged: its lines end over an em apart
        assert len(split_group(group, indenting=True)) == 1
    assert len(split_group(group)) == 2  # not known to indent its paragraphs: a new one


def test_a_line_with_room_left_for_the_next_word_still_ends_its_paragraph() -> None:
    group = _ragged([382.0, 313.0, 379.0, 375.0, 388.0, 300.0], "Comments will be available in the AD", 381.0)
    assert len(split_group(group, indenting=True)) == 2


def test_a_paragraph_gone_on_past_a_float_takes_its_next_printed_line() -> None:
    para = holding(chunks_of(IJE), "Misclassification of outcome and exposure")
    assert "The outcome, smoking status, was well reported within the" in para.text
    assert pages_of(para) == [4, 4]  # its two pieces: the left column's foot, the right one's top


def test_a_line_set_off_past_the_pitch_opens_a_paragraph() -> None:
    chunks = chunks_of(DIABETOLOGIA)
    para = holding(chunks, "Surface expression of wild-type or")
    assert "(GraphPad, USA)" not in para.text
    # JOSE's next paragraph, set off by the same space, an earlier paper of the set
    jose = holding(chunks_of("jose_python_packaging_course_paper.pdf"), "The course materials were developed")
    assert "functioning ecosystem" not in jose.text


def test_rows_set_with_dot_leaders_are_a_table() -> None:
    chunks = chunks_of(IRS)
    assert chunk_type(holding(chunks, "Recordkeeping")) == "table"
    assert chunk_type(holding(chunks, "Multiply line 4 by .2929")) == "table"
    # the notice's prose around the rows stays the booklet's
    assert chunk_type(holding(chunks, "If you have comments concerning the accuracy")) == "paragraph"


@given(st.lists(st.text("abcdefgh ", min_size=3, max_size=30).filter(str.strip), min_size=1, max_size=4),
       st.integers(6, 40), st.sampled_from(["46 min.", "2 hr., 44 min.", "xi", "12", ""]))
def test_a_label_leaders_and_a_short_value_are_rows(labels: list[str], dots: int, value: str) -> None:
    assert is_leader_rows(" ".join(f"{label} {'.' * dots} {value}" for label in labels))


@given(st.sampled_from(["The Court wrote . . . . that the rule applies.", "Wait... what?",
                        "as x1, ..., xn go to zero, the sum converges to the integral."]))
def test_an_ellipsis_is_no_leader(text: str) -> None:
    assert not is_leader_rows(text)


def test_a_list_of_abbreviations_under_its_label_is_front_matter() -> None:
    chunks = chunks_of(DIABETOLOGIA)
    assert chunk_type(holding(chunks, "TMD0 First set of transmembrane domains")) == "front"
    assert chunk_type(holding(chunks, "HA Haemagglutinin")) == "front"
    # the Introduction under it is the paper's text
    assert chunk_type(holding(chunks, "The central role of the ATP-sensitive potassium")) == "paragraph"
    # a report's list of abbreviations ends on its page: the letter overleaf is the report's (GAO's)
    gao = chunks_of("gao_report_performance_information_use_excerpt.pdf")
    assert chunk_type(holding(gao, "BIC Business Information Center")) == "front"
    assert chunk_type(holding(gao, "The federal government is in a period of profound transition")) == "paragraph"


def test_a_pointer_to_a_later_statement_and_a_catalogue_number_are_front_matter() -> None:
    assert chunk_type(holding(chunks_of(CIRCULATION), "Sources of Funding, see page 1109")) == "front"
    assert chunk_type(holding(chunks_of(IRS), "Cat. No. 11441F")) == "front"


@given(st.sampled_from(["Sources of Funding", "Disclosures", "Acknowledgments"]), st.integers(1, 3000))
def test_a_label_pointing_to_its_page_is_front_matter(label: str, page: int) -> None:
    assert is_declaration(f"{label}, see page {page}")


@given(st.sampled_from(["Cat. No. 11441F", "Catalogue no. 11-626-X", "Catalog No. 0123"]))
def test_a_catalogue_number_alone_is_front_matter(text: str) -> None:
    assert is_declaration(text)


def test_a_sentence_pointing_to_a_page_is_no_front_matter() -> None:
    assert not is_declaration("about creating Supporting Information files please see page 8.")
    assert not is_declaration("The catalogue number of each item was checked against the register.")
