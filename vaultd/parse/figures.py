"""Where a figure is drawn: the vector-graphics clusters and images just above its caption.

Caption text alone cannot tell where a figure starts (labels inside figures look like
short paragraphs), so the compile step asks the page for its graphics: PyMuPDF's
``cluster_drawings`` (vector shapes) and ``get_image_info`` (bitmaps). Those overlapping
the caption's column are chained upward from the caption while the vertical gap stays
under ``CHAIN_GAP_PT``. Without graphics the text-based region from the parser is used.
"""

from __future__ import annotations

import contextlib
from typing import Any

from vaultd.parse.base import Box

CHAIN_GAP_PT = 40.0
PAD_PT = 4.0


def graphics_rects(page: Any) -> list[Box]:
    rects: list[Box] = []
    # cluster_drawings can fail on odd pages; images and the text region still apply
    with contextlib.suppress(Exception):
        rects += [(r.x0, r.y0, r.x1, r.y1) for r in page.cluster_drawings()]
    for info in page.get_image_info():
        bx0, by0, bx1, by1 = info["bbox"]
        rects.append((bx0, by0, bx1, by1))
    return [r for r in rects if r[2] - r[0] > 2 and r[3] - r[1] > 2]


def figure_region(page: Any, caption: Box, column: Box | None) -> Box | None:
    """Box of the figure above ``caption`` (top-left page coordinates), or None."""
    x0, x1 = (column[0], column[2]) if column else (caption[0], caption[2])
    above = [r for r in graphics_rects(page)
             if r[2] > x0 and r[0] < x1 and r[3] <= caption[1] + 2.0]
    above.sort(key=lambda r: -r[3])
    region: list[float] | None = None
    limit = caption[1]
    for r in above:
        if r[3] < limit - CHAIN_GAP_PT:
            break
        if region is None:
            region = list(r)
        else:
            region = [min(region[0], r[0]), min(region[1], r[1]),
                      max(region[2], r[2]), max(region[3], r[3])]
        limit = min(limit, region[1])
    if region is None:
        return None
    width, height = page.rect.width, page.rect.height
    return (max(region[0] - PAD_PT, 0.0), max(region[1] - PAD_PT, 0.0),
            min(region[2] + PAD_PT, width), min(caption[1], height))
