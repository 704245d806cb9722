"""Capture records: which arXiv id / DOI / PDF bytes already have a cite key.

The ``captures`` table in state.db is an index over ``raw/*.meta.json``; it is rebuilt
from those files whenever they disagree in number (e.g. after state.db was deleted), so
idempotency survives losing the database.
"""

from __future__ import annotations

import contextlib
import fcntl
import sqlite3
from collections.abc import Iterator

from vaultd import record_store
from vaultd.citekey import filename_to_key
from vaultd.models import MetaFile
from vaultd.vault import Vault


def record(db: sqlite3.Connection, meta: MetaFile) -> None:
    with db:
        db.execute(
            "INSERT OR REPLACE INTO captures(cite_key, doi, arxiv_id, pdf_sha256, doi_preprint, "
            "doi_published, captured_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (meta.cite_key, meta.doi, meta.arxiv_id, meta.pdf_sha256, meta.work.doi_preprint,
             meta.work.doi_published, meta.captured_at),
        )


def sync(vault: Vault, db: sqlite3.Connection) -> None:
    """Rebuild the index from raw/*.meta.json when the two disagree."""
    files = record_store.paths(vault)
    (count,) = db.execute("SELECT count(*) FROM captures").fetchone()
    if count == len(files):
        return
    with db:
        db.execute("DELETE FROM captures")
    for f in files:
        meta = record_store.read_path(f)
        if meta is not None:
            record(db, meta)


def find(db: sqlite3.Connection, *, doi: str | None = None, arxiv_id: str | None = None,
         pdf_sha256: str | None = None) -> str | None:
    """The cite key already holding this arXiv id, DOI (either version) or PDF, if any."""
    checks: list[tuple[str, str]] = []
    if arxiv_id:
        checks.append(("arxiv_id = ?", arxiv_id))
    if doi:
        doi = doi.lower()
        checks += [("doi = ?", doi), ("doi_preprint = ?", doi), ("doi_published = ?", doi)]
    if pdf_sha256:
        checks.append(("pdf_sha256 = ?", pdf_sha256))
    for where, value in checks:
        row = db.execute(f"SELECT cite_key FROM captures WHERE {where}", (value,)).fetchone()
        if row is not None:
            return str(row[0])
    return None


def taken_keys(vault: Vault, db: sqlite3.Connection | None) -> set[str]:
    """Every key a new record may not take: records (by the state database, when given,
    and by their files), PDFs, notes, and the aliases records keep (another key of their
    work, `vaultd import`)."""
    keys = {str(r[0]) for r in db.execute("SELECT cite_key FROM captures")} if db else set()
    keys |= set(record_store.aliases(vault))
    stems = [p.name.removesuffix(record_store.META_SUFFIX) for p in record_store.paths(vault)]
    stems += [p.stem for p in vault.raw.glob("*.pdf")]
    # A new key must not land on any note in wiki/ (the user's own included): keys are
    # file names there.
    stems += [p.stem for p in vault.wiki.rglob("*.md")] if vault.wiki.is_dir() else []
    return keys | {filename_to_key(s) for s in stems}


@contextlib.contextmanager
def capture_lock(vault: Vault) -> Iterator[None]:
    """Exclusive across processes and threads while a key is chosen and written (short)."""
    vault.state_dir.mkdir(parents=True, exist_ok=True)
    with (vault.machine_dir / "capture.lock").open("a") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
