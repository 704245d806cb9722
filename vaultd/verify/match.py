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
from collections.abc import Iterator, Sequence
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
#: Passages scoring within this much of the best are told apart by their words; at most
#: ``MAX_CLOSE`` of them.
CLOSE_SCORE = 10.0
MAX_CLOSE = 8


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
        return next(self.find_all(parts), None)

    def find_all(self, parts: Sequence[str]) -> Iterator[Found]:
        """``find``'s answer, then every other place the quote is (a sentence the abstract
        and the body both hold), each once, in order."""
        if not parts:
            return
        start, seen = 0, set()
        while True:
            at = self._find(parts[0], start)
            if at < 0:
                return
            end, ok = at + len(parts[0]), True
            for part in parts[1:]:
                nxt = self.text.find(part, end)
                if nxt < 0 or nxt - end > MAX_GAP:
                    ok = False
                    break
                end = nxt + len(part)
            first, last = self._chunk_at(at), self._chunk_at(max(at, end - 1))
            if ok and last - first < MAX_SPAN and (first, last) not in seen:
                seen.add((first, last))
                yield Found(first, last)
            start = at + 1

    def nearest(self, quote: str) -> Near | None:
        """The chunk passage most like ``quote``: of the chunks rapidfuzz's partial
        alignment scores close to the best, the one whose words the quote's words align
        with at least cost (character scores favour a short passage at a chunk's end:
        "…for hosting the Wolf Science Center." over the "…Lab and the Wolf Science
        Center," a misquote of six words stands for)."""
        # lazy: rapidfuzz costs 19 ms at import
        from rapidfuzz import fuzz

        hits: list[tuple[float, int, int, int]] = []
        top = NEAR
        for i, form in enumerate(self.forms):
            if len(form) < len(quote) // 2:
                continue  # a chunk shorter than half the quote cannot be the passage it
                # misquotes; partial alignment would find it *inside* the quote ("d": 100)
            hit = fuzz.partial_ratio_alignment(quote, form,
                                               score_cutoff=max(NEAR, top - CLOSE_SCORE))
            if hit is not None:
                hits.append((hit.score, i, hit.dest_start, hit.dest_end))
                top = max(top, hit.score)
        if not hits:
            return None
        close = sorted((h for h in hits if h[0] >= top - CLOSE_SCORE), reverse=True)[:MAX_CLOSE]
        wanted = _words(quote)
        around = len(quote)  # the aligned passage and a quote's length either side

        def cost(h: tuple[float, int, int, int]) -> tuple[float, float, int]:
            form = self.forms[h[1]][max(0, h[2] - around):h[3] + around]
            return _fit(wanted, _words(form))[2], -h[0], h[1]

        score, i, start, end = min(close, key=cost)
        return Near(i, score, _whole_words(self.forms[i], start, end, quote))


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


# The cost of aligning one quote word with one source word (``source_span``): the same
# word; the same but for case or the punctuation at its edges ("dogs" for "dogs.", a first
# letter the quote capitalises); another word. A word only one side has costs a little more
# than a changed word, so a changed word at either end of the quote is taken as changed,
# never as an extra word beside a shorter span.
_SAME, _LOOSE, _CHANGED, _EXTRA = 0.0, 0.25, 1.0, 1.01
#: Above this many word pairs, align within the quote's neighbourhood only.
MAX_ALIGN_CELLS = 100_000
_EDGE_PUNCT = re.compile(r"^\W+|\W+$")


@dataclass(frozen=True)
class _Word:
    start: int  # [start, end) in the text
    end: int
    form: str  # match form
    loose: str  # match form, case folded, edge punctuation dropped


def _words(text: str) -> list[_Word]:
    """The whitespace-separated words of ``text``. A line-break hyphen ("trans- former") is
    left two words: a quote may start or end between them."""
    out: list[_Word] = []
    for m in re.finditer(r"\S+", text):
        form = match_form(m.group())
        if form:
            out.append(_Word(m.start(), m.end(), form, _EDGE_PUNCT.sub("", form).casefold()))
    return out


def _cost(a: _Word, b: _Word) -> float:
    if a.form == b.form:
        return _SAME
    return _LOOSE if a.loose and a.loose == b.loose else _CHANGED


def _fit(quote: Sequence[_Word], source: Sequence[_Word]) -> tuple[int, int, float]:
    """``[first, last)`` of the run of ``source`` words the whole ``quote`` aligns with at
    least cost, and that cost (a fitting alignment: edit distance over words, free before
    and after the run in the source)."""
    n, m = len(quote), len(source)
    cost = [0.0] * (m + 1)  # row i: cost of quote[:i] ending before source[j]
    begin = list(range(m + 1))  # where that alignment's run starts
    for i in range(1, n + 1):
        q = quote[i - 1]
        row, row_begin = [i * _EXTRA] + [0.0] * m, [0] + [0] * m
        for j in range(1, m + 1):
            best, at = cost[j - 1] + _cost(q, source[j - 1]), begin[j - 1]
            if cost[j] + _EXTRA < best:  # a quote word the source does not have
                best, at = cost[j] + _EXTRA, begin[j]
            if row[j - 1] + _EXTRA < best:  # a source word the quote left out
                best, at = row[j - 1] + _EXTRA, row_begin[j - 1]
            row[j], row_begin[j] = best, at
        cost, begin = row, row_begin
    last = min(range(m + 1), key=lambda j: (cost[j], j))
    return begin[last], last, cost[last]


def source_span(chunk_text: str, quote: str) -> tuple[int, int]:
    """``[start, end)`` of ``chunk_text`` that a misquote stands for: the run of source
    words the quote's words align with (a changed word at either end included, so the span
    always ends with the word the quote ends with), without punctuation at its edges that
    the quote does not have (a quote may stop before a sentence's full stop)."""
    source, wanted = _words(chunk_text), _words(quote)
    if not source or not wanted:
        return 0, len(chunk_text)
    lo, hi = 0, len(source)
    if len(source) * len(wanted) > MAX_ALIGN_CELLS:
        # lazy: rapidfuzz costs 19 ms at import
        from rapidfuzz import fuzz

        forms = [w.form for w in source]
        hit = fuzz.partial_ratio_alignment(" ".join(w.form for w in wanted), " ".join(forms))
        at = " ".join(forms)[:hit.dest_start].count(" ") if hit else 0
        lo, hi = max(0, at - len(wanted)), min(len(source), at + 2 * len(wanted) + 10)
    first, last, _ = _fit(wanted, source[lo:hi])
    if last <= first:
        return 0, len(chunk_text)
    start, end = source[lo + first].start, source[lo + last - 1].end
    if wanted[0].form[:1].isalnum():
        start += len(re.match(r"\W*", chunk_text[start:end])[0])  # type: ignore[index]
    if wanted[-1].form[-1:].isalnum():
        end -= len(re.search(r"\W*$", chunk_text[start:end])[0])  # type: ignore[index]
    return (start, end) if end > start else (source[lo + first].start, source[lo + last - 1].end)


def source_words(chunk_text: str, quote: str) -> str:
    """The words of ``chunk_text`` (as the source writes them, spaces collapsed) that a
    misquote stands for (``source_span``)."""
    start, end = source_span(chunk_text, quote)
    return " ".join(chunk_text[start:end].split())


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
