"""A page cut into bands where its two columns change place, each band's columns read
before the next band's (``vaultd.parse.reading_order``): a boxed panel set in two columns
of its own over the page's, a numbered head set across the gutter between two
stretches of columns, or a bibliography's head alone between them (a references band
across the page's foot). Pure geometry of the page's blocks."""

from __future__ import annotations

import math

from vaultd.parse.base import Box
from vaultd.parse.classify import heading_number
from vaultd.parse.paras import REFS_RE, Line


def column_bands(boxed: list[tuple[Box, list[Line]]], mid: float, slack: float
                 ) -> list[list[tuple[Box, list[Line]]]]:
    """The page cut into bands where its two columns change place: stretches between
    gaps no block crosses, each of two columns whose gutter (the left blocks' right edge
    to the right blocks' left edge) lies wholly apart from the next stretch's. A boxed
    panel set in two columns of its own over the page's (a Lancet journal's "Research in
    context", its gutter 20 pt right of the text's) is read whole before the text under
    it, not its left column with the page's left one. Stretches of a page whose columns
    line up, or with text on one side only, stay one band."""
    stretches: list[list[tuple[Box, list[Line]]]] = []
    bottom = -math.inf
    for item in sorted(boxed, key=lambda item: item[0][1]):
        if not stretches or item[0][1] > bottom:
            stretches.append([])
        stretches[-1].append(item)
        bottom = max(bottom, item[0][3])
    if len(stretches) < 2:
        return [boxed]
    band_of: dict[int, int] = {}
    k = 0
    last: Box | None = None
    found = [_columns_of(stretch, mid, slack) for stretch in stretches]
    for n, (stretch, cols) in enumerate(zip(stretches, found, strict=True)):
        if (cols is not None and last is not None and _apart(cols, last)) \
                or (0 < n < len(stretches) - 1 and found[n - 1] is not None and found[n + 1] is not None
                    and _lone_head(stretch, mid)):
            k += 1
        band_of.update((id(g), k) for _, g in stretch)
        last = cols if cols is not None else last
    if k == 0:
        return [boxed]
    return [[item for item in boxed if band_of[id(item[1])] == n] for n in range(k + 1)]


def _columns_of(stretch: list[tuple[Box, list[Line]]], mid: float, slack: float) -> Box | None:
    """Where a stretch of blocks set in two columns (a block of ``PANEL_LINES`` lines of
    text or more, in no typewriter face, on each side at least) has them: its left
    column's left edge, its gutter's edges and its right column's right edge, taken from
    those blocks; None for any other stretch (a poster's heads, a listing's lines)."""
    text = [box for box, g in stretch if len(g) >= PANEL_LINES and not any(ln.mono for ln in g)]
    left = [box for box in text if box[2] <= mid + slack and (box[0] + box[2]) / 2 < mid]
    right = [box for box in text if box[0] >= mid - slack and (box[0] + box[2]) / 2 >= mid]
    if not left or not right:
        return None
    return min(b[0] for b in left), max(b[2] for b in left), min(b[0] for b in right), max(b[2] for b in right)


def _lone_head(stretch: list[tuple[Box, list[Line]]], mid: float) -> bool:
    """Whether a stretch no block crosses is a numbered section's head alone, set bold
    across the gutter: between two stretches of two columns, a head over both (UNESCO's
    ``2.3 A brief introduction to AI technologies`` on a tinted band across the page,
    its words reaching past the left column), the columns over it read before it and
    those under it after. (A head inside one column, beside a float's foot in the other,
    heads that column only: ACL's ``4.5 Does Task-Conditioned …``.)"""
    lines = [ln for _, g in stretch for ln in g]
    if len(lines) == 1 and REFS_RE.match(lines[0].text.strip()):
        # (a bibliography's head alone, the columns beside it both broken off at its
        # level: PLoS ONE 2011's references band across a page's foot, the Discussion's
        # end and the back matter in the columns over it)
        return True
    return 0 < len(lines) <= HEAD_LINES and all(ln.bold for ln in lines) \
        and any(box[0] < mid < box[2] for box, _ in stretch) \
        and (heading_number(lines[0].text.strip()) or "")[:1].isdigit()


#: Most lines of a head standing alone between two stretches of columns.
HEAD_LINES = 2


def _apart(a: Box, b: Box) -> bool:
    """Whether two stretches' columns stand apart: their gutters do not meet, or one's
    columns are set in from the other's on both sides (a panel drawn round its text)."""
    if a[2] < b[1] - 1.0 or b[2] < a[1] - 1.0:
        return True
    inner, outer = (a, b) if a[0] > b[0] else (b, a)
    return inner[0] - outer[0] >= INSET_PT and outer[3] - inner[3] >= INSET_PT \
        and abs(inner[1] - outer[1]) <= GUTTER_SLACK_PT and abs(inner[2] - outer[2]) <= GUTTER_SLACK_PT


#: How far (points) a panel's text is set in from the columns' edges on both sides, its
#: gutter the page's within ``GUTTER_SLACK_PT``.
INSET_PT = 6.0
GUTTER_SLACK_PT = 3.0
#: Fewest lines of a block of text that shows where a stretch's columns stand.
PANEL_LINES = 3
