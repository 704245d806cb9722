"""Whether a piece of text goes on with the paragraph before it: across a column or page
break, a stacked fraction, a superscript set as a block of its own, or a heading-like line
that is a sentence's start; and the formula scraps that go on with nothing.
"""

from __future__ import annotations

import re

from vaultd.parse.classify import FRAGMENT_MAX
from vaultd.parse.paras import SENT_END, Para


def continues(prev: Para, cur: Para) -> bool:
    if prev.type != "paragraph" or cur.type != "paragraph":
        return False
    if prev.text.rstrip().endswith(SENT_END):
        return False
    first = cur.text[:1]
    tail = prev.text.rstrip()
    if tail.endswith("-") and len(tail) > 1 and tail[-2].isalpha() and first.isalpha():
        return True  # a word split at the column or page break: SCI- / ENCEPARSE
    if tail.rsplit(None, 1)[-1] in _OPEN_WORDS and _ACRONYM_RE.match(cur.text):
        return True  # "… method 1 for" | "LC-DAD-TOF was used": no sentence ends on "for"
    return first.islower() or (first in ",;)" and first != "") or bool(_INDEX_LEAD_RE.match(cur.text))


#: Words no sentence ends on (articles, prepositions, conjunctions; English, Portuguese,
#: Spanish, German): a paragraph's piece ending on one goes on into a next piece that
#: opens with an acronym (``LC-DAD-TOF``), which a new paragraph rarely does (``The …``,
#: ``3.1 Encoding module`` and names are left to the other rules).
_OPEN_WORDS = frozenset({
    "a", "an", "the", "of", "to", "in", "for", "with", "and", "or", "by", "from", "on", "at",
    "as", "that", "than", "into", "between", "is", "are", "was", "were", "be", "this", "these",
    "de", "da", "do", "das", "dos", "para", "com", "con", "el", "la", "los", "las", "em", "en",
    "que", "por", "der", "die", "und", "mit", "von", "zu", "für",
})
_ACRONYM_RE = re.compile(r"[A-Z][A-Z0-9-]*[A-Z]\w*\b")


#: A para opening with a one- or two-digit number and then a lowercase word (``2 the
#: scheme is…``, ``0 and xj…``) goes on from the one before: the number is a fraction's
#: denominator or an index set below the line, split off with it.
_INDEX_LEAD_RE = re.compile(r"\d{1,2} +[a-z]")


def is_scrap(text: str) -> bool:
    """A few symbols without a word of two letters (``d``, ``, 0``, ``2 1``), which no
    sentence has on its own: the pieces of a display formula MuPDF set as blocks."""
    chars = "".join(text.split())
    return 0 < len(chars) <= FRAGMENT_MAX and not any(
        sum(map(str.isalpha, word)) >= 2 for word in text.split())


def sentence_start(prev: Para, cur: Para) -> bool:
    """Whether ``prev``, a one-line unnumbered heading that is no title and does not end in
    punctuation, is the start of a sentence ``cur`` goes on with in lowercase right under
    it: no heading runs on into its text (ACM's list items ``C1 We present an approach
    for linking`` in bold, ``software architecture models and code.`` under it)."""
    if prev.type != "heading" or prev.title or prev.number is not None or len(prev.lines) != 1 \
            or cur.type != "paragraph" or not cur.text[:1].islower():
        return False
    last, first = prev.lines[0], cur.lines[0]
    tail = prev.text.rstrip()
    open_end = bool(tail) and (tail[-1].isalnum() or (tail[-1] == "-" and tail[-2:-1].isalpha()))
    return (last.page == first.page and open_end
            and 0 <= first.bbox[1] - last.bbox[3] <= 0.5 * max(last.size, 1.0))


def rest_of_line(prev: Para, cur: Para) -> bool:
    """Whether ``cur`` starts with the rest of ``prev``'s last printed line, split off at a
    baseline shift (``… (fx, fy)ext`` | ``T are external forces.``): same page, the two
    lines overlapping by half the lower one's height, ``cur``'s starting at most one em
    after ``prev``'s ends, which is short of its para's right edge (a column's gutter is
    wider, and a full line has no rest)."""
    if prev.type != "paragraph" or cur.type != "paragraph":
        return False
    last, first = prev.lines[-1], cur.lines[0]
    if last.page != first.page or len(prev.lines) < 2:
        return False
    overlap = min(last.bbox[3], first.bbox[3]) - max(last.bbox[1], first.bbox[1])
    height = min(last.bbox[3] - last.bbox[1], first.bbox[3] - first.bbox[1])
    em = max(last.size, 1.0)
    right = max(ln.bbox[2] for ln in prev.lines)
    return (overlap >= 0.5 * height and -0.5 * em <= first.bbox[0] - last.bbox[2] <= em
            and last.bbox[2] < right - 2 * em)
