"""Layout 56 (issue 34): a line opening with a bracketed enumerator that holds the next one
too (``(1) technical-tactical actions, (2) activity profiles, …``) goes on the sentence
before it, no list's item (Frontiers in Sports and Active Living 2025); a caption whose
label a hyphen joins to its number (``Table-1:``) is a caption; a float's note opened by
its sign is no sentence's start for the body text under it; small print under a
paragraph gone on past the float is no note of it (*Veterinary World* 2017). On real
pages (batch 87, out of sample, and earlier papers), with property tests of the pure
rules."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunks_of, holding

from vaultd.parse.classify import CAPTION_RE
from vaultd.parse.enumerators import inline_enumeration, next_inline_mark

FRONTIERS = "frontiers_sports_act_living_2025_badminton_match_play_review_excerpt.pdf"


def test_a_sentence_goes_on_into_its_own_enumeration() -> None:
    para = holding(chunks_of(FRONTIERS), "Badminton match-play data can be categorised into four groups:")
    assert "(1) technical-tactical actions, (2) activity profiles" in para.text
    # SciELO's criteria, an earlier paper of the set
    scielo = holding(chunks_of("scielo_acta_amazonica_land_cover_diversity_excerpt.pdf"),
                     "Our criteria for the selection of these 26 measures were:")
    assert "(1) to employ measures commonly used" in scielo.text


_MARKS = [("1", "2"), ("2", "3"), ("a", "b"), ("i", "ii"), ("iii", "iv")]


@given(st.sampled_from(_MARKS), st.sampled_from([", ", "; ", ", and ", "; or "]),
       st.text("abcdefgh -", min_size=1, max_size=40))
def test_a_line_holding_its_next_enumerator_is_inline(marks: tuple[str, str], joint: str, words: str) -> None:
    first, second = marks
    assert inline_enumeration(f"({first}) x{words}{joint}({second}) more words")


@given(st.sampled_from(_MARKS), st.text("abcdefgh -", min_size=1, max_size=40))
def test_an_items_line_with_its_own_mark_alone_is_no_inline_enumeration(marks: tuple[str, str], words: str) -> None:
    first, _ = marks
    assert not inline_enumeration(f"({first}) x{words}")
    assert not inline_enumeration(f"({first}) x{words}, see ({first}) above")  # its own mark again


VETWORLD = "vetworld_2017_broiler_garlic_holy_basil_nutrigenomics_excerpt.pdf"


def test_a_sentence_goes_on_past_a_table_and_its_note() -> None:
    chunks = chunks_of(VETWORLD)
    para = holding(chunks, "All the herbal preparations used in the present experiment were")
    assert "purchased from the local market. Floor litter system was followed" in para.text
    assert "Feed additives" not in para.text and "Ingredient (%) and chemical composition" not in para.text
    # the bold head under the text, set in the table's face, is a head, no note of the table
    text = holding(chunks, "blood samples were collected from one broiler per replicate")
    assert text.provenance.section is not None and text.provenance.section.endswith("Blood collection and analysis")


@given(st.sampled_from(["Table", "Figure", "Fig"]), st.integers(1, 40), st.sampled_from([":", "."]))
def test_a_label_joined_to_its_number_by_a_hyphen_opens_a_caption(label: str, n: int, stop: str) -> None:
    assert CAPTION_RE.match(f"{label}-{n}{stop} Ingredient composition of the diet")


@given(st.sampled_from(["Table-top experiments were run", "Figure-ground reversal is", "Table-1 shows the"]))
def test_a_hyphenated_word_or_a_reference_is_no_caption(text: str) -> None:
    assert not CAPTION_RE.match(text)


@given(st.sampled_from(["xi", "xii", "iiii", "xx", "ixx"]), st.sampled_from(["x", "ix", "3"]))
def test_a_mark_past_the_numerals_counted_is_no_enumeration_and_no_error(mark: str, before: str) -> None:
    # (a line opening ``(xi) `` once raised a TypeError from the parser)
    assert not inline_enumeration(f"({mark}) first, ({before}) second")
    assert not next_inline_mark(f"as ({before}) one, and", f"({mark}) two")
