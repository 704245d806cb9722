"""The library's schema (``vaultd_lab``), versioned: each migration runs once, in order, in
its own transaction; a library whose version is newer than this vaultd's is refused (one
line: upgrade vaultd), never written.

Access: every member is a PostgreSQL role (``LOGIN``) in the ``vaultd_member`` role, which
holds the table privileges; row-level security lets a member see and write only the rows
of the groups ``vaultd_lab.grants`` gives them. ``init`` needs a role that may create the
``vector`` extension and roles; nothing after it does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg import sql

from vaultd.errors import LibraryError
from vaultd.lab.names import MEMBER_ROLE, SCHEMA
from vaultd.lab.search_sql import SEARCH_V1, SEARCH_V2

__all__ = ["MEMBER_ROLE", "SCHEMA"]  # the names every module of the package uses

#: Embedding models (``provider:model``, as the local index names them, and dimensions)
#: given an HNSW index by default: vaultd's two embedding defaults.
DEFAULT_MODELS: tuple[tuple[str, int], ...] = (
    ("ollama:nomic-embed-text", 768), ("sentence-transformers:all-MiniLM-L6-v2", 384))

_V1 = [
    "CREATE EXTENSION IF NOT EXISTS vector",
    f"CREATE SCHEMA IF NOT EXISTS {SCHEMA}",
    f"CREATE TABLE {SCHEMA}.version (version integer NOT NULL)",
    f"INSERT INTO {SCHEMA}.version VALUES (0)",
    # which groups each member (role) may read and publish to
    f"""CREATE TABLE {SCHEMA}.grants (
        member name NOT NULL, grp text NOT NULL, PRIMARY KEY (member, grp))""",
    f"""CREATE TABLE {SCHEMA}.models (model text PRIMARY KEY, dim integer NOT NULL)""",
    # one row per work and group: found again by PDF hash, DOI or arXiv id
    f"""CREATE TABLE {SCHEMA}.works (
        id bigserial PRIMARY KEY, grp text NOT NULL,
        pdf_sha256 text, doi text, arxiv_id text,
        title text, authors text, year integer, type text, language text,
        work jsonb NOT NULL, labels text[] NOT NULL DEFAULT '{{}}',
        retracted boolean NOT NULL DEFAULT false, verified boolean NOT NULL DEFAULT false,
        chunks_by name, pdf bytea, updated_at timestamptz NOT NULL DEFAULT now())""",
    f"CREATE UNIQUE INDEX works_pdf ON {SCHEMA}.works (grp, pdf_sha256) "
    "WHERE pdf_sha256 IS NOT NULL",
    f"CREATE UNIQUE INDEX works_doi ON {SCHEMA}.works (grp, lower(doi)) WHERE doi IS NOT NULL",
    f"CREATE UNIQUE INDEX works_arxiv ON {SCHEMA}.works (grp, arxiv_id) "
    "WHERE arxiv_id IS NOT NULL",
    # each member who published a work, with their cite key(s) for it
    f"""CREATE TABLE {SCHEMA}.publications (
        work_id bigint NOT NULL REFERENCES {SCHEMA}.works ON DELETE CASCADE,
        member name NOT NULL DEFAULT session_user, grp text NOT NULL,
        cite_key text NOT NULL, aliases text[] NOT NULL DEFAULT '{{}}',
        fingerprint text NOT NULL, published_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (work_id, member))""",
    f"CREATE INDEX publications_key ON {SCHEMA}.publications (grp, cite_key)",
    f"CREATE INDEX publications_aliases ON {SCHEMA}.publications USING gin (aliases)",
    f"""CREATE TABLE {SCHEMA}.chunks (
        id bigint PRIMARY KEY, work_id bigint NOT NULL REFERENCES {SCHEMA}.works
            ON DELETE CASCADE,
        grp text NOT NULL, chunk_id text NOT NULL, ord integer NOT NULL,
        kind text NOT NULL DEFAULT 'paper', text text NOT NULL, text_sha256 text NOT NULL,
        chunk_type text, section text, page integer, page_label text,
        page_label_source text, page_label_status text, regions jsonb, text_layer text,
        start_s double precision, end_s double precision,
        title text, year integer, lang regconfig NOT NULL DEFAULT 'english',
        tsv tsvector GENERATED ALWAYS AS (
            setweight(to_tsvector(lang, coalesce(title, '')), 'A')
            || to_tsvector(lang, coalesce(section, '') || ' ' || text)) STORED,
        UNIQUE (work_id, chunk_id))""",
    f"CREATE SEQUENCE {SCHEMA}.chunk_ids OWNED BY {SCHEMA}.chunks.id",
    f"CREATE INDEX chunks_tsv ON {SCHEMA}.chunks USING gin (tsv)",
    # the planner's lexeme statistics keep the 25,000 commonest lexemes (10 × the target):
    # search weighs query terms by them, and counts only the rarer ones
    f"ALTER TABLE {SCHEMA}.chunks ALTER COLUMN tsv SET STATISTICS 2500",
    f"CREATE INDEX chunks_grp_year ON {SCHEMA}.chunks (grp, year)",
    f"""CREATE TABLE {SCHEMA}.embeddings (
        chunk bigint NOT NULL REFERENCES {SCHEMA}.chunks ON DELETE CASCADE,
        model text NOT NULL, grp text NOT NULL, year integer, chunk_type text,
        vec halfvec NOT NULL, PRIMARY KEY (chunk, model))""",
    # vectors just published: searched exactly until index_new() moves them into the
    # HNSW-indexed table (an HNSW insert costs milliseconds; publishing never waits for it)
    f"""CREATE TABLE {SCHEMA}.embeddings_new (
        chunk bigint NOT NULL REFERENCES {SCHEMA}.chunks ON DELETE CASCADE,
        model text NOT NULL, grp text NOT NULL, year integer, chunk_type text,
        vec halfvec NOT NULL, PRIMARY KEY (chunk, model))""",
    f"""CREATE FUNCTION {SCHEMA}.index_new(p_limit int) RETURNS int
        LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = {SCHEMA}, public, pg_temp AS
        $$ WITH moved AS (
             DELETE FROM embeddings_new WHERE (chunk, model) IN (
               SELECT chunk, model FROM embeddings_new LIMIT p_limit)
             RETURNING chunk, model, grp, year, chunk_type, vec),
           kept AS (
             INSERT INTO embeddings SELECT * FROM moved
             ON CONFLICT (chunk, model) DO UPDATE SET vec = excluded.vec RETURNING 1)
           SELECT count(*)::int FROM kept $$""",
    f"""CREATE FUNCTION {SCHEMA}.new_vectors() RETURNS bigint
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = {SCHEMA}, pg_temp AS
        $$ SELECT count(*) FROM embeddings_new $$""",
    # the groups of the member running the query, evaluated once per statement
    f"""CREATE FUNCTION {SCHEMA}.my_groups() RETURNS text[] LANGUAGE sql STABLE
        SECURITY DEFINER SET search_path = {SCHEMA}, pg_temp AS
        $$ SELECT coalesce(array_agg(grp), '{{}}') FROM {SCHEMA}.grants
           WHERE member = session_user $$""",
]

_GROUP = f"grp = ANY ((SELECT {SCHEMA}.my_groups())::text[])"


def _security() -> list[str]:
    out = [
        f"""DO $$ BEGIN
              IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{MEMBER_ROLE}') THEN
                CREATE ROLE {MEMBER_ROLE} NOLOGIN;
              END IF; END $$""",
        f"GRANT USAGE ON SCHEMA {SCHEMA} TO {MEMBER_ROLE}",
        f"GRANT SELECT ON {SCHEMA}.version, {SCHEMA}.models, {SCHEMA}.grants TO {MEMBER_ROLE}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON {SCHEMA}.works, {SCHEMA}.publications, "
        f"{SCHEMA}.chunks, {SCHEMA}.embeddings, {SCHEMA}.embeddings_new TO {MEMBER_ROLE}",
        f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA {SCHEMA} TO {MEMBER_ROLE}",
        f"REVOKE ALL ON ALL FUNCTIONS IN SCHEMA {SCHEMA} FROM PUBLIC",
        f"GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA {SCHEMA} TO {MEMBER_ROLE}",
        f"ALTER TABLE {SCHEMA}.grants ENABLE ROW LEVEL SECURITY",
        f"CREATE POLICY own ON {SCHEMA}.grants FOR SELECT USING (member = session_user)",
    ]
    for table in ("works", "chunks", "embeddings", "embeddings_new"):
        out += [f"ALTER TABLE {SCHEMA}.{table} ENABLE ROW LEVEL SECURITY",
                f"CREATE POLICY by_group ON {SCHEMA}.{table} USING ({_GROUP}) "
                f"WITH CHECK ({_GROUP})"]
    out += [
        f"ALTER TABLE {SCHEMA}.publications ENABLE ROW LEVEL SECURITY",
        f"CREATE POLICY read ON {SCHEMA}.publications FOR SELECT USING ({_GROUP})",
        f"CREATE POLICY publish ON {SCHEMA}.publications FOR INSERT "
        f"WITH CHECK (member = session_user AND {_GROUP})",
        f"CREATE POLICY republish ON {SCHEMA}.publications FOR UPDATE "
        f"USING (member = session_user) WITH CHECK (member = session_user AND {_GROUP})",
        f"CREATE POLICY withdraw ON {SCHEMA}.publications FOR DELETE "
        "USING (member = session_user)",
    ]
    return out


#: A passage's ``tsv``: its work's title (weight A) and its section and text, parsed in
#: the passage's text search configuration. The title's part, the same for every passage
#: of a work, is parsed once per work: ``lab.publish`` fills the column with
#: ``TITLE_TSV`` of the work joined to ``TEXT_TSV`` of each passage (version 3; before it,
#: a generated column parsed the title again for every passage, an eighth of the server's
#: time per passage).
TITLE_TSV = "setweight(to_tsvector({lang}, coalesce({title}, '')), 'A')"
TEXT_TSV = "to_tsvector({lang}, coalesce({section}, '') || ' ' || {text})"

_V3 = [  # the stored values stay: the same expression, now the publisher's
    f"ALTER TABLE {SCHEMA}.chunks ALTER COLUMN tsv DROP EXPRESSION"]

#: (version, what it does, statements), applied in order.
MIGRATIONS: list[tuple[int, str, list[str]]] = [
    (1, "tables, full-text index, row-level security", [*_V1, *SEARCH_V1, *_security()]),
    (2, "full text scored by BM25", SEARCH_V2),
    (3, "a work's title parsed for full text once, not once per passage", _V3),
]
VERSION = MIGRATIONS[-1][0]


def version(conn: psycopg.Connection[Any]) -> int | None:
    """The library's schema version; None when ``init`` never ran there."""
    row = conn.execute("SELECT to_regclass(%s)", (f"{SCHEMA}.version",)).fetchone()
    if row is None or row[0] is None:
        return None
    got = conn.execute(f"SELECT version FROM {SCHEMA}.version").fetchone()
    return int(got[0]) if got else 0


