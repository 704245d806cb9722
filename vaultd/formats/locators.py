"""Page locators a user cites (``vaultd cite --page``, MCP ``cite``): parsed, normalised and
checked against the pages the work is known to have (pure).

A locator is one page, a range or a list of both, separated by commas::

    4    xii    e123    S12    4-5    4–5    4--5    4, 7-9    123-7 (→ 123-127)

A page is arabic (``4``), roman (``xii``, any case, well formed), or one letter and digits
(``e123`` article numbers, ``S12`` supplement pages). A leading ``p.``/``pp.`` is dropped.
The two ends of a range are the same kind (``4-xii`` is no range) and ascending; a
shortened end takes the first's leading digits (``123-7`` is 123–127). Anything else is a
``LocatorError`` in one line.

``known_pages`` says which pages a work has: the record's own range (``page`` of the
Work, e.g. ``4969-4983``) when it has one, else the pages its note's chunks are on (their
printed labels and the PDF's pages). A locator outside them is refused, naming them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from vaultd.errors import LocatorError

ROMAN = "roman"
ARABIC = ""

#: (ASCII letters only: with Unicode case folding ``İ`` would match ``i`` and lower to two
#: characters)
_ROMAN_RE = re.compile(r"m{0,4}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})", re.I | re.A)
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_PREFIXED_RE = re.compile(r"([A-Za-z])([0-9]+)")
_DASH_RE = re.compile(r"\s*(?:-{1,2}|\u2013|\u2014)\s*")
_LABEL_RE = re.compile(r"(?:pp?\.|pages?\b)\s*", re.I)
#: Longer than any page number a real work prints; a safeguard against pasted junk.
MAX_PAGE_DIGITS = 7

HOW = "give a page (4, xii, e123, S12), a range (4-5) or a list (4, 7-9)"


@dataclass(frozen=True, slots=True)
class Page:
    """One page: ``kind`` is ``""`` (arabic), ``"roman"`` or a prefix letter (lower case),
    ``value`` its number, ``text`` as written (roman in lower case kept as typed)."""

    kind: str
    value: int
    text: str


@dataclass(frozen=True, slots=True)
class Locator:
    """A parsed locator: (first, last) pairs, ``last`` None for a single page."""

    spans: tuple[tuple[Page, Page | None], ...]

    def __str__(self) -> str:
        """The normalised form handed to the citation processor: ``4``, ``4-5``,
        ``4, 7-9`` (hyphens; the style prints its own dash)."""
        return ", ".join(a.text if b is None else f"{a.text}-{b.text}" for a, b in self.spans)

    def pages(self) -> Iterable[Page]:
        for a, b in self.spans:
            yield a
            if b is not None:
                yield b


@dataclass(frozen=True, slots=True)
class KnownPages:
    """Closed intervals ``(kind, low, high)`` of the pages a work has, and where they come
    from, in words (``pages 4969–4983 of its record``)."""

    intervals: tuple[tuple[str, int, int], ...]
    described: str

    def __contains__(self, page: object) -> bool:
        return isinstance(page, Page) and any(
            kind == page.kind and low <= page.value <= high for kind, low, high in self.intervals)


def _roman_value(text: str) -> int:
    total, prev = 0, 0
    for ch in reversed(text.lower()):
        value = _ROMAN_VALUES[ch]
        total = total - value if value < prev else total + value
        prev = max(prev, value)
    return total


def parse_page(text: str) -> Page | None:
    """One page, or None when ``text`` is no page."""
    if text.isascii() and text.isdigit() and len(text) <= MAX_PAGE_DIGITS:
        return Page(ARABIC, int(text), text)
    if text and _ROMAN_RE.fullmatch(text):
        return Page(ROMAN, _roman_value(text), text)
    m = _PREFIXED_RE.fullmatch(text)
    if m and len(m[2]) <= MAX_PAGE_DIGITS and m[1].lower() != "p":
        return Page(m[1].lower(), int(m[2]), text)
    return None


def _end(first: Page, text: str) -> Page | None:
    """The last page of a range starting at ``first``; a shortened arabic end (``123-7``)
    takes ``first``'s leading digits."""
    last = parse_page(text)
    if last is None:
        return None
    if (first.kind == last.kind == ARABIC and last.value < first.value
            and len(last.text) < len(first.text)):
        full = first.text[: len(first.text) - len(last.text)] + last.text
        return Page(ARABIC, int(full), full)
    return last


