"""Reading order on a page: source blocks grouped and ordered down the columns.

On each page, a panel set in two columns of its own (``vaultd.parse.column_bands``) is read whole
before the text under it; blocks that cross the vertical centre line (title, full-width
figures) cut the page into bands; within a band the whole left column is read before the right one,
so two-column papers are never interleaved and single-column pages read top to bottom;
small print under both columns' text is read after both (``_foot_band``). A page of three
columns or more (``column_cuts``) is read down each column, left to right.
Blocks are ordered by their top to a tenth of a point, then left to right. One-line
blocks stacked in a script without case are read as one block (``caseless_runs``).
"""

from __future__ import annotations

import bisect
import itertools
import math
import re

from vaultd.parse.base import Box
from vaultd.parse.classify import CAPTION_RE, LIST_RE
from vaultd.parse.column_bands import column_bands
from vaultd.parse.paras import Line, most_size, size_counts, small_print, union


def order_page(lines: list[Line], width: float) -> list[list[Line]]:
    """Group lines by source block and order the groups for reading (see module doc)."""
    groups: dict[int, list[Line]] = {}
    for ln in lines:
        groups.setdefault(ln.block, []).append(ln)
    boxes = [union(g) for g in groups.values()]
    cuts = column_cuts(boxes, width)
    if len(cuts) >= 2:
        return _order_columns(sorted(((union(g), g) for g in groups.values()), key=_reading_key), cuts)
    mid = gutter(line_runs([box for box, g in zip(boxes, groups.values(), strict=True) if not g[0].margin]), width)
    slack = width * 0.03
    pieces = [piece for g in groups.values() for piece in _by_column(g, mid, slack)]
    boxed = _side_heads(sorted(((union(g), g) for g in pieces), key=_reading_key), mid, slack)
    bands = column_bands(boxed, mid, slack)
    if len(bands) > 1:  # (each band's columns read before the next band's)
        return [g for band in bands for g in _order_band(band, mid, slack)]
    return _order_band(boxed, mid, slack)


def _order_band(boxed: list[tuple[Box, list[Line]]], mid: float, slack: float) -> list[list[Line]]:
    """A band's blocks in reading order: its columns, then small print across their feet."""
    band = _foot_band(boxed, mid, slack)
    if band:
        # read the columns above it first, then the band's own columns
        return _two_columns([item for item in boxed if id(item[1]) not in band], mid, slack) \
            + _two_columns([item for item in boxed if id(item[1]) in band], mid, slack)
    return _two_columns(boxed, mid, slack)


def _side_heads(boxed: list[tuple[Box, list[Line]]], mid: float, slack: float) -> list[tuple[Box, list[Line]]]:
    """Blocks (in ``_reading_key`` order) with each side head read before the text it heads:
    a block in the left margin, an em or more left of a block of text across the middle and level
    with that block's first line (its top within the line's height of the text's), comes
    just before it (GAO sets its headings in a wide left margin, top-aligned with the first
    line of their section; a larger head's top may fall a hair below the text's)."""
    keys = {id(g): _reading_key((box, g)) for box, g in boxed}
    for box, g in boxed:
        if not (box[0] < mid - slack and box[2] > mid + slack):
            continue
        first = g[0].bbox
        height = first[3] - first[1]
        for other, h in boxed:
            if other[2] <= box[0] - g[0].size and (other[0] + other[2]) / 2 < mid \
                    and abs(other[1] - first[1]) <= height and keys[id(h)] > keys[id(g)] \
                    and _heads(h, g[0].size):
                keys[id(h)] = (keys[id(g)][0] - 0.05, other[0])
    return sorted(boxed, key=lambda item: keys[id(item[1])])


def _heads(lines: list[Line], size: float) -> bool:
    """Whether ``lines`` look like a side head over text of ``size``: bold or larger, and
    opening with a capital or a number before a word (no formula's piece or label)."""
    text = " ".join(ln.text for ln in lines).strip()
    return all(ln.bold or ln.size >= size + 1.0 for ln in lines) and bool(_HEAD_RE.match(text))


