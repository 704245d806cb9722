"""The compile evaluation's strict verbatim check, pure: a paragraph's text as one run of
poppler's ``pdftotext -raw`` text — of the whole document, or of each region the
paragraph is set in (docs/compile-eval.md, "-raw strict"). ``bench/compile_eval.py``
runs pdftotext and counts; ``tests/test_bench_compile_eval.py`` checks these rules on
hand-made input.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Sequence

Rect = tuple[float, float, float, float]

_HYPHEN_MARK = "\x00"  # where pdftotext -raw broke a word with a line-end hyphen


def raw_reference(raw: str) -> str:
    """``pdftotext -raw`` output for the strict verbatim check: NFC, each line-end hyphen
    between letters marked (it may be dropped or kept), whitespace runs one space."""
    text = re.sub(r"(?<=[^\W\d_])-[ \t]*\n\s*(?=[^\W\d_])", _HYPHEN_MARK,
                  unicodedata.normalize("NFC", raw))
    return " ".join(text.split())


def verbatim_in(quote: str, reference: str) -> bool:
    """Whether a whitespace-normalised quote occurs in ``raw_reference`` text, character
    for character, except that a marked line-end hyphen may be dropped or kept."""
    quote = " ".join(unicodedata.normalize("NFC", quote).split())
    if not quote:
        return True
    if quote in reference.replace(_HYPHEN_MARK, "") or quote in reference.replace(_HYPHEN_MARK, "-"):
        return True
    if _HYPHEN_MARK not in reference:
        return False
    parts = []
    for i, ch in enumerate(quote):
        if ch == "-":
            parts.append(f"[-{_HYPHEN_MARK}]")
            continue
        parts.append(re.escape(ch))
        if ch.isalpha() and i + 1 < len(quote) and quote[i + 1].isalpha():
            parts.append(f"{_HYPHEN_MARK}?")
    return re.search("".join(parts), reference) is not None


def raw_verbatim(text: str, pieces: Sequence[str], reference: str) -> bool:
    """The strict check of one paragraph in the whole document: its text occurs in
    ``raw_reference`` text, or (a paragraph joined across a column or page break, where
    -raw puts the running header or a caption between the pieces) each of its pieces
    does, a piece's own line-end hyphen left to the join."""
    return verbatim_in(text, reference) or (len(pieces) > 1 and all(
        verbatim_in(" ".join(p.split()).removesuffix("-"), reference) for p in pieces))


#: A word of ``pdftotext -raw -bbox``: its box (top-left page points), its text, and what
#: ``pdftotext -raw`` writes before it: nothing, a space or a line break.
Word = tuple[float, float, float, float, str, str]

_PAGE_RE = re.compile(r"<page\b[^>]*>(.*?)</page>", re.S)
_WORD_RE = re.compile(r'<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">(.*?)</word>')
#: Separators, weakest first: a word split at a font change, a word space, a line break.
_SEPARATORS = ("", " ", "\n")


def raw_words(bbox_html: str, raw_text: str) -> list[list[Word]]:
    """Each page's words from ``pdftotext -raw -bbox`` output, in poppler's raw order, each
    with the separator ``pdftotext -raw`` (``raw_text``, the same words) writes before it
    (a word's box alone does not tell: poppler glues a superscript to its word, and writes
    some gaps as spaces and others not)."""
    out: list[list[Word]] = []
    for page, text in zip(_PAGE_RE.findall(bbox_html), raw_text.split("\f"), strict=False):
        words: list[Word] = []
        at = 0
        for a, b, c, d, t in _WORD_RE.findall(page):
            t = html.unescape(t)
            found = text.find(t, at)
            gap = text[at:found] if found >= 0 else " "
            sep = "\n" if "\n" in gap else " " if gap else ""
            words.append((float(a), float(b), float(c), float(d), t, sep if words else ""))
            at = found + len(t) if found >= 0 else at
        out.append(words)
    return out