def check(conn: psycopg.Connection[Any], where: str) -> int:
    """The schema version, refused when missing or newer than this vaultd's."""
    have = version(conn)
    if have is None:
        raise LibraryError(f"the library at {where} has no vaultd schema: the lab's admin "
                           "runs `vaultd library init URL` once")
    if have > VERSION:
        raise LibraryError(f"the library at {where} has schema version {have}, newer than "
                           f"this vaultd's ({VERSION}): upgrade vaultd")
    if have < VERSION:
        raise LibraryError(f"the library at {where} has schema version {have}, older than "
                           f"this vaultd's ({VERSION}): the lab's admin runs "
                           "`vaultd library init URL` to upgrade it")
    return have


def migrate(conn: psycopg.Connection[Any], where: str,
            models: Sequence[tuple[str, int]] = DEFAULT_MODELS) -> list[str]:
    """Apply the migrations this library lacks (idempotent) and give each embedding model
    an HNSW index; returns what was done, one line each."""
    done: list[str] = []
    have = version(conn) or 0
    if have > VERSION:
        raise LibraryError(f"the library at {where} has schema version {have}, newer than "
                           f"this vaultd's ({VERSION}): upgrade vaultd")
    for number, what, statements in MIGRATIONS:
        if number <= have:
            continue
        try:
            with conn.transaction():
                for statement in statements:
                    conn.execute(statement)
                conn.execute(f"UPDATE {SCHEMA}.version SET version = %s", (number,))
        except (psycopg.errors.UndefinedFile, psycopg.errors.FeatureNotSupported) as exc:
            raise LibraryError(f"the server at {where} has no pgvector extension: install "
                               "pgvector ≥ 0.8 there (managed PostgreSQL services offer it as "
                               "the `vector` extension)") from exc
        except psycopg.errors.InsufficientPrivilege as exc:
            raise LibraryError(f"`vaultd library init` at {where} needs a role that may create "
                               f"the vector extension, a schema and roles: {exc}") from exc
        done.append(f"schema version {number}: {what}")
    _check_pgvector(conn, where)
    for model, dim in models:
        if add_model(conn, model, dim):
            done.append(f"vector index for {model} ({dim} dimensions)")
    return done


