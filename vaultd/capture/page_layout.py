"""A first page as typeset lines (pure).

``lines_from_dict`` turns PyMuPDF's ``page.get_text("dict")`` of page 1 into ``TextLine``s:
the text without superscripts (affiliation marks, footnote stars), the line's dominant font
size and weight, its box, and its **fields**: the stretches of the line set in one type
style between two separators (a comma, a wide gap), so that a byline line that sets the
name in one face and the affiliation in another ("JULIUS P. KUMQUAT, The Kumquat
Consortium, USA") can be read field by field. What the page does not draw (invisible
text beside visible text) and letters the text layer garbles are dealt with first
(``vaultd.capture.page_text``). The title is read from these lines by
``vaultd.capture.page_title``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from vaultd.capture.page_text import (
    combine_accents,
    drawn,
    has_visible_text,
    is_cp1251_mojibake,
    repair,
)

SUPERSCRIPT_FLAG = 1  # PyMuPDF span flag bit: the span is raised (a mark, not text)
BOLD_FLAG = 16
SIZE_TOLERANCE_PT = 0.6  # two lines within this many points are set in one size
OCR_SIZE_TOLERANCE = 0.06  # an OCR layer's sizes of one line vary by a few per cent
NAME_GAP_EM = 0.6  # a gap this wide (in font sizes) between two pieces parts two items
GLUE_GAP_EM = 0.15  # a raised letter this close to both neighbours is inside a word
_SEPARATORS = ",;&|·•"
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]")

Field = tuple[str, str]  # (text, type style: font and size)


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
    title_text: str = ""  # without marks, with raised letters inside a word (LaTeX's A)
    fields: tuple[Field, ...] = ()

    @property
    def height(self) -> float:
        return self.y1 - self.y0


def _bold(span: dict[str, Any]) -> bool:
    return bool(int(span.get("flags", 0)) & BOLD_FLAG) or "bold" in str(
        span.get("font", "")).lower()


def _dominant(spans: Sequence[dict[str, Any]]) -> tuple[float, bool]:
    """The size and weight most of a line's characters are set in."""
    weight: dict[tuple[float, bool], int] = {}
    for s in spans:
        key = (round(float(s["size"]), 1), _bold(s))
        weight[key] = weight.get(key, 0) + len(s["text"].strip())
    return max(weight, key=lambda k: (weight[k], k[0]))


def _raised(span: dict[str, Any]) -> bool:
    return bool(int(span.get("flags", 0)) & SUPERSCRIPT_FLAG)


def _is_mark(span: dict[str, Any], size: float) -> bool:
    """A raised or small span beside larger text: an affiliation mark, a star, a dagger."""
    text = span["text"].strip()
    if _raised(span):
        return True
    return float(span["size"]) < 0.8 * size and len(text) <= 6 and not any(
        c.isalpha() and c.islower() for c in text[1:])


def _style(span: dict[str, Any]) -> str:
    return f"{span.get('font', '')}|{round(float(span['size']), 1)}"


def _gap(a: dict[str, Any], b: dict[str, Any]) -> float:
    return float(b["bbox"][0]) - float(a["bbox"][2])


def _joiner(prev: str, nxt: str, gap: float, size: float, names: bool) -> str:
    """What stands between two pieces of a line: nothing, a space, or (``names``) a
    separator where a gap wider than NAME_GAP_EM parts two items of a row."""
    if names and wide_gap(prev, nxt, gap, size):
        return ", "
    if gap > GLUE_GAP_EM * size and not prev.endswith(" ") and not nxt.startswith(" "):
        return " "
    return ""


def wide_gap(prev: str, nxt: str, gap: float, size: float) -> bool:
    """A gap that parts two items (wider than NAME_GAP_EM), unless it spaces out the
    single ideographs of a CJK label ("研   究   生")."""
    last, first = (prev.split() or [""])[-1], (nxt.split() or [""])[0]
    if _CJK_RE.match(last[-1:]) and _CJK_RE.match(first[:1]) and min(len(last), len(first)) == 1:
        return False
    return gap > NAME_GAP_EM * size and not _at_separator(prev, nxt)


