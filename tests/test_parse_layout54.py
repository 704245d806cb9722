"""Layout 54 (issue 34): the statements after a paper's text, named by a label run in with
no stop (the BMJ journals' **Funding** ``The authors have not declared …``), head their
paragraph; a back matter's ``Published Online First …`` line and its list of ``ORCID iDs``
(the iDs' numbers broken over lines) are front matter. On real pages (batch 85, out of
sample), with property tests of the pure rules."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding

from vaultd.parse.front import is_front_matter

BMJPO = "bmj_paediatrics_open_2025_african_child_climate_viewpoint.pdf"


def test_a_run_in_statement_label_heads_its_paragraph() -> None:
    para = holding(chunks_of(BMJPO), "The authors have not declared a specific grant")
    assert para.provenance.section is not None and para.provenance.section.endswith("Funding")
    # the same in BMJ Open's back matter, an earlier paper of the set
    para = holding(chunks_of("bmjopen_covid_cytokines_cohort_excerpt.pdf"), "This study was approved by the Research Ethics")
    assert para.provenance.section is not None and para.provenance.section.endswith("Ethics approval")


def test_a_back_matters_publication_line_and_orcid_list_are_front_matter() -> None:
    chunks = chunks_of(BMJPO)
    assert chunk_type(holding(chunks, "Published Online First 1 November 2025")) == "front"
    assert chunk_type(holding(chunks, "Karen Zwi https://orcid.org/0000-0002-5561-5200")) == "front"
    # the Viewpoint's text beside them stays the paper's
    assert chunk_type(holding(chunks, "Contributors JG and KZ contributed equally")) == "paragraph"


@given(st.integers(1, 28), st.sampled_from(["January", "November"]), st.integers(2000, 2029))
def test_published_online_first_with_its_date_is_front_matter(day: int, month: str, year: int) -> None:
    assert is_front_matter(f"Published Online First {day} {month} {year}", at_edge=False)


def test_a_sentence_on_first_publication_is_no_front_matter() -> None:
    assert not is_front_matter("Published online first in 2020, the data were soon reused by others.", at_edge=False)


@given(st.lists(st.sampled_from(["0000-0002-5561-5200", "0000-0001-7661-", "0009-0008-"]), min_size=2, max_size=3))
def test_a_list_of_orcid_addresses_broken_over_lines_is_front_matter(numbers: list[str]) -> None:
    text = " ".join(f"Author {k} https://orcid.org/{n}" for k, n in enumerate(numbers))
    assert is_front_matter(text, at_edge=False)
