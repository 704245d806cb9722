"""Margin notes: labels set in the page margin beside a line of the text block.

Springer's LNCS documentation sets each command's name (``\\titlerunning``, ``\\author``)
in a typewriter face in the left margin, on the baseline of the paragraph's first line;
read with that line, the label became the paragraph's first word. A line wholly outside
the page's text block — left of its left edge or right of its right edge, by
``MARGIN_GAP`` at least — with a letter in it, standing on the baseline of a line inside
the block that is set in another face and that the text layer put in one block with it
(so would read it into the paragraph), is a margin note: it is given a block of its own
and marked (``Line.margin``), so it never joins the paragraph beside it and a paragraph
goes on past it. A hanging list number or section number (no letter, or the face of the
line it hangs from) and a table wider than the block (its cells in one face) stay.

The edges are the document's, one pair for its odd pages and one for its even pages (a
book's margins alternate): the leftmost left and rightmost right at which ``EDGE_SHARE``
of the lines of the document's main size on those pages start or end (``EDGE_LINES`` at
least). A page's own lines would not do: on a page of tables or lists most lines start
inside the block. Text set ragged right shares no right edge so (or only by chance, inside its longest
lines): its edge is where its lines' ends crowd (``_ragged_edge``: a Tufte handout's, its
sidenotes beyond it); a page of short lines has none, and no margin on that side. Edges
that fewer than ``INSIDE_SHARE`` of those lines stand within are none (a slide deck).
A page none of whose lines of the main size reaches its side's edge, its own edge within
a narrow margin of it, has its own edges (``page_edges``: an excerpt, or a document, whose
wide margin is not on every other page's same side). No line as wide as ``NOTE_WIDTH_SHARE``
of the block is a note (a right column of smaller print beside a left one of the main size).
A block of more than ``NOTE_LINES`` lines set right under a head of its own in the margin
is a sidebar's paragraph, no note, whatever its short last lines hold (PNAS's
Significance; ``_headed_blocks``); one opening with a glossed term is a note
(``_glossary_blocks``: Annual Reviews' ``Retrotransposon: a type of transposon …``).
"""

from __future__ import annotations

import re
from collections import Counter

from vaultd.parse.paras import Line

#: Points outside the text block a margin note stands at least (microtype protrudes
#: punctuation by a point or two; LNCS's labels stand five points off).
MARGIN_GAP = 2.0
#: Fewest lines of the page's main size that start (end) at an edge.
EDGE_LINES = 4
#: Least share of those lines that start (end) at an edge.
EDGE_SHARE = 0.15
#: Two sizes this close (points) are one size.
SIZE_SLACK = 0.6
#: Block numbers given to margin notes start here (MuPDF numbers a page's blocks from 0).
MARGIN_BLOCK = 1_000_000


#: An edge of the text block: None where no edge is shared by enough lines.
Edges = tuple[float | None, float | None]


def text_block_edges(pages: list[list[Line]]) -> tuple[Edges, Edges]:
    """The text block's left and right edges on the odd and on the even pages (see the
    module doc)."""
    main = _main_size(pages)
    return _sides(pages, main) if main is not None else ((None, None), (None, None))


def _sides(pages: list[list[Line]], main: float) -> tuple[Edges, Edges]:
    odd, even = (_edges_of([ln.bbox for lines in pages[parity::2] for ln in lines
                            if abs(ln.size - main) <= SIZE_SLACK], main) for parity in (0, 1))
    return odd, even