PGVECTOR_MIN = (0, 8)


def _check_pgvector(conn: psycopg.Connection[Any], where: str) -> None:
    """pgvector ≥ 0.8: filtered searches rely on its iterative index scans."""
    row = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
    version = tuple(int(p) for p in str(row[0]).split(".")[:2] if p.isdigit()) if row else ()
    if version < PGVECTOR_MIN:
        have = f"pgvector {row[0]}" if row else "no pgvector"
        raise LibraryError(f"the library at {where} has {have}: vaultd needs pgvector ≥ 0.8 "
                           "(ALTER EXTENSION vector UPDATE, or install a newer one)")


def index_name(model: str) -> str:
    """The HNSW index name of a model (an identifier PostgreSQL accepts for any name)."""
    safe = "".join(c if c.isalnum() else "_" for c in model.lower())[:40]
    return f"embeddings_hnsw_{safe}"


def add_model(conn: psycopg.Connection[Any], model: str, dim: int) -> bool:
    """Register ``model`` with ``dim`` dimensions and build its partial HNSW index (cosine,
    ``halfvec``); False when it was there already."""
    with conn.transaction():
        row = conn.execute(f"SELECT dim FROM {SCHEMA}.models WHERE model = %s",
                           (model,)).fetchone()
        if row is not None:
            if int(row[0]) != dim:
                raise LibraryError(f"the library knows model {model} with {row[0]} dimensions, "
                                   f"not {dim}")
            return False
        conn.execute(f"INSERT INTO {SCHEMA}.models VALUES (%s, %s)", (model, dim))
        conn.execute(sql.SQL(
            "CREATE INDEX {name} ON {schema}.embeddings USING hnsw "
            "((vec::halfvec({dim})) halfvec_cosine_ops) WHERE model = {model}").format(
                name=sql.Identifier(index_name(model)), schema=sql.Identifier(SCHEMA),
                dim=sql.Literal(dim), model=sql.Literal(model)))
    return True
