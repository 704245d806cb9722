"""Search in the library: full text and vectors, fused as the local index fuses them.

Full text: the query's lexemes (PostgreSQL's ``english`` and ``simple`` configurations, so
works in other languages match their own words) become one OR query over the chunks'
``tsvector`` (GIN). The candidates are ordered by the inverse document frequency of the
terms they hold, and the best ``POOL`` of them are scored by BM25 (``bm25_scores``:
term frequency, passage length, a title occurrence counting twice, as the local index's
FTS5 scores them): PostgreSQL's ``ts_rank`` has no IDF, and without it a query's common
words decide the order. Document frequencies come from the planner's own statistics of the
column (``pg_stats.most_common_elems``) for common lexemes and from the GIN index for rare
ones. At most 16 terms, rarest first, all of them scoring; in a large library the
candidates are the passages holding the rarest terms while they fit a row budget (or, for
a query of common words only, those holding its two rarest together), so one query never
ranks a large share of the library.

Vectors: the embedding model's partial HNSW index (cosine over ``halfvec``), with pgvector's
iterative index scans so that a filtered query still finds its ``k`` nearest.

Both lists (50 each) are completed with what only the other found, scored on their own
side, and fused by ``vaultd.index.fusion`` (max-normalised scores, equal shares), the
local index's own fusion. Filters (group, year, author, type, key) apply inside both
queries, never after them.
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

from vaultd.index.fusion import BM25_SHARE, complete_lists, fuse
from vaultd.lab.payload import ts_config
from vaultd.lab.schema import SCHEMA

CANDIDATES = 50
#: Candidates (by the IDF of the terms they hold) scored by BM25 for each full-text query:
#: SciFact ranks the same with 100 and 300 (docs/library.md); each costs about 0.1 ms.
POOL = 100
MAX_TERMS = 16
#: In a library of more than this many passages, terms are dropped (commonest first) while
#: the rows they would make candidates exceed ``ROW_BUDGET``.
LARGE = 10_000
ROW_BUDGET = 3_000
TITLE_WEIGHT = 2.0  # a title occurrence counts twice (the local index's column weight)
DEFAULT_AVG_LENGTH = 100.0  # distinct lexemes of a passage, before a library has any


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
    avg_length: float  # a passage's distinct lexemes, on average (BM25's length norm)
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
    elems = conn.execute(f"SELECT lexeme, freq FROM {SCHEMA}.lexeme_stats()").fetchall()
    # pg_stats appends the min, max and null fraction after the lexemes' frequencies
    common = {str(lex): float(f) for lex, f in elems if lex is not None}
    floor = min(common.values(), default=0.0)
    langs = conn.execute(f"SELECT DISTINCT language FROM {SCHEMA}.works").fetchall()
    configs = sorted({ts_config(r[0]) for r in langs}, key=lambda c: (c != "english", c))
    avg = conn.execute(f"SELECT {SCHEMA}.text_stats()").fetchone()
    got = _Stats(float(rows[0]) if rows else 0.0, common, floor, configs,
                 float(avg[0]) if avg and avg[0] else DEFAULT_AVG_LENGTH, time.monotonic())
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


@dataclass(frozen=True)
class TermPlan:
    """The terms a query is scored by (IDF each) and the tsquery its candidates match;
    ``wider``: broader tsqueries to ask, in order, when a filter leaves too few."""

    weights: dict[str, float]
    candidates: str
    wider: tuple[str, ...] = ()


def plan_terms(conn: psycopg.Connection[Any], terms: Sequence[str],
               group: str) -> TermPlan | None:
    """IDF of the query's ≤ 16 rarest terms, and the candidates' tsquery: every term in a
    small library; in a large one the rarest while the rows they match fit ``ROW_BUDGET``
    (the rest still score), and when even the rarest term alone exceeds it, the passages
    holding both of the two rarest (a query of common words only is made precise by
    asking for them together)."""
    stats = _stats(conn)
    n = max(stats.rows, 1.0)
    df: dict[str, float] = {}
    rare = [t for t in terms if t not in stats.common]
    if rare:
        cap = None if n <= LARGE else ROW_BUDGET  # past it, a term is too common to seed
        row = conn.execute(f"SELECT {SCHEMA}.term_counts(%s, %s::tsquery[], %s)",
                           (group, [_tsq(t) for t in rare], cap)).fetchone()
        df.update({t: float(c) for t, c in zip(rare, (row[0] if row else None) or (),
                                                 strict=False)})
    for t in terms:
        if t in stats.common:
            df[t] = stats.common[t] * n
    kept = sorted((t for t in terms if df.get(t, 0) > 0), key=lambda t: df[t])[:MAX_TERMS]
    if not kept:
        return None
    n = max(n, *(df[t] for t in kept))  # statistics older than the rows just published
    weights = {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in kept}
    every = " | ".join(_tsq(t) for t in kept)
    if n <= LARGE:
        return TermPlan(weights, every)
    tiers = [" | ".join(_tsq(t) for t in _within(kept, df, budget))
             for budget in (ROW_BUDGET, ROW_BUDGET * 10)]
    if df[kept[0]] >= ROW_BUDGET and len(kept) > 1:
        tiers.insert(0, f"{_tsq(kept[0])} & {_tsq(kept[1])}")
    tiers = list(dict.fromkeys([*tiers, every]))
    return TermPlan(weights, tiers[0], tuple(tiers[1:]))


def _within(kept: list[str], df: dict[str, float], budget: float) -> list[str]:
    """The rarest terms while the rows they match fit ``budget`` (at least one)."""
    chosen, total = list[str](), 0.0
    for t in kept:
        if chosen and total + df[t] > budget:
            break
        chosen.append(t)
        total += df[t]
    return chosen


def _filter_args(f: LibraryFilters) -> list[Any]:
    return [f.year_min, f.year_max, f.chunk_type, f.kind, f.author, f.cite_key]


def keyword_ranked(conn: psycopg.Connection[Any], query: str, group: str,
                   filters: LibraryFilters, k: int = CANDIDATES, *,
                   plan: TermPlan | bool | None = True,
                   need: int | None = None) -> list[tuple[int, float]]:
    """(chunk id, score) of the best ``k`` passages by full text (``plan``: the query's
    terms when the caller has them already). A pruned query that finds fewer than
    ``need`` (default ``k``) asks again more broadly, so a filter never returns fewer
    hits than exist."""
    need = k if need is None else need
    if plan is True:
        plan = plan_terms(conn, query_lexemes(conn, query), group)
    if not isinstance(plan, TermPlan):
        return []
    terms = list(plan.weights)
    weights = [round(plan.weights[t], 6) for t in terms]
    avg = _stats(conn).avg_length

    def ranked(candidates: str) -> list[tuple[int, float]]:
        rows = conn.execute(
            f"SELECT id, score FROM {SCHEMA}.text_search(%s, %s::tsquery, %s::tsquery[], "
            "%s::tsquery[], %s::text[], %s::float8[], %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            [group, candidates, [_tsq(t) for t in terms], [_tsq(t, "A") for t in terms],
             terms, weights, TITLE_WEIGHT, avg, *_filter_args(filters), max(POOL, k), k])
        return [(int(r[0]), float(r[1])) for r in rows]

    found = ranked(plan.candidates)
    for wider in plan.wider:  # pruned too far (a filter left too few): ask more broadly
        if len(found) >= need:
            break
        found = ranked(wider)
    return found


def vector_ranked(conn: psycopg.Connection[Any], qvec: Sequence[float], model: str, dim: int,
                  group: str, filters: LibraryFilters,
                  k: int = CANDIDATES) -> list[tuple[int, float]]:
    """(chunk id, cosine similarity) of the ``k`` nearest passages embedded by ``model``:
    the HNSW index with iterative scans, so filters never leave fewer than exist."""
    rows = conn.execute(
        f"SELECT id, distance FROM {SCHEMA}.vector_search(%s, %s, %s, %s, %s, %s, %s, %s, "
        "%s, %s, %s)", [group, model, dim, HalfVector(list(qvec)), *_filter_args(filters), k])
    return [(int(r[0]), 1.0 - float(r[1])) for r in rows]


def model_dim(conn: psycopg.Connection[Any], model: str) -> int | None:
    """The dimensions the library knows ``model`` by (None: no vectors of it indexed)."""
    row = conn.execute(f"SELECT dim FROM {SCHEMA}.models WHERE model = %s", (model,)).fetchone()
    return int(row[0]) if row else None


def search(conn: psycopg.Connection[Any], query: str, group: str, *, limit: int = 5,
           filters: LibraryFilters | None = None, qvec: Sequence[float] | None = None,
           model: str | None = None) -> list[LibraryHit]:
    """The best ``limit`` passages of ``group`` for ``query``: full text, plus vectors
    when ``qvec`` (embedded by ``model``) is given and the library has that model. With
    both, every candidate is scored on both sides (the words' score of what the vectors
    found, the cosine of what the words found) and the two complete lists are fused."""
    filters = filters or LibraryFilters()
    plan = plan_terms(conn, query_lexemes(conn, query), group)
    lists = {"bm25": keyword_ranked(conn, query, group, filters, plan=plan, need=limit)}
    if qvec is not None and model:
        dim = model_dim(conn, model) or len(qvec)
        lists["vector"] = vector_ranked(conn, qvec, model, dim, group, filters)
        lists = _both_sides(conn, group, lists, plan, qvec, model)
    scores, sources = fuse(lists, BM25_SHARE if len(lists) > 1 else 1.0)
    order = sorted(scores, key=lambda pk: (-scores[pk], pk))[:limit]
    return hits(conn, [(pk, scores[pk], sources[pk]) for pk in order])


def _both_sides(conn: psycopg.Connection[Any], group: str,
                lists: dict[str, list[tuple[int, float]]], plan: TermPlan | None,
                qvec: Sequence[float], model: str) -> dict[str, list[tuple[int, float]]]:
    """Each list completed with the candidates only the other one found, scored on its own
    side (a passage holding none of the words stays off the BM25 list)."""
    words = {pk for pk, _ in lists["bm25"]}
    near = {pk for pk, _ in lists["vector"]}
    bm25_extra: dict[int, float] = {}
    vector_extra: dict[int, float] = {}
    missing_words = [pk for pk in near if pk not in words]
    missing_near = [pk for pk in words if pk not in near]
    if plan is not None and missing_words:
        terms = list(plan.weights)
        for pk, score in conn.execute(
                f"SELECT id, score FROM {SCHEMA}.text_scores(%s, %s, %s::text[], "
                "%s::float8[], %s, %s)",
                [group, missing_words, terms, [round(plan.weights[t], 6) for t in terms],
                 TITLE_WEIGHT, _stats(conn).avg_length]):
            if score:
                bm25_extra[int(pk)] = float(score)
    if missing_near:
        for pk, dist in conn.execute(
                f"SELECT id, distance FROM {SCHEMA}.vector_scores(%s, %s, %s, %s)",
                [group, model, HalfVector(list(qvec)), missing_near]):
            vector_extra[int(pk)] = 1.0 - float(dist)
    return complete_lists(lists, bm25_extra, vector_extra)


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
