"""Segments of a transcript: windows, chapters, splits, and the partition properties."""

from __future__ import annotations

import json
import re
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vaultd.video.info import Chapter
from vaultd.video.segments import MAX_SEGMENT, MIN_CHAPTER, WINDOW, Segment, segment
from vaultd.video.transcript import Cue, read_vtt

HUMAN_VTT = "youtube/vtt/human_crash_course_european_history.en.vtt"
CHAPTERS_INFO = "youtube/info/gogEJyoSB9s_group_therapy_487.info.json"


def _texts(cues: list[Cue]) -> str:
    return " ".join(c.text for c in cues)


def _seg(cues: list[Cue], chapter: str | None = None) -> Segment:
    return Segment(cues[0].start, cues[-1].end, _texts(cues), chapter)


def _steady(n: int, seconds: float, text: str = "word{k}") -> list[Cue]:
    """``n`` back-to-back cues of ``seconds`` each."""
    return [Cue(k * seconds, (k + 1) * seconds, text.format(k=k)) for k in range(n)]


def test_defaults_are_a_minute_ten_seconds_and_five_minutes() -> None:
    assert (WINDOW, MIN_CHAPTER, MAX_SEGMENT) == (60.0, 10.0, 300.0)


# -- without chapters --------------------------------------------------------------------


def test_creator_subtitles_close_at_the_first_sentence_end_after_a_minute(
        fixtures_dir: Path) -> None:
    cues = read_vtt((fixtures_dir / HUMAN_VTT).read_text(encoding="utf-8"))
    # By eye: "...even bright colors." ends at 60.96, 60.8 s after the first cue (0.16);
    # every earlier sentence end is under a minute in. The last cue is left alone.
    assert segment(cues) == [_seg(cues[:12]), _seg(cues[12:])]
    assert segment(cues)[0].text.endswith("varied, even bright colors.")


def test_a_half_minute_window_closes_at_the_last_sentence_end_when_none_is_in_reach(
        fixtures_dir: Path) -> None:
    cues = read_vtt((fixtures_dir / HUMAN_VTT).read_text(encoding="utf-8"))
    # By eye, window 30 s (reach 45 s): from 0.16 no sentence ends between 30 and 45 s in
    # ("town." is 28.7 s in, "lives." 46.4 s), so the window closes at "town."; from 28.88
    # "colors." ends 32.1 s in.
    assert segment(cues, window=30) == [_seg(cues[:6]), _seg(cues[6:12]), _seg(cues[12:])]


def test_unpunctuated_auto_captions_close_at_the_cue_boundary_nearest_a_minute() -> None:
    cues = _steady(50, 5.0)  # 250 s, no punctuation at all
    got = segment(cues)
    # the last 70 s fit in the reach (90 s) and have no sentence end: one segment, no 10 s tail
    assert [(s.start, s.end) for s in got] == [
        (0.0, 60.0), (60.0, 120.0), (120.0, 180.0), (180.0, 250.0)]
    assert all(s.chapter is None for s in got)


def test_a_sentence_end_after_a_closing_quote_or_bracket_counts() -> None:
    texts = ["he said “stop.”", "then (quietly!)", "and ‘why?’", "she left…"]
    for text in texts:
        cues = [Cue(0, 70, text), Cue(70, 75, "tail"), Cue(75, 200, "more")]
        assert segment(cues)[0] == _seg(cues[:1]), text


def test_a_cue_longer_than_the_reach_is_a_segment_of_its_own() -> None:
    cues = [Cue(0, 5, "a"), Cue(5, 500, "long silence then words"), Cue(500, 505, "b")]
    got = segment(cues)
    assert [s.text for s in got] == ["a", "long silence then words", "b"]


def test_no_cues_give_no_segments() -> None:
    assert segment([]) == []
    assert segment([], [Chapter(0, 100, "a")]) == []


@pytest.mark.parametrize(("window", "min_chapter", "max_segment"), [
    (0, 10, 300), (60, 10, -1), (60, -1, 300), (float("nan"), 10, 300)])
def test_nonsense_sizes_are_refused(window: float, min_chapter: float,
                                    max_segment: float) -> None:
    with pytest.raises(ValueError, match="must be positive"):
        segment(_steady(3, 1.0), window=window, min_chapter=min_chapter,
                max_segment=max_segment)


# -- with chapters -------------------------------------------------------------------------