_HEAD_RE = re.compile(r"(?:\d+(?:\.\d+)*\.?\s+)?[A-Z][A-Za-z]{2,}")


def _two_columns(boxed: list[tuple[Box, list[Line]]], mid: float, slack: float) -> list[list[Line]]:
    """Blocks (in ``_reading_key`` order) in reading order on a page of one or two columns:
    the whole left column before the right one, between the blocks across the middle."""
    out: list[list[Line]] = []
    left: list[tuple[Box, list[Line]]] = []
    right: list[tuple[Box, list[Line]]] = []

    def flush(below: Box | None = None, size: float = 0.0) -> None:
        # a column's block set beside the block across the middle, reaching down past its
        # top, goes on in that column after it (Advanced Science's narrow column beside its
        # abstract box, whose first lines stand a little above the box's top)
        beside = [item for item in right if item[0][0] >= below[2]
                  and item[0][1] < below[1] < item[0][3] - BESIDE_REACH and len(item[1]) >= 2] \
            if below is not None and below[3] - below[1] >= BESIDE_TALL else []
        held = {id(g) for _, g in beside}
        rights = [item for item in right if id(item[1]) not in held]
        lefts = sorted(left, key=_reading_key)
        # a head over the block across both columns under them, set in the left one below
        # all of the right one's text (JMIR's ``Acknowledgments`` over its full-width text
        # under the columns): read after the right column, with what it heads
        heads = _heads_under(lefts, rights, below, size)
        out.extend(g for _, g in lefts[:len(lefts) - len(heads)])
        out.extend(g for _, g in sorted(rights, key=_reading_key))
        out.extend(g for _, g in heads)
        left.clear()
        right[:] = beside

    def text_beside(box: Box, g: list[Line]) -> bool:
        # (a float's caption reaching into the left column with its text running on beside
        # it: IUCr's Table 3 under the right column, the left one's last lines narrowed)
        return bool(CAPTION_RE.match(g[0].text)) and any(ln.bbox[2] <= box[0] and ln.bbox[1] < box[3] and box[1] < ln.bbox[3]
                   and ln.bbox[2] < mid - slack for _, h in boxed for ln in h)

    for box, g in boxed:
        if box[0] < mid - slack and box[2] > mid + slack and not text_beside(box, g):
            flush(box, g[0].size)
            out.append(g)
        elif (box[0] + box[2]) / 2 < mid and not (box[2] > mid + slack):
            left.append((box, g))
        else:
            right.append((box, g))
    flush()
    return out


#: How far (points) past the top of a block across the middle a block of two lines or more
#: beside it reaches to go on in its column after it; how tall (points) that block is at
#: least (a box, not a display formula's line).
BESIDE_REACH = 2.0
BESIDE_TALL = 40.0


def _heads_under(lefts: list[tuple[Box, list[Line]]], right: list[tuple[Box, list[Line]]],
                 below: Box | None, below_size: float = 0.0) -> list[tuple[Box, list[Line]]]:
    """The last of the left column's blocks (in reading order) that stand under all of the
    right column's and right over ``below``, a block across both columns: a line or two
    each, within ``HEAD_GAP`` line heights of it (a heading over it, not the left column's
    last paragraph)."""
    if below is None or not any(box[3] - box[1] >= BESIDE for box, _ in right) \
            or not any(box[3] - box[1] >= BESIDE for box, _ in lefts):
        return []  # (two columns of text, not a formula's pieces beside a page's text)
    floor = max(box[3] for box, _ in right)
    heads: list[tuple[Box, list[Line]]] = []
    bottom = below[1]
    for box, g in reversed(lefts):
        height = max(g[0].bbox[3] - g[0].bbox[1], 1.0)
        text = " ".join(ln.text for ln in g).strip()
        if box[1] < floor or len(g) > 2 or bottom - box[3] > HEAD_GAP * height \
                or not text[:1].isalnum() or text.endswith((".", ",", ";")) \
                or any(c.isdigit() for c in text.partition(" ")[2]) or not _heads(g, below_size):
            break
        heads.insert(0, (box, g))
        bottom = box[1]
    return heads


