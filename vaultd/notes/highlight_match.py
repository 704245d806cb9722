"""The user's highlights placed on the chunks they lie in (pure).

A highlight (Zotero's, or one embedded in the PDF) names a page and one rectangle per
line, in PDF user space; a chunk names the rectangles it covers (``Provenance.pdf_rect``,
or ``regions`` when it runs across a column or page break). The words the PDF prints
under the highlight's rectangles say which chunk each line belongs to and what the PDF
reads there; that text is found in the chunk's verbatim text, and its offsets are the
highlight's span. Text is compared on letters and digits only (NFKC, case-folded), so the
chunk's layout repairs (a hyphen rejoined, a ligature spelled out, line breaks) and the
spacing a reader stored do not count, while any other difference does: a highlight whose
stored text is not the PDF's text there is placed and marked ``differs``, never
"verified". A highlight with no position is found by its text alone, on its page.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from vaultd.models import Chunk, ChunkHighlight, Highlight

#: One word the PDF prints: (left, bottom, right, top) in PDF user space, and its text.
WordBox = tuple[float, float, float, float, str]
Rect = Sequence[float]

#: Points a chunk's rectangle is widened by when a word's centre is tested against it
#: (rectangles in notes are whole points, a word's box can stand past its line's).
CHUNK_SLACK_PT = 2.0
#: Share of a word's area a highlight rectangle must cover for the word to be marked.
WORD_COVER = 0.5


@dataclass
class Placed:
    """What ``place`` found: the highlights of each chunk (by id) and the highlights that
    lie in no chunk (a running head, a page no chunk is on)."""

    by_chunk: dict[str, list[ChunkHighlight]] = field(default_factory=dict)
    unplaced: list[Highlight] = field(default_factory=list)


def letters(text: str) -> tuple[str, list[int]]:
    """``text`` reduced to its letters and digits (NFKC, case-folded) and, for each
    character kept, its offset in ``text``."""
    out: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        for c in unicodedata.normalize("NFKC", ch).casefold():
            if c.isalnum():
                out.append(c)
                where.append(i)
    return "".join(out), where


def _area(r: Rect) -> float:
    return max(0.0, r[2] - r[0]) * max(0.0, r[3] - r[1])


def _overlap(a: Rect, b: Rect) -> float:
    return _area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


def _covered(word: WordBox, rect: Rect) -> bool:
    box = word[:4]
    area = _area(box)
    if area <= 0:
        cx, cy = (word[0] + word[2]) / 2, (word[1] + word[3]) / 2
        return rect[0] <= cx <= rect[2] and rect[1] <= cy <= rect[3]
    return _overlap(box, rect) >= WORD_COVER * area


def _pieces(chunk: Chunk) -> list[tuple[int, Rect]]:
    prov = chunk.provenance
    if prov.regions:
        return [(int(r[0]), [float(v) for v in r[1:5]]) for r in prov.regions]
    if prov.pdf_rect:
        return [(prov.page, prov.pdf_rect)]
    return []


def _inside(word: WordBox, rect: Rect) -> bool:
    cx, cy = (word[0] + word[2]) / 2, (word[1] + word[3]) / 2
    s = CHUNK_SLACK_PT
    return rect[0] - s <= cx <= rect[2] + s and rect[1] - s <= cy <= rect[3] + s


def place(highlights: Sequence[Highlight], chunks: Sequence[Chunk],
          words: Mapping[int, Sequence[WordBox]]) -> Placed:
    """Each highlight on the chunk(s) it lies in, with its span; ``words``: the words of
    each page a highlight is on (1-based page → words in reading order)."""
    pieces: dict[int, list[tuple[Chunk, Rect]]] = {}
    for chunk in chunks:
        for page, rect in _pieces(chunk):
            pieces.setdefault(page, []).append((chunk, rect))
    out = Placed()
    for h in highlights:
        found = _by_position(h, pieces.get(h.page, []), words.get(h.page, ()))
        if not found and h.text:
            found = _by_text(h, [c for c in chunks if c.provenance.page <= h.page
                                 <= _last_page(c)] or list(chunks))
        if not found:
            found = _by_area(h, pieces.get(h.page, []))
        if not found:
            out.unplaced.append(h)
        for chunk_id, shown in found:
            out.by_chunk.setdefault(chunk_id, []).append(shown)
    return out


def _last_page(chunk: Chunk) -> int:
    return max((int(r[0]) for r in chunk.provenance.regions or []), default=chunk.provenance.page)


def _by_position(h: Highlight, pieces: Sequence[tuple[Chunk, Rect]],
                 words: Sequence[WordBox]) -> list[tuple[str, ChunkHighlight]]:
    """The chunks the highlight's rectangles lie in, each with the span of what the PDF
    prints under them; [] when it has no position or nothing of a chunk is under it."""
    if not h.rects or not pieces:
        return []
    marked: list[int] = []  # indices into words, in reading order
    for i, w in enumerate(words):
        if any(_covered(w, r) for r in h.rects):
            marked.append(i)
    per_chunk: dict[str, tuple[Chunk, list[int]]] = {}
    for i in marked:
        owner = next((c for c, rect in pieces if _inside(words[i], rect)), None)
        if owner is not None:
            per_chunk.setdefault(owner.id, (owner, []))[1].append(i)
    if not per_chunk:
        return []
    pdf_text = " ".join(words[i][4] for i in marked)
    differs = bool(h.text) and letters(h.text or "")[0] != letters(pdf_text)[0]
    out = []
    for chunk, idx in per_chunk.values():
        target = " ".join(words[i][4] for i in idx)
        before = sum(1 for j, w in enumerate(words) if j < idx[0]
                     and any(_inside(w, rect) for c, rect in pieces if c is chunk))
        total = sum(1 for w in words if any(_inside(w, rect) for c, rect in pieces if c is chunk))
        span = find_span(chunk.text, target, (before / total) if total else 0.0)
        out.append((chunk.id, _shown(h, span, differs)))
    return out


def _by_text(h: Highlight, chunks: Sequence[Chunk]) -> list[tuple[str, ChunkHighlight]]:
    """A highlight without a usable position, found by its stored text (verbatim in a
    chunk: the PDF's text, so verified)."""
    for chunk in chunks:
        span = find_span(chunk.text, h.text or "", 0.0)
        if span is not None:
            return [(chunk.id, _shown(h, span, False))]
    return []


def _by_area(h: Highlight, pieces: Sequence[tuple[Chunk, Rect]]
             ) -> list[tuple[str, ChunkHighlight]]:
    """A highlight over a chunk whose words the PDF's text layer does not give (a scan):
    placed without a span; stored text that could not be found in the chunk differs."""
    best: dict[str, tuple[Chunk, float]] = {}
    for chunk, rect in pieces:
        cover = sum(_overlap(r, rect) for r in h.rects)
        if cover > 0 and cover > best.get(chunk.id, (chunk, 0.0))[1]:
            best[chunk.id] = (chunk, cover)
    if not best:
        return []
    chunk = max(best.values(), key=lambda b: b[1])[0]
    return [(chunk.id, _shown(h, None, bool(h.text)))]


def _shown(h: Highlight, span: list[int] | None, differs: bool) -> ChunkHighlight:
    return ChunkHighlight(source=h.source, key=h.key, kind=h.kind, color=h.color,
                          comment=h.comment, page=h.page, page_label=h.page_label,
                          author=h.author,
                          span=span, status="differs" if differs else "verified",
                          text=h.text if differs else None)


def find_span(text: str, target: str, at: float) -> list[int] | None:
    """``[start, end)`` of ``target`` in ``text`` compared on letters and digits, the
    occurrence nearest the fraction ``at`` of the text; the target's own leading and
    trailing punctuation is taken in when the text has it there. None: not in it."""
    hay, where = letters(text)
    needle = letters(target)[0]
    if not needle or not hay:
        return None
    hits: list[int] = []
    pos = hay.find(needle)
    while pos >= 0 and len(hits) < 64:
        hits.append(pos)
        pos = hay.find(needle, pos + 1)
    if not hits:
        return None
    best = min(hits, key=lambda p: abs(p - at * len(hay)))
    start, end = where[best], where[best + len(needle) - 1] + 1
    stripped = target.strip()
    head = stripped[: len(stripped) - len(stripped.lstrip("([{\"'“‘"))]
    tail = stripped[len(stripped.rstrip(".,;:!?)]}\"'”’")):]
    if head and text[max(0, start - len(head)):start] == head:
        start -= len(head)
    if tail and text[end:end + len(tail)] == tail:
        end += len(tail)
    return [start, end]


def same_mark(a: Highlight, b: Highlight) -> bool:
    """``a`` and ``b`` mark the same place (a Zotero annotation read from the PDF file and
    the PDF's own): same page, and each line of one overlaps a line of the other."""
    if a.page != b.page or not a.rects or not b.rects:
        return False
    return all(any(_overlap(r, s) > 0.5 * min(_area(r), _area(s)) for s in b.rects)
               for r in a.rects)
