"""What a PDF says about its printed pages besides the decision: the lines of each page
in its head, foot and side margins, its ``/PageLabels`` and the range page one prints.

Plain data in (PyMuPDF's ``dict``/``blocks`` data, an open document's label rules): no
PyMuPDF import, so the parser hands its own page data here and printed page labels cost
no second extraction.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from vaultd.parse.folio_text import Band, BandLine, printed_range, to_roman
from vaultd.parse.folios import Evidence

__all__ = ["HEAD_FOOT_FRACTION", "SIDE_FRACTION", "LineBox", "band_lines", "band_of",
           "block_lines", "dict_lines", "document_evidence", "labels_from_rules",
           "page_labels"]

#: Head and foot bands, as a fraction of the page height: running heads and feet with
#: their folios sit within the outer 12 % (8.5 % is too tight for a first page's foot).
HEAD_FOOT_FRACTION = 0.12
#: Side margins, as a fraction of the page width: where a landscape page's rotated foot
#: and sidebars print.
SIDE_FRACTION = 0.10

#: (x0, y0, x1, y1, text, placed) of one line in page coordinates; ``placed`` is False
#: when the box is its block's, not the line's own (``BandLine.placed``).
LineBox = tuple[float, float, float, float, str, bool]


def band_of(x0: float, y0: float, x1: float, y1: float, width: float, height: float,
            ) -> Band | None:
    """The band a box (page coordinates) lies in, by its centre; None for the body."""
    cx, cy = (x0 + x1) / 2 / width, (y0 + y1) / 2 / height
    if cy <= HEAD_FOOT_FRACTION:
        return "top"
    if cy >= 1 - HEAD_FOOT_FRACTION:
        return "bottom"
    if cx <= SIDE_FRACTION:
        return "left"
    if cx >= 1 - SIDE_FRACTION:
        return "right"
    return None


def band_lines(lines: Iterable[LineBox], width: float, height: float) -> list[BandLine]:
    """The lines of one page that lie in its head, foot or side margins, top to bottom,
    with boxes as fractions of the page."""
    out: list[BandLine] = []
    if width <= 0 or height <= 0:
        return out
    for x0, y0, x1, y1, text, placed in lines:
        band = band_of(x0, y0, x1, y1, width, height)
        if band is not None and text.strip():
            out.append(BandLine(text.strip(), band, x0 / width, y0 / height, x1 / width,
                                y1 / height, placed))
    out.sort(key=lambda ln: (ln.y0, ln.x0))
    return out


def dict_lines(data: Any, page_size: tuple[float, float] | None = None) -> list[LineBox]:
    """The lines of a page's ``get_text("dict")`` / ``extractDICT()`` data, for a parser
    that has already read it: labels then cost no second run of the page. ``page_size``
    (width, height): only the lines in a band (``band_of``), all that ``band_lines`` keeps,
    whose text alone is then read."""
    out: list[LineBox] = []
    w, h = page_size if page_size is not None and page_size[0] > 0 and page_size[1] > 0 else (0.0, 0.0)
    for block in data.get("blocks", ()):
        for line in block.get("lines", ()):
            if w:
                bx0, by0, bx1, by1 = line["bbox"]
                if band_of(bx0, by0, bx1, by1, w, h) is None:
                    continue
            text = "".join(span.get("text", "") for span in line.get("spans", ()))
            if text.strip():
                x0, y0, x1, y1 = line["bbox"]
                out.append((float(x0), float(y0), float(x1), float(y1), text, True))
    return out


def block_lines(blocks: Sequence[Sequence[Any]]) -> list[LineBox]:
    """The lines of MuPDF text blocks (``get_text("blocks")``), each placed at its share of
    the block's height: MuPDF may put a running head in one block with the body below it
    (MDPI), and only the lines near the edge are head or foot."""
    out: list[LineBox] = []
    for b in blocks:
        if len(b) > 6 and b[6] != 0:
            continue  # an image block
        x0, y0, x1, y1 = (float(v) for v in b[:4])
        texts = str(b[4]).split("\n")
        while texts and not texts[-1].strip():
            texts.pop()  # the block's text ends with a newline
        step = (y1 - y0) / max(len(texts), 1)
        placed = sum(1 for t in texts if t.strip()) == 1
        out.extend((x0, y0 + k * step, x1, y0 + (k + 1) * step, text, placed)
                   for k, text in enumerate(texts) if text.strip())
    return out


def labels_from_rules(rules: Sequence[Mapping[str, object]], n: int) -> list[str]:
    """Each page's ``/PageLabels`` string from the PDF's label ranges (PyMuPDF's
    ``get_page_labels()``: ``startpage``, ``prefix``, ``style``, ``firstpagenum``), "" where
    no range covers a page. Computed here once: asking each page for its label rereads
    the ranges every time (seconds on a 2,000-page manual)."""
    out = [""] * n
    ordered = sorted(rules, key=lambda r: _int(r.get("startpage"), 0))
    for k, rule in enumerate(ordered):
        start = _int(rule.get("startpage"), 0)
        end = _int(ordered[k + 1].get("startpage"), n) if k + 1 < len(ordered) else n
        prefix, style = str(rule.get("prefix") or ""), str(rule.get("style") or "")
        first = _int(rule.get("firstpagenum"), 1)
        for i in range(max(start, 0), min(end, n)):
            out[i] = prefix + _styled(first + i - start, style)
    return out


def _int(value: object, default: int) -> int:
    return value if isinstance(value, int) else default


def _styled(number: int, style: str) -> str:
    """A page number in a ``/PageLabels`` style: D decimal, r/R roman, a/A letters."""
    if number < 1 or not style:
        return ""
    if style == "D":
        return str(number)
    if style in ("r", "R"):
        roman = to_roman(number)
        return roman.upper() if style == "R" else roman
    if style in ("a", "A"):
        letter = chr(ord(style) + (number - 1) % 26)
        return letter * ((number - 1) // 26 + 1)
    return ""


def page_labels(doc: Any) -> list[str] | None:
    """The document's ``/PageLabels``, one per page ("" where a range gives none), or
    None when it has none."""
    rules = doc.get_page_labels()
    return labels_from_rules(rules, doc.page_count) if rules else None


def document_evidence(doc: Any, first_page: Sequence[BandLine]) -> Evidence:
    """What an open document says besides its folios: its ``/PageLabels`` and the range
    printed in page one's head or foot (``first_page``: page one's band lines)."""
    head_foot = " \n".join(ln.text for ln in first_page if ln.band in ("top", "bottom"))
    return Evidence(page_labels=page_labels(doc), first_page_range=printed_range(head_foot))
