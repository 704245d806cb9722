"""A printed line put back together from the pieces MuPDF gives: the pieces of one line
split at sub- and superscripts joined left to right (``merge_same_baseline``), pieces a
producer drew out of order put in order, a block split off at an inline formula given back
to its paragraph's block, a side head and the text's first line on one baseline kept
apart, a list's bullet and a panel's letter sized as the text they mark, and lines drawn
twice read once (``drop_doubles``). Pure: lines in, lines out.
"""

from __future__ import annotations

import itertools
import re

from vaultd.parse.classify import SECTION_NUMBER_RE
from vaultd.parse.paras import Line
from vaultd.parse.spans import Piece, needs_space


def drop_doubles(lines: list[Line]) -> list[Line]:
    """A line drawn twice over itself (a banner or footer overprinted to look bold) is
    read once, as poppler reads overlapping copies of a glyph once."""
    seen: set[tuple[str, int, int, int, int]] = set()
    out: list[Line] = []
    for ln in lines:
        x0, y0, x1, y1 = ln.bbox
        key = (ln.text, round(x0), round(y0), round(x1), round(y1))
        if key in seen:
            continue
        seen.add(key)
        out.append(ln)
    return out


#: Most characters of a label set before a line's text (a figure panel's ``c``).
LABEL_CHARS = 3
#: Pieces of a line standing this many ems apart are a table row's cells.
CELL_GAP_EMS = 1.0


def merge_same_baseline(lines: list[Line]) -> list[Line]:
    """PyMuPDF splits one printed line at sub/superscripts; put the pieces back together,
    left to right (it may give the piece on the right first).

    The space at each join follows ``needs_space``; a line's box bottom stands for its
    baseline and its main size for the size of its last glyphs.
    """
    out: list[Line] = []
    for ln, glued in _interleaved_in_order(_split_blocks_joined(lines)):
        prev = out[-1] if out else None
        if glued and prev is not None:
            _join(prev, prev, ln)  # the next piece of a line drawn out of order
            continue
        if prev is not None and prev.block == ln.block:
            after = ln.bbox[0] >= prev.bbox[2] - 1.0
            # MuPDF may give the piece on the right first: then only a piece right beside it
            before = ln.bbox[2] <= prev.bbox[0] + 1.0 \
                and prev.bbox[0] - ln.bbox[2] <= 1.5 * max(prev.size, ln.size, 1.0)
            if _level(prev, ln) and (after or before) and not _side_head(prev, ln):
                _join(prev, *((prev, ln) if after else (ln, prev)))
                continue
        out.append(ln)
    return out


def _join(prev: Line, first: Line, second: Line) -> None:
    """``prev`` (one of ``first`` and ``second``, its left and right pieces) made the two
    pieces' one line, in place."""
    ln = second if first is prev else first
    left = Piece(first.text, first.bbox[0], first.bbox[2], first.bbox[3], first.size)
    right = Piece(second.text, second.bbox[0], second.bbox[2], second.bbox[3], second.size)
    sep = " " if needs_space(left, right) else ""
    # a listing's line number, set apart in the body face, joins its code line
    # (whose size the line keeps: the number is set smaller)
    # (as does a list's bullet, set in a symbol font of its own size, its item)
    if (prev.text.strip().isdigit() and ln.mono) or _lone_mark(prev.text):
        prev.size = ln.size
    elif len(first.text.strip()) <= LABEL_CHARS < len(second.text.strip()) and first.size > second.size \
            and first.text.strip().strip("().").isalpha() and first.text.isascii():
        # a panel's letter set large before its title (Nature's ``c`` | ``Pain ratings for
        # each stimulus …`` in 7 pt) is no line of the letter's size
        prev.size = second.size
    prev.mono = (prev.mono or prev.text.strip().isdigit()) and (ln.mono or ln.text.strip().isdigit()) \
        and (prev.mono or ln.mono)
    if not first.lead and (first.bold or first.italic) and not first.mixed and second.lead \
            and SECTION_NUMBER_RE.fullmatch(first.text.strip().rstrip(".")):
        # a run-in heading's number set apart before its words (Wiley's bold ``2.2.2.1`` |
        # ``**Climate-Related Worry.** We assessed …``): the number is the heading's
        first.lead = f"{first.text.strip()} {second.lead}"
    elif not first.lead and (first.bold or first.italic) and not first.mixed \
            and (second.bold, second.italic) != (first.bold, first.italic):
        first.lead = first.text.strip()  # a run-in heading MuPDF set as a line of its own
    prev.lead = first.lead
    prev.face_lead, prev.lead_font = first.face_lead, first.lead_font
    prev.cells = first.cells + second.cells - (second.bbox[0] - first.bbox[2] < CELL_GAP_EMS * max(prev.size, 1.0))
    prev.text = first.text + sep + second.text
    prev.note_mark, prev.lead_mark = second.note_mark, first.lead_mark
    prev.mixed = prev.mixed or ln.mixed or (prev.font != ln.font and any(c.isalpha() for c in ln.text))
    prev.bbox = (min(prev.bbox[0], ln.bbox[0]), min(prev.bbox[1], ln.bbox[1]),
                 max(prev.bbox[2], ln.bbox[2]), max(prev.bbox[3], ln.bbox[3]))


