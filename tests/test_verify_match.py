"""The passage a misquote is closest to (``vaultd.verify.match.Passages.nearest``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vaultd.verify.match import Passages

SOURCE = ("In this paper, we introduce a new method for learning general-purpose vector "
          "representations of scientific documents.")


def test_a_misquote_is_matched_to_its_passage_not_to_a_fragment_inside_it() -> None:
    # A one-letter chunk ("d", a piece of a formula) lies inside any quote: partial
    # alignment would score it 100 against the quote.
    passages = Passages(["d", ", 0", SOURCE, "Results follow in the next section."])
    near = passages.nearest("we zebra a new method for learning general-purpose vector representations")
    assert near is not None and near.chunk == 2
    assert "introduce" in near.source


@given(st.lists(st.text(alphabet="abc ,0", max_size=6), max_size=5))
def test_fragments_never_stand_for_the_passage(fragments: list[str]) -> None:
    passages = Passages([*fragments, SOURCE])
    near = passages.nearest("we introduce a brand new method for learning vector representations")
    assert near is not None and near.chunk == len(fragments)
