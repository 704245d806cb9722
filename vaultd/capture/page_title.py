"""A first page's title, read from the typography of its lines (pure).

``find_title`` picks the largest text near the top of the page that is not a masthead
(the journal's name set large, which names a journal or which the page repeats in small
print in its citation line or margins), a banner ("RESEARCH ARTICLE", "Open Access"), a
running head, a drop cap, an identifier or a section heading. A title's lines are
consecutive lines in its size, close together.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from vaultd.capture.page_layout import SIZE_TOLERANCE_PT, TextLine, same_size

TITLE_LINE_GAP = 1.1  # a title's next line starts within this many sizes of the last
TITLE_ZONE = 0.72  # a title starts in the top 72 % of the page (theses set it mid-page)
MARGIN_ZONE = 0.08  # the top and bottom 8 %: running heads, citation lines, footers
MIN_TITLE_LETTERS = 4
MASTHEAD_WORDS = 4  # a journal's name set large is this short
MASTHEAD_NAME_WORDS = 8  # a journal's full name ("International Journal of …") is no longer
MAX_TITLE_WORDS = 45


@dataclass
class Title:
    text: str
    lines: list[TextLine] = field(default_factory=list)

    @property
    def size(self) -> float:
        return self.lines[0].size

    @property
    def top(self) -> float:
        return min(ln.y0 for ln in self.lines)

    @property
    def bottom(self) -> float:
        return max(ln.y1 for ln in self.lines)

    @property
    def x0(self) -> float:
        return min(ln.x0 for ln in self.lines)

    @property
    def x1(self) -> float:
        return max(ln.x1 for ln in self.lines)


def loose(text: str) -> str:
    """Letters and digits only, case-folded, accents dropped (for comparing texts)."""
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text))
    return "".join(c for c in decomposed.casefold() if c.isalnum())


# A journal's or series' name set as a masthead, a banner or a kind of paper.
_MASTHEAD_RE = re.compile(
    r"^(?:the\s+)?(?:journal|annals|proceedings|transactions|bulletin|acta|archives?|revista|"
    r"zeitschrift|annales|cahiers|letters|reports|communications)\b|\bjournal\s+of\b|"
    r"\bjournal$|^(?:frontiers|plos|bmc|ieee|acm)\b", re.IGNORECASE)
_BANNER_RE = re.compile(
    r"^\W*(?:open\s+access|research(?:\s+article)?|review(?:\s+article)?|original\s+"
    r"(?:article|research|paper)|article|paper|artigo|art[íi]culo|study\s+protocol|"
    r"brief\s+report|short\s+communication|focused\s+review|editorial|commentary|"
    r"perspective|methodology|case\s+report|letter|technical\s+note|preprint|draft|"
    r"abstract|summary|contents|table\s+of\s+contents|introduction|resumo|resumen|"
    r"résumé|zusammenfassung|аннотация|оглавление|содержание|摘要|目录|keywords?)"
    r"(?:\W+(?:open\s+access|article))?\W*$", re.IGNORECASE)
# A banner naming the kind of paper, after the journal's short name: "Full Paper",
# "IJDC | General Article", "Regular article".
_KIND_BANNER_RE = re.compile(
    r"^(?:[^|]{0,40}\|\s*)?(?:(?!(?:a|an|the|of|for|on|to|in)\b)\w+\s+){0,2}"
    r"(?:article|paper|review|communication|letter|note|report|contribution)\s*$",
    re.IGNORECASE)
# A citation line (volume, issue, year in parentheses): in a page margin it is furniture.
_CITATION_LINE_RE = re.compile(
    r"\b(?:vol(?:ume)?\.?|no\.|issue|pp\.)\s*\d|\(\d{4}\)", re.IGNORECASE)
_HEADING_RE = re.compile(r"^\s*(?:\d+(?:\.\d+)*|[IVX]+)\.?\s+\w")
_NUMBER_RE = re.compile(r"\d{2,}")  # a citation line's year, volume or pages
_ID_RE = re.compile(r"\b(?:doi|issn|isbn|arxiv|pii|e-?mail|https?://|www\.)", re.IGNORECASE)


def _letters(text: str) -> int:
    return sum(c.isalpha() for c in text)


def _groups(lines: Sequence[TextLine]) -> list[list[TextLine]]:
    """Runs of consecutive lines in one size and weight that stand one under the other."""
    groups: list[list[TextLine]] = []
    for line in lines:
        for group in groups:
            last = group[-1]
            if _close_size(last.size, line.size) and last.bold == line.bold and \
                    0 <= line.y0 - last.y0 <= \
                    (1 + TITLE_LINE_GAP) * line.size and _overlaps(last, line) and \
                    line is not last and line.y0 > last.y0 + 0.5 * line.size:
                group.append(line)
                break
        else:
            groups.append([line])
    return groups


def _close_size(a: float, b: float) -> bool:
    """One size, or an OCR layer's estimate of one (its lines vary by a few per cent)."""
    return abs(a - b) <= max(SIZE_TOLERANCE_PT, 0.06 * max(a, b))


