"""``canonical_text`` returns text that is already canonical as it is, without splitting it
into words: the result is the definition's (NFC, whitespace runs as one space, trimmed)
for every text."""

from __future__ import annotations

import sys
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from vaultd.canonical import canonical_text


def by_definition(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def test_the_one_printable_whitespace_character_is_the_space() -> None:
    """What the shortcut rests on: a printable text holds no whitespace but U+0020."""
    assert [hex(c) for c in range(sys.maxunicode + 1)
            if chr(c).isspace() and chr(c).isprintable() and c != 0x20] == []


WORDS = st.sampled_from(["a", "Zürich", "Zu\u0308rich", "β-cell", "x\u00a0y", "p<0.05", "",
                         "\u2028", "ﬁ", "한국", "\u1100\u1161", "\ud7a3"])
SPACES = st.sampled_from([" ", "  ", "\n", "\t", "\u00a0", "\u3000", "\x1c", "\x85", ""])


@given(st.lists(st.tuples(WORDS, SPACES), max_size=8).map(
    lambda parts: "".join(w + s for w, s in parts)) | st.text())
def test_canonical_text_is_the_definition(text: str) -> None:
    assert canonical_text(text) == by_definition(text)
