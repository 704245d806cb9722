"""Tables without a caption: rows of cells between horizontal rules.

A ``tabular`` set with ``\\toprule``/``\\midrule``/``\\bottomrule`` and no ``Table N``
caption (an HEP Software Foundation note's checklists, each under a heading of its own)
gives the caption-led finders (``vaultd.parse.tables``, ``vaultd.parse.open_tables``)
nothing to start from, and its rows were read as paragraphs (``Topic Done Possible
solution(s) Template``). Only a page with ``MIN_ROW_LINES`` lines or more stacked one under
the other whose pieces stand an em apart (``Line.cells``: a row's cells, which MuPDF sets as
pieces of one line) has its rules read. A stack of two rules or more of the same width
(``open_tables.SAME_EXTENT``), each within ``open_tables.MAX_GAP`` of the last, is a table
when

1. no line between its top and bottom rules is running text or a caption, and none runs
   past both ends of the rules (body text set across them),
2. those lines make ``MIN_ROWS`` rows or more,
3. of which ``CELL_SHARE`` or more are rows of cells (two lines or more on the baseline, or
   a line of pieces standing apart; not a bulleted item's mark and text), the first (the
   header) among them,
4. and which are no program's listing (set in a typewriter face, or numbered line by line).

Its lines are then the table's cells, read as an open table's (``table_geometry.cell_rows``).
Pure: the page's lines and rules in, the tables' boxes out.
"""

from __future__ import annotations

import itertools
import re

from vaultd.parse.base import Box
from vaultd.parse.classify import CAPTION_RE, opens_item
from vaultd.parse.open_tables import MAX_GAP, SAME_EXTENT, is_prose_line
from vaultd.parse.paras import Line
from vaultd.parse.table_geometry import (
    Rule,
    between,
    centre_in,
    claims,
    line_rows,
    overlap,
    runs_across,
)

#: Fewest lines of cells stacked on a page for its rules to be read.
MIN_ROW_LINES = 3
#: Fewest rows of a table (a header and two rows).
MIN_ROWS = 3
#: Least share of a table's rows that are rows of cells.
CELL_SHARE = 0.6


def has_rows_of_cells(lines: list[Line]) -> bool:
    """Whether the page holds ``MIN_ROW_LINES`` lines of cells stacked one under the other
    (each within ``ROW_PITCH`` line heights of the last, overlapping it across): a table's
    rows, not a formula's number or a byline's gaps scattered over the page."""
    cells = sorted((ln for ln in lines if ln.cells >= 2), key=lambda ln: ln.bbox[1])
    run = 1
    for above, ln in itertools.pairwise(cells):
        height = max(above.bbox[3] - above.bbox[1], 1.0)
        # (rows whose first cells line up may stand further apart: a row's other cell
        # holding a bulleted list of several lines)
        pitch = ALIGNED_ROW_PITCH if abs(ln.bbox[0] - above.bbox[0]) <= 1.0 else ROW_PITCH
        stacked = 0 <= ln.bbox[1] - above.bbox[1] <= pitch * height \
            and ln.bbox[0] < above.bbox[2] and above.bbox[0] < ln.bbox[2]
        run = run + 1 if stacked else 1
        if run >= MIN_ROW_LINES:
            return True
    return False


#: Farthest a row of cells stands under the one before (line heights, top to top).
ROW_PITCH = 3.0
#: The same, for rows whose first cells stand at one left edge.
ALIGNED_ROW_PITCH = 12.0


def bare_tables(across: list[Rule], lines: list[Line], taken: list[Box]) -> list[Box]:
    """The boxes (top rule to bottom rule) of the page's tables without a caption (module
    doc). ``across``: the page's horizontal rules; ``taken``: the boxes of the tables
    already found on it, which no new one may touch."""
    rules = sorted(across, key=lambda r: r[0])
    out: list[Box] = []
    used: set[int] = set()
    for i, seed in enumerate(rules):
        if i in used:
            continue
        stack = [seed]
        for j in range(i + 1, len(rules)):
            rule = rules[j]
            if overlap(rule, seed) < SAME_EXTENT:
                continue
            top, bottom = stack[-1][0], rule[0]
            if bottom - top > MAX_GAP or _text_between(lines, top, bottom, seed):
                break
            stack.append(rule)
            used.add(j)
        if len(stack) < 2:
            continue
        box = _table_box(stack, lines)
        if box is None and len(stack) >= 3 and _title_band(stack, lines):
            box = _table_box(stack[1:], lines)  # the table starts at the rule under its title
        if box is None:
            box = _table_within(stack, lines)
        if box is not None and not claims([box], [*taken, *out]):
            out.append(box)
    return out


def _table_within(stack: list[Rule], lines: list[Line]) -> Box | None:
    """The box of the longest run of the stack's rules, from its first or second rule on,
    between which the lines make a table (a browser's table ruled row by row, whose stack
    of full-width rules runs on past it to the next table's top, over a list of short
    lines): None when no run of ``MIN_RUN_RULES`` rules does."""
    for start in (0, 1):
        for end in range(len(stack) - 1, start + MIN_RUN_RULES - 1, -1):
            box = _table_box(stack[start:end], lines)
            if box is not None:
                return box
    return None