def _shown(text: str) -> str:
    shown = repr(text)
    return shown if len(shown) <= 42 else shown[:40] + "…"


def parse_locator(text: str) -> Locator:
    """``text`` as a Locator; LocatorError (one line) when it is none."""
    body = " ".join(text.split())
    label = _LABEL_RE.match(body)
    if label is not None:
        body = body[label.end():]
    spans: list[tuple[Page, Page | None]] = []
    for item in body.split(","):
        parts = _DASH_RE.split(item.strip())
        first = parse_page(parts[0]) if parts else None
        if len(parts) > 2 or first is None:
            raise LocatorError(f"{_shown(text)} is not a page locator; {HOW}")
        if len(parts) == 1:
            spans.append((first, None))
            continue
        last = _end(first, parts[1])
        if last is None or last.kind != first.kind:
            raise LocatorError(f"{_shown(text)} is not a page locator: a range runs between "
                               f"two pages of one kind; {HOW}")
        if last.value < first.value:
            raise LocatorError(f"{_shown(text)} is not a page locator: the range "
                               f"{first.text}-{last.text} runs backwards")
        spans.append((first, None) if last.value == first.value else (first, last))
    return Locator(tuple(spans))


def _span(a: Page, b: Page) -> str:
    return a.text if a.value == b.value else f"{a.text}\u2013{b.text}"


def record_pages(page: str | None) -> KnownPages | None:
    """The pages a record's ``page`` field spans (``4969-4983``, ``S1-S12``), or None when
    it is no range: a lone value is often an article number, not the only page."""
    if not page:
        return None
    try:
        loc = parse_locator(page)
    except LocatorError:
        return None
    if len(loc.spans) != 1 or loc.spans[0][1] is None:
        return None
    a, b = loc.spans[0]
    assert b is not None
    return KnownPages(((a.kind, a.value, b.value),), f"pages {_span(a, b)} of its record")


def note_pages(labels: Sequence[str], pdf_pages: int) -> KnownPages | None:
    """The pages a note's chunks are on: the range of each kind of printed label (``12``,
    ``xii``, ``S3``), and the PDF's own pages 1…``pdf_pages`` (arabic, or roman counted as
    pages), since a PDF without printed labels is cited by PDF page."""
    if pdf_pages < 1:
        return None
    bounds: dict[str, tuple[int, int, str, str]] = {}
    for label in labels:
        p = parse_page(label.strip())
        if p is None:
            continue
        lo, hi, lo_text, hi_text = bounds.get(p.kind, (p.value, p.value, p.text, p.text))
        if p.value <= lo:
            lo, lo_text = p.value, p.text
        if p.value >= hi:
            hi, hi_text = p.value, p.text
        bounds[p.kind] = (lo, hi, lo_text, hi_text)
    intervals = [(kind, lo, hi) for kind, (lo, hi, _, _) in bounds.items()]
    intervals += [(ARABIC, 1, pdf_pages), (ROMAN, 1, pdf_pages)]
    printed = [f"{lo_t}\u2013{hi_t}" if lo != hi else lo_t
               for kind, (lo, hi, lo_t, hi_t) in bounds.items()
               if kind != ARABIC or (lo, hi) != (1, pdf_pages)]
    described = f"PDF pages 1\u2013{pdf_pages}" + (
        f", printed {', '.join(printed)}" if printed else "") + " of its note"
    return KnownPages(tuple(intervals), described)


def check_locator(text: str, known: KnownPages | None, cite_key: str) -> str:
    """``text`` parsed, checked against ``known`` (when known) and normalised; a
    LocatorError names what is wrong and, for a page outside, the pages the work has."""
    loc = parse_locator(text)
    if known is not None:
        for page in loc.pages():
            if page not in known:
                raise LocatorError(f"page {page.text} is outside the known pages of {cite_key} "
                                   f"({known.described}); check the page")
    return str(loc)
