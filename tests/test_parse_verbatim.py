"""The verbatim comparison itself: what counts as the same text in an independent extraction."""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

from vaultd.canonical import canonical_text
from vaultd.parse.verbatim import occurs_in

WORDS = st.text(alphabet="abcdefghij .,()=", min_size=1, max_size=30)


@given(WORDS, WORDS, WORDS)
def test_a_quote_without_unmapped_glyphs_must_occur_character_for_character(
        before: str, quote: str, after: str) -> None:
    assert occurs_in(quote, before + quote + after)
    assert occurs_in(quote, before + after) == (quote in before + after)


@given(WORDS, WORDS, st.sampled_from(["", " ", "\ufffd", "\x8d"]))
def test_an_unmapped_glyph_matches_what_poppler_writes_for_it(
        left: str, right: str, stand_in: str) -> None:
    # "p1 �! p2": MuPDF writes U+FFFD for a NUL glyph code that poppler drops. Both sides
    # are compared in canonical form (one space per run), as the fixture check does, and
    # a quote has some mapped text (a quote of U+FFFD alone matches only itself).
    quote = canonical_text(left + "\ufffd" + right)
    assume(quote.replace("\ufffd", "").strip())
    assert occurs_in(quote, canonical_text("see " + left + stand_in + right + " end"))


def test_an_unmapped_glyph_does_not_match_a_letter_or_two_characters() -> None:
    assert not occurs_in("p1 \ufffd! p2", "p1 k! p2")
    assert not occurs_in("tk\ufffd1 and", "tk  1 and")
    assert occurs_in("tk\ufffd1 and", "we predict tk 1 and more")
    assert not occurs_in("a value of \ufffd 0.07", "a value of & 0.08")


def test_an_unmapped_glyph_standing_alone_may_be_dropped_with_one_of_its_spaces() -> None:
    assert occurs_in("nodes p1 \ufffd p2 for", "the nodes p1 p2 for each")
    assert occurs_in("nodes p1 \ufffd p2 for", "the nodes p1 \x8d p2 for each")
    assert not occurs_in("nodes p1 \ufffd p2 for", "the nodes p1 k p2 for each")


def test_a_quote_of_unmapped_glyphs_only_matches_nothing_but_itself() -> None:
    assert not occurs_in("\ufffd \ufffd", "any text at all")
    assert occurs_in("\ufffd \ufffd", "a \ufffd \ufffd b")
