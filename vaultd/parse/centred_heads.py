"""Centred heads: a book's section heads set as one short line centred over the text
column, in a face of their own, with space under them (*Free Culture*'s ``Film`` and
``Recorded Music`` in a typewriter sans over Caslon text), and its chapter head over
a chapter's opening page (``CHAPTER FOUR: “Pirates”``). Neither is flush with the text
under it nor right under it, so ``headings.font_headings`` passes them by. Pure.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter

from vaultd.parse.classify import CAPTION_RE, is_prose, is_theorem_label
from vaultd.parse.headings import FONT_HEADING_CHARS, FONT_HEADING_WORDS
from vaultd.parse.paras import Line, Para

#: How far (points, or this share of the column's width if more) a centred line's two
#: margins inside the column may differ.
CENTRED_SLACK, CENTRED_SHARE = 3.0, 0.03
#: Least share of the column's width each margin of a centred head leaves.
CENTRED_MARGIN = 0.15
#: Least size of a centred head, in its text's (GPO's small capitals, 7.8 pt over 10 pt).
CENTRED_LEAST = 0.75
#: Most lines' heights of space between a centred head and the text under it.
CENTRED_GAP = 4.0
#: A chapter's or part's head: its word and number (``CHAPTER FOUR``, ``Part II``, ``Chapter 3``).
CHAPTER_RE = re.compile(
    r"(?i)(?:chapter|part)\s+(?:\d{1,2}|[ivxl]{1,5}|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)\b")


def centred_heads(paras: list[Para]) -> None:
    """Type as headings, in place, the one-line paragraphs centred over the paragraph of
    prose under them on their page, short, opening with a capital and closed by no stop,
    set in another face or size than that paragraph's first line: those whose style (font
    and size) two such lines of the document share, and a chapter's or part's head
    (``CHAPTER_RE``) alone."""
    found: dict[tuple[str, float], list[Para]] = {}
    for k, (para, after) in enumerate(itertools.pairwise(paras)):
        if _centred_head(para, after, _column(paras[k + 1:k + 1 + COLUMN_PARAS], para.lines[0].page)):
            line = para.lines[0]
            found.setdefault((line.font, round(line.size * 2) / 2), []).append(para)
    counts = Counter({style: len(heads) for style, heads in found.items()})
    for style, heads in found.items():
        for para in heads:
            if counts[style] >= 2 or CHAPTER_RE.match(para.text.strip()):
                para.type = "heading"


#: Fewest lines, and most paragraphs, under a head that show the column it is centred in.
COLUMN_LINES, COLUMN_PARAS = 2, 3


def _column(after: list[Para], page: int) -> list[Line]:
    """The lines of the paragraphs under a head on its page, until ``COLUMN_LINES`` (a
    section's first paragraph may be one short line: ``Radio was also born of piracy.``)."""
    lines: list[Line] = []
    for para in after:
        if para.type != "paragraph" or len(lines) >= COLUMN_LINES:
            break
        lines += [ln for ln in para.lines if ln.page == page]
    return lines


def _centred_head(para: Para, after: Para, column: list[Line]) -> bool:
    if para.type != "paragraph" or len(para.lines) != 1 or after.type != "paragraph" or len(column) < COLUMN_LINES:
        return False
    line, text = para.lines[0], para.text.strip()
    # (no number in it but a chapter's: a numbered head is the classifier's; a date line
    # over a report's text, ``DECEMBER 12, 2014.—Ordered to be printed``, is none)
    if not text[:1].isupper() or text.endswith((".", ",", ";", ":")) or len(text) > FONT_HEADING_CHARS \
            or len(text.split()) > FONT_HEADING_WORDS or is_theorem_label(text) or CAPTION_RE.match(text) \
            or (any(c.isdigit() for c in text) and not CHAPTER_RE.match(text)):
        return False
    below = column[0]
    height = max(line.bbox[3] - line.bbox[1], 1.0)
    # (a head is no smaller print than its text, which is prose: a chart's axis title over
    # the caption under it is none)
    if not 0.0 <= below.bbox[1] - line.bbox[3] <= CENTRED_GAP * height or not _other_face(line, below) \
            or line.size < CENTRED_LEAST * below.size or CAPTION_RE.match(after.text) or not is_prose(after.text):
        return False
    left, right = min(ln.bbox[0] for ln in column), max(ln.bbox[2] for ln in column)
    width = right - left
    margin_l, margin_r = line.bbox[0] - left, right - line.bbox[2]
    return min(margin_l, margin_r) >= CENTRED_MARGIN * width \
        and abs(margin_l - margin_r) <= max(CENTRED_SLACK, CENTRED_SHARE * width)


def _other_face(line: Line, below: Line) -> bool:
    """Whether a head is set apart from the text's first line by its face or size."""
    return line.font != below.font or line.bold != below.bold or line.italic != below.italic \
        or abs(line.size - below.size) >= 0.5