#: Fewest rules of a run inside a longer stack that make a table (a header's and rows').
MIN_RUN_RULES = 4


def _title_band(stack: list[Rule], lines: list[Line]) -> bool:
    """Whether the stack's first band holds one line and no row of cells: a title ruled
    off over the table (SoftwareX's ``Code metadata``)."""
    band: Box = (min(r[1] for r in stack), stack[0][0], max(r[2] for r in stack), stack[1][0])
    inner = [ln for ln in lines if centre_in(ln.bbox, band)]
    return len(inner) == 1 and inner[0].cells < 2


def _table_box(stack: list[Rule], lines: list[Line]) -> Box | None:
    """The box between a stack of rules when the lines in it make a table (module doc)."""
    box: Box = (min(r[1] for r in stack), stack[0][0], max(r[2] for r in stack), stack[-1][0])
    inner = [ln for ln in lines if centre_in(ln.bbox, box)]
    rows = line_rows(inner)
    cellish = [(len(row) >= 2 or any(ln.cells >= 2 for ln in row)) and not opens_item(row[0].text)
               for row in rows]
    # (a later cell's further lines, all set well in from the table's left end, are rows
    # of neither kind: a cell's bulleted list under its first item)
    edge = box[0] + INNER_CELL * (box[2] - box[0])
    told = sum(1 for row in rows if not all(ln.bbox[0] >= edge for ln in row))
    if len(rows) >= MIN_ROWS and cellish[0] and sum(cellish) >= CELL_SHARE * told \
            and not _listing(inner, rows):
        return box
    return None


def _listing(lines: list[Line], rows: list[list[Line]]) -> bool:
    """Whether ruled lines are a program's listing, not a table: most of them set in a
    typewriter face, or most rows opening with a line number counting up, and not most of
    them rows of three cells or more (a data matrix's numbered rows: ``1 Female 27
    Caucasian 65.0 …``)."""
    if 2 * sum(ln.mono for ln in lines) >= len(lines):
        return True
    numbers = [int(m.group(1)) for row in rows if (m := _LINE_NUMBER_RE.match(row[0].text))]
    counting = sum(b == a + 1 for a, b in itertools.pairwise(numbers))
    cells = sum(max(len(row), *(ln.cells for ln in row)) >= 3 for row in rows)
    return counting + 1 >= CELL_SHARE * len(rows) and cells < CELL_SHARE * len(rows)


#: A listing's line number opening its line.
_LINE_NUMBER_RE = re.compile(r"\s*(\d{1,4})\s")


def _text_between(lines: list[Line], top: float, bottom: float, rule: Rule) -> bool:
    """Whether running text, a caption, or a line set across the rules' width stands between
    two rules, over some of the rule's width."""
    inside = between(lines, top, bottom, rule)
    # (a row's later cell may hold a bulleted list: its items' prose, set well in from
    # the rules' left end beside a row of cells in the same band, is that cell's)
    rows = any(ln.cells >= 2 for ln in inside)
    inner = rule[1] + INNER_CELL * (rule[2] - rule[1])
    return any((is_prose_line(ln) and not _labels_a_value(ln, inside)
                and not (rows and ln.bbox[0] >= inner and _in_item(ln, inside)))
               or CAPTION_RE.match(ln.text) for ln in inside) or runs_across(lines, top, bottom, rule)


def _in_item(ln: Line, lines: list[Line]) -> bool:
    """Whether ``ln`` is a bulleted item's line: it opens with the mark, or hangs under a
    line that does (its text two ems in at most), or under a row whose later cell does
    (``Managing OSS Best Practices • How might we …``)."""
    return opens_item(ln.text) or any(
        o.bbox[1] < ln.bbox[1] and ((opens_item(o.text) and 0.0 <= ln.bbox[0] - o.bbox[0] <= 2 * max(o.size, 1.0))
                                    or (o.cells >= 2 and bool(_CELL_ITEM_RE.search(o.text))))
        for o in lines)


#: A bullet opening a row's later cell.
_CELL_ITEM_RE = re.compile(r"\S\s+[•◦▪‣●]\s")


#: Share of a table's width in from its left end where a cell of prose may stand.
INNER_CELL = 0.2


def _labels_a_value(ln: Line, lines: list[Line]) -> bool:
    """Whether a line of words is a row of cells (its pieces an em apart, ``Line.cells``) or
    a row's first cell: on its baseline, an em or more to its right, a cell that is no
    running text (SoftwareX's ``Permanent link to code/repository
    used for this code version`` | ``https://github.com/…``; two columns of text between
    rules have prose on both sides)."""
    return ln.cells >= 2 or any(abs(o.bbox[3] - ln.bbox[3]) <= 1.0 and o.bbox[0] >= ln.bbox[2] + max(ln.size, 1.0)
                                and not is_prose_line(o) for o in lines if o is not ln)
