"""A first page as typeset lines, and the title read from their typography (pure).

``lines_from_dict`` turns PyMuPDF's ``page.get_text("dict")`` of page 1 into ``TextLine``s:
the text without superscripts (affiliation marks, footnote stars), the line's dominant font
size and weight, and its box. ``find_title`` picks the title: the largest text near the
top of the page that is not a masthead (the journal's name set large, which the page
repeats in small print or which names a journal), a banner ("RESEARCH ARTICLE", "Open
Access"), a running head, a drop cap, an identifier or a section heading. A title's lines
are consecutive lines in its size, close together.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

SUPERSCRIPT_FLAG = 1  # PyMuPDF span flag bit: the span is raised (a mark, not text)
BOLD_FLAG = 16
SIZE_TOLERANCE_PT = 0.6  # two lines within this many points are set in one size
TITLE_LINE_GAP = 1.1  # a title's next line starts within this many sizes of the last
TITLE_ZONE = 0.72  # a title starts in the top 72 % of the page (theses set it mid-page)
RUNNING_HEAD_ZONE = 0.07  # the top 7 %: running heads and mastheads
MIN_TITLE_LETTERS = 4
MASTHEAD_WORDS = 4  # a journal's name set large is this short
MAX_TITLE_WORDS = 45


@dataclass(frozen=True)
class TextLine:
    """One typeset line of the first page (superscripts left out of ``text``)."""

    text: str
    size: float
    bold: bool
    x0: float
    y0: float
    x1: float
    y1: float
    raw: str = ""  # the line with its superscripts, for dates and ids
    title_text: str = ""  # without raised digits and symbols, with raised letters (LaTeX's A)

    @property
    def height(self) -> float:
        return self.y1 - self.y0


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


def _dominant(spans: Sequence[dict[str, Any]]) -> tuple[float, bool]:
    """The size and weight most of a line's characters are set in."""
    weight: dict[tuple[float, bool], int] = {}
    for s in spans:
        key = (round(float(s["size"]), 1), bool(int(s.get("flags", 0)) & BOLD_FLAG)
               or "bold" in str(s.get("font", "")).lower())
        weight[key] = weight.get(key, 0) + len(s["text"].strip())
    return max(weight, key=lambda k: (weight[k], k[0]))


def _is_mark(span: dict[str, Any], size: float) -> bool:
    """A raised or small span beside larger text: an affiliation mark, a star, a dagger."""
    text = span["text"].strip()
    if int(span.get("flags", 0)) & SUPERSCRIPT_FLAG:
        return True
    return float(span["size"]) < 0.8 * size and len(text) <= 6 and not any(
        c.isalpha() and c.islower() for c in text[1:])


def lines_from_dict(page: dict[str, Any]) -> list[TextLine]:
    """The horizontal text lines of a PyMuPDF page dict, top to bottom."""
    out: list[TextLine] = []
    for block in page.get("blocks", []):
        for line in block.get("lines", []):
            direction = line.get("dir", (1.0, 0.0))
            if abs(direction[0] - 1.0) > 0.01:  # rotated: arXiv's stamp, a side banner
                continue
            spans = [s for s in line.get("spans", []) if s.get("text", "").strip()]
            if not spans:
                continue
            size, bold = _dominant(spans)
            kept = [s for s in spans if not _is_mark(s, size)] or spans
            size, bold = _dominant(kept)
            text = " ".join("".join(_spaced(kept)).split())
            raw = " ".join("".join(_spaced(spans)).split())
            lettered = [s for s in spans if s in kept or any(c.isalpha() for c in s["text"])]
            title = " ".join("".join(_spaced(lettered, glue=True)).split())
            x0, y0, x1, y1 = (float(v) for v in line["bbox"])
            out.append(TextLine(text, size, bold, x0, y0, x1, y1, raw, title))
    out.sort(key=lambda ln: (round(ln.y0), ln.x0))
    return _merge_rows(out)


