"""A sentence's own enumeration going on past a break: the bracketed enumerator next after
one standing inside the sentence (a court opinion's ``… (1) that his attorney failed …,
and`` | ``(2) that he was prejudiced thereby.``), not a list's next item. Pure.
"""

from __future__ import annotations

import re

#: A bracketed enumerator opening a line: ``(2)``, ``(b)``, ``(ii)``.
_INLINE_MARK_RE = re.compile(r"\((\d{1,2}|[a-z]|[ivx]{1,4})\)\s")
_ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")


def next_inline_mark(text: str, after: str) -> bool:
    """Whether ``after`` opens with the enumerator next after one standing inside
    ``text``'s sentence, left open on ``and``, ``or`` or a comma (``… (1) that his attorney
    failed …, and`` | ``(2) that he was prejudiced thereby.``): a sentence's own
    enumeration, no list's item (``… three things: (i) how often …;`` | ``(ii) which …``
    is one, each item its own)."""
    mark = _INLINE_MARK_RE.match(after)
    tail = text.rstrip()
    if mark is None or not (tail.endswith(",") or tail.rsplit(None, 1)[-1:] in (["and"], ["or"])):
        return False
    before = _neighbour(mark.group(1), -1)
    at = text.rfind(f"({before}) ") if before else -1
    return at > 0 and text[:at].strip() != ""


def inline_enumeration(text: str) -> bool:
    """Whether a line opening with a bracketed enumerator holds the next one too, after a
    comma or semicolon (Frontiers' ``(1) technical-tactical actions, (2) activity profiles,
    (3) external …`` under ``… four groups:``): a sentence's own enumeration run on, no
    list's item (an item's line holds its own mark alone)."""
    mark = _INLINE_MARK_RE.match(text)
    if mark is None:
        return False
    after = _neighbour(mark.group(1), 1)
    return bool(after) and re.search(rf"[,;]\s+(?:and\s+|or\s+)?\({after}\)\s", text[mark.end():]) is not None


def _neighbour(mark: str, step: int) -> str:
    """The enumerator ``step`` (1 or -1) from ``mark`` (``2`` → ``3``, ``b`` → ``a``, ``ii``
    → ``iii``; ``i`` → ``h`` past the numerals' first), or "" past the first (``0``,
    before ``a``) or the last."""
    if mark.isdigit():
        return str(int(mark) + step) if int(mark) + step > 0 else ""
    if mark in _ROMAN and 0 <= (k := _ROMAN.index(mark) + step) < len(_ROMAN):
        return _ROMAN[k]
    if len(mark) != 1:
        return ""  # (``xi``, ``iiii``: no numeral this list counts, and no letter)
    letter = chr(ord(mark) + step)
    return letter if "a" <= letter <= "z" else ""
