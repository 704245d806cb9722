"""Search in the library: full text and vectors, fused by reciprocal rank fusion.

Full text: the query's lexemes (PostgreSQL's ``english`` and ``simple`` configurations, so
works in other languages match their own words) become one OR query over the chunks'
``tsvector`` (GIN). Each candidate is scored by the inverse document frequency of the terms
it holds, a title match counting twice (the local index's BM25 weights the title likewise):
PostgreSQL's ``ts_rank`` has no IDF, and without it a query's common words decide the order.
Document frequencies come from the planner's own statistics of the column
(``pg_stats.most_common_elems``) for common lexemes and from the GIN index for rare ones.
At most 16 terms, rarest first; in a large library the commonest are dropped until the
candidate rows fit a budget, so one query never ranks a third of the library.

Vectors: the embedding model's partial HNSW index (cosine over ``halfvec``), with pgvector's
iterative index scans so that a filtered query still finds its ``k`` nearest.

Both lists (50 each) are fused by RRF (k = 60). Filters (group, year, author, type, key)
apply inside both queries, never after them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
from pgvector import HalfVector
from psycopg import sql

from vaultd.lab.payload import ts_config
from vaultd.lab.schema import SCHEMA

CANDIDATES = 50
RRF_K = 60
MAX_TERMS = 16
#: In a library of more than this many passages, terms are dropped (commonest first) while
#: the rows they would make candidates exceed ``ROW_BUDGET``.
LARGE = 10_000
ROW_BUDGET = 60_000
TITLE_WEIGHT = 1.0  # a title match adds this × the term's IDF (2× in all)


@dataclass(frozen=True)
class LibraryFilters:
    cite_key: str | None = None
    author: str | None = None
    year_min: int | None = None
    year_max: int | None = None
    chunk_type: str | None = None
    kind: str | None = None  # "paper" or "note"


@dataclass
class LibraryHit:
    chunk_pk: int
    work_id: int
    cite_key: str
    members: list[str]
    title: str | None
    authors: str | None
    year: int | None
    page: int | None
    page_label: str | None
    section: str | None
    chunk_id: str
    chunk_type: str | None
    kind: str
    text: str
    text_sha256: str
    labels: list[str]
    retracted: bool
    score: float
    matched: list[str] = field(default_factory=list)


@dataclass
class _Stats:
    rows: float
    common: dict[str, float]  # lexeme → fraction of rows holding it
    floor: float  # fractions below this are not in ``common``
    configs: list[str]  # the text search configurations of the works' languages
    at: float


_STATS: dict[int, _Stats] = {}
_STATS_TTL_S = 300.0


def _stats(conn: psycopg.Connection[Any]) -> _Stats:
    """The planner's statistics of the chunks' lexemes (read every few minutes)."""
    key = id(conn)
    got = _STATS.get(key)
    if got is not None and time.monotonic() - got.at < _STATS_TTL_S:
        return got
    rows = conn.execute("SELECT greatest(reltuples, 0) FROM pg_class WHERE oid = %s::regclass",
                        (f"{SCHEMA}.chunks",)).fetchone()
    elems = conn.execute(
        "SELECT most_common_elems::text::text[], most_common_elem_freqs FROM pg_stats "
        "WHERE schemaname = %s AND tablename = 'chunks' AND attname = 'tsv'",
        (SCHEMA,)).fetchone()
    common: dict[str, float] = {}
    floor = 0.0
    if elems and elems[0]:
        freqs = list(elems[1] or [])
        common = {lex: float(f) for lex, f in zip(elems[0], freqs, strict=False)}
        floor = float(freqs[-3]) if len(freqs) >= 3 else 0.0  # the min, as pg_stats stores it
    langs = conn.execute(f"SELECT DISTINCT language FROM {SCHEMA}.works").fetchall()
    configs = sorted({ts_config(r[0]) for r in langs}, key=lambda c: (c != "english", c))
    got = _Stats(float(rows[0]) if rows else 0.0, common, floor, configs, time.monotonic())
    _STATS[key] = got
    return got


def query_lexemes(conn: psycopg.Connection[Any], query: str) -> list[str]:
    """The query's lexemes under the text search configuration of every language the
    library's works are in (``english`` for most; ``simple`` for languages PostgreSQL has
    no stemmer for), so a German work is found by its German words."""
    configs = _stats(conn).configs or ["english"]
    row = conn.execute(
        sql.SQL("SELECT {}").format(sql.SQL(", ").join(
            sql.SQL("tsvector_to_array(to_tsvector({}::regconfig, %s))").format(sql.Literal(c))
            for c in configs)), [query] * len(configs)).fetchone()
    out: list[str] = []
    for lexemes in row or ():
        out += [w for w in (lexemes or []) if w not in out]
    return out


def _tsq(lexeme: str, weight: str = "") -> str:
    return "'" + lexeme.replace("'", "''").replace("\\", "\\\\") + "'" + (f":{weight}" if weight else "")


def term_weights(conn: psycopg.Connection[Any], terms: Sequence[str], where: sql.Composable,
                 params: Sequence[Any]) -> dict[str, float]:
    """IDF of each kept term (rarest first, at most 16, the commonest dropped in a large
    library while the candidates exceed the budget)."""
    stats = _stats(conn)
    n = max(stats.rows, 1.0)
    df: dict[str, float] = {}
    rare = [t for t in terms if t not in stats.common]
    if rare:
        counts = sql.SQL(", ").join(
            sql.SQL("(SELECT count(*) FROM {s}.chunks c WHERE c.tsv @@ {q}::tsquery AND {w})")
            .format(s=sql.Identifier(SCHEMA), q=sql.Literal(_tsq(t)), w=where) for t in rare)
        row = conn.execute(sql.SQL("SELECT ") + counts, list(params) * len(rare)).fetchone()
        df.update({t: float(c) for t, c in zip(rare, row or (), strict=False)})
    for t in terms:
        if t in stats.common:
            df[t] = stats.common[t] * n
    kept = sorted((t for t in terms if df.get(t, 0) > 0), key=lambda t: df[t])[:MAX_TERMS]
    if n > LARGE:
        total, trimmed = 0.0, list[str]()
        for t in kept:
            if trimmed and total + df[t] > ROW_BUDGET:
                break
            trimmed.append(t)
            total += df[t]
        kept = trimmed
    return {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in kept}


def _filters(group: str, f: LibraryFilters, alias: str = "c") -> tuple[sql.Composable,
                                                                       list[Any]]:
    """The WHERE of both queries (over the chunk or embedding row ``alias``)."""
    a = sql.Identifier(alias)
    parts: list[sql.Composable] = [sql.SQL("{a}.grp = %s").format(a=a)]
    params: list[Any] = [group]
    if f.year_min is not None:
        parts.append(sql.SQL("{a}.year >= %s").format(a=a))
        params.append(f.year_min)
    if f.year_max is not None:
        parts.append(sql.SQL("{a}.year <= %s").format(a=a))
        params.append(f.year_max)
    if f.chunk_type:
        parts.append(sql.SQL("{a}.chunk_type = %s").format(a=a))
        params.append(f.chunk_type)
    work = sql.SQL("{a}.work_id").format(a=a) if alias == "c" else sql.SQL(
        "(SELECT work_id FROM {s}.chunks x WHERE x.id = {a}.chunk)").format(
            s=sql.Identifier(SCHEMA), a=a)
    if f.kind:
        if alias == "c":
            parts.append(sql.SQL("c.kind = %s"))
            params.append(f.kind)
        elif f.kind != "paper":
            parts.append(sql.SQL("false"))  # only paper passages are embedded
    if f.author:
        parts.append(sql.SQL("{w} IN (SELECT id FROM {s}.works WHERE grp = %s AND "
                             "authors ILIKE %s)").format(w=work, s=sql.Identifier(SCHEMA)))
        params += [group, f"%{f.author}%"]
    if f.cite_key:
        parts.append(sql.SQL("{w} IN (SELECT work_id FROM {s}.publications WHERE grp = %s "
                             "AND (cite_key = %s OR %s = ANY(aliases)))").format(
                                 w=work, s=sql.Identifier(SCHEMA)))
        params += [group, f.cite_key, f.cite_key]
    return sql.SQL(" AND ").join(parts), params


def keyword_ranked(conn: psycopg.Connection[Any], query: str, group: str,
                   filters: LibraryFilters, k: int = CANDIDATES) -> list[tuple[int, float]]:
    """(chunk id, score) of the best ``k`` passages by full text."""
    where, params = _filters(group, filters)
    weights = term_weights(conn, query_lexemes(conn, query), where, params)
    if not weights:
        return []
    score = sql.SQL(" + ").join(
        sql.SQL("{w} * ((c.tsv @@ {q}::tsquery)::int + {tw} * (c.tsv @@ {qa}::tsquery)::int)")
        .format(w=sql.Literal(round(w, 6)), q=sql.Literal(_tsq(t)),
                qa=sql.Literal(_tsq(t, "A")), tw=sql.Literal(TITLE_WEIGHT))
        for t, w in weights.items())
    anyq = " | ".join(_tsq(t) for t in weights)
    stmt = sql.SQL("SELECT c.id, {score} AS s FROM {s}.chunks c WHERE c.tsv @@ {q}::tsquery "
                   "AND {where} ORDER BY s DESC, c.id LIMIT {k}").format(
                       score=score, s=sql.Identifier(SCHEMA), q=sql.Literal(anyq), where=where,
                       k=sql.Literal(k))
    return [(int(r[0]), float(r[1])) for r in conn.execute(stmt, params)]


def vector_ranked(conn: psycopg.Connection[Any], qvec: Sequence[float], model: str, dim: int,
                  group: str, filters: LibraryFilters,
                  k: int = CANDIDATES) -> list[tuple[int, float]]:
    """(chunk id, cosine similarity) of the ``k`` nearest passages embedded by ``model``:
    the HNSW index with iterative scans, so filters never leave fewer than exist."""
    where, params = _filters(group, filters, alias="e")
    stmt = sql.SQL(
        "WITH nearest AS MATERIALIZED (SELECT e.chunk, e.vec::halfvec({d}) <=> %s::halfvec({d}) "
        "AS dist FROM {s}.embeddings e WHERE e.model = {m} AND {where} "
        "ORDER BY dist LIMIT {k}) SELECT chunk, dist FROM nearest ORDER BY dist, chunk").format(
            d=sql.Literal(dim), s=sql.Identifier(SCHEMA), m=sql.Literal(model), where=where,
            k=sql.Literal(k))
    with conn.transaction():
        conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        conn.execute(sql.SQL("SET LOCAL hnsw.ef_search = {n}").format(n=sql.Literal(max(k, 100))))
        rows = conn.execute(stmt, [HalfVector(list(qvec)), *params]).fetchall()
    return [(int(r[0]), 1.0 - float(r[1])) for r in rows]


def fuse(lists: dict[str, list[tuple[int, float]]], k: int = RRF_K
         ) -> list[tuple[int, float, list[str]]]:
    """Reciprocal rank fusion: (chunk id, score, the lists it came from), best first."""
    scores: dict[int, float] = {}
    seen: dict[int, list[str]] = {}
    for name, ranked in lists.items():
        for rank, (pk, _) in enumerate(ranked, 1):
            scores[pk] = scores.get(pk, 0.0) + 1.0 / (k + rank)
            seen.setdefault(pk, []).append(name)
    order = sorted(scores, key=lambda pk: (-scores[pk], pk))
    return [(pk, scores[pk], seen[pk]) for pk in order]


def model_dim(conn: psycopg.Connection[Any], model: str) -> int | None:
    """The dimensions the library knows ``model`` by (None: no vectors of it indexed)."""
    row = conn.execute(f"SELECT dim FROM {SCHEMA}.models WHERE model = %s", (model,)).fetchone()
    return int(row[0]) if row else None


def search(conn: psycopg.Connection[Any], query: str, group: str, *, limit: int = 5,
           filters: LibraryFilters | None = None, qvec: Sequence[float] | None = None,
           model: str | None = None) -> list[LibraryHit]:
    """The best ``limit`` passages of ``group`` for ``query``: full text, plus vectors
    when ``qvec`` (embedded by ``model``) is given and the library has that model."""
    filters = filters or LibraryFilters()
    lists = {"keyword": keyword_ranked(conn, query, group, filters)}
    if qvec is not None and model:
        dim = model_dim(conn, model) or len(qvec)
        lists["vector"] = vector_ranked(conn, qvec, model, dim, group, filters)
    fused = fuse(lists)[:limit]
    return hits(conn, fused)


def hits(conn: psycopg.Connection[Any], fused: list[tuple[int, float, list[str]]]
         ) -> list[LibraryHit]:
    """The fused chunk ids as hits: each with its work and the members who published it
    (the searching member's own key first, else the first publisher's)."""
    if not fused:
        return []
    rows = conn.execute(
        f"""SELECT c.id, c.work_id, c.chunk_id, c.chunk_type, c.kind, c.section, c.page,
                   c.page_label, c.text, c.text_sha256, w.title, w.authors, w.year, w.labels,
                   w.retracted,
                   (SELECT array_agg(p.cite_key ORDER BY p.member <> session_user,
                                     p.published_at) FROM {SCHEMA}.publications p
                     WHERE p.work_id = w.id),
                   (SELECT array_agg(p.member::text ORDER BY p.published_at)
                     FROM {SCHEMA}.publications p WHERE p.work_id = w.id)
            FROM {SCHEMA}.chunks c JOIN {SCHEMA}.works w ON w.id = c.work_id
            WHERE c.id = ANY(%s)""", ([pk for pk, _, _ in fused],)).fetchall()
    by_pk = {int(r[0]): r for r in rows}
    out = []
    for pk, score, matched in fused:
        r = by_pk.get(pk)
        if r is None:
            continue
        keys = list(r[15] or [])
        out.append(LibraryHit(
            chunk_pk=pk, work_id=int(r[1]), cite_key=keys[0] if keys else "", members=list(
                r[16] or []), title=r[10], authors=r[11], year=r[12], page=r[6],
            page_label=r[7], section=r[5], chunk_id=r[2], chunk_type=r[3], kind=r[4],
            text=r[8], text_sha256=r[9], labels=list(r[13] or []), retracted=bool(r[14]),
            score=round(score, 6), matched=matched))
    return out
