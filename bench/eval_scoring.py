"""The compile evaluation's scoring, pure: how a paper's chunks are scored against its
tests (docs/compile-eval.md, "How each figure is scored"). ``bench/compile_eval.py`` runs
vaultd on each paper and reports; ``tests/test_bench_compile_eval.py`` checks these rules
on hand-made input.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

Rect = tuple[float, float, float, float]

PARAGRAPH_TYPES = ("paragraph", "list")
PIECE_COVERED = 0.8  # a test box counts as covered when this share of its area is


# ---------------------------------------------------------------- pure scoring functions


def loose(text: str) -> str:
    """The README's matching form: NFKC then NFKD, case-folded, combining marks dropped,
    only letters and digits kept."""
    s = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text)).casefold()
    return "".join(ch for ch in s if ch.isalnum() and not unicodedata.combining(ch))


def loose_cased(text: str) -> str:
    """``loose`` with the case kept: what absent strings are matched in (a quote is the
    page's characters, so furniture read into one keeps its printed case; case-folded, a
    running head such as Wiley's ``FRITZSCH et al.`` is found in the body's citation
    ``Fritzsch et al.8``, which is no furniture)."""
    s = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text))
    return "".join(ch for ch in s if ch.isalnum() and not unicodedata.combining(ch))


@lru_cache(maxsize=4096)
def _loose_char(ch: str) -> str:
    return loose(ch)


def loose_map(text: str) -> tuple[str, list[int]]:
    """``loose(text)`` built character by character, with the index in ``text`` of each
    loose character (for showing where a match breaks; equal to ``loose`` on real text)."""
    out: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        for c in _loose_char(ch):
            out.append(c)
            where.append(i)
    return "".join(out), where


def area(r: Rect) -> float:
    return max(0.0, r[2] - r[0]) * max(0.0, r[3] - r[1])


def union_area(rects: Sequence[Rect]) -> float:
    """Exact area of a union of rectangles (coordinate compression; a handful of rects)."""
    rects = [r for r in rects if area(r) > 0]
    xs = sorted({x for r in rects for x in (r[0], r[2])})
    ys = sorted({y for r in rects for y in (r[1], r[3])})
    total = 0.0
    for x0, x1 in itertools.pairwise(xs):
        for y0, y1 in itertools.pairwise(ys):
            if any(r[0] <= x0 and x1 <= r[2] and r[1] <= y0 and y1 <= r[3] for r in rects):
                total += (x1 - x0) * (y1 - y0)
    return total


def covered(piece: Rect, regions: Iterable[Rect]) -> float:
    """Share of ``piece``'s area inside the union of ``regions`` (same page, same axes)."""
    whole = area(piece)
    if whole <= 0:
        return 0.0
    clipped = [(max(piece[0], r[0]), max(piece[1], r[1]), min(piece[2], r[2]), min(piece[3], r[3]))
               for r in regions]
    return min(1.0, union_area(clipped) / whole)


_NUMBER_RE = re.compile(r"^\s*(?:(?i:chapter|part|appendix)\s+(?=\d))?"
                        r"(?:\d+(?:\s*\.\s*\d+)*\s*[.):]?|[IVXLCivxlc]+\.|[A-Z](?:\.\d+)*\.)\s+")


def strip_number(heading: str) -> str:
    """``3.1 Setup`` / ``IV. Results`` / ``A.2. Proofs`` / ``Chapter 2: Overview`` → the
    title alone."""
    return _NUMBER_RE.sub("", heading, count=1)


def section_names(section: str | None, heading: str, number: str | None = None) -> bool:
    """Whether a chunk's section (or one level of a path ``A › B``) names ``heading``,
    compared loosely, with or without its number."""
    if not section:
        return False
    want = {loose(strip_number(heading)), loose(heading)}
    if number:
        want.add(loose(f"{number} {heading}"))
    want.discard("")
    levels = [section, *re.split(r"\s*›\s*", section)]
    return any(loose(level) in want or loose(strip_number(level)) in want for level in levels)


