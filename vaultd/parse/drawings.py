"""A page's vector drawings as they show: each path's box cut to the clip it is drawn in.

MuPDF's ``get_cdrawings()`` boxes a path by all its points, also those its clip hides: a
plot's curve that runs off the top of its frame is clipped there when drawn, yet its box
reaches up over the text above the figure (R's ``matplot`` lines in a Sweave vignette).
``visible_drawings`` reads the page's drawings with their clips
(``get_cdrawings(extended=True)``, PyMuPDF's public form of them) and gives the paths in
``get_cdrawings()``' own form, each ``rect`` cut to its clips; a path its clips hide whole
is left out. Clip and group entries themselves are not paths and are not given.
"""

from __future__ import annotations

from typing import Any

from vaultd.parse.base import Box


def _cut(a: Box, b: Box) -> Box:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def visible_drawings(page: Any) -> list[dict[str, Any]]:
    """The page's drawn paths, each ``rect`` cut to the clips it is drawn inside."""
    out: list[dict[str, Any]] = []
    clips: list[tuple[int, Box]] = []  # (level, scissor) of the clips in force
    for item in page.get_cdrawings(extended=True):
        level = item.get("level", 0)
        while clips and clips[-1][0] >= level:
            clips.pop()  # a clip applies to the entries nested under it only
        kind = item["type"]
        if kind == "clip":
            box: Box = tuple(map(float, item["scissor"]))  # type: ignore[assignment]
            clips.append((level, _cut(box, clips[-1][1]) if clips else box))
            continue
        if kind == "group":
            continue
        if clips:
            rect = _cut(tuple(map(float, item["rect"])), clips[-1][1])  # type: ignore[arg-type]
            if rect[0] > rect[2] or rect[1] > rect[3]:
                continue  # hidden whole by its clip
            item["rect"] = rect
        out.append(item)
    return out
