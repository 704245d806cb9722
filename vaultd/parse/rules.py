"""The rules a page draws, for finding its tables: the drawings at least a row of text
long and the one-pixel images stretched into lines, as vertical and horizontal edges, and
the pieces of one rule joined. ``vaultd.parse.tables`` finds the tables between them.
"""

from __future__ import annotations

import re
from typing import Any

from vaultd.parse.base import Box
from vaultd.parse.drawings import visible_drawings

#: Shortest vertical stroke (PDF points) that can be a table rule: one row of body text.
MIN_RULE = 12.0
#: Points added around the rules' box to form the table search's clip; rule pieces this
#: close end to end are one rule.
CLIP_MARGIN = 3.0

#: A vertical edge: (x, top, bottom); a horizontal one: (y, left, right).
Edge = tuple[float, float, float]


def _box_edges(x0: float, y0: float, x1: float, y1: float) -> tuple[list[Edge], list[Edge]]:
    """The sides of a box long enough to be rules (``MIN_RULE``): a thin box is one rule."""
    vs: list[Edge] = []
    hs: list[Edge] = []
    if y1 - y0 >= MIN_RULE:
        vs += [((x0 + x1) / 2, y0, y1)] if x1 - x0 <= 3.0 else [(x0, y0, y1), (x1, y0, y1)]
    if x1 - x0 >= MIN_RULE:
        hs += [((y0 + y1) / 2, x0, x1)] if y1 - y0 <= 3.0 else [(y0, x0, x1), (y1, x0, x1)]
    return vs, hs


def path_edges(path: dict[str, Any]) -> tuple[list[Edge], list[Edge]]:
    """A drawing's vertical and horizontal rules: straight segments, the sides of its
    rectangles and quads (one path may hold a whole grid of them), else, for a filled
    shape outlined by curves, its box's sides."""
    x0, y0, x1, y1 = (float(v) for v in path["rect"])
    if x1 - x0 <= 3.0 or y1 - y0 <= 3.0:  # a rule drawn as a thin box or a single line
        return _box_edges(x0, y0, x1, y1)
    vs: list[Edge] = []
    hs: list[Edge] = []
    for item in path["items"]:
        if item[0] == "l":
            (ax, ay), (bx, by) = item[1], item[2]
            if abs(ax - bx) <= 3.0 and abs(ay - by) >= MIN_RULE:
                vs.append((float(ax), float(min(ay, by)), float(max(ay, by))))
            elif abs(ay - by) <= 3.0 and abs(ax - bx) >= MIN_RULE:
                hs.append((float(ay), float(min(ax, bx)), float(max(ax, bx))))
        elif item[0] in ("re", "qu"):
            corners = ((item[1][0], item[1][1]), (item[1][2], item[1][3])) if item[0] == "re" \
                else item[1]
            cx = [float(c[0]) for c in corners]
            cy = [float(c[1]) for c in corners]
            v, h = _box_edges(min(cx), min(cy), max(cx), max(cy))
            vs += v
            hs += h
    if not vs and not hs and path.get("type") != "s":
        return _box_edges(x0, y0, x1, y1)
    return vs, hs


def joined(hs: list[Edge]) -> list[Edge]:
    """Horizontal rules on one line (within 1 pt) that meet or overlap, as one rule (a grid
    drawn cell by cell has each row rule in pieces)."""
    out: list[Edge] = []
    row: list[Edge] = []
    for edge in sorted(hs):
        if row and edge[0] - row[0][0] > 1.0:
            out += _merged(row)
            row = []
        row.append(edge)
    return out + _merged(row)


def _merged(row: list[Edge]) -> list[Edge]:
    """Pieces of one row rule, by their left ends, joined where they meet (3 pt)."""
    out: list[Edge] = []
    for y, a, b in sorted(row, key=lambda e: e[1]):
        if out and a <= out[-1][2] + CLIP_MARGIN:
            out[-1] = (out[-1][0], out[-1][1], max(out[-1][2], b))
        else:
            out.append((y, a, b))
    return out


def rule_edges(rules: list[tuple[Box, dict[str, Any]]]) -> tuple[list[Edge], list[Edge]]:
    """The rules' vertical edges, and their horizontal ones joined into whole rules."""
    vs: list[Edge] = []
    hs: list[Edge] = []
    for _, path in rules:
        v, h = path_edges(path)
        vs += v
        hs += h
    return vs, joined(hs)


def has_column_rule(group: list[tuple[Box, dict[str, Any]]]) -> bool:
    """Whether a vertical rule is crossed by a horizontal one that runs on past it on both
    sides: a column rule, without which PyMuPDF's ``lines`` strategy cannot split a row
    into cells. Zebra stripes (filled row boxes) have sides only at the table's outer
    edges, where nothing runs on past them."""
    vs, rows = rule_edges(group)
    m = CLIP_MARGIN
    return any(a < x - m and b > x + m and top - m <= y <= bottom + m
               for x, top, bottom in vs for y, a, b in rows)


def drawn_rules(page: Any, drawings: list[dict[str, Any]] | None = None
                 ) -> list[tuple[Box, dict[str, Any]]]:
    """The page's drawings at least ``MIN_RULE`` long in one direction, with their boxes
    (``drawings``: the page's ``get_cdrawings()``, when the caller already has them); white
    unstroked shapes are left out (``_white_fill``)."""
    rules: list[tuple[Box, dict[str, Any]]] = []
    for path in visible_drawings(page) if drawings is None else drawings:
        if _white_fill(path):
            continue  # a plot's white background: its edges are drawn nowhere
        x0, y0, x1, y1 = (float(v) for v in path["rect"])
        if max(x1 - x0, y1 - y0) >= MIN_RULE:
            rules.append(((x0, y0, x1, y1), path))
    return rules


def _white_fill(path: dict[str, Any]) -> bool:
    """A shape filled white and not stroked, which shows nothing on a white page (plotting
    tools lay one under each plot; its sides are no table's rules)."""
    fill = path.get("fill") or ()
    return path.get("type") == "f" and bool(fill) and min(float(c) for c in fill) >= 0.99


#: How thick (points) an image drawn as a rule is at most.
IMAGE_RULE = 2.0


def image_rules(page: Any) -> list[Edge]:
    """Horizontal rules drawn as images, one pixel stretched into a line (Frontiers 2015
    rules its tables so, with no vector drawing on the page), as ``(y, x0, x1)``. Asked of
    MuPDF only on a page that has images."""
    if not page.get_images():
        return []
    out: list[Edge] = []
    for info in page.get_image_info():
        x0, y0, x1, y1 = (float(v) for v in info["bbox"])
        if y1 - y0 <= IMAGE_RULE and x1 - x0 >= MIN_RULE:
            out.append(((y0 + y1) / 2, x0, x1))
    return out


#: A rule set as type: a row of full stops (the Royal Society's dotted table rules).
_DOTS_RE = re.compile(r"(?:\.\s*){12,}")


def dotted_rules(lines: list[Any]) -> list[Edge]:
    """Horizontal rules set as a row of full stops and nothing else (the Royal Society's
    tables rule their rows so), as ``(y, x0, x1)``: the rows' rules an open table is
    read between."""
    out: list[Edge] = []
    for ln in lines:
        if ln.bbox[2] - ln.bbox[0] >= MIN_RULE and _DOTS_RE.fullmatch(ln.text.strip()):
            out.append(((ln.bbox[1] + ln.bbox[3]) / 2, ln.bbox[0], ln.bbox[2]))
    return out