def page_edges(pages: list[list[Line]]) -> list[Edges]:
    """Each page's text block edges: its side's (``text_block_edges``), or the page's own
    when none of its lines of the main size reach its side's edge and the page's own edge
    stands in a margin narrower than the page's text (``MARGIN_SHARE``): an excerpt's
    pages, or a document's, whose wide margin is not on every other page's same side
    (Annual Reviews' glossary, left on one page, right on the next)."""
    main = _main_size(pages)
    if main is None:
        return [(None, None) for _ in pages]
    sides = _sides(pages, main)
    out: list[Edges] = []
    for i, lines in enumerate(pages):
        left, right = sides[i % 2]
        boxes = [ln.bbox for ln in lines if abs(ln.size - main) <= SIZE_SLACK]
        own_left, own_right = _edges_of(boxes, main) if boxes else (None, None)
        if own_left is not None and own_right is not None:
            margin = MARGIN_SHARE * (own_right - own_left)
            if left is not None and own_left - MARGIN_GAP > left and own_left - left <= margin \
                    and not any(b[0] <= left + MARGIN_GAP for b in boxes):
                left = own_left
            if right is not None and own_right + MARGIN_GAP < right and right - own_right <= margin \
                    and not any(b[2] >= right - MARGIN_GAP for b in boxes):
                right = own_right
        out.append((left, right))
    return out


#: The widest margin, as a share of the text block's width, whose edge a page's own
#: lines may set (``page_edges``): a column left empty is wider.
MARGIN_SHARE = 0.35


def _main_size(pages: list[list[Line]]) -> float | None:
    """The size most characters are set in, to the half point."""
    sizes: dict[float, int] = {}
    for lines in pages:
        for ln in lines:
            size = round(ln.size * 2) / 2
            sizes[size] = sizes.get(size, 0) + len(ln.text)
    return max(sizes, key=sizes.__getitem__) if sizes else None


def _edges_of(boxes: list[tuple[float, float, float, float]], main: float) -> Edges:
    """The edges of the text block the lines of the main size (``boxes``) stand in."""
    lefts = Counter(round(b[0]) for b in boxes)
    rights = Counter(round(b[2]) for b in boxes)
    n = len(boxes)
    need = max(EDGE_LINES, EDGE_SHARE * n)
    left, right = _edge(lefts, need, "left"), _edge(rights, need, "right")
    ragged = _ragged_edge([b[2] for b in boxes], main) if left is not None else None
    if ragged is not None and (right is None or ragged > right + MARGIN_GAP):
        right = ragged  # (text set ragged right: an edge a few of its lines share by chance is none)
    inside = sum((left is None or b[0] >= left - MARGIN_GAP) and (right is None or b[2] <= right + MARGIN_GAP)
                 for b in boxes)
    if inside < INSIDE_SHARE * n:
        left = right = None  # no text block holds the lines (a slide deck's bullets)
    return left, right


#: The widest a margin note's line is, as a share of the text block's width.
NOTE_WIDTH_SHARE = 0.6
#: Least share of the lines of the main size that stand within the edges found: fewer, and
#: the edges are no text block's (ragged slides, whose bullets and short lines line up).
INSIDE_SHARE = 0.6


def _ragged_edge(rights: list[float], size: float) -> float | None:
    """The right edge of text set ragged right (a Tufte handout's, whose sidenotes stand
    beyond it): the line end ``RAGGED_QUANTILE`` of the lines reach, when ``RAGGED_SHARE``
    of them end within ``RAGGED_EMS`` of it (a ragged margin's ends crowd its last ems; a
    page of short lines, a list's or a slide's, has no such edge)."""
    if len(rights) < EDGE_LINES:
        return None
    ends = sorted(rights)
    edge = ends[min(len(ends) - 1, int(RAGGED_QUANTILE * len(ends)))]
    near = sum(edge - RAGGED_EMS * size <= x <= edge + MARGIN_GAP for x in ends)
    return edge if near >= RAGGED_SHARE * len(ends) else None


#: The share of a ragged text's lines that end at or before its edge, the share that end
#: within ``RAGGED_EMS`` of it.
RAGGED_QUANTILE = 0.9
RAGGED_SHARE = 0.5
RAGGED_EMS = 3.0


def _edge(at: Counter[int], need: float, outermost: str) -> float | None:
    """The ``outermost`` (``left``: least, ``right``: greatest) position shared by
    ``need`` lines, a point either way counting with it."""
    shared = [x for x in at if at[x - 1] + at[x] + at[x + 1] >= need]
    if not shared:
        return None
    return float(min(shared) if outermost == "left" else max(shared))