def holding_chunk(needle: str, texts: Sequence[str], types: Sequence[str],
                  kinds: Sequence[str] | None = PARAGRAPH_TYPES) -> int | None:
    """Index of the first chunk whose loose text holds ``needle`` (already loose): among
    ``kinds`` first, then (unless ``kinds`` is None) any chunk."""
    if not needle:
        return None
    for i, (text, kind) in enumerate(zip(texts, types, strict=True)):
        if (kinds is None or kind in kinds) and needle in text:
            return i
    return None if kinds is None else holding_chunk(needle, texts, types, None)


def order_right(earlier: str, later: str, texts: Sequence[str]) -> bool | None:
    """The first chunk holding ``earlier`` comes before the first holding ``later``, or
    ``earlier`` starts first in the same chunk. None when either is in no chunk."""
    a, b = loose(earlier), loose(later)
    ia = next((i for i, t in enumerate(texts) if a in t), None)
    ib = next((i for i, t in enumerate(texts) if b in t), None)
    if ia is None or ib is None:
        return None
    return ia < ib or (ia == ib and texts[ia].find(a) < texts[ib].find(b))


def spread(needle: str, texts: Sequence[str]) -> list[int]:
    """The chunks a loose passage runs over when the chunks' loose texts are laid end to
    end (one index when one chunk holds it; empty when the text itself differs)."""
    pos = "".join(texts).find(needle) if needle else -1
    if pos < 0:
        return []
    out, start = [], 0
    for i, t in enumerate(texts):
        end = start + len(t)
        if start < pos + len(needle) and pos < end:
            out.append(i)
        start = end
    return out


def longest_prefix(needle: str, hay: str) -> int:
    """Length of the longest prefix of ``needle`` that occurs in ``hay`` (binary search:
    a prefix of a found prefix is found)."""
    lo, hi = 0, len(needle)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if needle[:mid] in hay:
            lo = mid
        else:
            hi = mid - 1
    return lo


def regions_of(chunk: Any, to_top_left: Callable[[int, Rect], Rect] | None = None
               ) -> list[tuple[int, Rect]]:
    """``(page, top-left bbox)`` of every region of a chunk: its ``regions`` list when the
    model has one (on the provenance or the chunk; items with ``page`` and ``bbox``, or a
    user-space ``pdf_rect``/``rect`` converted by ``to_top_left``, or ``[page, left, bottom,
    right, top]`` in user space as vaultd writes them), else its one ``pdf_rect`` (the rect
    its page link points at), else its one bbox."""
    prov = getattr(chunk, "provenance", None)
    regions = getattr(prov, "regions", None) or getattr(chunk, "regions", None)
    out: list[tuple[int, Rect]] = []
    for region in regions or []:
        def get(name: str, region: Any = region) -> Any:
            return region.get(name) if isinstance(region, dict) else getattr(region, name, None)
        page = get("page")
        bbox = get("bbox")
        if isinstance(region, list | tuple) and len(region) == 5:
            # vaultd's form: [page, left, bottom, right, top] in PDF user space
            page, rect5 = int(region[0]), region[1:]
            if to_top_left is None:
                continue
            bbox = to_top_left(page, (rect5[0], rect5[1], rect5[2], rect5[3]))
        if bbox is None and to_top_left is not None and page is not None:
            rect = get("pdf_rect") or get("rect")
            if rect is not None:
                bbox = to_top_left(int(page), (rect[0], rect[1], rect[2], rect[3]))
        if page is not None and bbox is not None:
            out.append((int(page), (bbox[0], bbox[1], bbox[2], bbox[3])))
    if not out and prov is not None and prov.pdf_rect and to_top_left is not None:
        r = prov.pdf_rect  # what the note's page link points at (format 3 keeps no bbox)
        out.append((prov.page, to_top_left(prov.page, (r[0], r[1], r[2], r[3]))))
    elif not out and prov is not None and prov.bbox:
        b = prov.bbox
        out.append((prov.page, (b[0], b[1], b[2], b[3])))
    return out


