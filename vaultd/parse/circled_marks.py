"""A copyright mark drawn as two glyphs: a circle, and a small capital set
inside it. Advent 3B2 (OUP's and CUP's journals) draws ``©`` as a symbol font's circle,
which its map reads as ``V``, with a 5 pt ``C`` over its middle: MuPDF reads ``V`` and
``C``, each a line of its own, and a copyright line (``V C International Council for the
Exploration of the Sea 2018.``) is neither a copyright line nor the page's furniture.
The two glyphs are read as the one mark, set where the small letter is (on the line it
opens). (Only ``C``: a small ``R`` inside a glyph is as often a formula's subscript under
an ``X``.)
"""

from __future__ import annotations

from typing import Any

#: The small letter set inside the circle, and the mark the two make.
MARKS = {"C": "©", "c": "©"}
#: The inner letter is set at most this share of the circle's size.
INNER_SCALE = 0.75
#: How far (pt) the inner letter's box may stand out of the circle's.
SLACK = 1.0


def is_inner_letter(span: dict[str, Any]) -> bool:
    """Whether a span is a lone letter that may be set inside a circle (``scan_spans``
    keeps these, so the page is searched only when it has one)."""
    return len(span["text"]) <= 2 and span["text"].strip() in MARKS


def join_circled_marks(data: dict[str, Any], inner: tuple[dict[str, Any], ...]) -> None:
    """Read each span of ``inner`` (lone letters, ``is_inner_letter``) that sits inside a
    one-glyph span at least ``1 / INNER_SCALE`` its size as the mark the two draw, in place
    in the page's ``dict``: the letter's span gets the mark, the circle's its text no more."""
    singles = [span for block in data["blocks"] for line in block.get("lines", ()) for span in line["spans"]
               if len(span["text"].strip()) == 1]
    for letter in inner:
        x0, y0, x1, y1 = letter["bbox"]
        for circle in singles:
            cx0, cy0, cx1, cy1 = circle["bbox"]
            if circle is not letter and letter["size"] <= INNER_SCALE * circle["size"] \
                    and cx0 - SLACK <= x0 and x1 <= cx1 + SLACK and cy0 - SLACK <= y0 and y1 <= cy1 + SLACK \
                    and circle["text"].strip() not in MARKS:
                letter["text"] = letter["text"].replace(letter["text"].strip(), MARKS[letter["text"].strip()])
                circle["text"] = ""
                break
