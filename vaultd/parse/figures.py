"""Where a figure is drawn: the vector-graphics clusters and images just above its caption.

Caption text alone cannot tell where a figure starts (labels inside figures look like
short paragraphs), so the compile step asks the page for its graphics: PyMuPDF's
``cluster_drawings`` (vector shapes) and ``get_image_info`` (bitmaps). Those overlapping
the caption's column are chained upward from the caption while the vertical gap stays
under ``CHAIN_GAP_PT``. Without graphics the text-based region from the parser is used.

A page's graphics are read once (``graphics_rects``) and shared by all figures on it. Crops
are encoded by ``png_bytes``: the same pixels as MuPDF's own PNG writer (unfiltered rows,
same ``pHYs``), deflated at ``PNG_LEVEL`` instead of zlib's default 6.
"""

from __future__ import annotations

import contextlib
import re
import struct
import zlib
from collections.abc import Sequence
from typing import Any

from vaultd.parse.base import Box
from vaultd.parse.drawings import visible_drawings

CHAIN_GAP_PT = 40.0
#: Beside a caption, the drawings of one figure stand at most this far apart (the next
#: figure down the page, with its own caption beside it, stands further off).
SIDE_GAP_PT = 20.0
#: Under a caption set over its figure, the drawings chain on over gaps this high (a row
#: of structure names or panel labels under each row of drawings).
BELOW_GAP_PT = 80.0
PAD_PT = 4.0
#: A drawing over a caption no taller than this (points) is a rule, when a figure stands
#: under the caption.
RULE_BAND_PT = 20.0
#: Most points between a caption and the figure under it that it owns.
CAPTION_OVER_PT = 24.0
#: How far under a caption's first line a frame around the figure and its caption ends.
CAPTION_SPAN_PT = 100.0
#: zlib level for figure PNGs. Measured on the fixtures' 17 crops (5.8 Mpx): level 6
#: (MuPDF's) 0.13 s and 1.055 MB, level 3 0.06 s and 1.079 MB (+2 %), level 1 no faster
#: and +5 %; row filters (Sub, Up) made the files larger at every level.
PNG_LEVEL = 3
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def graphics_rects(page: Any, drawings: list[dict[str, Any]] | None = None,
                   images: list[dict[str, Any]] | None = None) -> list[Box]:
    """Boxes of the page's vector-drawing clusters and images. ``drawings``: the page's
    ``get_cdrawings()``, ``images``: its ``get_image_info()``, when the caller already
    has them."""
    rects: list[Box] = []
    # cluster_drawings can fail on odd pages; images and the text region still apply
    with contextlib.suppress(Exception):
        found = visible_drawings(page) if drawings is None else drawings
        paths = [tuple(map(float, path["rect"])) for path in found]
        rects += cluster_boxes(paths, tuple(page.rect))  # type: ignore[arg-type]
    if images is None:
        images = page.get_image_info() if _may_show_images(page) else []
    for info in images:
        bx0, by0, bx1, by1 = info["bbox"]
        rects.append((bx0, by0, bx1, by1))
    return [r for r in rects if r[2] - r[0] > 2 and r[3] - r[1] > 2]


#: An inline image's operator in a content stream (``BI … ID … EI``).
_INLINE_IMAGE_RE = re.compile(rb"(?:^|\s)BI\s")


def _may_show_images(page: Any) -> bool:
    """Whether the page has an image to box: one in its resources (its forms' included)
    or inline in its content. ``get_image_info`` reads the page's whole text again to find
    them (≈ 2 ms a page); a TeX page whose figures are vector drawings has none."""
    if page.get_images(full=True):
        return True
    content = page.read_contents()
    return b"BI" in content and _INLINE_IMAGE_RE.search(content) is not None  # the test first: 20x faster


#: MuPDF's infinite rectangle (``fz_infinite_rect``), which including a point leaves as is.
_INFINITE = (-2147483648.0, -2147483648.0, 2147483520.0, 2147483520.0)


def _neighbours(a: Box, b: Box, dx: float, dy: float) -> bool:
    ax0, ax1 = (a[0], a[2]) if a[2] > a[0] else (a[2], a[0])
    ay0, ay1 = (a[1], a[3]) if a[3] > a[1] else (a[3], a[1])
    bx0, bx1 = (b[0], b[2]) if b[2] > b[0] else (b[2], b[0])
    by0, by1 = (b[1], b[3]) if b[3] > b[1] else (b[3], b[1])
    return not (ax1 < bx0 - dx or ax0 > bx1 + dx or ay1 < by0 - dy or ay0 > by1 + dy)


