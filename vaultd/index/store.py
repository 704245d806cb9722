"""`the machine state directory's `index.db``: the search index (FTS5 + sqlite-vec), rebuildable from the vault.

Rows are content-addressed: each indexed passage carries the SHA-256 of its canonical
text, and vectors are cached by ``(hash, model)`` so renaming a note or re-indexing it
never re-embeds unchanged text. The schema and its migrations live in
``vaultd/schema/index.py`` (own to index.db, separate from state.db's). apsw is used because the
built-in sqlite3 module cannot load extensions on every platform; when sqlite-vec cannot
load, the index still works with BM25 only and says so in ``vec_error``.
"""

from __future__ import annotations

import contextlib
import importlib.util
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import apsw

from vaultd.errors import StoreError, database_disk_error
from vaultd.index_generation import current_index
from vaultd.schema.index import INDEX_MIGRATIONS
from vaultd.schema.migrate import pending
from vaultd.vault import Vault

BUSY_TIMEOUT_MS = 30_000

# Columns of the ``chunks`` table, in insertion order (rowid first is implicit).
CHUNK_COLUMNS = (
    "hash", "path", "kind", "cite_key", "chunk_id", "title", "authors", "year", "page",
    "page_label", "section", "chunk_type", "heading", "line_start", "line_end", "mtime", "text",
    "enrichment",
)


@dataclass
class IndexDB:
    """An open index database and what it can do."""

    conn: apsw.Connection
    path: Path
    vec_error: str | None = None
    #: Warm in-memory matrix for KNN (server mode); built lazily by search.
    cache: dict[str, Any] = field(default_factory=dict)

    @property
    def vec_available(self) -> bool:
        return self.vec_error is None

    def current(self) -> bool:
        """Whether this is still the live index (no rebuild swapped in another since it was
        opened): a long-lived reader reopens when not (``vaultd.index_generation``)."""

        return current_index(self.path.parent) == self.path

    def execute(self, sql: str, params: Any = None) -> apsw.Cursor:
        try:
            return self.conn.execute(sql, params)
        except apsw.Error as exc:
            if (disk := database_disk_error(self.path, str(exc))) is not None:
                raise disk from exc
            raise StoreError(f"index query failed on {self.path}: {exc}; "
                             "run `vaultd index --rebuild`") from exc

    def scalar(self, sql: str, params: Any = None) -> Any:
        row = self.execute(sql, params).fetchone()
        return row[0] if row else None

    def get_meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute(
            "INSERT INTO meta(key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        with self.conn:
            yield
        self.cache.clear()

    def close(self) -> None:
        self.conn.close()

    # -- vectors ---------------------------------------------------------------------

    def vec_table_dim(self) -> int | None:
        dim = self.get_meta("vec_dim")
        return int(dim) if dim else None

    def ensure_vec_table(self, dim: int, model: str) -> bool:
        """(Re)create ``vec_chunks`` for ``dim``/``model``; False without sqlite-vec."""
        if not self.vec_available:
            return False
        if self.vec_table_dim() == dim and self.get_meta("vec_model") == model:
            return True
        self.conn.execute("DROP TABLE IF EXISTS vec_chunks")
        self.conn.execute(
            f"CREATE VIRTUAL TABLE vec_chunks USING vec0(embedding float[{int(dim)}] "
            "distance_metric=cosine)"
        )
        self.set_meta("vec_dim", str(dim))
        self.set_meta("vec_model", model)
        return True


def apply_migrations(db: apsw.Connection,
                     steps: Sequence[tuple[str, Callable[[apsw.Connection], None]]]
                     = INDEX_MIGRATIONS) -> list[str]:
    db.execute(
        "CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
    )
    done = {row[0] for row in db.execute("SELECT name FROM migrations")}
    applied: list[str] = []
    for name, fn in pending(steps, done):
        with db:
            fn(db)
            db.execute(
                "INSERT INTO migrations(name, applied_at) VALUES (?, datetime('now'))", (name,)
            )
        applied.append(name)
    return applied


def _vec_extension_path() -> str:
    """sqlite-vec's bundled ``vec0`` library, found without importing ``sqlite_vec`` (whose
    ``__init__`` imports numpy: ~0.1 s at the MCP server's first recall)."""
    spec = importlib.util.find_spec("sqlite_vec")
    if spec is None or spec.origin is None:
        raise ImportError("the sqlite-vec package is not installed")
    return str(Path(spec.origin).parent / "vec0")


def _load_vec(conn: apsw.Connection) -> str | None:
    try:
        conn.enable_load_extension(True)
        conn.load_extension(_vec_extension_path())
        conn.enable_load_extension(False)
    except (ImportError, apsw.Error, AttributeError, OSError) as exc:
        return f"sqlite-vec unavailable ({exc}); search uses keywords (BM25) only"
    return None


def open_index(path: Path, *, load_vec: bool = True) -> IndexDB:
    """Open (creating if needed) the index database, migrated, with sqlite-vec if it loads."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = apsw.Connection(str(path))
        conn.set_busy_timeout(BUSY_TIMEOUT_MS)
        vec_error = _load_vec(conn) if load_vec else "sqlite-vec disabled"
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        apply_migrations(conn)
    except apsw.Error as exc:
        if (disk := database_disk_error(path, str(exc))) is not None:
            raise disk from exc
        raise StoreError(f"cannot open index {path}: {exc}; run `vaultd index --rebuild` "
                         "(it builds a new index beside this one)") from exc
    return IndexDB(conn=conn, path=path, vec_error=vec_error)


def index_status(vault: Vault) -> dict[str, Any]:
    """Counts and health of the index, for `vaultd status` and the MCP `status` tool."""
    status: dict[str, Any] = {
        "index": str(vault.index_db),  # in the machine state directory, outside the vault
        "exists": vault.index_db.is_file(),
        "notes": 0, "papers": 0, "user_notes": 0, "chunks": 0, "vectors": 0,
        "enrichment_pending": 0,
        "provider": None, "model": None, "vec_available": False, "vec_error": None,
        "last_indexed": None,
    }
    if not vault.index_db.is_file():
        status["hint"] = "no index yet; run `vaultd index`"
        return status
    db = open_index(vault.index_db)
    try:
        q = db.scalar
        status["papers"] = q("SELECT count(*) FROM papers")
        status["user_notes"] = q("SELECT count(*) FROM docs WHERE kind = 'note'")
        status["notes"] = status["papers"] + status["user_notes"]
        status["chunks"] = q("SELECT count(*) FROM chunks")
        status["enrichment_pending"] = q(
            "SELECT count(*) FROM chunks WHERE kind = 'paper' AND enrichment = 'pending'")
        model = db.get_meta("embed_model")
        status["provider"] = db.get_meta("embed_provider") or "none"
        status["model"] = model
        if model:
            status["vectors"] = q(
                "SELECT count(*) FROM chunks c JOIN vectors v ON v.hash = c.hash "
                "AND v.model = ?", (model,))
        status["vec_available"] = db.vec_available
        status["vec_error"] = db.vec_error
        status["last_indexed"] = db.get_meta("last_indexed")
    finally:
        db.close()
    return status
