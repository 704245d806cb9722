"""The geometry tables are read by: horizontal rules and how they overlap, the lines
between two of them, lines on one baseline as a row, boxes that hold or touch others.
Shared by the table finders (``vaultd.parse.open_tables``, ``bare_tables``,
``aligned_tables``, ``tables``). Pure.
"""

from __future__ import annotations

from collections.abc import Iterable

from vaultd.parse.base import Box
from vaultd.parse.paras import Line

#: A line running this many points past both ends of a table's rules is body text.
ACROSS = 6.0
#: Lines whose baselines are this close (points) form one row.
ROW_TOLERANCE = 2.0

#: A horizontal rule: (y, left, right).
Rule = tuple[float, float, float]


def overlap(a: Rule, b: Rule) -> float:
    """How much two rules overlap, as a share of the wider one."""
    return max(0.0, min(a[2], b[2]) - max(a[1], b[1])) / max(a[2] - a[1], b[2] - b[1], 1.0)


def between(lines: Iterable[Line], top: float, bottom: float, rule: Rule) -> list[Line]:
    """The lines between two rules, over some of the rule's width."""
    return [ln for ln in lines
            if top < (ln.bbox[1] + ln.bbox[3]) / 2 < bottom
            and min(ln.bbox[2], rule[2]) > max(ln.bbox[0], rule[1])]


def runs_across(lines: Iterable[Line], top: float, bottom: float, rule: Rule) -> bool:
    """Whether a line between two rules runs past both their ends (``ACROSS`` points):
    body text set across the table's width is no cell of it."""
    return any(top < (ln.bbox[1] + ln.bbox[3]) / 2 < bottom
               and ln.bbox[0] < rule[1] - ACROSS and ln.bbox[2] > rule[2] + ACROSS for ln in lines)


def v_gap(a: Box, b: Box) -> float:
    """Vertical gap between two boxes (0 when they overlap)."""
    return max(0.0, a[1] - b[3], b[1] - a[3])


def centre_in(box: Box, region: Box) -> bool:
    """Whether ``box``'s centre lies in ``region``."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return region[0] <= cx <= region[2] and region[1] <= cy <= region[3]


def line_rows(lines: list[Line]) -> list[list[Line]]:
    """Lines on one baseline, top to bottom, each row left to right."""
    rows: list[list[Line]] = []
    for ln in sorted(lines, key=lambda ln: (ln.bbox[3], ln.bbox[0])):
        if rows and abs(ln.bbox[3] - rows[-1][0].bbox[3]) <= ROW_TOLERANCE:
            rows[-1].append(ln)
        else:
            rows.append([ln])
    return [sorted(row, key=lambda ln: ln.bbox[0]) for row in rows]


def cell_rows(lines: list[Line]) -> list[list[str]]:
    """Cell lines → rows (by baseline, top to bottom), each its lines left to right."""
    return [[" ".join(ln.text.split()) for ln in row] for row in line_rows(lines)]


def inside(line: Line, box: Box) -> bool:
    cx, cy = (line.bbox[0] + line.bbox[2]) / 2, (line.bbox[1] + line.bbox[3]) / 2
    return box[0] - 3.0 <= cx <= box[2] + 3.0 and box[1] < cy < box[3]


def claims(boxes: list[Box], others: list[Box]) -> bool:
    """Whether one of ``boxes`` overlaps one of ``others``."""
    return any(a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]
               for a in boxes for b in others)
