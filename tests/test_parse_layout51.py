"""Layout 51 (issue 34): small print over the first page's title (a publisher's tagline) is
front matter though it reads as prose; an address or identifier standing outside a
sentence's column is not the address the sentence announces (the RSC's side-box ``DOI:``
beside an abstract ending ``… compared to``); a table's rows that end in its notes over a
rule close its stack of rules, so the text under that rule is the page's; a numbered run-in
head's number is not one of its ten words. On real pages (batch 82, out of sample), with
property tests of the pure rules."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding

from vaultd.parse.paras import Line, Para
from vaultd.parse.sentence_pieces import address_goes_on

DOVE = "dovepress2019_vhrm_triglycerides_heart_failure_excerpt.pdf"
DOVE_2016 = "dove_amep_2016_rural_dental_workforce_meta_analysis_excerpt.pdf"
RSC = "rsc_rscadv_2025_pranlukast_micellar_spectrofluorimetry_excerpt.pdf"


def test_a_publishers_tagline_over_the_title_is_front_matter() -> None:
    for name in (DOVE, DOVE_2016):
        chunks = chunks_of(name)
        tagline = holding(chunks, "open access to scientific and medical research")
        assert chunk_type(tagline) == "front"
    chunks = chunks_of(DOVE)
    # the title block under it is read as one too, and the abstract stays the paper's text
    assert chunk_type(holding(chunks, "This article was published in the following Dove Press journal")) == "front"
    assert chunk_type(holding(chunks, "Real-world data may provide insight into relationships")) == "paragraph"


def test_a_side_boxs_doi_level_with_an_abstract_stays_out_of_its_sentence() -> None:
    chunks = chunks_of(RSC)
    abstract = holding(chunks, "environmental sustainability compared to previously reported UV")
    assert chunk_type(abstract) == "paragraph"
    assert "10.1039/d5ra05505a" not in abstract.text
    assert chunk_type(holding(chunks, "DOI: 10.1039/d5ra05505a")) == "front"


def _para(lines: list[Line]) -> Para:
    return Para("paragraph", lines, " ".join(ln.text for ln in lines))


@given(st.floats(0.0, 40.0), st.sampled_from(["at", "from", "the following URL:"]))
def test_an_address_set_apart_under_its_sentence_goes_on_with_it(indent: float, ending: str) -> None:
    text = [Line("More information on the survey and its data files is available", (100.0, 300.0, 480.0, 310.0),
                 10.0, False, 0, 1),
            Line(f"on the agency's site {ending}", (100.0, 312.0, 230.0, 322.0), 10.0, False, 0, 1)]
    url = Line("https://www.example.org/survey/data.html", (100.0 + indent, 324.0, 320.0 + indent, 334.0),
               10.0, False, 1, 1)
    assert address_goes_on(_para(text), [url])


@given(st.floats(0.0, 12.0))
def test_an_identifier_beside_the_sentences_column_is_none_of_its(drop: float) -> None:
    text = [Line("offering advantages of simplicity, low cost and sustainability compared to",
                 (173.0, 442.0, 553.0, 450.0), 8.0, False, 0, 1)]
    side = Line("DOI: 10.1039/d5ra05505a", (42.5, 442.0 + drop, 127.6, 449.0 + drop), 7.2, False, 1, 1)
    assert not address_goes_on(_para(text), [side])


def test_text_under_a_tables_notes_and_foot_rule_is_the_pages() -> None:
    chunks = chunks_of(RSC)
    sentence = holding(chunks, "The recovery studies yielded excellent results with percentage recoveries")
    assert chunk_type(sentence) == "paragraph"
    table = holding(chunks, "Taken conc.")
    assert chunk_type(table) == "table"
    assert "recovery studies" not in table.text
    # the next table, under that text, is read whole as its own
    assert chunk_type(holding(chunks, "Parameter/conc.")) == "table"


def test_a_numbered_run_in_head_of_ten_words_heads_its_paragraph() -> None:
    para = holding(chunks_of(RSC), "The proposed method displayed outstanding sensitivity")
    assert para.provenance.section is not None
    assert para.provenance.section.endswith("3.5.2 Use of the proposed method for capsule content uniformity testing")