#: Points a region is widened by when its words are taken (poppler's and MuPDF's glyph
#: boxes differ by a point or so).
REGION_PAD = 2.0


def region_text(words: Sequence[Word], box: Rect, pad: float = REGION_PAD) -> str:
    """The page text set in ``box`` as ``pdftotext -raw`` writes it: the words whose centre
    lies in it (widened by ``pad``), in raw order, each after the strongest separator
    poppler wrote since the last word taken (a margin's line number left out, its line
    break stays)."""
    out: list[str] = []
    sep = ""
    for w in words:
        sep = max(sep, w[5], key=_SEPARATORS.index)
        cx, cy = (w[0] + w[2]) / 2, (w[1] + w[3]) / 2
        if not (box[0] - pad <= cx <= box[2] + pad and box[1] - pad <= cy <= box[3] + pad):
            continue
        if out:
            out.append(sep)
        out.append(w[4])
        sep = ""
    return "".join(out)


def region_verbatim(text: str, pieces: Sequence[tuple[int, str]], regions: Sequence[tuple[int, Rect]],
                    pages: Sequence[Sequence[Word]]) -> bool:
    """The strict check as issue 34 words it: a quote reads as one run of the page text
    per region it is set in — its whole text in the ``pdftotext -raw`` text of one of its
    regions, or each of its pieces in that of one of its regions on the piece's page (a
    piece's own line-end hyphen left to the join). Text outside the regions is no part of
    the reference: poppler's raw order interleaves a margin column of line numbers with
    the lines beside it, which a quote never holds."""
    refs: dict[tuple[int, Rect], str] = {}

    def ref(page: int, box: Rect) -> str:
        if (page, box) not in refs:
            words = pages[page - 1] if 0 < page <= len(pages) else []
            refs[(page, box)] = raw_reference(region_text(words, box))
        return refs[(page, box)]

    if any(verbatim_in(text, ref(p, b)) for p, b in regions):
        return True
    return len(pieces) > 1 and all(
        any(verbatim_in(" ".join(t.split()).removesuffix("-"), ref(p, b)) for p, b in regions if p == page)
        for page, t in pieces)


#: A span MuPDF read from a font that maps its glyphs to no Unicode (no ``ToUnicode``):
#: its box (top-left page points) and its text.
Span = tuple[float, float, float, float, str]


def contested_spans(spans: Sequence[Span], words: Sequence[Word]) -> list[Rect]:
    """The boxes of the spans whose glyphs the text layer does not name, read differently
    by the two extractors: a span of a font without ``ToUnicode`` (``spans``, MuPDF's)
    with a character that no word poppler read over its box (``words``) holds, both
    NFKC. The PDF leaves such a glyph's text to each extractor's guess (MuPDF's glyph
    names ``≪``, ``ϵ``, ``′``, ``⊙`` where poppler writes nothing, ``�``, ``0``, ``N``), so
    poppler's text is no reference for it. Body text in such fonts is not contested:
    both read its letters alike."""
    out: list[Rect] = []
    for x0, y0, x1, y1, text in spans:
        chars = {c for c in unicodedata.normalize("NFKC", text) if not c.isspace()}
        if not chars:
            continue
        near = "".join(w[4] for w in words if w[0] < x1 and w[2] > x0 and w[1] < y1 and w[3] > y0)
        if not chars <= set(unicodedata.normalize("NFKC", near)):
            out.append((x0, y0, x1, y1))
    return out


def holds_contested(regions: Sequence[tuple[int, Rect]], contested: Sequence[Sequence[Rect]]) -> bool:
    """Whether the centre of a contested span (``contested``: per page, index 0 = page 1)
    lies in one of a paragraph's regions."""
    for page, box in regions:
        for x0, y0, x1, y1 in contested[page - 1] if 0 < page <= len(contested) else ():
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            if box[0] <= cx <= box[2] and box[1] <= cy <= box[3]:
                return True
    return False