def _merge_rows(lines: list[TextLine]) -> list[TextLine]:
    """Pieces of one typeset line that the PDF stores apart (a name, a mark, an icon, the
    next name) joined again: same baseline, same size, a gap under three sizes."""
    out: list[TextLine] = []
    for line in lines:
        prev = out[-1] if out else None
        if prev is not None and abs(prev.y1 - line.y1) <= 0.3 * line.size and \
                _same_size(prev.size, line.size) and prev.bold == line.bold and \
                0 <= line.x0 - prev.x1 <= 3 * line.size:
            # a gap wider than a size parts two names of a byline ("Arman Cohan   Sergey …")
            sep = ", " if line.x0 - prev.x1 > line.size else " "
            out[-1] = TextLine(f"{prev.text}{sep}{line.text}", prev.size, prev.bold, prev.x0,
                               min(prev.y0, line.y0), line.x1, max(prev.y1, line.y1),
                               f"{prev.raw} {line.raw}", f"{prev.title_text} {line.title_text}")
        else:
            out.append(line)
    return out


def _spaced(spans: Sequence[dict[str, Any]], glue: bool = False) -> list[str]:
    """Span texts, with a space where the PDF leaves a visible gap between two spans
    (``glue``: a raised letter joins its neighbours, as the A of LaTeX)."""
    parts: list[str] = []
    prev: dict[str, Any] | None = None
    for s in spans:
        if prev is not None:
            gap = float(s["bbox"][0]) - float(prev["bbox"][2])
            raised = glue and (int(s.get("flags", 0)) & SUPERSCRIPT_FLAG
                               or int(prev.get("flags", 0)) & SUPERSCRIPT_FLAG)
            if gap > (0.35 if raised else 0.15) * float(s["size"]) \
                    and not parts[-1].endswith(" "):
                parts.append(" ")
        parts.append(s["text"])
        prev = s
    return parts


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
_HEADING_RE = re.compile(r"^\s*(?:\d+(?:\.\d+)*|[IVX]+)\.?\s+\w")
_ID_RE = re.compile(r"\b(?:doi|issn|isbn|arxiv|pii|e-?mail|https?://|www\.)", re.IGNORECASE)


def _letters(text: str) -> int:
    return sum(c.isalpha() for c in text)


def _same_size(a: float, b: float) -> bool:
    return abs(a - b) <= SIZE_TOLERANCE_PT


def _groups(lines: Sequence[TextLine]) -> list[list[TextLine]]:
    """Runs of consecutive lines in one size that stand one under the other."""
    groups: list[list[TextLine]] = []
    for line in lines:
        for group in groups:
            last = group[-1]
            if _close_size(last.size, line.size) and 0 <= line.y0 - last.y0 <= \
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


def is_masthead(text: str, others: Sequence[TextLine], size: float) -> bool:
    """True for a journal's name set large: it names a journal, or the page prints the
    same words again in smaller print (the citation line, the footer)."""
    if _MASTHEAD_RE.search(text.strip()):
        return True
    key = loose(text)
    if len(key) < 4 or len(text.split()) > MASTHEAD_WORDS:
        return False  # a title is repeated in the citation line too: only short names
    return any(key in loose(o.text) and o.size < size - SIZE_TOLERANCE_PT for o in others)


def is_banner(text: str) -> bool:
    return bool(_BANNER_RE.match(text))


def _eligible(text: str, group: Sequence[TextLine], lines: Sequence[TextLine],
              height: float) -> bool:
    if _letters(text) < MIN_TITLE_LETTERS or len(text.split()) > MAX_TITLE_WORDS:
        return False
    if group[0].y0 > TITLE_ZONE * height:
        return False
    if is_banner(text) or _HEADING_RE.match(text) or _ID_RE.search(text) or "@" in text:
        return False
    return not is_masthead(text, [ln for ln in lines if ln not in group], group[0].size)


def find_title(lines: Sequence[TextLine], height: float) -> Title | None:
    """The page's title: the largest eligible group of lines, the topmost among equals."""
    groups = _groups(lines)
    best: Title | None = None
    for group in groups:
        while len(group) > 1 and is_banner(group[0].text):
            group = group[1:]  # "Research Article" set over the title in its size
        text = join_lines(group)
        if not _eligible(text, group, lines, height):
            continue
        if best is None or group[0].size > best.size + SIZE_TOLERANCE_PT or (
                _same_size(group[0].size, best.size) and group[0].y0 < best.top):
            best = Title(text, list(group))
    return best