#: Most line heights between a head and the block it heads.
HEAD_GAP = 2.0


def _foot_band(boxed: list[tuple[Box, list[Line]]], mid: float, slack: float) -> set[int]:
    """The blocks (ids) of a band of small print across both columns' feet, under every
    line of the text above it in either column: a bibliography or notes that start under
    two columns set short (Frontiers ends its text in balanced columns and sets its
    ``References`` under both, so the right column's text above them comes first). Each
    column's band is the run of small-print blocks at its foot, with the heading set over
    the run (larger or bold, a short line or two); both columns keep text in the body's
    size above it (``BAND_TEXT_LINES`` lines as wide as a column's), and no block across
    the middle stands beside or under the band."""
    sizes = size_counts([ln for _, g in boxed for ln in g])
    if not sizes:
        return set()
    body = most_size(sizes)
    columns: list[list[tuple[Box, list[Line]]]] = [[], []]
    across: list[float] = []  # the bottoms of blocks across the middle
    for box, g in boxed:
        if box[0] < mid - slack and box[2] > mid + slack:
            across.append(box[3])
        else:
            columns[(box[0] + box[2]) / 2 >= mid].append((box, g))
    band: set[int] = set()
    tops: list[float] = []
    above: list[float] = []
    for col in columns:
        col.sort(key=lambda item: item[0][3])
        k = len(col)
        while k and all(small_print(ln.size, body) for ln in col[k - 1][1]):
            k -= 1
        if k == len(col) or k == 0:
            return set()
        head = col[k - 1][1]
        if len(head) <= 2 and len(" ".join(ln.text for ln in head).split()) <= 8 \
                and all(ln.bold or ln.size > body + 0.5 for ln in head):
            k -= 1
        rest = col[:k]
        if sum(abs(ln.size - body) <= 0.3 and ln.bbox[2] - ln.bbox[0] >= COLUMN_LINE * mid
               for _, g in rest for ln in g) < BAND_TEXT_LINES:
            return set()
        band.update(id(g) for _, g in col[k:])
        tops.append(min(box[1] for box, _ in col[k:]))
        above.append(max(box[3] for box, _ in rest))
    return band if max(above + across) < min(tops) else set()


#: Lines of text in the body's size, each ``COLUMN_LINE`` of half the page wide at least,
#: both columns hold above a band of small print at their feet (``_foot_band``).
BAND_TEXT_LINES = 3
COLUMN_LINE = 0.6


def column_cuts(boxes: list[Box], width: float) -> list[float]:
    """Where a page of three columns or more is cut between them, from its blocks: the
    narrow blocks (under ``NARROW`` of the page's width) cover each column's width and
    leave the gutters bare; three or more covered stretches, each ``COLUMN`` of the
    page's width at least, are columns. Fewer: no cuts (the two-column reading applies)."""
    columns = _columns(boxes, width)
    if len(columns) < 3:
        return []
    return [(a[1] + b[0]) / 2 for a, b in itertools.pairwise(columns)]


def line_runs(boxes: list[Box]) -> list[Box]:
    """Blocks of one line stacked at one left edge, each right under the one before, as
    one box: the column of text they make (JAMA and word processors set every line as a
    block of its own, and a column's width and height are then its runs'). Other boxes
    as they are."""
    out: list[list[float]] = []
    for box in sorted(boxes, key=lambda b: (round(b[0]), b[1])):
        height = box[3] - box[1]
        last = out[-1] if out else None
        if last is not None and abs(last[0] - box[0]) <= 2.0 and height <= RUN_LINE_PT \
                and -1.0 <= box[1] - last[3] <= RUN_GAP * height:
            last[2], last[3] = max(last[2], box[2]), max(last[3], box[3])
        else:
            out.append(list(box))
    return [(b[0], b[1], b[2], b[3]) for b in out]


#: Tallest box (points) a run of lines takes in as a line; most gap between two of its
#: lines, in the lower one's heights.
RUN_LINE_PT = 16.0
RUN_GAP = 1.0


