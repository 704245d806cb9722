"""Hybrid recall: BM25 (FTS5) + vector KNN, fused by a convex combination of their
max-normalised scores, every candidate scored on both sides.

Natural-language queries stay fast because the keyword side never asks FTS5 for every
word: the query is tokenised with the index's own tokenizer (porter + unicode61), stop
words and terms found in most passages are dropped, and only the rarest few terms are
OR-ed. The vector side uses a warm in-memory matrix when the caller keeps the database
open (the MCP server), else sqlite-vec's KNN.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, get_args

import apsw

from vaultd.errors import InputError
from vaultd.index.embed import Embedder, pack
from vaultd.index.fusion import BM25_SHARE, complete_lists, fuse
from vaultd.index.hits import Hit, hit_from_row
from vaultd.index.priors import (
    contains_phrase,
    looks_like_reference,
    passage_weight,
    query_phrase,
)
from vaultd.index.store import IndexDB
from vaultd.models import ChunkType

# Both-side scoring: a candidate found by one side only (beyond the other side's top
# CANDIDATES) gets its real score on the other side — its cosine from the stored vector,
# its BM25 if it contains a query term — instead of 0. SciFact nDCG@10 0.730 -> 0.737
# (docs/search.md); `hybrid_search(rescore=False)` restores the one-sided fusion.
RESCORE = True
# A passage that holds the whole query word for word (a pasted sentence: ≥ PHRASE_MIN_WORDS
# words as typed, compared case- and punctuation-blind) gets +PHRASE_BONUS on its score:
# more than any fused score can reach (≤ 1.5 with the recency boost), so it comes first,
# and its `matched` says "phrase". BM25 alone ranks a short heading or caption sharing most
# of the words above the paragraph the sentence came from. Reference-list entries never get
# it: a search for a paper's title should not float every bibliography that cites it.
PHRASE_BONUS = 2.0
MAX_RESULTS = 20
# Pruning only ever applies to long queries: SciFact claims average ~9 content terms and
# cutting them to the rarest 8 lost nDCG (0.682 -> 0.676); 16 keeps every term of all but
# the longest questions while still bounding the OR on pasted paragraphs.
MAX_TERMS = 16
COMMON_FRACTION = 0.25  # a term in more than this share of passages carries little signal
# ... but dropping it only pays (in latency) on a large index; in a small vault a topic
# word ("attention" in a vault about transformers) is in most passages and still matters.
COMMON_MIN_PASSAGES = 10_000
# bm25() column weights (title, section, text): a title match is worth twice a body match.
BM25_WEIGHTS = "2.0, 0.5, 1.0"
CANDIDATES = 50

_STOP_WORDS = (
    "a about above after again all also am an and any are as at be because been before being "
    "between both but by can could did do does doing down during each few for from further "
    "had has have having he her here hers him his how i if in into is it its itself just me "
    "more most my no nor not of off on once only or other our out over own same she should so "
    "some such than that the their them then there these they this those through to too "
    "under until up very was we were what when where which while who whom why will with "
    "would you your yours"
)
_STOP = frozenset(_STOP_WORDS.split())
_WORD = re.compile(r"\w+", re.UNICODE)


# Recently edited user notes get up to ×1.5 on their fused score, halving every 90 days
# (`vaultd search --no-recency` / MCP `recall(recency=false)` turn it off).
RECENCY_HALF_LIFE_DAYS = 90.0


#: The chunk types a search can be narrowed to (``vaultd.models.ChunkType``).
CHUNK_TYPES = get_args(ChunkType)


#: The index kinds each ``kind`` filter keeps: an agent's note is a note too.
KIND_FILTERS = {"paper": ("paper",), "note": ("note", "agent"), "agent": ("agent",)}


@dataclass
class Filters:
    cite_key: str | None = None
    author: str | None = None
    year_min: int | None = None
    year_max: int | None = None
    kind: str | None = None  # "paper" | "note" (agents' notes included) | "agent"
    recency_half_life_days: float | None = None  # boosts recently edited user notes
    chunk_type: str | None = None  # only passages of this type (paragraph, reference, …)

    def where(self) -> tuple[str, list[Any]]:
        clauses: list[str] = []
        params: list[Any] = []
        if self.cite_key:
            clauses.append("c.cite_key = ?")
            params.append(self.cite_key)
        if self.author:
            clauses.append("c.authors LIKE ?")
            params.append(f"%{self.author}%")
        if self.year_min is not None:
            clauses.append("c.year >= ?")
            params.append(self.year_min)
        if self.year_max is not None:
            clauses.append("c.year <= ?")
            params.append(self.year_max)
        if self.kind:
            kinds = KIND_FILTERS.get(self.kind)
            if kinds is None:
                raise InputError(f"unknown source kind {self.kind!r}; use paper or note "
                                 "(or agent: agents' notes only)")
            clauses.append(f"c.kind IN ({', '.join('?' for _ in kinds)})")
            params.extend(kinds)
        if self.chunk_type:
            if self.chunk_type not in CHUNK_TYPES:
                raise InputError(f"unknown chunk type {self.chunk_type!r}; use one of "
                                 f"{', '.join(CHUNK_TYPES)}")
            clauses.append("c.chunk_type = ?")
            params.append(self.chunk_type)
        return (" AND ".join(clauses), params)


def query_terms(db: IndexDB, query: str) -> list[str]:
    """The few index terms worth searching for (stemmed, rarest first)."""
    tok = db.conn.fts5_tokenizer("porter", ["unicode61"])
    raw = [w for w in _WORD.findall(query.lower()) if w not in _STOP]
    stems: list[str] = []
    for w in raw:
        for s in tok(w.encode(), apsw.FTS5_TOKENIZE_QUERY, None, include_offsets=False,
                     include_colocated=False):
            if s and s not in stems:
                stems.append(str(s))
    if not stems:
        return []
    total = max(1, int(db.cache.get("n_chunks") or _count(db)))
    dfs = {s: _df(db, s) for s in stems}
    present = [s for s in stems if dfs[s] > 0]
    rare = present
    if total >= COMMON_MIN_PASSAGES:
        rare = [s for s in present if dfs[s] <= COMMON_FRACTION * total] or present
    rare.sort(key=lambda s: dfs[s])
    return rare[:MAX_TERMS]


def _count(db: IndexDB) -> int:
    n = int(db.scalar("SELECT count(*) FROM chunks") or 0)
    db.cache["n_chunks"] = n
    return n


def _df(db: IndexDB, term: str) -> int:
    row = db.conn.execute("SELECT doc FROM chunks_vocab WHERE term = ?", (term,)).fetchone()
    return int(row[0]) if row else 0


def bm25_ranked(db: IndexDB, terms: Sequence[str], filters: Filters,
                k: int) -> list[tuple[int, float]]:
    """(rowid, BM25 score, higher is better), best first."""
    if not terms:
        return []
    match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
    where, params = filters.where()
    if where:
        sql = (f"SELECT f.rowid, bm25(chunks_fts, {BM25_WEIGHTS}) AS s FROM chunks_fts f "
               f"JOIN chunks c ON c.rowid = f.rowid WHERE chunks_fts MATCH ? AND {where} "
               "ORDER BY s LIMIT ?")
    else:
        sql = (f"SELECT rowid, bm25(chunks_fts, {BM25_WEIGHTS}) AS s FROM chunks_fts "
               "WHERE chunks_fts MATCH ? ORDER BY s LIMIT ?")
    return [(int(r[0]), -float(r[1])) for r in db.execute(sql, (match, *params, k))]


def _vector_model(db: IndexDB) -> str | None:
    return db.get_meta("embed_model")


def warm_matrix(db: IndexDB) -> Any:
    """Every vector of the current model as (rowids, float32 matrix), cached in
    ``db.cache`` for the life of the connection (the MCP server keeps it warm).

    One exact mat-vec product over 100k x 384 float32 takes ~5 ms here; a binary-quantised
    prefilter was measured slower (gathering the re-rank rows costs more than it saves).
    """
    # lazy: numpy costs 254 ms at import
    import numpy as np

    if "matrix" in db.cache:
        return db.cache["matrix"]
    model = _vector_model(db)
    rowids: list[int] = []
    blobs: list[bytes] = []
    if model:
        for rid, vec in db.conn.execute(
                "SELECT c.rowid, v.vec FROM chunks c JOIN vectors v ON v.hash = c.hash "
                "AND v.model = ?", (model,)):
            rowids.append(int(rid))
            blobs.append(bytes(vec))
    if blobs:
        dim = len(blobs[0]) // 4
        mat = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(blobs), dim)
    else:
        mat = np.zeros((0, 0), dtype=np.float32)
    db.cache["matrix"] = (np.asarray(rowids, dtype=np.int64), mat)
    return db.cache["matrix"]


def _matrix_rows(db: IndexDB) -> dict[int, int]:
    """rowid -> row of the warm matrix (cached next to it, rebuilt with it)."""
    rowids, _ = warm_matrix(db)
    cached = db.cache.get("matrix_rows")
    if cached is None or cached[0] is not rowids:
        cached = (rowids, {int(r): i for i, r in enumerate(rowids)})
        db.cache["matrix_rows"] = cached
    rows: dict[int, int] = cached[1]
    return rows


def bm25_of(db: IndexDB, terms: Sequence[str], rowids: Sequence[int]) -> dict[int, float]:
    """BM25 (higher is better) of those ``rowids`` that contain a query term."""
    if not terms or not rowids:
        return {}
    match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
    marks = ",".join("?" for _ in rowids)
    # `+rowid` keeps the IN list away from FTS5's rowid lookup, which re-runs the match per
    # id (17 ms for 50 ids on SciFact); filtering the one match pass costs under 1 ms.
    return {int(r[0]): -float(r[1]) for r in db.execute(
        f"SELECT rowid, bm25(chunks_fts, {BM25_WEIGHTS}) FROM chunks_fts "
        f"WHERE chunks_fts MATCH ? AND +rowid IN ({marks})", (match, *rowids))}


def cosine_of(db: IndexDB, qvec: Sequence[float], rowids: Sequence[int], *,
              warm: bool) -> dict[int, float]:
    """The query's similarity to each of ``rowids`` that has a vector, measured as the
    KNN side measures it (dot product on the warm matrix, cosine on sqlite-vec)."""
    # lazy: numpy costs 254 ms at import
    import numpy as np

    if not rowids:
        return {}
    q = np.asarray(qvec, dtype=np.float32)
    if warm:
        _, mat = warm_matrix(db)
        where = _matrix_rows(db)
        found = [r for r in rowids if r in where]
        if not found or mat.shape[1] != len(q):
            return {}
        scores = mat[[where[r] for r in found]] @ q
        return {r: float(s) for r, s in zip(found, scores, strict=True)}
    marks = ",".join("?" for _ in rowids)
    out: dict[int, float] = {}
    for rid, blob in db.execute(
            "SELECT c.rowid, v.vec FROM chunks c JOIN vectors v ON v.hash = c.hash "
            f"AND v.model = ? WHERE c.rowid IN ({marks})", (_vector_model(db), *rowids)):
        v = np.frombuffer(bytes(blob), dtype=np.float32)
        norm = float(np.linalg.norm(v) * np.linalg.norm(q))
        if len(v) == len(q) and norm > 0:
            out[int(rid)] = float(v @ q) / norm
    return out


def _warm_knn(db: IndexDB, qvec: Sequence[float], k: int) -> list[tuple[int, float]]:
    # lazy: numpy costs 254 ms at import
    import numpy as np

    rowids, mat = warm_matrix(db)
    if mat.shape[0] == 0 or mat.shape[1] != len(qvec):
        return []
    scores = mat @ np.asarray(qvec, dtype=np.float32)
    k = min(k, len(scores))
    top = np.argpartition(-scores, k - 1)[:k]
    top = top[np.argsort(-scores[top])]
    return [(int(rowids[i]), float(scores[i])) for i in top]


def knn_ranked(db: IndexDB, qvec: Sequence[float], k: int, *,
               warm: bool) -> list[tuple[int, float]]:
    """(rowid, cosine similarity), best first."""
    if warm:
        return _warm_knn(db, qvec, k)
    if not db.vec_available or db.vec_table_dim() != len(qvec):
        return []
    return [(int(r[0]), 1.0 - float(r[1])) for r in db.execute(
        "SELECT rowid, distance FROM vec_chunks WHERE embedding MATCH ? AND k = ? "
        "ORDER BY distance", (pack(qvec), k))]


def hybrid_search(db: IndexDB, query: str, *, limit: int = 5, filters: Filters | None = None,
                  embedder: Embedder | None = None, warm: bool = False,
                  bm25_share: float = BM25_SHARE, rescore: bool = RESCORE,
                  type_prior: bool = True) -> list[Hit]:
    """Ranked passages for ``query`` (keywords + vectors when ``embedder`` is given).

    ``rescore`` scores every candidate on both sides before fusing (see ``RESCORE``).
    ``type_prior`` weighs each hit by what kind of passage it is (``passage_weight``),
    unless a chunk type is asked for.
    """
    query = query.strip()
    if not query:
        raise InputError("empty query; give a few words, e.g. `vaultd search \"attention heads\"`")
    if not 1 <= limit <= MAX_RESULTS:
        raise InputError(f"limit {limit} is out of range; use 1..{MAX_RESULTS}")
    filters = filters or Filters()
    pool = max(CANDIDATES, limit * 4)
    terms = query_terms(db, query)
    ranked: dict[str, list[tuple[int, float]]] = {
        "bm25": bm25_ranked(db, terms, filters, pool)}
    knn_ids: set[int] = set()
    if embedder is not None and _vector_model(db) == f"{embedder.provider}:{embedder.model}":
        qvec = embedder.embed_query(query)
        knn = knn_ranked(db, qvec, pool * (4 if _has(filters) else 1), warm=warm)
        if _has(filters):
            keep = set(_filter_rowids(db, [r for r, _ in knn], filters))
            knn = [(r, s) for r, s in knn if r in keep]
        ranked["vector"] = knn
        knn_ids = {r for r, _ in knn}
        if rescore:
            ranked = _rescored(db, ranked, terms, qvec, warm=warm)
    fused, sources = fuse(ranked, bm25_share if len(ranked) > 1 else 1.0)
    # "matched" tells who found a passage: any keyword match, but "vector" only for KNN hits.
    sources = {r: [n for n in found if n != "vector" or r in knn_ids]
               for r, found in sources.items()}
    rows = _rows(db, list(fused))
    if filters.recency_half_life_days:
        now = time.time()
        for rid, row in rows.items():
            if row["kind"] != "paper" and row["mtime"]:
                age = max(0.0, (now - float(row["mtime"])) / 86400)
                fused[rid] *= 1.0 + 0.5 * math.pow(0.5, age / filters.recency_half_life_days)
    if type_prior and not filters.chunk_type:
        reference_query = looks_like_reference(query)
        for rid, row in rows.items():
            if rid in fused:
                fused[rid] *= passage_weight(row["kind"], row["chunk_type"], row["text"],
                                             reference_query)
    phrase = query_phrase(query)
    if phrase:
        for rid, row in rows.items():
            if (rid in fused and row["chunk_type"] != "reference"
                    and contains_phrase(row["text"], phrase)):
                fused[rid] += PHRASE_BONUS
                sources[rid] = [*sources[rid], "phrase"]
    order = sorted((r for r in fused if r in rows), key=lambda r: -fused[r])[:limit]
    return [hit_from_row(rows[r], fused[r], sources[r], terms, query) for r in order]


def _rescored(db: IndexDB, ranked: dict[str, list[tuple[int, float]]], terms: Sequence[str],
              qvec: Sequence[float], *, warm: bool) -> dict[str, list[tuple[int, float]]]:
    bm25_ids = [r for r, _ in ranked["bm25"]]
    vector_ids = [r for r, _ in ranked["vector"]]
    in_bm25, in_vector = set(bm25_ids), set(vector_ids)
    return complete_lists(
        ranked,
        bm25_of(db, terms, [r for r in vector_ids if r not in in_bm25]),
        cosine_of(db, qvec, [r for r in bm25_ids if r not in in_vector], warm=warm))


def _has(filters: Filters) -> bool:
    return bool(filters.where()[0])


def _filter_rowids(db: IndexDB, rowids: list[int], filters: Filters) -> list[int]:
    if not rowids:
        return []
    where, params = filters.where()
    marks = ",".join("?" for _ in rowids)
    ok = {int(r[0]) for r in db.execute(
        f"SELECT c.rowid FROM chunks c WHERE c.rowid IN ({marks}) AND {where}",
        (*rowids, *params))}
    return [r for r in rowids if r in ok]


_HIT_COLS = ("rowid", "kind", "cite_key", "title", "authors", "year", "page", "page_label",
             "section", "chunk_id", "chunk_type", "path", "line_start", "line_end", "mtime",
             "text")


def _rows(db: IndexDB, rowids: list[int]) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for start in range(0, len(rowids), 500):
        part = rowids[start:start + 500]
        marks = ",".join("?" for _ in part)
        for r in db.execute(f"SELECT {', '.join(_HIT_COLS)} FROM chunks WHERE rowid IN ({marks})",
                            part):
            out[int(r[0])] = dict(zip(_HIT_COLS, r, strict=True))
    return out