def pct(num: float, den: float) -> str:
    return f"{100 * num / den:5.1f}%" if den else "    –"


# ---------------------------------------------------------------------------- scoring


@dataclass
class PaperScore:
    stem: str
    pages: int = 0
    chunks: int = 0
    error: str | None = None
    present: list[int] = field(default_factory=lambda: [0, 0])  # found, total
    absent: int = 0  # absent strings found inside some paragraph/list chunk
    absent_chunks: int = 0  # (string, chunk) pairs
    absent_total: int = 0
    absent_folded: int = 0  # absent strings found only case-folded (the README's loose form)
    order: list[int] = field(default_factory=lambda: [0, 0])
    pieces: list[int] = field(default_factory=lambda: [0, 0])  # covered, total
    piece_fractions: list[float] = field(default_factory=list)
    boxes: list[int] = field(default_factory=lambda: [0, 0])  # every piece covered, total
    sections: list[int] = field(default_factory=lambda: [0, 0])
    verbatim: list[int] = field(default_factory=lambda: [0, 0])  # vaultd's check_blocks
    verbatim_raw: list[int] = field(default_factory=lambda: [0, 0])  # strict -raw
    verbatim_reliable: list[int] = field(default_factory=lambda: [0, 0])  # text layer not marked
    seconds: dict[str, float] = field(default_factory=dict)  # medians
    failures: list[dict[str, Any]] = field(default_factory=list)

    def ratio(self, what: str) -> float | None:
        """``pdftotext -layout``'s time ÷ ``what``'s (CPU time ÷ CPU time for ``*_cpu``)."""
        base = "pdftotext_cpu" if what.endswith("_cpu") else "pdftotext"
        t, p = self.seconds.get(what), self.seconds.get(base)
        return p / t if t and p else None


