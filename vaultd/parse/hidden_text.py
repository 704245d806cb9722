"""Text a page draws and does not show, and text it shows though the text layer draws it
invisibly: white text on nothing (``white_on_white``), and invisible text over its own
glyphs drawn as outlines (``drawn_as_outlines``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: A page's drawing log (``page.get_bboxlog``), read when first asked for.
BboxLog = Callable[[], list[tuple[str, tuple[float, float, float, float]]]]


def white_on_white(bboxlog: BboxLog, data: dict[str, Any]) -> set[int]:
    """The spans (ids) set in white where nothing is drawn under them: text the page does
    not show (Springer's production string ``0123456789().: V,-vol`` under the first
    page's text). White text on a filled shape or an image (a banner, a dark box) is
    shown. The page's drawing log (``bboxlog``, read once for both checks) is read only
    when it sets some text in white."""
    white = [sp for block in data["blocks"] if block.get("type", 0) == 0
             for line in block["lines"] for sp in line["spans"]
             if sp["color"] == WHITE and sp["text"].strip()]
    if not white:
        return set()
    under = [tuple(r) for kind, r in bboxlog()
             if kind in ("fill-path", "fill-image", "fill-shade") and abs(r[0]) < FAR and abs(r[2]) < FAR]
    out: set[int] = set()
    for sp in white:
        x0, y0, x1, y1 = sp["bbox"]
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if not any(r[0] <= cx <= r[2] and r[1] <= cy <= r[3] for r in under):
            out.add(id(sp))
    return out


#: sRGB white, as MuPDF gives a span's colour.
WHITE = 0xFFFFFF
#: Coordinates beyond this are MuPDF's "infinite" box (a shading filling its clip).
FAR = 1e6


def drawn_as_outlines(bboxlog: BboxLog, data: dict[str, Any]) -> set[int]:
    """The invisible spans (ids: MuPDF's ``alpha`` 0) whose glyphs the page draws as filled
    outlines right where they stand: Chromium's Research Square preprints draw their heads
    (``INTRODUCTION``, ``1.Study design``) as paths and lay invisible text over them, so the
    page shows them, in a face it lacks (bold, read so); PLOS's hidden proof queries stand
    over nothing. A filled path lying within the span's box, as wide as most of it and a
    good share of its height, is its glyphs (a box drawn behind a label stands out round
    it). Read only on a page with invisible text."""
    hidden = [sp for block in data["blocks"] if block.get("type", 0) == 0
              for line in block["lines"] for sp in line["spans"]
              if not sp["alpha"] and sp["text"].strip()]
    if not hidden:
        return set()
    paths = [tuple(r) for kind, r in bboxlog() if kind == "fill-path"]
    out: set[int] = set()
    for sp in hidden:
        x0, y0, x1, y1 = sp["bbox"]
        width, height = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
        if any(r[0] >= x0 - OUTLINE_SLACK and r[2] <= x1 + OUTLINE_SLACK and r[1] >= y0 - OUTLINE_SLACK
               and r[3] <= y1 + OUTLINE_SLACK and r[2] - r[0] >= OUTLINE_WIDTH * width
               and r[3] - r[1] >= OUTLINE_HEIGHT * height for r in paths):
            out.add(id(sp))
    return out


#: How far (points) a span's outlines may stand out of its box; the share of its width and
#: of its height they cover at least.
OUTLINE_SLACK = 1.0
OUTLINE_WIDTH = 0.6
OUTLINE_HEIGHT = 0.3