def _overlaps(a: TextLine, b: TextLine) -> bool:
    return min(a.x1, b.x1) - max(a.x0, b.x0) > -2 * a.size


def join_lines(lines: Sequence[TextLine]) -> str:
    """Lines of one title as one string: a line-end hyphen before a lowercase letter joins."""
    text = ""
    for line in lines:
        part = (line.title_text or line.text).strip()
        if text.endswith("-") and part[:1].islower():
            text += part
        else:
            text = f"{text} {part}" if text else part
    return " ".join(text.split())


def is_masthead(text: str, others: Sequence[TextLine], size: float, height: float) -> bool:
    """True for a journal's name set large: it names a journal, or the page prints the
    same words again in smaller print in its citation line or in a page margin (a title's
    words come back in the prose too, and that makes no masthead)."""
    m = _MASTHEAD_RE.search(text.strip())
    if m and (m.start() == 0 or len(text.split()) <= MASTHEAD_NAME_WORDS):
        return True  # a title that names a journal ("Guide to Canadian Journal of …") is none
    key = loose(text)
    if len(key) < 4 or len(text.split()) > MASTHEAD_WORDS:
        return False  # a title is repeated in the citation line too: only short names
    return any(key in loose(o.text) and o.size < size - SIZE_TOLERANCE_PT
               and (_NUMBER_RE.search(o.text) or not MARGIN_ZONE * height < o.y0
                    < (1 - MARGIN_ZONE) * height) for o in others)


def is_banner(text: str) -> bool:
    return bool(_BANNER_RE.match(text) or _KIND_BANNER_RE.match(text))


def _eligible(text: str, group: Sequence[TextLine], lines: Sequence[TextLine],
              height: float) -> bool:
    if _letters(text) < MIN_TITLE_LETTERS or len(text.split()) > MAX_TITLE_WORDS:
        return False
    if group[0].y0 > TITLE_ZONE * height:
        return False
    in_margin = not MARGIN_ZONE * height < group[0].y0 < (1 - MARGIN_ZONE) * height
    if in_margin and _CITATION_LINE_RE.search(text):
        return False  # a running head with the volume and issue
    if is_banner(text) or _HEADING_RE.match(text) or _ID_RE.search(text) or "@" in text:
        return False
    others = [ln for ln in lines if ln not in group]
    return not is_masthead(text, others, group[0].size, height)


def find_title(lines: Sequence[TextLine], height: float) -> Title | None:
    """The page's title: the largest eligible group of lines; among groups of one size,
    a bold one over one that is not, then the topmost."""
    groups = _groups(lines)
    best: Title | None = None
    for group in groups:
        while len(group) > 1 and is_banner(group[0].text):
            group = group[1:]  # "Research Article" set over the title in its size
        text = join_lines(group)
        if not _eligible(text, group, lines, height):
            continue
        if best is None or group[0].size > best.size + SIZE_TOLERANCE_PT or (
                same_size(group[0].size, best.size)
                and (group[0].bold, -group[0].y0) > (best.lines[0].bold, -best.top)):
            best = Title(text, list(group))
    return best
