"""Time-coded text of a WebVTT subtitle track, with YouTube's rolling captions undone (pure).

YouTube's automatic captions "roll": each cue shows the previous line again above the new
one, and a 10 ms cue in between shows the finished line alone. Read as they are, every
line would appear two or three times. ``read_vtt`` recognises such a track by its content
(most cues begin with the line the cue before ended with) and keeps each line once, at
the time it first appears. Creator subtitles are kept cue for cue.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import webvtt
from webvtt.errors import MalformedCaptionError, MalformedFileError

from vaultd.errors import ParseError

#: Share of cues repeating the previous cue's last line above which a track is rolling.
ROLLING_SHARE = 0.5


class TranscriptError(ParseError, ValueError):
    """The text is not a WebVTT subtitle track."""


@dataclass(frozen=True)
class Cue:
    """One caption: seconds from the start of the video, and its text on one line."""

    start: float
    end: float
    text: str


@dataclass(frozen=True)
class _Block:
    """A source cue: its times and its non-empty lines, tags stripped."""

    start: float
    end: float
    lines: tuple[str, ...]


def read_vtt(text: str) -> list[Cue]:
    """The cues of a WebVTT track, in order; empty cues dropped, rolling repeats removed."""
    blocks = [block for block in _blocks(text) if block.lines]
    if _is_rolling(blocks):
        return _unroll(blocks)
    return [Cue(b.start, b.end, " ".join(b.lines)) for b in blocks]


def _blocks(text: str) -> list[_Block]:
    try:
        captions = webvtt.from_string(text).captions
    except MalformedFileError as exc:
        raise TranscriptError(
            "The subtitle text is not WebVTT: it does not start with a WEBVTT line.") from exc
    except MalformedCaptionError as exc:
        raise TranscriptError(f"The WebVTT subtitles have a malformed cue: {exc}.") from exc
    blocks = []
    for caption in captions:
        # Caption.text drops every <...> tag: timestamps, <c.color…>, <i>, <v Speaker>.
        lines = (_clean_line(line) for line in caption.text.split("\n"))
        blocks.append(_Block(start=caption.start_time.in_milliseconds() / 1000,
                             end=caption.end_time.in_milliseconds() / 1000,
                             lines=tuple(line for line in lines if line)))
    return blocks


def _clean_line(line: str) -> str:
    """A cue line as plain text: entities decoded, whitespace collapsed (tags already gone)."""
    return " ".join(html.unescape(line).split())


def _is_rolling(blocks: Sequence[_Block]) -> bool:
    """Whether most cues begin by repeating how the cue before them ended."""
    if len(blocks) < 2:
        return False
    repeats = sum(1 for prev, block in pairwise(blocks)
                  if _overlap(prev.lines, block.lines))
    return repeats / (len(blocks) - 1) >= ROLLING_SHARE


def _unroll(blocks: Sequence[_Block]) -> list[Cue]:
    """Each cue's lines minus those repeated from the previous cue; cues left empty dropped."""
    cues = []
    previous: tuple[str, ...] = ()
    for block in blocks:
        new = block.lines[_overlap(previous, block.lines):]
        previous = block.lines
        if new:
            cues.append(Cue(block.start, block.end, " ".join(new)))
    return cues


def _overlap(previous: Sequence[str], lines: Sequence[str]) -> int:
    """The smallest k > 0 such that the first k ``lines`` are the last k of ``previous``.

    The smallest, because captions roll by one line: after "a" / "a", a cue "a" / "a"
    repeats one line and adds a second "a" the speaker said.
    """
    for k in range(1, min(len(previous), len(lines)) + 1):
        if tuple(lines[:k]) == tuple(previous[-k:]):
            return k
    return 0