def _split_blocks_joined(lines: list[Line]) -> list[Line]:
    """The lines, a block MuPDF split off at an inline formula given its paragraph's block
    again (in place): a block whose first line (past a lone sign, a radical's bar) goes on
    the line the block before ends on, level with it and starting where it stops
    (Scientific Reports' ``… two cases: T`` | ``a K (pa = 150 GPa) and``; a Springer
    article's ``bc(bc − 4)`` | ``√`` | ``. Lattice points outside of I …``)."""
    for i in range(1, len(lines)):
        ln, prev = lines[i], lines[i - 1]
        if ln.block == prev.block:
            continue
        probe = ln
        if not any(c.isalnum() for c in ln.text) and i + 1 < len(lines) and lines[i + 1].block == ln.block:
            probe = lines[i + 1]
        if probe.bbox[1] >= prev.bbox[3] or probe.bbox[3] <= prev.bbox[1]:
            continue  # (most blocks: under the line before, or a column's top)
        band = [a for a in lines[max(0, i - BAND_LINES):i] if a.block == prev.block and _level(a, prev)]
        if any(_level(a, probe) and -SPLIT_GAP_EMS <= (probe.bbox[0] - a.bbox[2]) / max(a.size, 1.0) <= SPLIT_GAP_EMS
               and a.size >= SCRIPT_SHARE * probe.size for a in band):  # (not a script's line)
            old = ln.block
            for later in lines[i:]:
                if later.block != old:
                    break
                later.block = prev.block
    return lines


#: How many lines back a block's last printed line is looked for, and how far (ems) the
#: next block may start from it to go on that line.
BAND_LINES = 8
SPLIT_GAP_EMS = 0.6


def _interleaved_in_order(lines: list[Line]) -> list[tuple[Line, bool]]:
    """Lines as MuPDF gives them, but a run of three or more pieces of one block on one
    baseline that a producer drew out of order (F1000's pages draw a line's italic name and
    its link-coloured citation after the rest: ``of`` ``are stated …`` ``R. terranovae``)
    left to right, when so put they stand side by side, no gap wider than
    ``INTERLEAVE_GAP_EMS`` and none over another but a formula's stacked scripts: one
    printed line read in its order, each piece after the first ``glued`` to the one before."""
    out: list[tuple[Line, bool]] = []
    i = 0
    while i < len(lines):
        j = i + 1
        first = lines[i]
        while j < len(lines) and lines[j].block == first.block and lines[j].bbox[1] < first.bbox[3] \
                and _level(first, lines[j]):
            j += 1
        run = lines[i:j]
        ordered = sorted(run, key=lambda ln: ln.bbox[0]) if len(run) >= 3 else run
        if ordered != run and _side_by_side(ordered):
            out += [(ln, k > 0) for k, ln in enumerate(ordered)]
        else:
            out += [(ln, False) for ln in run]
        i = j
    return out


def _side_by_side(pieces: list[Line]) -> bool:
    """Whether pieces put left to right stand side by side: each starts at most an em and a
    half after the one before ends, over it by no more than a quarter em (an italic's
    overhang, a trailing space), but a script over another (a subscript and a superscript
    stacked, both set under 0.8 of the largest size: ``T`` ``C`` ``a``)."""
    big = max(p.size for p in pieces)
    for a, b in itertools.pairwise(pieces):
        em = max(a.size, b.size, 1.0)
        gap = b.bbox[0] - a.bbox[2]
        if gap > INTERLEAVE_GAP_EMS * em:
            return False
        if gap < -max(1.0, 0.25 * em) and not (max(a.size, b.size) < SCRIPT_SHARE * big):
            return False
    return True


def _level(a: Line, b: Line) -> bool:
    """Whether two pieces share a baseline: their boxes overlap by most of the lower one."""
    overlap = min(a.bbox[3], b.bbox[3]) - max(a.bbox[1], b.bbox[1])
    return overlap > 0.5 * (min(a.bbox[3] - a.bbox[1], b.bbox[3] - b.bbox[1]) or 1.0)


#: The widest gap (ems) between pieces of a line drawn out of order.
INTERLEAVE_GAP_EMS = 1.5
#: A piece set under this share of its line's largest size is a script.
SCRIPT_SHARE = 0.8


def _lone_mark(text: str) -> bool:
    """A list's bullet alone (``•``, ``▪``), or an item's number in brackets (the Official
    Journal's recital ``(11)``, set a size smaller than its text)."""
    return text.strip() in _BULLETS or _BRACKETED_MARK_RE.fullmatch(text.strip()) is not None


#: An enumerated item's mark in brackets alone: ``(11)``, ``(iv)``, ``(b)``.
_BRACKETED_MARK_RE = re.compile(r"\((?:\d{1,3}|[ivxlc]{1,5}|[a-z])\)")


#: A list item's bullets, which word processors set in a symbol font of their own size.
_BULLETS = frozenset("•◦▪‣●∙·▶►▸■□✓➢➤◆◇★-–")


def _side_head(a: Line, b: Line) -> bool:
    """Whether two lines on one baseline are a head set in the margin and the first line of
    the text it heads (GAO's 17 pt ``Results in Brief`` left of its 11 pt section, which
    MuPDF gives as one block): the left one of words, ``SIDE_HEAD_LARGER`` points larger,
    ``SIDE_HEAD_EMS`` of its size from the text. A listing's line numbers, a formula's
    symbols and a table's cells are no larger than what stands right of them."""
    head, text = (a, b) if a.bbox[0] < b.bbox[0] else (b, a)
    return head.size >= text.size + SIDE_HEAD_LARGER and head.bbox[2] <= text.bbox[0] - SIDE_HEAD_EMS * head.size \
        and all(any(sum(map(str.isalpha, w)) >= 3 for w in ln.text.split()) for ln in (head, text))


#: How much larger (points) a side head is set than its text, and how far (ems of the
#: head's size) it stands from the text's first line.
SIDE_HEAD_LARGER = 3.0
SIDE_HEAD_EMS = 2.0
