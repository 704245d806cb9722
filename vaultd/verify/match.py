"""Where a quoted passage is in a work's chunks (pure).

Quotes from a draft and chunk texts from a note are compared in one *match form*: NFKC
(ligatures ``ﬁ`` → ``fi``), every quotation mark and apostrophe one mark (a
nested quotation swaps double and single marks), every dash a hyphen, a hyphen between
word characters dropped with the space after it (so a line-break hyphen ``trans-
former`` and ``transformer`` compare equal, and ``well-known`` with ``well- known``),
whitespace as single spaces. Case is kept, but for the quote's first letter (a quotation
may change it to fit the sentence). An ellipsis or a bracketed insertion splits a quote
into parts that must appear in order, close together, within a few adjacent chunks.
"""

from __future__ import annotations

import bisect
import difflib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

_TRANSLATE = {
    **dict.fromkeys(map(ord, "‐‑‒–—―−"), "-"),
    # one mark for every quotation mark and apostrophe: a quotation nested in a quote is
    # set with the other kind of marks, and "’" and "'" are the same apostrophe
    **dict.fromkeys(map(ord, "“”„‟«»″‘’‚‛′`'"), '"'),
    ord("\u00a0"): " ", ord("\u202f"): " ",
}
_WORD_HYPHEN = re.compile(r"(?<=\w)-\s*(?=\w)")
_INSERTION = re.compile(r"\[[^\]]{0,80}\]")
#: Text a quote may leave out between two of its parts (an ellipsis or an insertion).
MAX_GAP = 2000
#: Adjacent chunks a quote may run across (a paragraph continued after a figure).
MAX_SPAN = 3
#: Least similarity (0-100) for the closest passage to count as the one misquoted.
NEAR = 70.0


def match_form(text: str) -> str:
    t = unicodedata.normalize("NFKC", text).translate(_TRANSLATE)
    return " ".join(_WORD_HYPHEN.sub("", t).split())


def quote_parts(parts: Sequence[str]) -> list[str]:
    """The draft's ellipsis parts, further split at bracketed insertions, in match form."""
    out: list[str] = []
    for part in parts:
        out += [p for p in (match_form(x) for x in _INSERTION.split(part)) if p]
    return out


@dataclass(frozen=True)
class Found:
    first: int  # index of the first chunk the quote is in
    last: int   # index of the last


@dataclass(frozen=True)
class Near:
    chunk: int
    score: float
    source: str  # the passage of the chunk the quote is closest to (match form)


class Passages:
    """One work's chunk texts in match form, joined, with where each chunk starts."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.forms = [match_form(t) for t in texts]
        self.starts: list[int] = []
        pos = 0
        for form in self.forms:
            self.starts.append(pos)
            pos += len(form) + 1
        self.text = " ".join(self.forms)

    def _chunk_at(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset) - 1

    def _find(self, part: str, start: int) -> int:
        at = self.text.find(part, start)
        if at < 0 and part[:1].isalpha():  # the first letter's case may have been changed
            at = self.text.find(part[:1].swapcase() + part[1:], start)
        return at

    def find(self, parts: Sequence[str]) -> Found | None:
        """The chunks holding every part in order (each part after the one before, at
        most ``MAX_GAP`` characters apart, within ``MAX_SPAN`` chunks), or None."""
        if not parts:
            return None
        start = 0
        while True:
            at = self._find(parts[0], start)
            if at < 0:
                return None
            end, ok = at + len(parts[0]), True
            for part in parts[1:]:
                nxt = self.text.find(part, end)
                if nxt < 0 or nxt - end > MAX_GAP:
                    ok = False
                    break
                end = nxt + len(part)
            first, last = self._chunk_at(at), self._chunk_at(max(at, end - 1))
            if ok and last - first < MAX_SPAN:
                return Found(first, last)
            start = at + 1

    def nearest(self, quote: str) -> Near | None:
        """The chunk passage most like ``quote`` (rapidfuzz partial alignment)."""
        from rapidfuzz import fuzz

        best: Near | None = None
        for i, form in enumerate(self.forms):
            if len(form) < len(quote) // 2:
                continue  # a chunk shorter than half the quote cannot be the passage it
                # misquotes; partial alignment would find it *inside* the quote ("d": 100)
            hit = fuzz.partial_ratio_alignment(quote, form, score_cutoff=best.score if best else NEAR)
            if hit is not None and (best is None or hit.score > best.score):
                best = Near(i, hit.score, _whole_words(form, hit.dest_start, hit.dest_end, quote))
        return best


def _whole_words(form: str, start: int, end: int, quote: str) -> str:
    """The aligned passage widened to whole words, and by the quote's word count so a
    changed word of another length still falls inside it."""
    start = form.rfind(" ", 0, start) + 1
    stop = form.find(" ", end)
    words = form[start:len(form) if stop < 0 else stop].split()
    need = len(quote.split())
    before = form[:start].split()
    after = form[len(form) if stop < 0 else stop:].split()
    extra = max(0, need - len(words)) + 2
    return " ".join([*before[-extra:], *words, *after[:extra]])


def source_words(chunk_text: str, quote: str) -> str:
    """The words of ``chunk_text`` (as the source writes them) that a misquote stands
    for: near rapidfuzz's best alignment, the run of source words most like the quote's
    words (a changed word at either end still falls inside)."""
    from rapidfuzz import fuzz

    words, wanted = chunk_text.split(), quote.split()
    text = " ".join(words)
    hit = fuzz.partial_ratio_alignment(" ".join(wanted), text)
    if hit is None or not words or not wanted:
        return text
    at = text[:hit.dest_start].count(" ")
    n = len(wanted)
    best, best_score = (at, at + n), -1.0
    for first in range(max(0, at - 3), min(len(words), at + 4)):
        for size in (n - 1, n, n + 1):
            window = words[first:first + size]
            if not window:
                continue
            score = difflib.SequenceMatcher(a=window, b=wanted, autojunk=False).ratio()
            if score > best_score:
                best, best_score = (first, first + size), score
    return " ".join(words[best[0]:best[1]])


def word_diff(quoted: str, source: str) -> str:
    """The words that differ, as ``[-source words-] {+quoted words+}``."""
    a, b = source.split(), quoted.split()
    ops = difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
    # source words around the quote are context, not a difference
    while ops and ops[0][0] == "delete":
        ops = ops[1:]
    while ops and ops[-1][0] == "delete":
        ops = ops[:-1]
    out = []
    for op, i1, i2, j1, j2 in ops:
        if op == "equal":
            continue
        gone, added = " ".join(a[i1:i2]), " ".join(b[j1:j2])
        out.append(" ".join(x for x in (f"[-{gone}-]" if gone else "",
                                        f"{{+{added}+}}" if added else "") if x))
    return "; ".join(out)
