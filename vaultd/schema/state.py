"""The tables of ``state.db`` (the machine state directory's durable database) and the
migrations that build them, in the order they apply. Names keep their owner's prefix
(``capture_``, ``citations_``, ``daemon_``, ``enrich_``): they are recorded in existing
databases. Uses the built-in ``sqlite3``; see statedb.py for how they are applied."""

from __future__ import annotations

import sqlite3

from vaultd.schema.migrate import checked


def capture_http_cache(db: sqlite3.Connection) -> None:
    """Responses of the metadata sources (capture/http.py)."""
    db.execute(
        "CREATE TABLE http_cache (url TEXT PRIMARY KEY, status INTEGER NOT NULL, "
        "content_type TEXT, body BLOB NOT NULL, fetched_at REAL NOT NULL)"
    )


def capture_captures(db: sqlite3.Connection) -> None:
    """The identifiers of each captured work, for finding it again (capture/records.py)."""
    db.execute(
        "CREATE TABLE captures (cite_key TEXT PRIMARY KEY, doi TEXT, arxiv_id TEXT, "
        "pdf_sha256 TEXT, doi_preprint TEXT, doi_published TEXT, captured_at TEXT)"
    )
    for col in ("doi", "arxiv_id", "pdf_sha256"):
        db.execute(f"CREATE INDEX captures_{col} ON captures({col})")


def citations_renderings(db: sqlite3.Connection) -> None:
    """Stored citation renderings (formats/cache.py)."""
    db.execute(
        "CREATE TABLE citation_renderings ("
        " key TEXT PRIMARY KEY,"
        " data TEXT NOT NULL,"
        " created_at TEXT NOT NULL DEFAULT (datetime('now')))"
    )


def citations_meta(db: sqlite3.Connection) -> None:
    db.execute("CREATE TABLE citation_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")


def daemon_jobs(db: sqlite3.Connection) -> None:
    """The agent's job queue and its own values (daemon/queue.py)."""
    db.execute(
        """CREATE TABLE daemon_jobs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            path TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            state TEXT NOT NULL DEFAULT 'queued',
            attempts INTEGER NOT NULL DEFAULT 0,
            next_at REAL NOT NULL DEFAULT 0,
            idem_key TEXT,
            rule TEXT,
            cite_keys TEXT,
            outcome TEXT,
            error TEXT,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
        )"""
    )
    db.execute(
        "CREATE UNIQUE INDEX daemon_jobs_active ON daemon_jobs(path, fingerprint) "
        "WHERE state IN ('queued', 'running', 'done')"
    )
    db.execute("CREATE INDEX daemon_jobs_state ON daemon_jobs(state, next_at)")
    db.execute("CREATE INDEX daemon_jobs_idem ON daemon_jobs(idem_key)")
    db.execute("CREATE TABLE daemon_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")


def daemon_crashes(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE daemon_jobs ADD COLUMN crashes INTEGER NOT NULL DEFAULT 0")


def enrich_cache(db: sqlite3.Connection) -> None:
    """The LLM's paraphrases and implications by passage (enrich/cache.py)."""
    db.execute(
        """CREATE TABLE IF NOT EXISTS enrich_cache (
            text_sha256 TEXT NOT NULL,
            model TEXT NOT NULL,
            prompt_version TEXT NOT NULL,
            paraphrase TEXT NOT NULL,
            implication TEXT NOT NULL,
            key_sentence INTEGER,
            created_at TEXT NOT NULL DEFAULT (datetime('now')),
            PRIMARY KEY (text_sha256, model, prompt_version)
        )"""
    )


def library_outbox(db: sqlite3.Connection) -> None:
    # Works waiting to be published to the lab library (it was unreachable): retried,
    # never lost; one row per cite key, the latest error kept for `vaultd library status`.
    db.execute(
        """CREATE TABLE IF NOT EXISTS library_outbox (
            cite_key TEXT PRIMARY KEY,
            queued_at TEXT NOT NULL DEFAULT (datetime('now')),
            attempts INTEGER NOT NULL DEFAULT 0,
            last_error TEXT
        )"""
    )


STATE_MIGRATIONS = checked("state.db", [
    ("capture_m001_create_http_cache", capture_http_cache),
    ("capture_m002_create_captures", capture_captures),
    ("citations_m001_create_renderings", citations_renderings),
    ("citations_m002_create_meta", citations_meta),
    ("daemon_m001_create_jobs", daemon_jobs),
    ("daemon_m002_crashes", daemon_crashes),
    ("enrich_m001_create_enrich_cache", enrich_cache),
    ("library_m001_outbox", library_outbox),
])
