"""What one PDF page prints as its page number: folios read from the lines of its head,
foot and margins, and the article's page range page one prints. Pure: plain text in.

``vaultd.parse.folios`` reads these page by page as a sequence and decides the labels.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = ["Band", "BandLine", "Folio", "Readings", "Slot", "line_folios", "page_folios",
           "page_readings", "parse_folio", "printed_range", "to_roman"]

Band = Literal["top", "bottom", "left", "right"]

#: Largest arabic folio believed (a 5-digit number in a head is a year, an ID or a count).
MAX_ARABIC_FOLIO = 99_999
#: Roman folios are front matter: i..xl covers every preface seen in practice, and stops
#: "l", "c", "d", "m" (common one-letter words and variables) from reading as numbers.
MAX_ROMAN_FOLIO = 40
#: More candidate numbers than this in one page's bands is a column of numbers, not a folio.
MAX_READINGS_PER_PAGE = 6
#: A printed range longer than this is not an article's page range ("1990-2020").
MAX_RANGE_PAGES = 2_000


@dataclass(frozen=True, slots=True)
class BandLine:
    """A line of text in a page's head, foot or side margin.

    ``x0..y1`` are fractions of the page's width and height (0 = left/top), so pages of
    any size compare: a folio's slot (band, centre or outer edge) is judged from them.
    """

    text: str
    band: Band
    x0: float = 0.0
    y0: float = 0.0
    x1: float = 1.0
    y1: float = 1.0
    #: False when the reader knows the line's height but not where along it the line's
    #: words stand (a line of a multi-line text block): it then fits any slot.
    placed: bool = True


@dataclass(frozen=True, slots=True)
class Folio:
    """One reading of a printed page number: its numbering system and value.

    ``system`` is "arabic", "roman", "ROMAN" (upper case) or a prefix such as "e" or "S";
    two folios continue each other only within one system.
    """

    system: str
    value: int

    def render(self) -> str:
        """The folio as it would be printed."""
        if self.system == "arabic":
            return str(self.value)
        if self.system == "roman":
            return to_roman(self.value)
        if self.system == "ROMAN":
            return to_roman(self.value).upper()
        return f"{self.system}{self.value}"


# ------------------------------------------------------------------ reading one folio

_ROMAN_RE = re.compile(r"^(?=[ivxl])(xl|x{0,3})(ix|iv|v?i{0,3})$")
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50}
_ARABIC_RE = re.compile(r"^[1-9]\d{0,4}$")
_PREFIXED_RE = re.compile(r"^(e|E|S)([1-9]\d{0,5})$")
_PAGE_OF_RE = re.compile(r"\bpage\s+([1-9]\d{0,4})(?:\s+(?:of|/)\s+(\d{1,5}))?\b", re.I)
_SLASH_RE = re.compile(r"(?:^|\s)([1-9]\d{0,4})\s*/\s*([1-9]\d{0,4})(?:\s|$)")
#: Tokens that decorate a folio without being part of it ("– 5 –", "Article 12 | 5").
_DECORATION = frozenset("|•·–—-_/\\:()[]")


def to_roman(value: int) -> str:
    """Lower-case roman numeral of 1..3999."""
    parts = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
             (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))
    out = []
    for n, s in parts:
        while value >= n:
            out.append(s)
            value -= n
    return "".join(out)


def _roman_value(token: str) -> int | None:
    low = token.lower()
    if not _ROMAN_RE.match(low):
        return None
    total = 0
    for a, b in zip(low, [*low[1:], ""], strict=True):
        v = _ROMAN_VALUES[a]
        total += -v if b and _ROMAN_VALUES[b] > v else v
    return total if 1 <= total <= MAX_ROMAN_FOLIO else None


def parse_folio(token: str) -> Folio | None:
    """A bare token read as a folio, or None ("12", "xiv", "XIV", "e1234", "S12").

    Leading zeros ("012011", an article number), decimals and anything with punctuation
    are not folios.
    """
    if _ARABIC_RE.match(token):
        value = int(token)
        return Folio("arabic", value) if value <= MAX_ARABIC_FOLIO else None
    m = _PREFIXED_RE.match(token)
    if m:
        return Folio(m.group(1), int(m.group(2)))
    roman = _roman_value(token)
    if roman is None:
        return None
    if token.islower():
        return Folio("roman", roman)
    if token.isupper():
        return Folio("ROMAN", roman)
    return None


def line_folios(text: str, bare: bool = True) -> set[Folio]:
    """Every folio a head/foot line could be printing.

    ``Page N of M`` and ``N / M`` anywhere in the line; failing those, a number standing
    first or last on the line (decoration such as "|" or "–" aside), unless ``bare`` is False.
    A line may propose more than one: the sequence decides which, if any, is the folio.
    """
    return set(_line_folios(text, bare))


def _line_folios(text: str, bare: bool) -> dict[Folio, str]:
    """``line_folios`` with where on the line each stands: "start", "end" or "whole"."""
    found: dict[Folio, str] = {}
    for m in _PAGE_OF_RE.finditer(text):
        total = m.group(2)
        if total is None or int(m.group(1)) <= int(total):
            found[Folio("arabic", int(m.group(1)))] = "end"
    for m in _SLASH_RE.finditer(text):
        if int(m.group(1)) <= int(m.group(2)):
            found[Folio("arabic", int(m.group(1)))] = "end"
    if found or not bare:
        return found  # the total of "Page 2 of 8" is no folio
    tokens = [t for t in text.split() if not all(ch in _DECORATION for ch in t)]
    if not tokens:
        return found
    for token, where in ((tokens[-1], "end"), (tokens[0], "start")):
        folio = parse_folio(token)
        if folio is not None:
            found[folio] = "whole" if len(tokens) == 1 else where
    return found


#: Where on a page a folio stands: its band, and "centre", "edge" (left or right: odd and
#: even pages alternate) or "any" (a line whose words' places are unknown).
Slot = tuple[str, str]
#: Readings of one page: each folio it may print, with the slots it stands in.
Readings = Mapping[Folio, frozenset[Slot]]


def _slot(line: BandLine, where: str) -> Slot:
    if not line.placed:
        return (line.band, "any")
    x = {"start": line.x0, "end": line.x1}.get(where, (line.x0 + line.x1) / 2)
    return (line.band, "centre" if 1 / 3 <= x <= 2 / 3 else "edge")


def page_readings(lines: Sequence[BandLine]) -> dict[Folio, frozenset[Slot]]:
    """Every folio the head, foot and margins of one page could be printing, with where.

    Side margins give only ``Page N of M`` and ``N / M`` (a landscape page's rotated
    foot): their bare numbers are line numbers. A page proposing more than
    ``MAX_READINGS_PER_PAGE`` numbers prints a column of them (a table, a contents
    list), and each would start a run of its own: none is read.
    """
    found: dict[Folio, set[Slot]] = defaultdict(set)
    for line in lines:
        for folio, where in _line_folios(line.text, line.band in ("top", "bottom")).items():
            found[folio].add(_slot(line, where))
    if len(found) > MAX_READINGS_PER_PAGE:
        return {}
    return {folio: frozenset(slots) for folio, slots in found.items()}


def page_folios(lines: Sequence[BandLine]) -> set[Folio]:
    """Every folio the head, foot and margins of one page could be printing."""
    return set(page_readings(lines))


# ------------------------------------------------------------------ printed range

_DASH = r"\s*[-‐‑‒–—]\s*"
_RANGE_RES = (
    # "Pages 4969–4983", "pp. 147-156", "p. 12–19"
    re.compile(rf"\b(?:pages|pp?\.)\s*([1-9]\d{{0,5}}){_DASH}(\d{{1,6}})\b", re.I),
    # "26:1, 147–156" and "2023;53:790–810" (volume:issue, range / volume:range)
    re.compile(rf"\b\d{{1,4}}\s*:\s*(?:\d{{1,4}}\s*,\s*)?([1-9]\d{{0,5}}){_DASH}(\d{{1,6}})\b"),
    # "Future Internet 2014, 6, 61-75" (year, volume[(issue)], range)
    re.compile(rf"\b(?:19|20)\d\d\s*,\s*\d{{1,4}}\s*(?:\(\d{{1,4}}\))?\s*,\s*([1-9]\d{{0,5}}){_DASH}(\d{{1,6}})\b"),
)


def printed_range(first_page_text: str) -> tuple[str, str] | None:
    """The article's page range as printed on its first page, e.g. ("4969", "4983").

    Only the forms journals print ("pages 4969–4983", "26:1, 147–156", "2023;53:790–810",
    "2014, 6, 61-75"); abbreviated ends are expanded ("4969–83" → "4983"). Give it the
    head and foot of page one, not the body, where cited ranges abound. A range is one
    source: on its own it never confirms a label.
    """
    for pattern in _RANGE_RES:
        for m in pattern.finditer(first_page_text):
            first, last = m.group(1), m.group(2)
            if len(last) < len(first):
                last = first[: len(first) - len(last)] + last
            if 0 <= int(last) - int(first) < MAX_RANGE_PAGES:
                return first, last
    return None