def mark_margin_notes(lines: list[Line], edges: Edges) -> None:
    """Give each margin note of a page (see the module doc) a block of its own and mark
    it, in place; ``edges``: the text block's for the page."""
    left, right = edges
    if left is None and right is None:
        return
    inner = left - MARGIN_GAP if left is not None else float("-inf")
    outer = right + MARGIN_GAP if right is not None else float("inf")
    # (few lines; none as wide as a column of the block: a page of two columns whose
    # right one holds only smaller print, ACS's references, has its edges from the left)
    widest = NOTE_WIDTH_SHARE * (right - left) if left is not None and right is not None else float("inf")
    outside = [ln for ln in lines if not (inner < ln.bbox[2] and ln.bbox[0] < outer)
               and ln.bbox[2] - ln.bbox[0] < widest]
    for ln in outside:
        if any(c.isalpha() for c in ln.text) and any(_beside(ln, other, left, right) for other in lines):
            _mark(ln)
    # a note set in a block of its own in the margin, a size smaller than the text lines
    # level with it (OpenIntro's ``sample`` | ``standard`` | ``deviation`` in 8 pt beside
    # 10 pt text): its block holds no line inside the text block
    inside = [ln for ln in lines if inner < ln.bbox[2] and ln.bbox[0] < outer]
    blocks_in = {ln.block for ln in inside}
    block_lines = Counter(ln.block for ln in outside)
    headed = _headed_blocks(outside, block_lines)
    glossed = _glossary_blocks(outside, inside, block_lines, headed | blocks_in)
    for ln in outside:
        if ln.margin or ln.block in blocks_in or not any(c.isalpha() for c in ln.text):
            continue
        if ln.block in glossed:
            _mark(ln)
            continue
        # (a sidebar's column of text is no such note: GAO's Highlights, PNAS's Significance
        # under its head, short last lines and all; a short note set much smaller is,
        # whatever its words: The Lancet's ``See Online for appendix``)
        small = block_lines[ln.block] <= NOTE_LINES
        if (len(ln.text.split()) > NOTE_WORDS or ln.block in headed) and not small:
            continue
        height = max(ln.bbox[3] - ln.bbox[1], 1.0)
        level = [o.size for o in inside if o.bbox[1] - LEVEL_LINES * height < ln.bbox[3]
                 and ln.bbox[1] < o.bbox[3] + LEVEL_LINES * height]
        apart = NOTE_SIZE_APART if len(ln.text.split()) <= NOTE_WORDS else SMALL_NOTE_APART
        if level and ln.size <= (1 - apart) * max(level):
            _mark(ln)
    # the symbol such a note glosses, set over it flush with it (``σ`` over ``population``)
    for ln in outside:
        if not ln.margin and ln.block not in blocks_in and len(ln.text.strip()) <= SYMBOL_CHARS and any(
                note.margin and abs(note.bbox[0] - ln.bbox[0]) <= MARGIN_GAP
                and 0.0 <= note.bbox[1] - ln.bbox[3] <= note.bbox[3] - note.bbox[1] for note in outside):
            _mark(ln)
    # a note's next lines, in its block and its margin, flush with it, off the text's baselines
    for ln in outside:
        if not ln.margin and any(note.margin and note.block == MARGIN_BLOCK + ln.block
                                 and abs(note.bbox[0] - ln.bbox[0]) <= MARGIN_GAP for note in outside):
            _mark(ln)