def _include(r: Box, x: float, y: float) -> Box:
    """``fz_include_point_in_rect``."""
    if r == _INFINITE:
        return r
    return (x if x < r[0] else r[0], y if y < r[1] else r[1],
            x if x > r[2] else r[2], y if y > r[3] else r[3])


def _by_bottom(r: Box) -> tuple[float, float]:
    return (r[3], r[0])


def cluster_boxes(paths: list[Box], page_box: Box, dx: float = 3.0, dy: float = 3.0) -> list[Box]:
    """PyMuPDF's ``Page.cluster_drawings`` on the paths' boxes, step for step (the same
    order, the same clusters), on plain tuples instead of ``Rect`` objects: its ``Rect``
    arithmetic and ``get_drawings``' conversion of every path item took most of its time.

    Boxes inside ``page_box`` that lie within ``dx``/``dy`` of each other are joined; the
    joined boxes wider than ``dx`` and taller than ``dy`` are returned, bottom edge first.
    """
    px0, py0, px1, py1 = page_box
    prects = sorted((p for p in paths if p[0] >= px0 and p[2] <= px1 and p[1] >= py0 and p[3] <= py1),
                    key=_by_bottom)
    if all(p[0] <= p[2] and p[1] <= p[3] for p in prects) and _INFINITE not in prects:
        return _cluster_normal(prects, dx, dy)
    joined: list[Box] = []
    while prects:
        r = prects[0]
        repeat = True
        while repeat:
            repeat = False
            for i in range(len(prects) - 1, 0, -1):  # from back to front
                if _neighbours(prects[i], r, dx, dy):
                    q = prects[i]
                    r = _include(_include(r, q[0], q[1]), q[2], q[3])
                    del prects[i]
                    repeat = True
        joined.append(r)
        del prects[0]
        prects = sorted(set(prects), key=_by_bottom)
    joined = sorted(set(joined), key=_by_bottom)
    return [r for r in joined if max(0.0, r[2] - r[0]) > dx and max(0.0, r[3] - r[1]) > dy]


def _cluster_normal(prects: list[Box], dx: float, dy: float) -> list[Box]:
    """``cluster_boxes``' loop for boxes that are all normal (``x0 <= x1``, ``y0 <= y1``;
    the paths' boxes are): the same steps and clusters, with ``_neighbours`` and
    ``_include`` spelled out (they normalise nothing then), as they run for every pair."""
    joined: list[Box] = []
    while prects:
        r = prects[0]
        rx0, ry0, rx1, ry1 = r
        repeat = True
        while repeat:
            repeat = False
            for i in range(len(prects) - 1, 0, -1):  # from back to front
                qx0, qy0, qx1, qy1 = prects[i]
                if qx1 < rx0 - dx or qx0 > rx1 + dx or qy1 < ry0 - dy or qy0 > ry1 + dy:
                    continue
                rx0, ry0 = (qx0 if qx0 < rx0 else rx0), (qy0 if qy0 < ry0 else ry0)
                rx1, ry1 = (qx1 if qx1 > rx1 else rx1), (qy1 if qy1 > ry1 else ry1)
                del prects[i]
                repeat = True
        joined.append((rx0, ry0, rx1, ry1))
        del prects[0]
        prects = sorted(set(prects), key=_by_bottom)
    joined = sorted(set(joined), key=_by_bottom)
    return [r for r in joined if max(0.0, r[2] - r[0]) > dx and max(0.0, r[3] - r[1]) > dy]