def snip(text: str, n: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _diagnose(passage: str, pieces: list[str], chunks: list[Any], texts: list[str]) -> dict[str, Any]:
    """Why a passage is in no single paragraph chunk: which chunks it spreads over, or
    where its text stops matching and what the chunk holds there."""
    needle = loose(passage)
    types = [c.provenance.chunk_type for c in chunks]
    hit = holding_chunk(needle, texts, types, None)
    if hit is not None:
        return {"why": f"in a {types[hit]} chunk", "chunk": chunks[hit].id,
                "chunk_text": snip(chunks[hit].text)}
    over = spread(needle, texts)
    if over:
        return {"why": "split over chunks", "chunk": " + ".join(
            f"{chunks[i].id} ({types[i]})" for i in over), "chunk_text": snip(chunks[over[0]].text)}
    hay = "".join(texts)
    n = longest_prefix(needle, hay)
    if n == 0:
        return {"why": "not found at all"}
    at = hay.find(needle[:n]) + n  # where the match stops, in the chunks laid end to end
    i, start = 0, 0
    while start + len(texts[i]) < at:
        start += len(texts[i])
        i += 1
    where = loose_map(chunks[i].text)[1]
    k = at - start
    if k >= len(where) and i + 1 < len(chunks):  # stops at the chunk's end: show the next
        i, where, k = i + 1, loose_map(chunks[i + 1].text)[1], 0
    has = chunks[i].text[where[k]:] if k < len(where) else "(end of the chunk)"
    pmap = loose_map(passage)[1]
    cut = len(loose(pieces[0])) if len(pieces) > 1 else -10
    return {"why": "text differs" + (" at the column/page break" if abs(n - cut) <= 2 else ""),
            "chunk": f"{chunks[i].id} ({types[i]})", "matched": f"{n}/{len(needle)}",
            "expected": snip(passage[pmap[n]:] if n < len(pmap) else "", 50),
            "chunk_has": snip(has, 70)}


def score_paper(stem: str, tests: dict[str, Any], chunks: list[Any],
                to_top_left: Callable[[int, Rect], Rect]) -> PaperScore:
    s = PaperScore(stem, chunks=len(chunks))
    texts = [loose(c.text) for c in chunks]
    types = [c.provenance.chunk_type for c in chunks]
    for item in tests.get("present", []):
        s.present[1] += 1
        hit = holding_chunk(loose(item["text"]), texts, types)
        if hit is not None and types[hit] in PARAGRAPH_TYPES:
            s.present[0] += 1
        else:
            s.failures.append({"kind": "present", "page": item.get("page"), "text": snip(item["text"]),
                               **_diagnose(item["text"], item.get("pieces") or [], chunks, texts)})
    cased = [loose_cased(c.text) if k in PARAGRAPH_TYPES else "" for c, k in zip(chunks, types, strict=True)]
    for item in tests.get("absent_from_paragraphs", []):
        s.absent_total += 1
        needle = loose_cased(item["text"])
        bad = [c for c, t in zip(chunks, cased, strict=True) if needle and needle in t]
        folded = loose(item["text"])
        also = [c for c, t, k in zip(chunks, texts, types, strict=True)
                if k in PARAGRAPH_TYPES and folded and folded in t and c not in bad]
        if also and not bad:  # information: the README's case-folded match finds more
            s.absent_folded += 1
            s.failures.append({"kind": "absent-folded", "what": item.get("kind"), "page": item.get("page"),
                               "text": snip(item["text"]), "chunk": ", ".join(c.id for c in also),
                               "chunk_text": snip(also[0].text)})
        if bad:
            s.absent += 1
            s.absent_chunks += len(bad)
            s.failures.append({"kind": "absent", "what": item.get("kind"), "page": item.get("page"),
                               "text": snip(item["text"]), "chunk": ", ".join(c.id for c in bad),
                               "chunk_text": snip(bad[0].text)})
    for earlier, later in tests.get("order", []):
        s.order[1] += 1
        ok = order_right(earlier, later, texts)
        s.order[0] += bool(ok)
        if not ok:
            s.failures.append({"kind": "order", "text": f"{snip(earlier, 40)} → {snip(later, 40)}",
                               "why": "not found" if ok is None else "wrong order"})
    for box in tests.get("boxes", []):
        s.boxes[1] += 1
        hit = holding_chunk(loose(box["text"]), texts, types)
        regions = regions_of(chunks[hit], to_top_left) if hit is not None else []
        every = True
        for piece in box["pieces"]:
            b = piece["bbox"]
            frac = covered((b[0], b[1], b[2], b[3]), [r for p, r in regions if p == piece["page"]])
            s.pieces[1] += 1
            s.piece_fractions.append(frac)
            if frac >= PIECE_COVERED:
                s.pieces[0] += 1
                continue
            every = False
            s.failures.append({
                "kind": "box", "page": piece["page"], "text": snip(box["text"], 60),
                "piece": [round(v, 1) for v in b], "covered": round(frac, 3),
                "chunk": chunks[hit].id if hit is not None else None,
                "why": "no chunk holds the passage" if hit is None else
                       f"regions {[(p, [round(v, 1) for v in r]) for p, r in regions]}"})
        s.boxes[0] += every
    for sec in tests.get("sections", []):
        s.sections[1] += 1
        hit = holding_chunk(loose(sec["passage"]), texts, types)
        got = chunks[hit].provenance.section if hit is not None else None
        if hit is not None and section_names(got, sec["heading"], sec.get("number")):
            s.sections[0] += 1
        else:
            s.failures.append({"kind": "section", "text": snip(sec["passage"], 60),
                               "expected": " ".join(filter(None, [sec.get("number"), sec["heading"]])),
                               "why": "no chunk holds the passage" if hit is None else f"section: {got!r}",
                               "chunk": chunks[hit].id if hit is not None else None})
    return s
