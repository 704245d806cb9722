"""Index stage: paper notes and the user's own notes → FTS5 rows (+ vectors).

Incremental: a file whose size and mtime are unchanged is not even read; a changed file
re-indexes only the passages whose hash changed; files gone from the vault (deleted or
renamed) lose their rows. Embedding failures never fail the run: passages stay keyword-
searchable and the next run embeds what is missing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import apsw

from vaultd.citekey import filename_to_key
from vaultd.config import Settings
from vaultd.errors import NoteFormatError, VaultdError
from vaultd.index.embed import Embedder, make_embedder, pack
from vaultd.index.rows import Row, agent_written, delete_doc, note_rows, paper_rows, sync_doc
from vaultd.index.store import IndexDB, open_index
from vaultd.index.usernotes import iter_markdown_files, split_sections
from vaultd.index_generation import activate, new_generation
from vaultd.sync_conflicts import conflict_original
from vaultd.vault import Vault

Progress = Callable[[int, int], None]
EMBED_BATCH = 64


@dataclass
class IndexStats:
    files: int = 0
    changed: int = 0
    removed: int = 0
    chunks_added: int = 0
    chunks_removed: int = 0
    chunks_total: int = 0
    embedded: int = 0
    provider: str = "none"
    vec_available: bool = False
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)


def index_vault(vault: Vault, settings: Settings, *, rebuild: bool = False,
                progress: Progress | None = None,
                embedder: Embedder | str | None = "settings") -> IndexStats:
    """Bring `the machine state directory's `index.db`` up to date with the vault (``rebuild``: from scratch)."""
    vault.require()
    files = list(iter_markdown_files(vault))
    if not rebuild:
        return _run(vault, settings, files, progress, embedder, full=True)
    # Built beside the live index, then swapped in at once: readers never see a half-built
    # index or one deleted under them (vaultd.index_generation).

    fresh = new_generation(vault.machine_dir)
    carried = _carry_vectors(vault.index_db, fresh)
    stats = _run(vault, settings, files, progress, embedder, full=True, path=fresh)
    if carried:
        stats.warnings.append(carried)
    activate(vault.machine_dir, fresh)
    # Notes written while it was built went to the index it replaced: catch up (unchanged
    # files cost a stat each).
    again = _run(vault, settings, list(iter_markdown_files(vault)), None, embedder, full=True)
    for name in ("changed", "removed", "chunks_added", "chunks_removed", "embedded"):
        setattr(stats, name, getattr(stats, name) + getattr(again, name))
    stats.files, stats.chunks_total = again.files, again.chunks_total
    stats.seconds += again.seconds
    stats.warnings += [w for w in again.warnings if w not in stats.warnings]
    return stats


def _carry_vectors(old: Path, fresh: Path) -> str | None:
    """Copy the vector cache (by text hash and model) of the index being replaced into a
    new one, so a rebuild embeds nothing it had embedded; a warning when it cannot."""
    if not old.is_file():
        return None
    db = open_index(fresh, load_vec=False)
    try:
        db.conn.execute("ATTACH DATABASE ? AS old", (str(old),))
        try:
            with db.conn:
                db.conn.execute("INSERT OR IGNORE INTO main.vectors SELECT hash, model, dim, vec "
                                "FROM old.vectors")
        finally:
            db.conn.execute("DETACH DATABASE old")
    except apsw.Error as exc:
        return f"cached vectors not carried over from {old.name} ({exc}); they are embedded again"
    finally:
        db.close()
    return None


def index_paths(vault: Vault, settings: Settings, paths: list[Path], *,
                embedder: Embedder | str | None = "settings") -> IndexStats:
    """Re-index just these files (the daemon's path after a note is written or removed)."""
    vault.require()
    files = [p.resolve() for p in paths if conflict_original(p.name) is None]  # never indexed
    return _run(vault, settings, files, None, embedder, full=False)


def index_after_compile(vault: Vault, settings: Settings, notes: list[Path]) -> list[str]:
    """Make freshly written notes searchable right away; returns the warnings.

    The first time (no index yet) the whole vault is indexed, so search never sees only the
    newest notes. Index trouble is reported, never raised: the notes are already written.
    """
    try:
        if vault.index_db.exists():
            stats = index_paths(vault, settings, notes)
        else:
            stats = index_vault(vault, settings)
    except VaultdError as exc:
        return [f"notes not indexed: {exc}; run `vaultd index` later"]
    return stats.warnings


def _run(vault: Vault, settings: Settings, files: Sequence[Path], progress: Progress | None,
         embedder: Embedder | str | None, *, full: bool, path: Path | None = None) -> IndexStats:
    t0 = time.perf_counter()
    stats = IndexStats()
    emb = _embedder(settings) if embedder == "settings" else embedder
    assert not isinstance(emb, str)
    db = open_index(path or vault.index_db)
    try:
        stats.vec_available = db.vec_available
        if db.vec_error:
            stats.warnings.append(db.vec_error)
        known = {str(r[0]): (int(r[1]), int(r[2])) for r in
                 db.conn.execute("SELECT path, mtime_ns, size FROM docs")}
        seen: set[str] = set()
        total = len(files)
        for i, path in enumerate(files, 1):
            rel = vault.rel(path) if path.exists() else _rel_missing(vault, path)
            seen.add(rel)
            if not path.is_file():
                if rel in known:
                    with db.transaction():
                        stats.chunks_removed += delete_doc(db, rel)
                    stats.removed += 1
                continue
            stats.files += 1
            st = path.stat()
            if known.get(rel) == (st.st_mtime_ns, st.st_size):
                continue
            with db.transaction():
                added, removed = _index_file(db, vault, path, rel, st.st_mtime, stats)
                db.conn.execute(
                    "INSERT INTO docs(path, kind, mtime_ns, size) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT(path) DO UPDATE SET kind = excluded.kind, "
                    "mtime_ns = excluded.mtime_ns, size = excluded.size",
                    (rel, _kind(vault, path), st.st_mtime_ns, st.st_size))
            stats.changed += 1
            stats.chunks_added += added
            stats.chunks_removed += removed
            if progress:
                progress(i, total)
        if full:
            for rel in set(known) - seen:
                with db.transaction():
                    stats.chunks_removed += delete_doc(db, rel)
                stats.removed += 1
        if progress:
            progress(total, total)
        if emb is not None:
            stats.provider = emb.provider
            down_until = db.get_meta(EMBED_DOWN_KEY)
            if not full and down_until and down_until > _now_iso():
                # Found unreachable a moment ago: a compile does not wait on it again; the
                # agent's index reconcile (or `vaultd index`) tries and fills the vectors.
                stats.warnings.append(f"embeddings skipped: {emb.provider} was unreachable; "
                                      f"tried again after {down_until} or by `vaultd index`")
            else:
                try:
                    stats.embedded = embed_missing(db, emb)
                    if down_until:
                        with db.transaction():
                            db.conn.execute("DELETE FROM meta WHERE key = ?", (EMBED_DOWN_KEY,))
                except VaultdError as exc:
                    stats.warnings.append(f"embeddings skipped: {exc}")
                    if exc.transient:
                        with db.transaction():
                            db.set_meta(EMBED_DOWN_KEY, _now_iso(EMBED_RETRY_SECONDS))
        with db.transaction():
            db.set_meta("last_indexed", datetime.now(UTC).isoformat(timespec="seconds"))
        stats.chunks_total = int(db.scalar("SELECT count(*) FROM chunks") or 0)
    finally:
        db.close()
    stats.seconds = round(time.perf_counter() - t0, 3)
    return stats


EMBED_DOWN_KEY = "embeddings_down_until"
#: After the embedding provider was found unreachable, incremental indexing (after each
#: compile) skips it this long; full runs always try.
EMBED_RETRY_SECONDS = 600


def _now_iso(later_seconds: float = 0.0) -> str:
    return (datetime.now(UTC) + timedelta(seconds=later_seconds)).isoformat(timespec="seconds")


def _rel_missing(vault: Vault, path: Path) -> str:
    try:
        return path.relative_to(vault.root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def _kind(vault: Vault, path: Path) -> str:
    # A paper note is named for a record in raw/, wherever in wiki/ it is filed.
    in_wiki = path.resolve().is_relative_to(vault.wiki.resolve())
    return "paper" if in_wiki and vault.meta_path(filename_to_key(path.stem)).is_file() else "note"


def _index_file(db: IndexDB, vault: Vault, path: Path, rel: str, mtime: float,
                stats: IndexStats) -> tuple[int, int]:
    text = path.read_text(encoding="utf-8", errors="replace")
    rows: list[Row] | None = None
    if _kind(vault, path) == "paper" and text.startswith("---"):
        rows = _paper(db, text, rel, mtime, stats)
    if rows is None:
        db.conn.execute("DELETE FROM papers WHERE path = ?", (rel,))
        rows = note_rows(split_sections(text), rel, path.stem, mtime,
                         kind="agent" if agent_written(text) else "note")
    return sync_doc(db, rel, rows)


def _paper(db: IndexDB, text: str, rel: str, mtime: float,
           stats: IndexStats) -> list[Row] | None:
    # lazy: vaultd.notes.reader costs 69 ms at import (pulls in yaml, sqlite3, subprocess)
    from vaultd.notes.reader import parse_note

    try:
        note = parse_note(text, source=rel)
    except NoteFormatError as exc:
        # A hand-written note in wiki/ is still the user's own text.
        if "cite_key" in text.split("\n---", 1)[0]:
            stats.warnings.append(f"{rel}: {exc}")
        return None
    m = note.meta
    db.conn.execute(
        "INSERT INTO papers(cite_key, title, authors, year, path, chunks) VALUES (?,?,?,?,?,?) "
        "ON CONFLICT(cite_key) DO UPDATE SET title = excluded.title, authors = "
        "excluded.authors, year = excluded.year, path = excluded.path, chunks = excluded.chunks",
        (m.cite_key, m.title, "; ".join(m.authors), m.year, rel, len(note.chunks)))
    return paper_rows(note, rel, mtime)


def _embedder(settings: Settings) -> Embedder | None:
    s = settings.index
    return make_embedder(s.embedding_provider, s.embedding_model,
                         ollama_host=settings.enrich.ollama_host)


def embed_missing(db: IndexDB, emb: Embedder, *, progress: Progress | None = None) -> int:
    """Embed passages with no cached vector for ``emb.model``; fill ``vec_chunks``.

    Returns how many texts were sent to the provider.
    """
    model = f"{emb.provider}:{emb.model}"
    # The passage is embedded with its title in front (SciFact: vectors 0.640 -> 0.645,
    # hybrid +0.01 nDCG@10); the cache key stays the text hash, so a retitled paper keeps
    # its old vectors until `vaultd index --rebuild`.
    todo = [(str(h), str(t)) for h, t in db.conn.execute(
        "SELECT c.hash, min(CASE WHEN c.title IS NOT NULL AND c.title != '' "
        "THEN c.title || char(10) || char(10) || c.text ELSE c.text END) "
        "FROM chunks c LEFT JOIN vectors v ON v.hash = c.hash "
        "AND v.model = ? WHERE v.hash IS NULL GROUP BY c.hash", (model,))]
    done = 0
    for start in range(0, len(todo), EMBED_BATCH):
        batch = todo[start:start + EMBED_BATCH]
        vecs = emb.embed_documents([t for _, t in batch])
        with db.transaction():
            db.conn.executemany(
                "INSERT OR REPLACE INTO vectors(hash, model, dim, vec) VALUES (?, ?, ?, ?)",
                [(h, model, len(v), pack(v)) for (h, _), v in zip(batch, vecs, strict=True)])
        done += len(batch)
        if progress:
            progress(done, len(todo))
    with db.transaction():
        db.set_meta("embed_provider", emb.provider)
        db.set_meta("embed_model", model)
        _fill_vec_table(db, model)
    return done


def _fill_vec_table(db: IndexDB, model: str) -> None:
    row = db.conn.execute("SELECT dim FROM vectors WHERE model = ? LIMIT 1", (model,)).fetchone()
    if row is None or not db.ensure_vec_table(int(row[0]), model):
        return
    have = {int(r[0]) for r in db.conn.execute("SELECT rowid FROM vec_chunks")}
    rows = [(int(rid), bytes(vec)) for rid, vec in db.conn.execute(
        "SELECT c.rowid, v.vec FROM chunks c JOIN vectors v ON v.hash = c.hash "
        "AND v.model = ?", (model,)) if int(rid) not in have]
    db.conn.executemany("INSERT INTO vec_chunks(rowid, embedding) VALUES (?, ?)", rows)