def gutter(boxes: list[Box], width: float) -> float:
    """Where a page of two columns is split: its vertical centre line, unless its narrow
    blocks cover two columns with the centre inside one of them and each holds a block of
    text beside the other's, and every block across the gap between them covers most of
    both (eLife sets its columns right of a margin column, the gutter at 62 % of the
    page, its abstract across both): then the middle of that gutter."""
    mid = width / 2
    columns = _columns(boxes, width)
    if len(columns) != 2:
        # a figure's labels may bridge the gutter (IOP's framework diagram over the columns
        # of ERL's p. 5): the columns' blocks of text alone then show it
        columns = _columns([b for b in boxes if b[3] - b[1] >= BESIDE], width)
    if len(columns) == 1:
        columns = _beside_sidebar(columns[0], boxes, mid)
    if len(columns) != 2:
        return mid
    (l0, l1), (r0, r1) = columns
    if l1 <= mid <= r0:
        return mid
    left = [b for b in boxes if l0 <= b[0] and b[2] <= l1]
    right = [b for b in boxes if r0 <= b[0] and b[2] <= r1]
    beside = any(a[1] < b[3] and b[1] < a[3] and a[3] - a[1] >= BESIDE and b[3] - b[1] >= BESIDE
                 for a in left for b in right)
    cut = (l1 + r0) / 2
    # what crosses that gutter is set across both columns (a title, an abstract), not a
    # column's text running over it (a poster's boxes, wider than the stretches found);
    # a first page's title block over the columns' text may cross it as it likes (IOP's
    # title and authors, right of its sidebar, narrower than both columns)
    top = min((b[1] for b in (*left, *right) if b[3] - b[1] >= BESIDE), default=math.inf)
    across = all(min(b[2], l1) - max(b[0], l0) >= SPAN * (l1 - l0) and min(b[2], r1) - max(b[0], r0) >= SPAN * (r1 - r0)
                 for b in boxes if b[0] < cut < b[2] and b[3] > top)
    return cut if beside and across else mid


def _beside_sidebar(column: list[float], boxes: list[Box], mid: float) -> list[list[float]]:
    """A wide column of text left of a narrow one wholly right of the middle (a fact
    sheet's main text left of its sidebar), as the two columns ``gutter`` splits, when the
    wide column's blocks of text stand wholly left of the narrow one and level with its
    own: ``[column]`` when there are none. (A narrow column on the left holds a first
    page's apparatus or a report's side heads, read with the text level with them.)"""
    c0, c1 = column
    tall = [b for b in boxes if b[3] - b[1] >= BESIDE]
    side = [b for b in tall if c0 - 2.0 <= b[0] and b[2] <= c1 + 2.0]
    other = [b for b in tall if b[2] < c0 - 2.0 and any(b[1] < s[3] and s[1] < b[3] for s in side)]
    if c0 <= mid or not other:
        return [column]
    return [[min(b[0] for b in other), max(b[2] for b in other)], column]


#: How much of each column's width a block set across an off-centre gutter covers.
SPAN = 0.8
#: How tall (points) two blocks level with each other are at least to show two columns of
#: text side by side (four lines of body text), not a figure's labels.
BESIDE = 40.0


def _columns(boxes: list[Box], width: float) -> list[list[float]]:
    """The stretches of the page's width its narrow blocks cover (``column_cuts``), the
    ``COLUMN`` wide ones, left to right."""
    spans = sorted((b[0], b[2]) for b in boxes if b[2] - b[0] < NARROW * width)
    merged: list[list[float]] = []
    for x0, x1 in spans:
        if merged and x0 <= merged[-1][1] + 2.0:
            merged[-1][1] = max(merged[-1][1], x1)
        else:
            merged.append([x0, x1])
    return [m for m in merged if m[1] - m[0] >= COLUMN * width]


#: A block narrower than this share of the page is a column's (or a figure's label).
NARROW = 0.4
#: Narrowest column, as a share of the page's width (a three-column page's are 0.27).
COLUMN = 0.2


