"""Layout 52 (issue 34): a subsection's number set right against its first word (Word's
list numbering, whose separator the text layer drops: ``3.2.Evaluation Function Design``)
is a number; a bold head's second line, bold and bold oblique, and a bold head set a little
larger than its text, end where the text starts; a report's ``PRINTED ON RECYCLED PAPER``,
Cascadilla's stamp, the foot of Nature's reporting summary and a copyright line whose mark
is typed ``@`` are front matter; a line broken after an address's scheme or an attached en
dash joins its next line with no space. On real pages (batch 83, out of sample, and
eval/quotes' earlier papers), with property tests of the pure rules."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding

from vaultd.parse.classify import heading_number
from vaultd.parse.front import is_declaration
from vaultd.parse.layout import join_two
from vaultd.parse.licences import is_licence

IOP = "iopcs_mse_2017_connect_four_alpha_beta_mtdf_excerpt.pdf"
MBOC = "ascb_mboc_2024_ift_a_ciliary_proteomics_excerpt.pdf"
_WORDS = st.sampled_from(["Evaluation Function Design", "Experimental Design", "Conclusions", "Study Area"])


@given(st.integers(1, 12), st.integers(1, 12), _WORDS)
def test_a_number_set_against_its_heads_first_word_is_its_number(major: int, minor: int, words: str) -> None:
    assert heading_number(f"{major}.{minor}.{words}") == f"{major}.{minor}"


@given(st.integers(1, 12), st.integers(1, 12))
def test_a_decimal_or_a_version_is_no_heads_number(major: int, minor: int) -> None:
    assert heading_number(f"{major}.{minor}.txt is the file read") is None  # a file's name
    assert heading_number(f"{major}.{minor}mg of the drug was given") is None


def test_word_numbered_subsections_whose_separator_is_lost_head_their_text() -> None:
    chunks = chunks_of(IOP)
    para = holding(chunks, "An AI algorithm requires evaluation function")
    assert chunk_type(para) == "paragraph"
    assert para.provenance.section is not None
    assert para.provenance.section.endswith("3.2.Evaluation Function Design")
    assert holding(chunks, "Each game conditions will be tested 10 times").provenance.section.endswith(
        "3.3.Experimental Design")


def test_a_bold_heads_lines_end_where_its_text_starts() -> None:
    chunks = chunks_of(MBOC)
    # two lines, the second opening in lowercase in bold with a bold oblique word
    para = holding(chunks, "To detect changes in proteomic organization")
    assert para.text.startswith("To detect changes")
    assert para.provenance.section.endswith(
        "DIFFRAC identifies changes in proteome organization in IFT-A-null Tetrahymena")
    # one line, 9 pt over 8.5 pt text, nearly the column's width
    para = holding(chunks, "To identify significantly changed protein")
    assert para.provenance.section.endswith("Detection of proteins significantly altered in Ift122 mutants")


@given(st.sampled_from(["PRINTED ON RECYCLED PAPER", "Printed on recycled paper."]))
def test_a_reports_recycled_paper_imprint_is_boilerplate(line: str) -> None:
    assert is_declaration(line)


def test_stamps_and_footers_of_their_kind_are_boilerplate() -> None:
    assert is_declaration("This printout has been approved by me, the author. Any mistakes in this "
                          "printout will not be fixed by the publisher.")
    assert is_declaration("Last updated by author(s): 23/05/2023")
    assert not is_declaration("Printed on recycled paper, the survey forms were mailed to 2,000 homes.")


@given(st.sampled_from(["European Union", "The Authors", "World Health Organization"]), st.integers(1990, 2029))
def test_a_copyright_line_with_its_mark_typed_as_an_at_sign_is_a_licence(holder: str, year: int) -> None:
    assert is_licence(f"@ {holder}, {year}")


def test_an_at_sign_in_a_sentence_or_an_address_opens_no_copyright() -> None:
    assert not is_licence("@ the workshop in 2023 we met the authors")
    assert not is_licence("@eulaw, 2023")


def test_front_matter_of_these_kinds_is_out_of_the_paragraphs() -> None:
    for name, words in (("jrc_technical_report_2023_energy_savings_home_work_excerpt.pdf", "@ European Union, 2023"),
                        ("gao_testimony_eac_employee_survey.pdf", "PRINTED ON RECYCLED PAPER"),
                        ("cascadilla_linguistics_proceedings.pdf", "This printout has been approved by me"),
                        ("natsust_livestock_climate_priorities.pdf", "Last updated by author(s)")):
        assert chunk_type(holding(chunks_of(name), words)) != "paragraph", name


@given(st.sampled_from(["https://", "http://"]), st.sampled_from(["www.regulations.gov", "doi.org/10.1/x", "github.com/a/b"]))
def test_an_address_broken_after_its_scheme_joins_with_no_space(scheme: str, rest: str) -> None:
    assert join_two(f"available at {scheme}", f"{rest} by searching") == f"available at {scheme}{rest} by searching"


@given(st.sampled_from(["FAA–2020–", "pp. 290–", "206–231–"]), st.sampled_from(["0686;", "300.", "3500"]))
def test_a_number_broken_after_its_en_dash_joins_with_no_space(left: str, right: str) -> None:
    assert join_two(f"see {left}", right) == f"see {left}{right}"


@given(st.sampled_from(["abundance–", "cell–", "north–"]), st.sampled_from(["suitability", "associated", "south"]))
def test_a_compound_broken_after_its_en_dash_joins_with_no_space(left: str, right: str) -> None:
    assert join_two(f"the {left}", right) == f"the {left}{right}"


@given(st.sampled_from([("KIR–", "CD8+ T cells"), ("CD8–", "CD4+ cells"), ("a pause –", "then the rest"),
                         ("KIR–", "cells")]))
def test_a_raised_minus_or_a_spaced_dash_at_a_lines_end_keeps_its_space(pair: tuple[str, str]) -> None:
    # ``KIR–`` | ``CD8+``: KIR-negative, then the next word (Science's raised minus)
    left, right = pair
    assert join_two(f"versus {left}", right) == f"versus {left} {right}"


def test_a_docket_number_and_an_address_broken_over_lines_read_as_printed() -> None:
    para = holding(chunks_of("federal_register_faa_737max_airworthiness_nprm.pdf"), "You may examine the AD docket")
    assert "https://www.regulations.gov" in para.text
    assert "FAA–2020–0686" in para.text