def _fixture_chapters(fixtures_dir: Path) -> list[Chapter]:
    raw = json.loads((fixtures_dir / CHAPTERS_INFO).read_text(encoding="utf-8"))
    return [Chapter(float(c["start_time"]), float(c["end_time"]), c["title"])
            for c in raw["chapters"]]


def _ten_second_cues(total: float) -> list[Cue]:
    """A cue every 10 s; every fourth ends a sentence."""
    return [Cue(10.0 * k, 10.0 * k + 10, f"word{k}" + ("." if k % 4 == 3 else ""))
            for k in range(int(total // 10) + 1)]


def test_real_chapters_hold_the_cues_that_start_in_them(fixtures_dir: Path) -> None:
    chapters = _fixture_chapters(fixtures_dir)
    cues = _ten_second_cues(chapters[-1].end)
    got = segment(cues, chapters)
    for piece in got:
        (chapter,) = [c for c in chapters if c.title == piece.chapter]
        inside = [c for c in cues if chapter.start <= c.start < chapter.end]
        assert piece.text in _texts(inside)
    for chapter in chapters:  # every chapter's cues, in order, across its pieces
        inside = [c for c in cues if chapter.start <= c.start < chapter.end]
        assert " ".join(s.text for s in got if s.chapter == chapter.title) == _texts(inside)
    # the one cue that starts at 7200 s falls in the last chapter, which ends at 7205
    assert got[-1].end == 7210.0


def test_a_real_chapter_over_five_minutes_is_split_at_a_sentence_end(fixtures_dir: Path) -> None:
    chapters = _fixture_chapters(fixtures_dir)
    cues = _ten_second_cues(chapters[-1].end)
    title = "RECORD OF THE WEEK: BLR & anamē feat. Robbie Rise - Influencer (Anjunabeats)"
    # By hand: 864-1220 holds the cues starting 870..1210 (k = 87..121), 350 s; two pieces
    # of about 175 s; the sentence end nearest 175 s in is word103. (170 s).
    pieces = [s for s in segment(cues, chapters) if s.chapter == title]
    assert pieces == [_seg(cues[87:104], title), _seg(cues[104:122], title)]
    assert pieces[0].text.endswith("word103.")


def test_the_intro_chapter_is_long_enough_to_stand_alone(fixtures_dir: Path) -> None:
    chapters = _fixture_chapters(fixtures_dir)
    got = segment(_ten_second_cues(100), chapters[:2])
    assert [(s.chapter, s.start, s.end) for s in got] == [
        ("Intro", 0.0, 40.0), ("Alex Sonata & TheRio - Cala Luna (Anjunabeats)", 40.0, 110.0)]


def test_short_chapters_merge_into_the_previous_and_a_short_first_into_the_next() -> None:
    chapters = [Chapter(0, 5, "cold open"), Chapter(5, 100, "A"), Chapter(100, 104, "blip"),
                Chapter(104, 200, "B")]
    cues = _steady(100, 2.0)
    got = segment(cues, chapters)
    assert got == [_seg(cues[:52], "A"), _seg(cues[52:], "B")]


def test_all_short_chapters_make_one_under_the_first_title() -> None:
    cues = _steady(10, 1.0)
    got = segment(cues, [Chapter(0, 4, "x"), Chapter(4, 8, "y"), Chapter(8, 10, "z")])
    assert got == [_seg(cues, "x")]


def test_cues_before_the_first_chapter_join_it_and_empty_chapters_give_nothing() -> None:
    cues = [Cue(0, 2, "early"), Cue(12, 14, "one"), Cue(40, 42, "two")]
    chapters = [Chapter(10, 20, "first"), Chapter(20, 30, "empty"), Chapter(30, 50, "last")]
    got = segment(cues, chapters)
    assert got == [_seg(cues[:2], "first"), _seg(cues[2:], "last")]


def test_an_unpunctuated_long_chapter_splits_into_even_pieces_between_cues() -> None:
    cues = _steady(62, 10.0)  # 620 s: three pieces
    got = segment(cues, [Chapter(0, 620, "talk")])
    # 620/3 = 206.7 s: 210 is nearer than 200; then 410/2 = 205 s ties 200 and 210: the later
    assert [(s.start, s.end) for s in got] == [(0.0, 210.0), (210.0, 420.0), (420.0, 620.0)]
    assert {s.chapter for s in got} == {"talk"}


def test_segments_are_the_same_every_time(fixtures_dir: Path) -> None:
    chapters = _fixture_chapters(fixtures_dir)
    cues = _ten_second_cues(chapters[-1].end)
    assert segment(cues, chapters) == segment(list(cues), tuple(chapters))
    assert segment(cues) == segment(tuple(cues))


# -- properties ----------------------------------------------------------------------------

_TAIL = st.sampled_from(["", " and so", " it works.", " really?", " “quoted.”", " (aside)"])


@st.composite
def _cues(draw: st.DrawFn, contiguous: bool = False) -> list[Cue]:
    """Ordered, non-overlapping cues; cue i's text starts with the unique word ``c<i>``."""
    n = draw(st.integers(min_value=1, max_value=120))
    cues, t = [], draw(st.floats(min_value=0, max_value=50))
    for i in range(n):
        if not contiguous:
            t += draw(st.sampled_from([0.0, 0.0, 0.01, 1.0, 30.0]))
        length = draw(st.floats(min_value=0.01, max_value=40))
        cues.append(Cue(t, t + length, f"c{i}" + draw(_TAIL)))
        t += length
    return cues


@st.composite
def _chapters(draw: st.DrawFn, min_length: float = 0.0) -> list[Chapter]:
    bounds = sorted(set(draw(st.lists(st.floats(min_value=0, max_value=5000), min_size=2,
                                      max_size=15))))
    pairs = [(a, b) for a, b in pairwise(bounds) if b - a >= min_length]
    return [Chapter(a, b, f"ch{k}") for k, (a, b) in enumerate(pairs)]


_CUE_ID = re.compile(r"^c\d+$")


def _check_partition(cues: list[Cue], got: list[Segment]) -> list[list[Cue]]:
    """Each segment is the next run of whole cues, with its times and text; returns the runs."""
    runs, i = [], 0
    for piece in got:
        count = sum(1 for word in piece.text.split() if _CUE_ID.match(word))
        run = cues[i:i + count]
        assert count >= 1 and piece == _seg(run, piece.chapter)
        runs.append(run)
        i += count
    assert i == len(cues)
    assert " ".join(s.text for s in got) == _texts(cues)
    return runs


@given(_cues(), st.floats(min_value=5, max_value=120), st.floats(min_value=10, max_value=600))
def test_windows_partition_the_cues_within_their_reach(cues: list[Cue], window: float,
                                                       max_segment: float) -> None:
    got = segment(cues, window=window, max_segment=max_segment)
    reach = min(window * 1.5, max_segment)
    for run, piece in zip(_check_partition(cues, got), got, strict=True):
        assert piece.end - piece.start <= reach or len(run) == 1
        assert piece.chapter is None


@given(st.lists(st.floats(min_value=0.01, max_value=1.0), min_size=1, max_size=120),
       st.floats(min_value=20, max_value=120))
def test_punctuated_windows_last_at_least_a_window_but_the_last(fractions: list[float],
                                                                window: float) -> None:
    # Back-to-back cues of at most 0.45 window, every one ending a sentence.
    cues, t = [], 0.0
    for i, fraction in enumerate(fractions):
        cues.append(Cue(t, t + fraction * window * 0.45, f"c{i} done."))
        t = cues[-1].end
    got = segment(cues, window=window)
    _check_partition(cues, got)
    assert all(s.end - s.start >= window for s in got[:-1])


@given(_cues(), _chapters(), st.floats(min_value=0, max_value=60),
       st.floats(min_value=10, max_value=600))
def test_chapters_partition_the_cues_and_keep_pieces_under_the_maximum(
        cues: list[Cue], chapters: list[Chapter], min_chapter: float,
        max_segment: float) -> None:
    got = segment(cues, chapters, min_chapter=min_chapter, max_segment=max_segment)
    runs = _check_partition(cues, got)
    for run, piece in zip(runs, got, strict=True):
        assert piece.end - piece.start <= max_segment or len(run) == 1
    if not chapters:
        return
    long_titles = {c.title for c in chapters if c.end - c.start >= min_chapter}
    assert {s.chapter for s in got} <= (long_titles or {chapters[0].title})


@given(_cues(), _chapters(min_length=10.0))
def test_every_cue_lies_in_its_segments_chapter(cues: list[Cue],
                                                chapters: list[Chapter]) -> None:
    got = segment(cues, chapters)
    for run, piece in zip(_check_partition(cues, got), got, strict=True):
        for cue in run:
            # the chapter a cue starts in; cues before the first chapter belong to it
            owners = [c for c in chapters if c.start <= cue.start] or chapters[:1]
            expected = owners[-1].title if chapters else None
            assert piece.chapter == expected
