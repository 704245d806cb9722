"""Time-coded segments of a transcript: the passages a video note quotes (pure).

A segment is a run of whole cues, so its text is verbatim and its times are those of its
first and last cue. With chapters, a segment is a chapter (long ones split at sentence
ends); without, a window of about a minute that ends with a sentence where one is near.
The same cues always give the same segments, so a note can be verified by recomputing.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from vaultd.video.info import Chapter
from vaultd.video.transcript import Cue

WINDOW = 60.0  # seconds a segment aims for when there are no chapters
MIN_CHAPTER = 10.0  # seconds; shorter chapters are merged into a neighbour
MAX_SEGMENT = 300.0  # seconds; longer chapters are split

_SENTENCE_END = re.compile(r"""[.?!…]["'”’»)\]]*$""")


@dataclass(frozen=True)
class Segment:
    """Consecutive cues: their times, their texts joined by spaces, and their chapter."""

    start: float
    end: float
    text: str
    chapter: str | None


def segment(cues: Sequence[Cue], chapters: Sequence[Chapter] = (), *,
            window: float = WINDOW, min_chapter: float = MIN_CHAPTER,
            max_segment: float = MAX_SEGMENT) -> list[Segment]:
    """Every cue in exactly one segment, in order: by chapter if any, else by time window."""
    if not window > 0 or not max_segment > 0 or not min_chapter >= 0:
        raise ValueError("window and max_segment must be positive, min_chapter not negative.")
    if not cues:
        return []
    if not chapters:
        return [_make(run, None) for run in _windows(cues, window, min(window * 1.5, max_segment))]
    merged = _merge_short(chapters, min_chapter)
    return [_make(piece, title)
            for title, run in _by_chapter(cues, merged)
            for piece in _split(run, max_segment)]


def _is_sentence_end(text: str) -> bool:
    """Whether ``text`` ends a sentence: . ? ! or …, maybe followed by a closing quote or bracket."""
    return _SENTENCE_END.search(text.rstrip()) is not None


def _make(run: Sequence[Cue], chapter: str | None) -> Segment:
    return Segment(start=run[0].start, end=run[-1].end,
                   text=" ".join(cue.text for cue in run), chapter=chapter)


def _span(cues: Sequence[Cue], i: int, j: int) -> float:
    """Seconds from the start of cue ``i`` to the end of cue ``j``."""
    return cues[j].end - cues[i].start


# -- with chapters -------------------------------------------------------------------------


def _merge_short(chapters: Sequence[Chapter], min_chapter: float) -> list[Chapter]:
    """Chapters with those shorter than ``min_chapter`` merged into the previous one (the
    first ones into the next); all of them short makes one chapter."""
    ordered = sorted(chapters, key=lambda c: (c.start, c.end))
    merged: list[Chapter] = []
    leading: Chapter | None = None  # short chapters before the first long one
    for chapter in ordered:
        if chapter.end - chapter.start >= min_chapter:
            if leading is not None and not merged:
                chapter = replace(chapter, start=leading.start)
            merged.append(chapter)
        elif merged:
            merged[-1] = replace(merged[-1], end=max(merged[-1].end, chapter.end))
        elif leading is None:
            leading = chapter
        else:
            leading = replace(leading, end=max(leading.end, chapter.end))
    return merged or ([leading] if leading is not None else [])


def _by_chapter(cues: Sequence[Cue],
                chapters: Sequence[Chapter]) -> list[tuple[str, list[Cue]]]:
    """Runs of consecutive cues starting in the same chapter (before the first: the first)."""
    starts = [chapter.start for chapter in chapters]
    runs: list[tuple[int, list[Cue]]] = []
    for cue in cues:
        index = max(bisect.bisect_right(starts, cue.start) - 1, 0)
        if runs and runs[-1][0] == index:
            runs[-1][1].append(cue)
        else:
            runs.append((index, [cue]))
    return [(chapters[index].title, run) for index, run in runs]


def _split(cues: Sequence[Cue], max_segment: float) -> list[Sequence[Cue]]:
    """Pieces of at most ``max_segment`` seconds where cues allow, of about equal length,
    cut after sentence ends where there is one in reach, else between cues."""
    pieces: list[Sequence[Cue]] = []
    i = 0
    while i < len(cues):
        j = _cut(cues, i, max_segment)
        pieces.append(cues[i:j + 1])
        i = j + 1
    return pieces


def _cut(cues: Sequence[Cue], i: int, max_segment: float) -> int:
    """The last cue of the piece starting at cue ``i``."""
    remaining = _span(cues, i, len(cues) - 1)
    if remaining <= max_segment:
        return len(cues) - 1
    target = remaining / math.ceil(remaining / max_segment)
    fits = _reach(cues, i, max_segment)
    sentences = [j for j in fits if _is_sentence_end(cues[j].text)]
    return _nearest(cues, i, sentences or fits, target) if fits else i


def _reach(cues: Sequence[Cue], i: int, limit: float) -> list[int]:
    """Indexes j >= i such that cues i..j last at most ``limit`` seconds."""
    found = []
    for j in range(i, len(cues)):
        if cues[j].start - cues[i].start > limit:
            break
        if _span(cues, i, j) <= limit:
            found.append(j)
    return found


def _nearest(cues: Sequence[Cue], i: int, candidates: Sequence[int], target: float) -> int:
    """The candidate whose piece lasts closest to ``target`` seconds (the later on a tie)."""
    return min(reversed(candidates), key=lambda j: abs(_span(cues, i, j) - target))


# -- without chapters ----------------------------------------------------------------------


def _windows(cues: Sequence[Cue], window: float, limit: float) -> list[Sequence[Cue]]:
    runs: list[Sequence[Cue]] = []
    i = 0
    while i < len(cues):
        j = _window_end(cues, i, window, limit)
        runs.append(cues[i:j + 1])
        i = j + 1
    return runs


def _window_end(cues: Sequence[Cue], i: int, window: float, limit: float) -> int:
    """The last cue of the window starting at cue ``i``.

    In order of preference: the first sentence end from ``window`` to ``limit`` seconds;
    the rest of the transcript if it fits in ``limit``; the last sentence end from half a
    window; the cue boundary nearest ``window`` (transcripts without punctuation).
    """
    fits = _reach(cues, i, limit)
    if not fits:
        return i
    sentences = [j for j in fits if _is_sentence_end(cues[j].text)]
    for j in sentences:
        if _span(cues, i, j) >= window:
            return j
    if fits[-1] == len(cues) - 1:
        return fits[-1]
    early = [j for j in sentences if _span(cues, i, j) >= window / 2]
    if early:
        return early[-1]
    return _nearest(cues, i, fits, window)
