"""Reading the library: a work by any member's cite key, one chunk, what this member
published, the members. Row-level security limits every read to the member's groups."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg import sql

from vaultd.lab.schema import MEMBER_ROLE, SCHEMA


@dataclass(frozen=True)
class LibraryWork:
    work_id: int
    cite_key: str  # the key it was asked by (a member's key or alias)
    work: dict[str, Any]
    labels: list[str]
    retracted: bool
    verified: bool
    pdf_sha256: str | None
    publishers: list[tuple[str, str]]  # (member, their cite key), first publisher first
    chunks_by: str | None

    @property
    def members(self) -> list[str]:
        return [m for m, _ in self.publishers]


@dataclass(frozen=True)
class LibraryChunk:
    chunk_id: str
    text: str
    text_sha256: str
    kind: str
    chunk_type: str | None
    section: str | None
    page: int | None
    page_label: str | None
    page_label_source: str | None
    page_label_status: str | None
    regions: list[list[float]] | None
    text_layer: str | None
    start: float | None
    end: float | None


def work(conn: psycopg.Connection[Any], group: str, key: str) -> LibraryWork | None:
    """The work some member of ``group`` publishes under ``key`` (their cite key or one of
    its aliases); this member's own publication first when several match."""
    row = conn.execute(
        f"""SELECT w.id, w.work, w.labels, w.retracted, w.verified, w.pdf_sha256,
                   w.chunks_by::text
            FROM {SCHEMA}.publications p JOIN {SCHEMA}.works w ON w.id = p.work_id
            WHERE p.grp = %s AND (p.cite_key = %s OR %s = ANY(p.aliases))
            ORDER BY p.member <> session_user, p.published_at LIMIT 1""",
        (group, key, key)).fetchone()
    if row is None:
        return None
    pubs = conn.execute(
        f"SELECT member::text, cite_key FROM {SCHEMA}.publications WHERE work_id = %s "
        "ORDER BY published_at", (row[0],)).fetchall()
    return LibraryWork(int(row[0]), key, dict(row[1]), list(row[2] or []), bool(row[3]),
                       bool(row[4]), row[5], [(str(m), str(k)) for m, k in pubs], row[6])


_CHUNK = ("chunk_id, text, text_sha256, kind, chunk_type, section, page, page_label, "
          "page_label_source, page_label_status, regions, text_layer, start_s, end_s")


def _chunk(row: Any) -> LibraryChunk:
    return LibraryChunk(*row)


def chunk(conn: psycopg.Connection[Any], work_id: int, chunk_id: str) -> LibraryChunk | None:
    row = conn.execute(f"SELECT {_CHUNK} FROM {SCHEMA}.chunks WHERE work_id = %s AND "
                       "chunk_id = %s", (work_id, chunk_id)).fetchone()
    return _chunk(row) if row else None


def chunks(conn: psycopg.Connection[Any], work_id: int) -> list[LibraryChunk]:
    """Every chunk the library holds for a work, in note order."""
    return [_chunk(r) for r in conn.execute(
        f"SELECT {_CHUNK} FROM {SCHEMA}.chunks WHERE work_id = %s ORDER BY ord", (work_id,))]


@dataclass(frozen=True)
class Mine:
    """One of this member's publications."""

    cite_key: str
    work_id: int
    fingerprint: str
    published_at: datetime


def mine(conn: psycopg.Connection[Any], group: str) -> dict[str, Mine]:
    """This member's publications in ``group``, by their cite key."""
    return {str(r[0]): Mine(str(r[0]), int(r[1]), str(r[2]), r[3]) for r in conn.execute(
        f"SELECT cite_key, work_id, fingerprint, published_at FROM {SCHEMA}.publications "
        "WHERE grp = %s AND member = session_user", (group,))}


@dataclass(frozen=True)
class Member:
    name: str
    groups: list[str]
    works: int
    last_published: datetime | None


def members(conn: psycopg.Connection[Any], group: str) -> list[Member]:
    """The members who publish to ``group`` or are granted it (as far as this role may
    see: an admin sees every grant, a member their own and every publisher)."""
    grants: dict[str, list[str]] = {}
    for member, grp in conn.execute(f"SELECT member::text, grp FROM {SCHEMA}.grants "
                                    "ORDER BY member, grp"):
        grants.setdefault(str(member), []).append(str(grp))
    published = {str(r[0]): (int(r[1]), r[2]) for r in conn.execute(
        f"SELECT member::text, count(*), max(published_at) FROM {SCHEMA}.publications "
        "WHERE grp = %s GROUP BY member", (group,))}
    names = sorted({*published, *(m for m, gs in grants.items() if group in gs)})
    return [Member(n, grants.get(n, [group] if n in published else []),
                   published.get(n, (0, None))[0], published.get(n, (0, None))[1])
            for n in names]


def grant(conn: psycopg.Connection[Any], member: str, group: str,
          password: str | None) -> bool:
    """Let ``member`` read and publish ``group`` (creating the login role, in
    ``vaultd_member``, when it does not exist); True when the role was created. Needs a
    role that may create roles (the lab's admin)."""
    with conn.transaction():
        exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s",
                              (member,)).fetchone() is not None
        if not exists:
            conn.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {} IN ROLE {}").format(
                sql.Identifier(member), sql.Literal(password), sql.Identifier(MEMBER_ROLE)))
        else:
            conn.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(MEMBER_ROLE),
                                                         sql.Identifier(member)))
            if password:
                conn.execute(sql.SQL("ALTER ROLE {} PASSWORD {}").format(
                    sql.Identifier(member), sql.Literal(password)))
        conn.execute(f"INSERT INTO {SCHEMA}.grants VALUES (%s, %s) ON CONFLICT DO NOTHING",
                     (member, group))
    return not exists


def revoke(conn: psycopg.Connection[Any], member: str, group: str) -> bool:
    """Take ``group`` from ``member`` (their publications stay, as the lab's); False when
    they did not have it."""
    with conn.transaction():
        row = conn.execute(f"DELETE FROM {SCHEMA}.grants WHERE member = %s AND grp = %s "
                           "RETURNING 1", (member, group)).fetchone()
    return row is not None