def figure_region(page: Any, caption: Box, column: Box | None,
                  rects: list[Box] | None = None, others: Sequence[Box] = (),
                  prose: Sequence[Box] = (), labels: Sequence[Box] = ()) -> Box | None:
    """Box of the figure above ``caption`` (top-left page coordinates), else of the one
    right under it (``_below``: a caption set over its figure), or None.

    ``rects``: the page's ``graphics_rects``, when the caller already has them;
    ``others``: the boxes of the page's other captions, figures' and tables'; ``prose``:
    those of its lines (or paragraphs) of body text, where a figure under a caption ends;
    ``labels``: those of its lines set smaller than the body, which bridge the gap between
    a drawing and its caption (a plot's tick labels and axis title under its frame)."""
    x0, x1 = (column[0], column[2]) if column else (caption[0], caption[2])
    if rects is None:
        rects = graphics_rects(page)
    # A cluster that runs on past the caption's top (a frame drawn around the figure and
    # its caption, BMC) is the figure down to the caption.
    above = [(r[0], r[1], r[2], min(r[3], caption[1])) for r in rects
             if r[2] > x0 and r[0] < x1 and (
                 r[3] <= caption[1] + 2.0
                 or (r[1] < caption[1] - 2.0 and r[3] <= caption[1] + CAPTION_SPAN_PT))]
    above.sort(key=lambda r: -r[3])
    region: list[float] | None = None
    limit = _labels_top(caption[1], labels, x0, x1)
    for r in above:
        if r[3] < limit - CHAIN_GAP_PT:
            break
        if region is None:
            region = list(r)
        else:
            grown = [min(region[0], r[0]), min(region[1], r[1]),
                     max(region[2], r[2]), max(region[3], r[3])]
            if _swallows(grown, (region, r), prose):
                continue  # a table's rules across the page over a chart in one column
            region = grown
        limit = min(limit, region[1])
    width, height = page.rect.width, page.rect.height
    under: Box | None = None
    if region is not None and (region[3] - region[1] <= RULE_BAND_PT or any(
            o[1] - 3.0 - o[3] <= region[1] - o[3] <= CAPTION_OVER_PT and o[0] < region[2] and region[0] < o[2]
            for o in others)):
        # a rule drawn over the caption (GAO's thick double rule over ``Figure 3: …``), or
        # the figure of another caption set over it (JAMA sets its captions over their
        # figures): this caption's figure is the one under it, when there is one
        under = _below(caption, x0, x1, rects, others, prose)
        if under is not None:
            region = None
    if region is None:
        if under is None:
            under = _below(caption, x0, x1, rects, others, prose)
        if under is not None:
            return (max(under[0] - PAD_PT, 0.0), max(under[1] - PAD_PT, caption[3]),
                    min(under[2] + PAD_PT, width), min(under[3] + PAD_PT, height))
        side = _beside(caption, rects, others, prose) if column is None else None
        if side is None:
            return None
        return (max(side[0] - PAD_PT, 0.0), max(side[1] - PAD_PT, 0.0),
                min(side[2] + PAD_PT, width), min(side[3] + PAD_PT, height))
    return (max(region[0] - PAD_PT, 0.0), max(region[1] - PAD_PT, 0.0),
            min(region[2] + PAD_PT, width), min(caption[1], height))


def _labels_top(top: float, labels: Sequence[Box], x0: float, x1: float) -> float:
    """The top of the stack of ``labels`` over ``top`` between ``x0`` and ``x1``, each
    within ``CHAIN_GAP_PT`` of the one under it (``top`` when none is)."""
    for lb in sorted(labels, key=lambda b: -b[3]):
        if lb[2] > x0 and lb[0] < x1 and top - CHAIN_GAP_PT <= lb[3] <= top + 1.0:
            top = min(top, lb[1])
    return top


def _swallows(grown: Sequence[float], parts: Sequence[Sequence[float]], prose: Sequence[Box]) -> bool:
    """Whether the box ``grown`` from ``parts`` would take in a line of body text that
    stands in none of them: a figure's region never grows over the text beside it."""
    def inside(box: Sequence[float], x: float, y: float) -> bool:
        return box[0] <= x <= box[2] and box[1] <= y <= box[3]

    for p in prose:
        x, y = (p[0] + p[2]) / 2, (p[1] + p[3]) / 2
        if inside(grown, x, y) and not any(inside(part, x, y) for part in parts):
            return True
    return False


def _beside(caption: Box, rects: list[Box], others: Sequence[Box], prose: Sequence[Box]) -> Box | None:
    """The graphics beside ``caption``, for a caption with nothing drawn above or under it
    (Wiley's side captions: the figure on the left of the page, its caption in a narrow
    column at its right, level with it). The graphics wholly on one side that stand level
    with the caption, and those within ``SIDE_GAP_PT`` above or under them on that side;
    none if body text or another caption stands among them."""
    for left in (True, False):
        side = [r for r in rects if (r[2] <= caption[0] + 2.0 if left else r[0] >= caption[2] - 2.0)]
        level = [r for r in side if r[1] < caption[3] and r[3] > caption[1] - 2.0]
        if not level:
            continue
        region = _union(level)
        rest = [r for r in side if r not in level]
        grew = True
        while grew:
            near = [r for r in rest if r[1] <= region[3] + SIDE_GAP_PT and r[3] >= region[1] - SIDE_GAP_PT]
            grew = bool(near)
            if near:
                region = _union([region, *near])
                rest = [r for r in rest if r not in near]
        if not any(_centre_inside(o, region) for o in (*others, *prose)):
            return region
    return None


