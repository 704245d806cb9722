"""Spaced heads: a section's head set in the text's size, in its face or an italic one,
told by the space around it (Springer's *3 Biotech*: ``Plant material and DNA
extraction`` a line's height over and under, its paragraphs parted by an indent and no
space; ``ISSR analysis`` in italics, one head of its face on a page). Pure.
"""

from __future__ import annotations

import itertools
import statistics

from vaultd.parse.classify import CAPTION_RE, is_prose, is_theorem_label
from vaultd.parse.paras import Para

#: Most words of a spaced head.
SPACED_HEAD_WORDS = 10
#: Least space (in the text's line heights) over and under a spaced head ...
SPACED_GAP_LINES = 0.8
#: ... and how much more than the space between two paragraphs of the document.
SPACED_GAP_OVER_PARAS = 0.5
#: Fewest such heads in a document (a style of heads repeats; one odd line is none).
SPACED_HEADS_MIN = 2
#: Widest spaced head, as a share of its text's width.
SPACED_HEAD_WIDTH = 0.8


def spaced_heads(paras: list[Para]) -> None:
    """Type as headings, in place, the one-line paragraphs of a document whose paragraphs
    stand no further apart than their lines, set apart by a line's space over and under
    them (or at a column's top, under them), short, opening with a capital and closed by
    no stop, over a paragraph of prose flush with them (or over another such head, its
    first subsection's); when two such lines or more are found (``SPACED_HEADS_MIN``)."""
    body = [p for p in paras if p.type == "paragraph" and len(p.lines) >= 2]
    if len(body) < 2:
        return
    height = statistics.median(ln.bbox[3] - ln.bbox[1] for p in body for ln in p.lines)
    # (the space between two paragraphs read one after the other in a column)
    apart = [b.lines[0].bbox[1] - a.lines[-1].bbox[3] for a, b in itertools.pairwise(paras)
             if a.type == b.type == "paragraph" and len(a.lines) >= 2 and len(b.lines) >= 2
             and a.lines[-1].page == b.lines[0].page and b.lines[0].bbox[1] > a.lines[-1].bbox[3]
             and abs(a.lines[-1].bbox[0] - b.lines[0].bbox[0]) < 4 * height]
    if not apart:
        return
    gap = max(SPACED_GAP_LINES * height, statistics.median(apart) + SPACED_GAP_OVER_PARAS * height)
    found: list[Para] = []  # (read from the end: a head right over its first subsection's)
    for k in range(len(paras) - 2, -1, -1):
        if _spaced_head(paras, k, gap, found):
            found.append(paras[k])
    if len(found) >= SPACED_HEADS_MIN:
        for para in found:
            para.type = "heading"


def _spaced_head(paras: list[Para], k: int, gap: float, found: list[Para]) -> bool:
    para = paras[k]
    if para.type != "paragraph" or len(para.lines) != 1:
        return False
    line, text = para.lines[0], para.text.strip()
    if not text[:1].isupper() or text.endswith((".", ",", ";", ":")) or len(text.split()) > SPACED_HEAD_WORDS \
            or is_theorem_label(text) or CAPTION_RE.match(text):
        return False
    after = paras[k + 1]
    head = any(f is after for f in found)
    if not head and (after.type != "paragraph" or len(after.lines) < 2 or not is_prose(after.text)):
        return False
    below = after.lines[0]
    width = max(ln.bbox[2] for ln in after.lines) - min(ln.bbox[0] for ln in after.lines)
    if below.page != line.page or below.bbox[1] - line.bbox[3] < gap or abs(below.bbox[0] - line.bbox[0]) > 2.0 \
            or (not head and line.bbox[2] - line.bbox[0] > SPACED_HEAD_WIDTH * width) or abs(line.size - below.size) >= 0.5:
        return False
    before = paras[k - 1].lines[-1] if k else None
    # (at a column's top: nothing of its page over it in its column)
    return before is None or before.page != line.page or before.bbox[3] > line.bbox[1] \
        or line.bbox[1] - before.bbox[3] >= gap

