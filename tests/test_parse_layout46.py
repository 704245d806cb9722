"""Layout 46 (issue 34): a ``KEYWORDS`` label's terms, set a line each in the margin beside
the abstract, are its list, not the top of the column a sentence goes on into; a first
page's address list broken off after a comma over the next block of it is front matter.
On real pages (batch 76, out of sample), with property tests of the pure rules."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding

from vaultd.parse.front_blocks import keyword_list
from vaultd.parse.paras import Line, Para

G3 = "gsa_g3_2017_wine_yeast_copy_number_variation_excerpt.pdf"
FRONTIERS = "frontiers_artif_intell_2020_text_analysis_social_cultural_excerpt.pdf"


def _para(kind: str, texts: list[str], x0: float, top: float) -> Para:
    lines = [Line(t, (x0, top + 12.0 * k, x0 + 6.0 * len(t), top + 12.0 * k + 9.0), 9.0, False, 1, 1)
             for k, t in enumerate(texts)]
    return Para(kind, lines, " ".join(texts), [(1, " ".join(texts))])


_TERMS = st.lists(st.sampled_from(["domestication", "genomics", "structural variation",
                                   "carbohydrate metabolism", "alcoholic fermentation"]), min_size=1, max_size=5)


@given(st.sampled_from(["KEYWORDS", "Keywords", "Key words:", "Index Terms"]), _TERMS)
def test_terms_right_under_a_keywords_label_are_its_list(label: str, terms: list[str]) -> None:
    front = _para("front", [label], 484.0, 284.0)
    assert keyword_list(front, _para("paragraph", terms, 484.0, 296.0))


@given(_TERMS)
def test_terms_under_another_label_or_far_below_or_aside_are_not(terms: list[str]) -> None:
    assert not keyword_list(_para("front", ["Funding"], 484.0, 284.0), _para("paragraph", terms, 484.0, 296.0))
    keywords = _para("front", ["KEYWORDS"], 484.0, 284.0)
    assert not keyword_list(keywords, _para("paragraph", terms, 484.0, 340.0))  # far below
    assert not keyword_list(keywords, _para("paragraph", terms, 309.0, 296.0))  # another column
    assert not keyword_list(keywords, _para("paragraph", ["Many wine strains have characteristic variants that"],
                                            484.0, 296.0))  # prose


def test_the_introductions_sentence_goes_on_past_the_keywords_in_the_margin() -> None:
    # G3 p. 1: the Introduction's first paragraph ends its left column open and goes on
    # atop the right one; KEYWORDS and its five terms stand in the margin over that column
    chunks = chunks_of(G3)
    para = holding(chunks, "Saccharomyces cerevisiae, commonly known as baker")
    assert "domestication genomics" not in para.text
    assert "polymorphism (SNP) data reveal close affinity" in para.text
    keywords = holding(chunks, "KEYWORDS")
    assert chunk_type(keywords) == "front" and "alcoholic fermentation" in keywords.text


def test_an_address_list_broken_over_blocks_is_front_matter() -> None:
    chunks = chunks_of(FRONTIERS)
    for words in ("Alan Turing Institute, London, United Kingdom",
                  "School of Electronic Engineering and Computer Science, Queen Mary"):
        assert chunk_type(holding(chunks, words)) == "front"
    assert chunk_type(holding(chunks, "In this article we describe our experiences")) == "paragraph"
