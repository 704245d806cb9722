"""`the machine state directory's `state.db``: the durable SQLite database (job queue, caches, capture records).

The tables and their migrations live in one place, ``vaultd/schema/state.py``, listed in
the order they apply; ``open_state_db`` applies those not yet applied and records each
in ``migrations``. Migrations must only add (new tables, columns).

The built-in ``sqlite3`` module is enough here (no extensions); WAL mode lets the daemon
and CLI commands use the database at the same time.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from vaultd.errors import StoreError, database_disk_error
from vaultd.schema.migrate import pending
from vaultd.schema.state import STATE_MIGRATIONS

BUSY_TIMEOUT_SECONDS = 30.0


def apply_migrations(db: sqlite3.Connection,
                     steps: Sequence[tuple[str, Callable[[sqlite3.Connection], None]]]
                     = STATE_MIGRATIONS) -> list[str]:
    """Apply pending migrations; safe when several processes open the database at once.

    Each migration runs in a ``BEGIN IMMEDIATE`` transaction (one writer at a time) and
    re-checks ``migrations`` inside it, so the daemon and a CLI command starting together
    never run the same migration twice.
    """
    db.execute(
        "CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
    )
    done = {row[0] for row in db.execute("SELECT name FROM migrations")}
    applied: list[str] = []
    for name, fn in pending(steps, done):
        db.execute("BEGIN IMMEDIATE")
        try:
            if db.execute("SELECT 1 FROM migrations WHERE name = ?", (name,)).fetchone() is None:
                fn(db)
                db.execute(
                    "INSERT INTO migrations(name, applied_at) VALUES (?, datetime('now'))",
                    (name,),
                )
                applied.append(name)
            db.commit()
        except BaseException:
            db.rollback()
            raise
    return applied


def open_state_db(path: Path,
                  steps: Sequence[tuple[str, Callable[[sqlite3.Connection], None]]]
                  = STATE_MIGRATIONS) -> sqlite3.Connection:
    """Open (creating if needed) the state database in WAL mode, fully migrated (with
    ``steps``: vaultd's own tables unless a caller gives its list)."""
    deadline = time.monotonic() + BUSY_TIMEOUT_SECONDS
    while True:
        db: sqlite3.Connection | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_SECONDS, check_same_thread=False)
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA foreign_keys=ON")
            apply_migrations(db, steps)
            return db
        except sqlite3.OperationalError as exc:
            if db is not None:
                db.close()
            # Several processes or threads opening a new database at once: switching it
            # to WAL is not covered by the busy timeout, so try again for as long.
            if (disk := database_disk_error(path, str(exc))) is not None:
                raise disk from exc
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise StoreError(f"cannot open state database {path}: {exc}; "
                                 "check permissions or move it aside") from exc
            time.sleep(0.05)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open state database {path}: {exc}; "
                             "check permissions or move it aside") from exc


def _read_only_rows(path: Path, sql: str, params: Sequence[Any] = ()) -> list[Any] | None:
    """Rows of ``sql`` from the database at ``path`` opened read-only (never created,
    migrated or locked for writing); None when there is no database or no such table."""
    if not path.is_file():
        return None
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=2.0)
    except sqlite3.Error:
        return None
    try:
        return db.execute(sql, tuple(params)).fetchall()
    except sqlite3.Error:  # no such table yet (the daemon never ran)
        return None
    finally:
        db.close()


def job_counts(path: Path) -> dict[str, int]:
    """Daemon job counts by state (``queued``, ``running``, ``failed``, …), read-only.

    For readers such as the MCP ``status`` tool that must not import the daemon nor create
    or migrate the database: a missing database or job table counts as no jobs.
    """
    rows = _read_only_rows(path, "SELECT state, COUNT(*) FROM daemon_jobs GROUP BY state")
    return {str(state): int(n) for state, n in rows or []}


def daemon_meta(path: Path, keys: Sequence[str]) -> dict[str, Any]:
    """Values the agent recorded (``service``, ``last_verify``, ``mcp``, …), read-only; a
    missing database or table gives none."""
    marks = ",".join("?" * len(keys))
    rows = _read_only_rows(path, f"SELECT key, value FROM daemon_meta WHERE key IN ({marks})",
                           keys) or []
    out: dict[str, Any] = {}
    for key, value in rows:
        with contextlib.suppress(ValueError):
            out[str(key)] = json.loads(value)
    return out