def _union(boxes: Sequence[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _centre_inside(box: Box, region: Box) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return region[0] <= cx <= region[2] and region[1] <= cy <= region[3]


def _below(caption: Box, x0: float, x1: float, rects: list[Box], others: Sequence[Box],
           prose: Sequence[Box]) -> Box | None:
    """The graphics chained downward from ``caption`` (an MDPI 2012 paper sets its caption
    over the figure), for a caption with nothing drawn above it. The first starts within
    ``CHAIN_GAP_PT`` under it; the next follow while the gap stays under ``BELOW_GAP_PT``
    (a row of labels under each drawing) and no caption or line of prose stands in
    between; a shape with body text on it is a panel under the text, not a drawing. Graphics
    with another caption right under them are that caption's figure."""
    def across(box: Box) -> bool:
        return box[2] > x0 and box[0] < x1

    stops = [o for o in (*others, *prose) if across(o)]
    region: Box | None = None
    limit = caption[3]
    # (a frame drawn round the caption and its chart, the caption at its top: BLS's charts)
    framed = [(r[0], caption[3], r[2], r[3]) for r in rects
              if caption[1] - 3.0 <= r[1] < caption[3] - 2.0 and r[3] > caption[3] + CHAIN_GAP_PT
              and r[0] <= caption[0] + 2.0 and r[2] >= caption[2] - 2.0]
    for r in sorted([*(r for r in rects if across(r) and r[1] >= caption[3] - 2.0), *framed], key=lambda r: r[1]):
        if any(r[0] <= (o[0] + o[2]) / 2 <= r[2] and r[1] <= (o[1] + o[3]) / 2 <= r[3] for o in prose):
            continue  # a panel under body text (an old SciELO page lays a white one under its columns)
        gap = CHAIN_GAP_PT if region is None else BELOW_GAP_PT
        if r[1] > limit + gap or any(limit - 2.0 <= (o[1] + o[3]) / 2 <= r[1] for o in stops) \
                or any(across(o) and limit - 2.0 <= o[1] <= r[1] + 3.0 for o in others):
            break  # (a caption at the top of the next frame: that frame's)
        region = r if region is None else (min(region[0], r[0]), min(region[1], r[1]),
                                           max(region[2], r[2]), max(region[3], r[3]))
        limit = max(limit, region[3])
    if region is None or any(across(o) and region[3] - 2.0 <= o[1] <= region[3] + CHAIN_GAP_PT
                             for o in others):
        return None
    return _side_panels(region, rects, stops)


def _side_panels(region: Box, rects: list[Box], stops: Sequence[Box]) -> Box:
    """``region`` grown by the graphics beside it inside its height (the second of two
    charts side by side under a report's caption at the left, UNCTAD's ``Figure 1`` over
    its 2023 and 2033 rings), where no caption or line of prose stands between."""
    grown = True
    while grown:
        grown = False
        for r in rects:
            if (region[0] <= r[0] and r[2] <= region[2]) or r[1] < region[1] - 2.0 or r[3] > region[3] + 2.0:
                continue
            gap = (min(region[0], r[0]), region[1], max(region[2], r[2]), region[3])
            if r[0] - region[2] > CHAIN_GAP_PT or region[0] - r[2] > CHAIN_GAP_PT or any(
                    gap[0] <= (o[0] + o[2]) / 2 <= gap[2] and gap[1] <= (o[1] + o[3]) / 2 <= gap[3] for o in stops):
                continue
            region, grown = (gap[0], region[1], gap[2], region[3]), True
    return region


def _png_chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


def png_bytes(width: int, height: int, n: int, stride: int, samples: bytes | memoryview,
              dpi: tuple[int, int] = (96, 96), level: int = PNG_LEVEL) -> bytes:
    """A PNG of 8-bit gray (``n`` 1) or RGB (``n`` 3) pixel rows, ``stride`` bytes apart.

    Rows are written unfiltered (as MuPDF does), with the pixel density as ``pHYs``."""
    kinds = {1: 0, 3: 2}
    if n not in kinds or width <= 0 or height <= 0 or stride < width * n or len(samples) < stride * height:
        raise ValueError(f"cannot encode {width}x{height} pixels of {n} components as PNG")
    row = width * n
    raw = bytearray((row + 1) * height)  # each row: filter byte 0, then its pixels
    for y in range(height):
        start = y * (row + 1) + 1
        raw[start:start + row] = samples[y * stride:y * stride + row]
    ihdr = struct.pack(">IIBBBBB", width, height, 8, kinds[n], 0, 0, 0)
    per_metre = [int(d / 0.0254 + 0.5) for d in dpi]  # MuPDF's rounding
    phys = struct.pack(">IIB", per_metre[0], per_metre[1], 1)
    return (_PNG_SIGNATURE + _png_chunk(b"IHDR", ihdr) + _png_chunk(b"pHYs", phys)
            + _png_chunk(b"IDAT", zlib.compress(raw, level)) + _png_chunk(b"IEND", b""))