def _spaced(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """True when a space stands between two spans (a gap, or a space in either)."""
    return _gap(a, b) > GLUE_GAP_EM * float(b["size"]) or a["text"].endswith(" ") \
        or b["text"].startswith(" ")


def _at_separator(prev: str, nxt: str) -> bool:
    return prev.rstrip()[-1:] in _SEPARATORS or nxt.lstrip()[:1] in _SEPARATORS


def _joined(spans: Sequence[dict[str, Any]], names: bool = False) -> str:
    parts: list[str] = []
    for i, s in enumerate(spans):
        if i:
            parts.append(_joiner(parts[-1], s["text"], _gap(spans[i - 1], s),
                                 float(s["size"]), names))
        parts.append(s["text"])
    return combine_accents(" ".join("".join(parts).split()))


def _fields(spans: Sequence[dict[str, Any]]) -> tuple[Field, ...]:
    """The line's stretches in one type style, parted where the style changes between
    two words (a change inside a word keeps it whole; the stretch takes the style most of
    its letters have)."""
    groups: list[list[dict[str, Any]]] = []
    for i, s in enumerate(spans):
        if groups:
            prev = spans[i - 1]
            cut = _style(s) != _style(prev) and (
                _at_separator(prev["text"], s["text"]) or _spaced(prev, s))
            if not cut:
                groups[-1].append(s)
                continue
        groups.append([s])
    out: list[Field] = []
    for group in groups:
        weight: dict[str, int] = {}
        for s in group:
            weight[_style(s)] = weight.get(_style(s), 0) + len(s["text"].strip())
        out.append((_joined(group, names=True), max(weight, key=lambda k: weight[k])))
    return tuple(out)


def _title_spans(spans: Sequence[dict[str, Any]],
                 kept: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The line's spans as a title shows them: marks out, but a raised letter set inside
    a word (the A of LaTeX) kept, and a lowered one (a subscript: "a_b"); a raised one
    at a word's end ("Linebreak^a)") is a mark."""
    out: list[dict[str, Any]] = []
    bottom = max(float(s["bbox"][3]) for s in kept)
    for i, s in enumerate(spans):
        if s in kept:
            out.append(s)
            continue
        if float(s["bbox"][3]) > bottom + 0.5 and s["text"].strip().isalpha():
            out.append(s)
            continue
        size = float(s["size"]) / 0.7  # a raised span is set about 70 % of its line
        glued = 0 < i < len(spans) - 1 and _gap(spans[i - 1], s) <= GLUE_GAP_EM * size \
            and _gap(s, spans[i + 1]) <= GLUE_GAP_EM * size
        if glued and s["text"].strip().isalpha():
            out.append(s)
    return out


def _line(spans: list[dict[str, Any]], ocr: bool) -> TextLine:
    """One line; an OCR layer's sizes and faces are guesses word by word, so its line is
    one field."""
    size, bold = _dominant(spans)
    kept = [s for s in spans if not _is_mark(s, size)] or spans
    size, bold = _dominant(kept)
    x0 = min(float(s["bbox"][0]) for s in kept)
    y0 = min(float(s["bbox"][1]) for s in kept)
    x1 = max(float(s["bbox"][2]) for s in kept)
    y1 = max(float(s["bbox"][3]) for s in kept)
    text = _joined(kept)
    fields = ((text, "ocr"),) if ocr else _fields(kept)
    return TextLine(text, size, bold, x0, y0, x1, y1, _joined(spans),
                    _joined(_title_spans(spans, kept)), fields)


def lines_from_dict(page: dict[str, Any]) -> list[TextLine]:
    """The horizontal text lines of a PyMuPDF page dict, top to bottom."""
    visible = has_visible_text(page)
    cp1251 = is_cp1251_mojibake(page)
    out: list[TextLine] = []
    for block in page.get("blocks", []):
        for line in block.get("lines", []):
            direction = line.get("dir", (1.0, 0.0))
            if abs(direction[0] - 1.0) > 0.01:  # rotated: arXiv's stamp, a side banner
                continue
            spans = [{**s, "text": repair(s["text"], str(s.get("font", "")), cp1251)}
                     for s in drawn(line.get("spans", []), visible)
                     if s.get("text", "").strip()]
            if spans:
                out.append(_line(spans, ocr=not visible))
    return _merge_rows(_reading_order(out), ocr=not visible)


def _reading_order(lines: list[TextLine]) -> list[TextLine]:
    """Top to bottom by baseline, and left to right within a row: lines of one row set
    in different sizes or faces (a bold name, a small-caps e-mail) stay in their order."""
    rows: list[list[TextLine]] = []
    for line in sorted(lines, key=lambda ln: ln.y1):
        if rows and line.y1 - rows[-1][0].y1 <= 0.3 * min(line.size, rows[-1][0].size):
            rows[-1].append(line)
        else:
            rows.append([line])
    return [ln for row in rows for ln in sorted(row, key=lambda ln: ln.x0)]


def same_size(a: float, b: float) -> bool:
    return abs(a - b) <= SIZE_TOLERANCE_PT


def _merge_rows(lines: list[TextLine], ocr: bool = False) -> list[TextLine]:
    """Pieces of one typeset line that the PDF stores apart (a name, a mark, an icon, the
    next name) joined again: same baseline, same size (an OCR layer's estimate of it, on
    a scan: within OCR_SIZE_TOLERANCE), a gap under three sizes; a gap wider than
    NAME_GAP_EM parts two items of a row ("Arman Cohan    Sergey Feldman")."""
    out: list[TextLine] = []
    for line in lines:
        prev = out[-1] if out else None
        if prev is not None and abs(prev.y1 - line.y1) <= 0.3 * line.size and \
                (same_size(prev.size, line.size) or (ocr and abs(prev.size - line.size)
                 <= OCR_SIZE_TOLERANCE * max(prev.size, line.size))) and \
                prev.bold == line.bold and \
                0 <= line.x0 - prev.x1 <= 3 * line.size:
            wide = wide_gap(prev.text, line.text, line.x0 - prev.x1, line.size)
            sep = ", " if wide else " "
            # pieces the PDF stores apart stay apart fields unless glued (one word)
            fields = prev.fields + line.fields
            if line.x0 - prev.x1 <= GLUE_GAP_EM * line.size and prev.fields and \
                    line.fields and prev.fields[-1][1] == line.fields[0][1]:
                fields = (*prev.fields[:-1], (f"{prev.fields[-1][0]}{line.fields[0][0]}",
                                              line.fields[0][1]), *line.fields[1:])
            out[-1] = TextLine(f"{prev.text}{sep}{line.text}", prev.size, prev.bold, prev.x0,
                               min(prev.y0, line.y0), line.x1, max(prev.y1, line.y1),
                               f"{prev.raw} {line.raw}", f"{prev.title_text} {line.title_text}",
                               fields)
        else:
            out.append(line)
    return out
