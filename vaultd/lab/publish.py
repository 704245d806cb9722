"""Writing works into the library, in batches: each batch is one transaction, so its works
are published whole or not at all. A work is found again by its PDF's SHA-256, DOI or arXiv
id within the group, so two members publishing it make one work with both as publishers;
its chunks and embeddings are replaced together when what is published changed.

Rows go in by COPY (into the session's staging tables: PostgreSQL refuses COPY into a table
with row-level security) and one ``INSERT … SELECT`` per table, which the policies check.
Vectors land in ``embeddings_new``, searched exactly, and move into the HNSW-indexed
``embeddings`` later (``index_new``: the agent's retry pass, ``vaultd library index``):
inserting into an HNSW index costs milliseconds per vector, and publishing never waits
for it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import psycopg
from pgvector import HalfVector

from vaultd.lab.payload import Publication, ts_config
from vaultd.lab.schema import SCHEMA, TEXT_TSV, TITLE_TSV

Outcome = Literal["published", "updated", "unchanged"]


@dataclass(frozen=True)
class Published:
    cite_key: str
    outcome: Outcome
    work_id: int
    chunks: int
    vectors: int


def publish(conn: psycopg.Connection[Any], pub: Publication, group: str) -> Published:
    """Publish one work to ``group`` as the connected member."""
    return publish_batch(conn, [pub], group)[0]


def publish_batch(conn: psycopg.Connection[Any], pubs: Sequence[Publication],
                  group: str) -> list[Published]:
    """Publish ``pubs`` in one transaction (retried once when another member created one of
    the same works at the same moment). Works of the batch that are one work (the same
    DOI under two keys) are published one after the other."""
    first, later = _split_same_work(pubs)
    try:
        out = _publish(conn, first, group)
    except psycopg.errors.UniqueViolation:
        out = _publish(conn, first, group)
    done = dict(zip([p.cite_key for p in first], out, strict=True))
    for pub in later:
        done[pub.cite_key] = _publish(conn, [pub], group)[0]
    return [done[p.cite_key] for p in pubs]


def _identity(pub: Publication) -> list[tuple[str, str]]:
    return [(k, v) for k, v in (("pdf", pub.pdf_sha256), ("doi", _lower(pub.doi)),
                                ("arxiv", pub.arxiv_id)) if v]


def _split_same_work(pubs: Sequence[Publication]) -> tuple[list[Publication],
                                                           list[Publication]]:
    seen: set[tuple[str, str]] = set()
    first: list[Publication] = []
    later: list[Publication] = []
    for pub in pubs:
        ids = _identity(pub)
        (later if any(i in seen for i in ids) else first).append(pub)
        seen.update(ids)
    return first, later


def _publish(conn: psycopg.Connection[Any], pubs: Sequence[Publication],
             group: str) -> list[Published]:
    prints = [p.fingerprint for p in pubs]
    with conn.transaction():
        found = _find(conn, pubs, group)
        known = {int(r[0]): str(r[1]) for r in conn.execute(
            f"SELECT work_id, fingerprint FROM {SCHEMA}.publications "
            "WHERE work_id = ANY(%s) AND member = session_user",
            ([w for w in found if w is not None],))}
        results: list[Published | None] = [None] * len(pubs)
        todo: list[int] = []
        for i, work_id in enumerate(found):
            if work_id is not None and known.get(work_id) == prints[i]:
                results[i] = Published(pubs[i].cite_key, "unchanged", work_id, 0, 0)
            else:
                todo.append(i)
        if todo:
            ids = _write_works(conn, [pubs[i] for i in todo], [found[i] for i in todo], group)
            conn.cursor().executemany(
                f"""INSERT INTO {SCHEMA}.publications
                    (work_id, grp, cite_key, aliases, fingerprint) VALUES (%s, %s, %s, %s, %s)
                    ON CONFLICT (work_id, member) DO UPDATE SET cite_key = excluded.cite_key,
                      aliases = excluded.aliases, fingerprint = excluded.fingerprint,
                      published_at = now()""",
                [(w, group, pubs[i].cite_key, pubs[i].aliases, prints[i])
                 for i, w in zip(todo, ids, strict=True)])
            counts = _write_chunks(conn, [pubs[i] for i in todo], ids, group)
            for i, w, (chunks, vectors) in zip(todo, ids, counts, strict=True):
                results[i] = Published(pubs[i].cite_key,
                                       "published" if found[i] is None else "updated",
                                       w, chunks, vectors)
    return [r for r in results if r is not None]


def _find(conn: psycopg.Connection[Any], pubs: Sequence[Publication],
          group: str) -> list[int | None]:
    """Each work's id in ``group`` (locked for this transaction): by PDF hash first, then
    DOI, then arXiv id; None when the library does not have it."""
    rows = conn.execute(
        f"""SELECT id, pdf_sha256, lower(doi), arxiv_id FROM {SCHEMA}.works
            WHERE grp = %s AND (pdf_sha256 = ANY(%s) OR lower(doi) = ANY(%s)
                                OR arxiv_id = ANY(%s)) FOR UPDATE""",
        (group, [p.pdf_sha256 for p in pubs if p.pdf_sha256],
         [_lower(p.doi) for p in pubs if p.doi], [p.arxiv_id for p in pubs if p.arxiv_id])
    ).fetchall()
    by = {("pdf", r[1]): int(r[0]) for r in rows if r[1]}
    by.update({("doi", r[2]): int(r[0]) for r in rows if r[2] and ("doi", r[2]) not in by})
    by.update({("arxiv", r[3]): int(r[0]) for r in rows if r[3]
               and ("arxiv", r[3]) not in by})
    return [next((by[i] for i in _identity(p) if i in by), None) for p in pubs]


def _lower(value: str | None) -> str | None:
    return value.lower() if value else None


_WORK_FIELDS = ("grp", "pdf_sha256", "doi", "arxiv_id", "title", "authors", "year", "type",
                "language", "work", "labels", "retracted", "verified", "pdf")


def _work_values(pub: Publication, group: str) -> dict[str, Any]:
    return {"grp": group, "pdf_sha256": pub.pdf_sha256, "doi": pub.doi,
            "arxiv_id": pub.arxiv_id, "title": pub.title, "authors": pub.authors,
            "year": pub.year, "type": pub.type, "language": pub.language,
            "work": json.dumps(pub.work), "labels": pub.labels, "retracted": pub.retracted,
            "verified": pub.verified, "pdf": pub.pdf}


def _write_works(conn: psycopg.Connection[Any], pubs: Sequence[Publication],
                 found: Sequence[int | None], group: str) -> list[int]:
    """Insert the new works and update the known ones; their ids, in order."""
    ids: list[int | None] = list(found)
    new = [i for i, w in enumerate(found) if w is None]
    if new:
        cur = conn.cursor()
        cur.executemany(
            f"INSERT INTO {SCHEMA}.works ({', '.join(_WORK_FIELDS)}, chunks_by) VALUES "
            f"({', '.join(f'%({k})s' for k in _WORK_FIELDS)}, session_user) RETURNING id",
            [_work_values(pubs[i], group) for i in new], returning=True)
        got = []
        while True:
            row = cur.fetchone()
            got.append(int(row[0]))  # type: ignore[index]
            if not cur.nextset():
                break
        for i, w in zip(new, got, strict=True):
            ids[i] = w
    known = [i for i, w in enumerate(found) if w is not None]
    if known:
        # an identifier another member's copy already gave is kept (their PDF may differ)
        conn.cursor().executemany(
            f"""UPDATE {SCHEMA}.works SET pdf_sha256 = coalesce(pdf_sha256, %(pdf_sha256)s),
                  doi = coalesce(doi, %(doi)s), arxiv_id = coalesce(arxiv_id, %(arxiv_id)s),
                  title = %(title)s, authors = %(authors)s, year = %(year)s,
                  type = %(type)s, language = %(language)s, work = %(work)s,
                  labels = %(labels)s, retracted = %(retracted)s, verified = %(verified)s,
                  pdf = coalesce(%(pdf)s, pdf), chunks_by = session_user, updated_at = now()
                WHERE id = %(id)s""",
            [{**_work_values(pubs[i], group), "id": found[i]} for i in known])
    return [int(w) for w in ids if w is not None]


_CHUNK_COLUMNS = ("id", "work_id", "grp", "chunk_id", "ord", "kind", "text", "text_sha256",
                  "chunk_type", "section", "page", "page_label", "page_label_source",
                  "page_label_status", "regions", "text_layer", "start_s", "end_s", "title",
                  "year", "lang")
_VECTOR_COLUMNS = "chunk, model, grp, year, chunk_type, vec"
#: The staged passages into the table, each with its ``tsv``: its work's title parsed once
#: per work (the grouping's output; a work has one title and one configuration), joined
#: to its own section and text.
_INSERT_CHUNKS = (
    f"INSERT INTO {SCHEMA}.chunks ({', '.join(_CHUNK_COLUMNS)}, tsv) "
    f"SELECT {', '.join('s.' + c for c in _CHUNK_COLUMNS)}, "
    f"w.tsv || {TEXT_TSV.format(lang='s.lang', section='s.section', text='s.text')} "
    "FROM staged_chunks s JOIN ("
    "SELECT work_id, lang, coalesce(title, '') AS title, "
    f"{TITLE_TSV.format(lang='lang', title='title')} AS tsv FROM staged_chunks "
    "GROUP BY work_id, lang, coalesce(title, '')"
    ") w ON w.work_id = s.work_id AND w.lang = s.lang AND w.title = coalesce(s.title, '')")


def _write_chunks(conn: psycopg.Connection[Any], pubs: Sequence[Publication],
                  work_ids: Sequence[int], group: str) -> list[tuple[int, int]]:
    """Replace the works' chunks and embeddings by ``pubs``'; (chunks, vectors) per work."""
    conn.execute(f"DELETE FROM {SCHEMA}.chunks WHERE work_id = ANY(%s)", (list(work_ids),))
    total = sum(len(p.chunks) for p in pubs)
    if not total:
        return [(0, 0)] * len(pubs)
    pks = iter([int(r[0]) for r in conn.execute(
        f"SELECT nextval('{SCHEMA}.chunk_ids') FROM generate_series(1, %s)", (total,))])
    _staging(conn)
    cur = conn.cursor()
    counts: list[tuple[int, int]] = []
    vectors: list[tuple[int, Publication, str, str | None]] = []
    with cur.copy(f"COPY staged_chunks ({', '.join(_CHUNK_COLUMNS)}) FROM STDIN") as copy:
        for pub, work_id in zip(pubs, work_ids, strict=True):
            lang = ts_config(pub.language)
            n_vec = 0
            for i, c in enumerate(pub.chunks):
                pk = next(pks)
                copy.write_row((pk, work_id, group, c.chunk_id, i, c.kind, c.text,
                                c.text_sha256, c.chunk_type, c.section, c.page, c.page_label,
                                c.page_label_source, c.page_label_status,
                                json.dumps(c.regions) if c.regions else None, c.text_layer,
                                c.start, c.end, pub.title, pub.year, lang))
                if pub.model and c.kind == "paper" and pub.vectors.get(c.text_sha256):
                    vectors.append((pk, pub, c.text_sha256, c.chunk_type))
                    n_vec += 1
            counts.append((len(pub.chunks), n_vec))
    conn.execute(_INSERT_CHUNKS)
    if vectors:
        with cur.copy(f"COPY staged_embeddings ({_VECTOR_COLUMNS}) "
                      "FROM STDIN WITH (FORMAT BINARY)") as copy:
            copy.set_types(["bigint", "text", "text", "integer", "text", "halfvec"])
            for pk, pub, sha, chunk_type in vectors:
                copy.write_row((pk, pub.model, group, pub.year, chunk_type,
                                HalfVector(pub.vectors[sha])))
        conn.execute(f"INSERT INTO {SCHEMA}.embeddings_new ({_VECTOR_COLUMNS}) "
                     f"SELECT {_VECTOR_COLUMNS} FROM staged_embeddings")
    return counts


def _staging(conn: psycopg.Connection[Any]) -> None:
    """The session's staging tables (no policies: its own temporary tables, emptied at
    commit), from which one ``INSERT … SELECT`` per table moves the rows."""
    conn.execute(f"""CREATE TEMP TABLE IF NOT EXISTS staged_chunks
                     (LIKE {SCHEMA}.chunks INCLUDING DEFAULTS) ON COMMIT DELETE ROWS""")
    conn.execute(f"""CREATE TEMP TABLE IF NOT EXISTS staged_embeddings
                     (LIKE {SCHEMA}.embeddings) ON COMMIT DELETE ROWS""")


def index_new(conn: psycopg.Connection[Any], limit: int = 5_000) -> int:
    """Move up to ``limit`` vectors from ``embeddings_new`` into the HNSW-indexed table (in
    one transaction); how many moved."""
    row = conn.execute(f"SELECT {SCHEMA}.index_new(%s)", (limit,)).fetchone()
    return int(row[0]) if row else 0


def waiting_for_index(conn: psycopg.Connection[Any]) -> int:
    """Vectors not yet in the HNSW index (searched exactly meanwhile)."""
    row = conn.execute(f"SELECT {SCHEMA}.new_vectors()").fetchone()
    return int(row[0]) if row else 0


def withdraw(conn: psycopg.Connection[Any], group: str, cite_key: str) -> bool:
    """Remove this member's publication of ``cite_key``; the work goes when no member
    publishes it any more. False when this member had not published it."""
    with conn.transaction():
        row = conn.execute(
            f"DELETE FROM {SCHEMA}.publications WHERE grp = %s AND member = session_user "
            "AND cite_key = %s RETURNING work_id", (group, cite_key)).fetchone()
        if row is None:
            return False
        conn.execute(
            f"DELETE FROM {SCHEMA}.works w WHERE id = %s AND NOT EXISTS "
            f"(SELECT 1 FROM {SCHEMA}.publications p WHERE p.work_id = w.id)", (row[0],))
    return True