def _order_columns(boxed: list[tuple[Box, list[Line]]], cuts: list[float]) -> list[list[Line]]:
    """Blocks in reading order on a page of three columns or more: down each column, left to
    right; a block set across columns ends the run above it of those columns and the ones
    left of them, and is read there. A column right of it runs on beside it (*Science*'s
    first page: the title and abstract across the left two columns, the third column
    beside them from the page's top, read after the first two)."""
    out: list[list[Line]] = []
    columns: list[list[tuple[Box, list[Line]]]] = [[] for _ in range(len(cuts) + 1)]

    def flush(upto: int) -> None:
        for column in columns[:upto + 1]:
            out.extend(g for _, g in sorted(column, key=_reading_key))
            column.clear()

    for box, g in boxed:
        first = bisect.bisect(cuts, box[0] + 2.0)
        last = bisect.bisect(cuts, box[2] - 2.0)
        if first != last:
            flush(last)
            out.append(g)
        else:
            columns[first].append((box, g))
    flush(len(columns) - 1)
    return out


def _reading_key(item: tuple[Box, list[Line]]) -> tuple[float, float]:
    """Top to a tenth of a point, then left to right: pieces of one printed line that
    MuPDF set as blocks of their own (a formula's parts) have tops a hair apart."""
    box = item[0]
    return round(box[1], 1), box[0]


def _by_column(group: list[Line], mid: float, slack: float) -> list[list[Line]]:
    """A source block whose lines stand in both columns, level with each other and none
    across the middle, each side with a line of text as wide as most of a column, as one
    block per column: a word processor may put a figure's caption in the left column and
    the heading level with it in the right into one block."""
    left = [ln for ln in group if ln.bbox[2] <= mid + slack]
    right = [ln for ln in group if ln.bbox[0] >= mid - slack and ln.bbox[2] > mid + slack]
    if not left or not right or len(left) + len(right) != len(group):
        return [group]
    (_, ltop, _, lbottom), (_, rtop, _, rbottom) = union(left), union(right)
    wide = 0.6 * mid  # a column's line of text, not a formula's pieces
    if ltop >= rbottom or rtop >= lbottom or not any(ln.bbox[2] - ln.bbox[0] >= wide for ln in left) \
            or not any(ln.bbox[2] - ln.bbox[0] >= wide for ln in right):
        return [group]
    return [left, right]


def _caseless(text: str) -> bool:
    """Whether the first letter of ``text`` has no case (Hangul, Han, kana, Thai …)."""
    first = next((c for c in text if c.isalpha()), "")
    return bool(first) and not first.isupper() and not first.islower()


def caseless_runs(groups: list[list[Line]]) -> list[list[Line]]:
    """Blocks of one line each, stacked line under line in a script without case, as one
    block (PDFs from word processors often set every line of Korean or Chinese text as a
    block of its own): ``block_paras.split_group`` then finds the paragraphs in it by indentation and
    short lines, as in any block. A script with case needs no help: a sentence going on
    in the next block starts in lowercase (``_continues``)."""
    out: list[list[Line]] = []
    for group in groups:
        if out and _stacks_on(out[-1][-1], group[0]):
            out[-1] = [*out[-1], *group]
        else:
            out.append(group)
    return out


#: How far (ems) an item's next line hangs in from its bullet at least.
ITEM_HANG_EMS = 0.6


def _stacks_on(above: Line, below: Line) -> bool:
    height = max(above.bbox[3] - above.bbox[1], 1.0)
    if LIST_RE.match(above.text) and not LIST_RE.match(below.text) \
            and below.bbox[0] < above.bbox[0] + ITEM_HANG_EMS * max(above.size, 1.0):
        return False  # a paragraph under a list's item, not hanging under its text
    return (_caseless(below.text) and _caseless(above.text) and above.page == below.page
            and abs(above.size - below.size) <= 0.5 and above.bold == below.bold
            and -1.0 <= below.bbox[1] - above.bbox[3] <= 0.9 * height
            and abs(below.bbox[0] - above.bbox[0]) <= 2.0 * max(above.size, 1.0))
