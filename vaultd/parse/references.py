"""Bibliographies: one ``reference`` para per entry, and the ids each entry names.

Entries are split at ``[n]``/``n.`` numbers or at hanging indents inside a block, and a
block indented against its column's left edge continues the entry before it (entries whose
first line is a block of its own, entries going on in the next column or page).
"""

from __future__ import annotations

import re

from vaultd.parse.classify import classify
from vaultd.parse.front import is_front_matter
from vaultd.parse.layout import join_lines
from vaultd.parse.paras import REFS_RE, Line, Para, append_piece

_REF_START_RE = re.compile(r"^\s*(\[\d+\]|\d{1,3}\.\s)")
DOI_RE = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+)", re.I)
ARXIV_RE = re.compile(r"(?:arxiv[:\s/]*(?:abs/)?\s*)(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})", re.I)


def _split_references(group: list[Line]) -> list[list[Line]]:
    left = min(ln.bbox[0] for ln in group)
    hanging = any(ln.bbox[0] > left + 3.0 for ln in group)
    numbered = sum(1 for ln in group if _REF_START_RE.match(ln.text)) >= 1
    if not hanging and not numbered:
        return [group]
    entries: list[list[Line]] = []
    for ln in group:
        starts = bool(_REF_START_RE.match(ln.text)) if numbered else ln.bbox[0] <= left + 1.5
        if starts or not entries:
            entries.append([ln])
        else:
            entries[-1].append(ln)
    return entries


def refs_of(text: str) -> list[str]:
    """``doi:`` and ``arxiv:`` ids mentioned in a bibliography entry, in order."""
    out: list[str] = []
    for m in DOI_RE.finditer(text):
        doi = m.group(1).rstrip(".,;)]}").lower()
        out.append(f"doi:{doi}")
    for m in ARXIV_RE.finditer(text):
        out.append(f"arxiv:{m.group(1)}")
    return list(dict.fromkeys(out))


#: How far right of an entry's first line (points) its continuation lines may be indented
#: (APA's and Chicago's half inch, 36 pt, included).
HANGING_MAX = 40.0

#: What opens the back matter after a bibliography: an appendix or supplement, set as a
#: line of its own (APA's ``Appendix A`` in the body's size and weight, which nothing else
#: marks as a heading; a larger one is typed a heading and ends the list already).
_BACK_MATTER_RE = re.compile(
    r"^(?:[A-Z]\.?\s+)?(?:appendix|appendices|online appendix|supplementary\s+(?:materials?|"
    r"information|data|methods)|supporting\s+information|anhang|annexe?s?|ap[ée]ndices?|anexos?)"
    r"\b(?:\s+[A-Z0-9]{1,3}\b)?[.:]?(?:\s+\S.*)?$", re.I)


def ends_references(group: list[Line]) -> bool:
    """Whether ``group`` opens the back matter after the bibliography: its first line a
    short ``_BACK_MATTER_RE`` line (six words at most, no sentence: an entry never opens
    so)."""
    head = group[0].text.strip()
    return len(head.split()) <= 6 and not head.endswith((".", ",")) \
        and bool(_BACK_MATTER_RE.match(head))


def column_lefts(lines: list[Line], width: float) -> tuple[float, float]:
    """The left edge of the page's left and right columns: the leftmost line starting in
    each half (the same edge twice on a one-column page)."""
    mid = width / 2
    left = [ln.bbox[0] for ln in lines if ln.bbox[0] < mid]
    right = [ln.bbox[0] for ln in lines if ln.bbox[0] >= mid]
    first = min(left, default=0.0)
    return first, min(right, default=first)


def add_references(group: list[Line], paras: list[Para], body: float,
                    lefts: tuple[float, float], width: float) -> bool:
    """Bibliography lines → one ``reference`` para per entry; False once a heading ends it.

    ``lefts``: the page's ``column_lefts``. A block whose first line is indented against
    its column's left edge (3 to ``HANGING_MAX`` points) continues the entry before, even
    set as a block of its own (SciELO sets each entry's first line apart) or at the top of
    the next column or page. A block that opens like front matter
    (``Received: …``, ``Citation: …``, set after the references by Frontiers) is a
    ``front`` chunk, not an entry."""
    in_refs = True
    for entry in _split_references(group):
        text = join_lines(ln.text for ln in entry)
        kind, number = classify(text, max(ln.size for ln in entry), all(ln.bold for ln in entry),
                                len(entry), body, False)
        if kind == "heading" and not _REF_START_RE.match(text):
            in_refs = bool(REFS_RE.match(text))
            paras.append(Para(kind, entry, text, [(entry[0].page, text)], number, [len(entry)]))
            continue
        x = entry[0].bbox[0]
        column_left = lefts[0] if x < width / 2 else lefts[1]
        indented = x > min(ln.bbox[0] for ln in group) + 3.0 or 3.0 < x - column_left <= HANGING_MAX
        if indented and paras and paras[-1].type == "reference" and not _REF_START_RE.match(text):
            append_piece(paras[-1], entry, text)
            continue
        if is_front_matter(text, at_edge=False):
            paras.append(Para("front", entry, text, [(entry[0].page, text)], spans=[len(entry)],
                               floating=True))
            continue
        paras.append(Para("reference", entry, text, [(entry[0].page, text)], spans=[len(entry)]))
    return in_refs


