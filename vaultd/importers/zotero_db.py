"""Zotero's database, read without ever writing it: a private copy, opened read-only.

Zotero keeps ``zotero.sqlite`` open (and locked) while it runs, may hold recent writes in
``zotero.sqlite-wal`` or a half-written transaction's old pages in
``zotero.sqlite-journal``. Opening the file itself would take SQLite locks on Zotero's file
and may create ``-wal``/``-shm`` files in Zotero's folder; opening it with
``immutable=1`` would skip the WAL and miss recent writes. So ``snapshot`` copies the
database with its ``-wal`` and ``-journal`` into a temporary folder (again, up to three
times, if any of them changed while it was copied), lets SQLite recover the copy (roll back
a hot journal, fold the WAL in), and opens the copy read-only. Zotero's files are only
read, never locked, never written.

``open_zotero`` adds the schema check: the ``userdata`` version in the database's
``version`` table must be one vaultd knows (Zotero 6 to 10); another is refused in one
line. The same copy-then-read serves Better BibTeX's ``better-bibtex.sqlite``.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from vaultd.errors import InputError

#: ``userdata`` schema versions vaultd reads, and the Zotero that writes each
#: (zotero/zotero ``resource/schema/userdata.sql`` at the release tags).
KNOWN_USERDATA: dict[int, str] = {
    120: "Zotero 6.0", 121: "Zotero 6.0", 122: "Zotero 7 (development)", 123: "Zotero 7 and 8",
    124: "Zotero 9 (development)", 125: "Zotero 9", 126: "Zotero 10 (development)",
    127: "Zotero 10 (development)", 128: "Zotero 10 (development)", 129: "Zotero 10",
}
MIN_USERDATA = min(KNOWN_USERDATA)
MAX_USERDATA = max(KNOWN_USERDATA)
COPY_ATTEMPTS = 3
_COMPANIONS = ("-wal", "-journal")


def default_data_dir(home: Path | None = None, environ: dict[str, str] | None = None,
                     platform: str | None = None) -> Path:
    """Zotero's default data folder: ``~/Zotero`` on macOS, Linux and Windows (Zotero 5 and
    later; on Windows under ``%USERPROFILE%``)."""
    env = os.environ if environ is None else environ
    plat = sys.platform if platform is None else platform
    if plat.startswith("win") and env.get("USERPROFILE"):
        return Path(env["USERPROFILE"]) / "Zotero"
    return (home or Path.home()) / "Zotero"


def _state(db: Path) -> tuple[tuple[str, int, int], ...]:
    out = []
    for suffix in ("", *_COMPANIONS):
        path = Path(str(db) + suffix)
        try:
            st = path.stat()
        except FileNotFoundError:
            continue
        out.append((suffix, st.st_size, st.st_mtime_ns))
    return tuple(out)


def _copy(db: Path, folder: Path) -> Path:
    """Copy ``db`` and its companions into ``folder``; retried while they change."""
    target = folder / db.name
    for _ in range(COPY_ATTEMPTS):
        before = _state(db)
        for suffix in _COMPANIONS:
            Path(str(target) + suffix).unlink(missing_ok=True)
        for suffix, _size, _mtime in before:
            try:
                shutil.copyfile(str(db) + suffix, str(target) + suffix)
            except FileNotFoundError:
                break  # a companion went away while copying: try again
            except OSError as exc:
                raise InputError(f"{db}: cannot be read ({exc.strerror or exc}); check its "
                                 "permissions") from exc
        else:
            if _state(db) == before:
                return target
    raise InputError(f"{db}: kept changing while it was copied ({COPY_ATTEMPTS} tries); try "
                     "again when Zotero is idle (or quit Zotero)")


def _recover(copy: Path, original: Path) -> None:
    """Let SQLite bring the private copy to its last committed state, and leave it in
    rollback-journal mode so it can be opened read-only without a ``-shm`` file."""
    try:
        conn = sqlite3.connect(copy)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            conn.execute("PRAGMA journal_mode=DELETE").fetchone()
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise InputError(f"{original}: not a readable SQLite database ({exc}); if Zotero opens "
                         "it, try again, else restore it from Zotero's backup "
                         "(zotero.sqlite.bak)") from exc


@contextmanager
def snapshot(db: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection to a private, consistent copy of ``db`` (removed on exit)."""
    if not db.is_file():
        raise InputError(f"{db}: no such database; give Zotero's data folder (the one holding "
                         "zotero.sqlite and storage/)")
    with tempfile.TemporaryDirectory(prefix="vaultd-zotero-") as tmp:
        copy = _copy(db, Path(tmp))
        _recover(copy, db)
        conn = sqlite3.connect(f"{copy.as_uri()}?mode=ro&immutable=1", uri=True)
        conn.row_factory = sqlite3.Row
        try:
            yield conn
        except sqlite3.DatabaseError as exc:
            raise InputError(f"{db}: could not be read ({exc}); if Zotero opens it, try again, "
                             "else restore it from Zotero's backup") from exc
        finally:
            conn.close()


def userdata_version(conn: sqlite3.Connection, db: Path) -> int:
    """The database's ``userdata`` schema version, refused in one line unless known."""
    try:
        row = conn.execute("SELECT version FROM version WHERE schema = 'userdata'").fetchone()
    except sqlite3.DatabaseError as exc:
        raise InputError(f"{db}: not a Zotero database (no schema version: {exc}); give "
                         "Zotero's data folder (the one holding zotero.sqlite)") from exc
    if row is None:
        raise InputError(f"{db}: not a Zotero database (no userdata schema version); give "
                         "Zotero's data folder (the one holding zotero.sqlite)")
    version = int(row[0])
    if version > MAX_USERDATA:
        raise InputError(
            f"{db}: Zotero database schema version {version} is newer than vaultd knows "
            f"(it reads {MIN_USERDATA}–{MAX_USERDATA}: Zotero 6 to 10); update vaultd, or "
            "export the library from Zotero as Better BibTeX JSON and import that file")
    if version < MIN_USERDATA:
        raise InputError(
            f"{db}: Zotero database schema version {version} is older than vaultd reads "
            f"({MIN_USERDATA}–{MAX_USERDATA}: Zotero 6 to 10); open the library once in a "
            "current Zotero to upgrade it, then import again")
    return version


@contextmanager
def open_zotero(db: Path) -> Iterator[tuple[sqlite3.Connection, int]]:
    """A read-only snapshot of Zotero's database and its checked schema version."""
    with snapshot(db) as conn:
        yield conn, userdata_version(conn, db)