def _headed_blocks(outside: list[Line], block_lines: Counter[int]) -> set[int]:
    """The blocks of margin lines set right under a head of their own in the margin: a
    short line of another block, bold or a point larger, within two of the block's line
    heights over its first line and flush with it (PNAS's ``Significance`` over its
    sidebar's paragraph)."""
    firsts: dict[int, Line] = {}
    for ln in outside:
        if ln.block not in firsts or ln.bbox[1] < firsts[ln.block].bbox[1]:
            firsts[ln.block] = ln
    out: set[int] = set()
    for block, first in firsts.items():
        height = max(first.bbox[3] - first.bbox[1], 1.0)
        if any(head.block != block and block_lines[head.block] == 1 and len(head.text.split()) <= HEAD_WORDS
               and (head.bold or head.size >= first.size + 1.0) and not first.bold
               and abs(head.bbox[0] - first.bbox[0]) <= MARGIN_GAP
               and 0.0 <= first.bbox[1] - head.bbox[3] <= 2 * height for head in outside):
            out.add(block)
    return out


#: Most words of a sidebar's head in the margin.
HEAD_WORDS = 4


def _glossary_blocks(outside: list[Line], inside: list[Line], block_lines: Counter[int],
                     skip: set[int]) -> set[int]:
    """The blocks of margin lines that gloss a term (``GLOSS_RE``: Annual Reviews'
    ``Retrotransposon: a type of transposon …``), up to ``GLOSS_LINES`` lines, every one
    set smaller than the text lines level with the block: notes, whatever their words."""
    out: set[int] = set()
    for block in {ln.block for ln in outside} - skip:
        mine = sorted((ln for ln in outside if ln.block == block), key=lambda ln: ln.bbox[1])
        if block_lines[block] > GLOSS_LINES or not GLOSS_RE.match(" ".join(ln.text.strip() for ln in mine)):
            continue
        top, bottom = min(ln.bbox[1] for ln in mine), max(ln.bbox[3] for ln in mine)
        level = [o.size for o in inside if o.bbox[1] < bottom and top < o.bbox[3]]
        if level and all(ln.size <= max(level) - SIZE_SLACK for ln in mine):
            out.add(block)
    return out


#: A glossed term opening a margin note: a few words closed by a colon, its gloss after it.
GLOSS_RE = re.compile(r"[^\W\d_][\w’'()/+-]*(?:\s+[\w’'()/+-]+){0,3}:\s+\w")
#: Most lines of a margin note glossing a term.
GLOSS_LINES = 12


def _mark(ln: Line) -> None:
    """Mark ``ln`` a margin note and give it a block of its own, in place."""
    ln.margin = True
    ln.block = MARGIN_BLOCK + ln.block


def _beside(note: Line, other: Line, left: float | None, right: float | None) -> bool:
    """Whether ``other`` is a line of ``note``'s source block inside the text block, on
    ``note``'s baseline (to half a line), in another font."""
    if other is note or other.margin or other.block != note.block:
        return False
    if left is not None and other.bbox[0] < left - MARGIN_GAP:
        return False
    if right is not None and other.bbox[2] > right + MARGIN_GAP:
        return False
    height = max(note.bbox[3] - note.bbox[1], 1.0)
    if abs(other.bbox[3] - note.bbox[3]) > 0.5 * height:
        return False
    # the face is the font, and a size well apart (a Tufte-style sidenote in the text's
    # font at 8 pt beside 10 pt); an OCR layer's one font sets lines of sizes wandering less
    return bool(other.font) and bool(note.font) and (
        other.font != note.font or abs(other.size - note.size) >= NOTE_SIZE_APART * max(other.size, 1.0))


#: Most characters of a symbol a margin note glosses (``σ 2``).
SYMBOL_CHARS = 3
#: Most words a line of a margin note in a block of its own holds (a glossary's terms,
#: set a word or two a line).
NOTE_WORDS = 3
#: How many of its heights around a margin note in a block of its own a text line stands
#: to be level with it.
LEVEL_LINES = 2.0
#: How far apart (a share of the text's size) a margin note in the text's font is set.
NOTE_SIZE_APART = 0.15
#: Most lines of a margin note in a block of its own whose lines hold more words than
#: ``NOTE_WORDS``, and how much smaller than the text beside it (a share of its size) such
#: a note is set.
NOTE_LINES = 5
SMALL_NOTE_APART = 0.25
