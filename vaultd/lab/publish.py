"""Writing a work into the library: one transaction per work, so a work is published whole
or not at all. The work is found again by its PDF's SHA-256, DOI or arXiv id within the
group, so two members publishing it make one work with both as publishers; its chunks and
embeddings are replaced together (COPY) when what is published changed."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

import psycopg
from pgvector import HalfVector

from vaultd.lab.payload import Publication, ts_config
from vaultd.lab.schema import SCHEMA

Outcome = Literal["published", "updated", "unchanged"]


@dataclass(frozen=True)
class Published:
    cite_key: str
    outcome: Outcome
    work_id: int
    chunks: int
    vectors: int


def publish(conn: psycopg.Connection[Any], pub: Publication, group: str) -> Published:
    """Publish ``pub`` to ``group`` as the connected member (retried once when another
    member created the same work at the same moment)."""
    try:
        return _publish(conn, pub, group)
    except psycopg.errors.UniqueViolation:
        return _publish(conn, pub, group)


def _publish(conn: psycopg.Connection[Any], pub: Publication, group: str) -> Published:
    fingerprint = pub.fingerprint
    with conn.transaction():
        work_id = _find(conn, pub, group)
        if work_id is not None:
            row = conn.execute(
                f"SELECT fingerprint FROM {SCHEMA}.publications "
                "WHERE work_id = %s AND member = session_user", (work_id,)).fetchone()
            if row is not None and row[0] == fingerprint:
                return Published(pub.cite_key, "unchanged", work_id, 0, 0)
        outcome: Outcome = "published" if work_id is None else "updated"
        work_id = _write_work(conn, pub, group, work_id)
        conn.execute(
            f"""INSERT INTO {SCHEMA}.publications
                (work_id, grp, cite_key, aliases, fingerprint) VALUES (%s, %s, %s, %s, %s)
                ON CONFLICT (work_id, member) DO UPDATE SET cite_key = excluded.cite_key,
                  aliases = excluded.aliases, fingerprint = excluded.fingerprint,
                  published_at = now()""",
            (work_id, group, pub.cite_key, pub.aliases, fingerprint))
        chunks, vectors = _write_chunks(conn, pub, group, work_id)
    return Published(pub.cite_key, outcome, work_id, chunks, vectors)


def _find(conn: psycopg.Connection[Any], pub: Publication, group: str) -> int | None:
    """The work's id in ``group`` (locked for this transaction): by PDF hash first, then
    DOI, then arXiv id."""
    for column, value in (("pdf_sha256", pub.pdf_sha256), ("lower(doi)", _lower(pub.doi)),
                          ("arxiv_id", pub.arxiv_id)):
        if value:
            row = conn.execute(
                f"SELECT id FROM {SCHEMA}.works WHERE grp = %s AND {column} = %s "
                "FOR UPDATE", (group, value)).fetchone()
            if row is not None:
                return int(row[0])
    return None


def _lower(value: str | None) -> str | None:
    return value.lower() if value else None


def _write_work(conn: psycopg.Connection[Any], pub: Publication, group: str,
                work_id: int | None) -> int:
    values = {"grp": group, "pdf_sha256": pub.pdf_sha256, "doi": pub.doi,
              "arxiv_id": pub.arxiv_id, "title": pub.title, "authors": pub.authors,
              "year": pub.year, "type": pub.type, "language": pub.language,
              "work": json.dumps(pub.work), "labels": pub.labels, "retracted": pub.retracted,
              "verified": pub.verified, "pdf": pub.pdf}
    if work_id is None:
        cols = ", ".join(values)
        marks = ", ".join(f"%({k})s" for k in values)
        row = conn.execute(f"INSERT INTO {SCHEMA}.works ({cols}, chunks_by) "
                           f"VALUES ({marks}, session_user) RETURNING id", values).fetchone()
        assert row is not None
        return int(row[0])
    # an identifier another member's copy already gave is kept (their PDF may differ)
    conn.execute(
        f"""UPDATE {SCHEMA}.works SET pdf_sha256 = coalesce(pdf_sha256, %(pdf_sha256)s),
              doi = coalesce(doi, %(doi)s), arxiv_id = coalesce(arxiv_id, %(arxiv_id)s),
              title = %(title)s, authors = %(authors)s, year = %(year)s, type = %(type)s,
              language = %(language)s, work = %(work)s, labels = %(labels)s,
              retracted = %(retracted)s, verified = %(verified)s,
              pdf = coalesce(%(pdf)s, pdf), chunks_by = session_user, updated_at = now()
            WHERE id = %(id)s""", {**values, "id": work_id})
    return work_id


_CHUNK_COLUMNS = ("id", "work_id", "grp", "chunk_id", "ord", "kind", "text", "text_sha256",
                  "chunk_type", "section", "page", "page_label", "page_label_source",
                  "page_label_status", "regions", "text_layer", "start_s", "end_s", "title",
                  "year", "lang")


def _write_chunks(conn: psycopg.Connection[Any], pub: Publication, group: str,
                  work_id: int) -> tuple[int, int]:
    """Replace the work's chunks and embeddings by ``pub``'s; (chunks, vectors) written."""
    conn.execute(f"DELETE FROM {SCHEMA}.chunks WHERE work_id = %s", (work_id,))
    if not pub.chunks:
        return 0, 0
    ids = [int(r[0]) for r in conn.execute(
        f"SELECT nextval('{SCHEMA}.chunk_ids') FROM generate_series(1, %s)",
        (len(pub.chunks),))]
    lang = ts_config(pub.language)
    cur = conn.cursor()
    _staging(conn)
    with cur.copy(f"COPY staged_chunks ({', '.join(_CHUNK_COLUMNS)}) FROM STDIN") as copy:
        for i, (pk, c) in enumerate(zip(ids, pub.chunks, strict=True)):
            copy.write_row((pk, work_id, group, c.chunk_id, i, c.kind, c.text, c.text_sha256,
                            c.chunk_type, c.section, c.page, c.page_label,
                            c.page_label_source, c.page_label_status,
                            json.dumps(c.regions) if c.regions else None, c.text_layer,
                            c.start, c.end, pub.title, pub.year, lang))
    cols = ", ".join(_CHUNK_COLUMNS)
    conn.execute(f"INSERT INTO {SCHEMA}.chunks ({cols}) SELECT {cols} FROM staged_chunks")
    vectors = [(pk, c) for pk, c in zip(ids, pub.chunks, strict=True)
               if pub.model and pub.vectors.get(c.text_sha256)]
    if vectors:
        with cur.copy("COPY staged_embeddings (chunk, model, grp, year, chunk_type, vec) "
                      "FROM STDIN WITH (FORMAT BINARY)") as copy:
            copy.set_types(["bigint", "text", "text", "integer", "text", "halfvec"])
            for pk, c in vectors:
                copy.write_row((pk, pub.model, group, pub.year, c.chunk_type,
                                HalfVector(pub.vectors[c.text_sha256])))
        conn.execute(f"INSERT INTO {SCHEMA}.embeddings SELECT * FROM staged_embeddings")
    return len(ids), len(vectors)


def _staging(conn: psycopg.Connection[Any]) -> None:
    """The session's staging tables: PostgreSQL refuses COPY into a table with row-level
    security, so rows are copied here (no policies: the session's own temporary tables,
    emptied at commit) and moved by one INSERT … SELECT, which the policies check."""
    conn.execute(f"""CREATE TEMP TABLE IF NOT EXISTS staged_chunks
                     (LIKE {SCHEMA}.chunks INCLUDING DEFAULTS) ON COMMIT DELETE ROWS""")
    conn.execute(f"""CREATE TEMP TABLE IF NOT EXISTS staged_embeddings
                     (LIKE {SCHEMA}.embeddings) ON COMMIT DELETE ROWS""")


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
