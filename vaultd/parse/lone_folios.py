"""Page numbers read off the lines at a page's edge: a running head's number at either
end of its words, a bare or roman folio, and which of the lone ones are the page's
number by the document's other page numbers (``drop_lone_numbers``). Used by
``vaultd.parse.furniture``. Pure.
"""

from __future__ import annotations

import re
from collections import Counter

from vaultd.parse.folio_text import parse_folio
from vaultd.parse.paras import Line

#: A page number set beside a running head's words, at either end (``Morbi ac orci 5``).
FOLIO_END_RE = re.compile(r"^\d{1,4}\s+(?=\D)|(?<=\D)\s+\d{1,4}$")
#: A running head's page number after its words (``1.5. WHAT YOU WILL LEARN 11``), or
#: after a rule between them (GSA's ``J. L. Steenwyk and A. Rokas | 3``), or after an
#: abbreviation's stop (SAGE's ``Lee et al. 3``).
FOLIO_LAST_RE = re.compile(r"(?:(?<=[^\W\d_])|(?<=[^\W\d_]\.))(?:\s*[|·•]\s*|\s+)\d{1,4}$")
#: ... or before them, set apart as a cell of its own (OUP's ``2 | Steenwyk et al.``).
FOLIO_FIRST_RE = re.compile(r"^\d{1,4}(?:\s*[|·•]\s*|\s+)(?=[^\W\d_])")


def count_folio(offsets: Counter[int], text: str, page: int, pages: dict[int, int]) -> None:
    """Count a dropped line's page number (the line's text, or a number at either end of
    a running head) against its page's index; ``pages``: each page's, by its index."""
    if text.isdigit():
        value = int(text)
    elif (end := FOLIO_END_RE.search(text)) is not None:
        value = int(end.group().strip())
    else:
        return
    offsets[value - page] += 1
    pages[page] = value - page


def drop_lone_numbers(pages: list[list[Line]], lone: list[tuple[int, Line]], offsets: Counter[int],
                       by_page: dict[int, int]) -> None:
    """Remove, in place, a bare number at a page's edge that is the page's number by the
    document's other page numbers (``offsets``: printed number − page index, of those
    dropped, and of the roman numerals in the wide band), though placed where no other
    page sets its number: a chapter's first page numbered at its foot under a book's
    running heads that carry the number, a report's front matter numbered ``i``, ``ii``
    above a footnote (lowercase: a formula's ``X`` is no page number); and a running head
    at the page's edge that carries that number at one end though no other page repeats
    its words (a book's section title over one right-hand page, ``1.5. WHAT YOU WILL
    LEARN 11``). (Or by the page next to it: an excerpt's pages 11, 12, 17 … go by
    two offsets.)"""
    if not lone:
        return
    # the lone lines vouch for each other too: two pages' heads whose numbers go with
    # their pages (a three-page excerpt: ``2 | R. van Gemert and K. H. Andersen`` over
    # one page, ``Challenges due to stock recovery | 3`` over the next)
    agreed = offsets + Counter(value - i for i, value in {i: lone_value(ln.text.strip()) for i, ln in lone}.items()
                               if value is not None)
    offset, count = agreed.most_common(1)[0] if agreed else (0, 0)
    if count < 2:
        return
    for i, ln in lone:
        value = lone_value(ln.text.strip())
        if value is not None and (value - i == offset or value - i in (by_page.get(i - 1), by_page.get(i + 1))):
            pages[i] = [other for other in pages[i] if other is not ln]


def lone_value(text: str) -> int | None:
    """The page number a lone line at a page's edge gives: itself, a roman numeral, or a
    running head's last number."""
    value = int(text) if text.isdigit() else roman(text)
    if value is None and (end := FOLIO_LAST_RE.search(text) or FOLIO_FIRST_RE.match(text)) is not None:
        value = int(end.group().strip(" |·•"))
    return value


def roman(text: str) -> int | None:
    """A lowercase roman page number's value (``iv`` → 4; a formula's ``X`` is none)."""
    folio = parse_folio(text)
    return folio.value if folio is not None and folio.system == "roman" else None
