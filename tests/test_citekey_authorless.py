"""Keys of works without authors (issue 33): title words in the name's place, no word
twice, no "nd" between title words, at most 40 characters."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from vaultd.capture import crossref
from vaultd.citekey import (
    DEFAULT_PATTERN,
    MAX_KEY_CHARS,
    is_valid_key,
    make_key,
    unique_key,
)
from vaultd.models import Work

# Words none of which is part of another, nor of two set side by side (each opens with a
# z that no word holds elsewhere: "quebec" + "hotel" holds "echo"), so a repeat shows as
# a second occurrence.
WORDS = ["z" + w for w in ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
                           "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo")]
PATTERNS = [DEFAULT_PATTERN, "[auth][year][shorttitle]", "[auth:lower][shorttitle:2][year]",
            "[authEtAl][year][veryshorttitle]", "[year][auth][title]",
            "[auth:lower][year][title:skipwords:lower]"]


def _w(**fields: Any) -> Work:
    return Work.model_validate(fields)


def test_the_authorless_crossref_work_of_issue_33_gets_a_short_readable_key(
        fixtures_dir: Path) -> None:
    record = json.loads((fixtures_dir / "crossref/works/10.1007_s40278-023-41815-2.json")
                        .read_text(encoding="utf-8"))["message"]
    work = crossref.parse_work(record)
    assert not work.authors
    # It was 90 characters: the hyphenated first word twice around the year.
    assert work.title is not None and work.title.startswith("Convalescent-anti-sars-cov-2-plasma")
    assert make_key(work) == "convalescent2023fever"


def test_a_long_title_in_the_title_token_is_cut_to_the_longest_key() -> None:
    work = _w(title="Towards a unified theory of everything that was ever measured",
              authors=[{"family": "Doe"}], issued=[2020])
    key = make_key(work, "[auth][year][title]")
    assert key == "Doe2020TowardsaunifiedtheoryofeverythingT"[:MAX_KEY_CHARS]
    assert len(key) == MAX_KEY_CHARS


def test_a_collision_suffix_keeps_a_generated_key_within_the_limit() -> None:
    base = "x" * MAX_KEY_CHARS
    assert unique_key(base, [base], max_chars=MAX_KEY_CHARS) == "x" * (MAX_KEY_CHARS - 1) + "a"
    assert unique_key("smith2020", ["smith2020"], max_chars=MAX_KEY_CHARS) == "smith2020a"
    assert unique_key(base, [base]) == base + "a"  # a key the user wrote is kept whole


def test_a_title_word_equal_to_the_authors_name_is_not_repeated() -> None:
    work = _w(title="Smith normal forms", authors=[{"family": "Smith"}], issued=[1999])
    assert make_key(work) == "smith1999normal"


@settings(max_examples=300, deadline=None)
@given(title=st.lists(st.sampled_from(WORDS), max_size=6),
       authors=st.lists(st.sampled_from(WORDS), max_size=3, unique=True),
       year=st.one_of(st.none(), st.integers(1000, 2100)),
       pattern=st.sampled_from(PATTERNS))
def test_keys_are_short_valid_and_never_repeat_a_word(title: list[str], authors: list[str],
                                                      year: int | None, pattern: str) -> None:
    work = _w(title=" ".join(title) or None, issued=[year] if year else None,
              authors=[{"family": a.capitalize()} for a in authors])
    key = make_key(work, pattern)
    assert is_valid_key(key) and 0 < len(key) <= MAX_KEY_CHARS
    assert all(key.lower().count(word) <= 1 for word in WORDS), key


@settings(max_examples=200, deadline=None)
@given(title=st.lists(st.sampled_from(WORDS), min_size=1, max_size=6),
       year=st.one_of(st.none(), st.integers(1000, 2100)))
def test_a_work_without_authors_is_keyed_by_its_title_words(title: list[str],
                                                             year: int | None) -> None:
    work = _w(title=" ".join(title), issued=[year] if year else None)
    distinct = list(dict.fromkeys(title))
    expected = distinct[0] + (str(year) if year else "") + "".join(distinct[1:2])
    assert make_key(work) == expected  # no "nd" glued between two title words
