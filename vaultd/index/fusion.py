"""How a keyword list and a vector list become one ranking: the local index and the lab
library fuse the same way, so a query ranks alike at home and in the library.

Each side's scores are divided by that side's best score for the query (the top hit of
each list scores 1.0), then fused = ``BM25_SHARE`` × keyword + (1 − ``BM25_SHARE``) ×
cosine. Before fusing, each list is completed with the candidates only the other side
found, scored on its own side (``complete_lists``): a passage the vectors found gets its
real BM25, not 0. Pure: no I/O.
"""

from __future__ import annotations

# 0.5 is the untuned equal-weight default (SciFact has test queries only; docs/search.md).
BM25_SHARE = 0.5

Ranked = dict[str, list[tuple[int, float]]]


def fuse(ranked: Ranked, bm25_share: float = BM25_SHARE
         ) -> tuple[dict[int, float], dict[int, list[str]]]:
    """Convex combination of max-normalised scores of the lists ``bm25`` and ``vector``:
    (id → fused score, id → the lists it is in)."""
    shares = {"bm25": bm25_share, "vector": 1.0 - bm25_share}
    norm: dict[str, dict[int, float]] = {}
    sources: dict[int, list[str]] = {}
    for name, pairs in ranked.items():
        top = max((s for _, s in pairs), default=0.0)
        norm[name] = {rid: (s / top if top > 0 else 1.0) for rid, s in pairs}
        for rid, _ in pairs:
            sources.setdefault(rid, []).append(name)
    fused: dict[int, float] = {}
    for name, scores in norm.items():
        for rid in sources:
            fused[rid] = fused.get(rid, 0.0) + shares[name] * scores.get(rid, 0.0)
    return fused, sources


def complete_lists(ranked: Ranked, bm25_extra: dict[int, float],
                   vector_extra: dict[int, float]) -> Ranked:
    """Each side's list extended by the other side's candidates it missed, with their
    real scores (``*_extra``); a candidate with no keyword match stays off the BM25 list."""
    out: Ranked = {}
    for name, extra in (("bm25", bm25_extra), ("vector", vector_extra)):
        pairs = ranked.get(name, [])
        have = {r for r, _ in pairs}
        out[name] = pairs + [(r, s) for r, s in extra.items() if r not in have]
    return out
