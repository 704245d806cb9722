"""Which index database is the live one, so a rebuild swaps in a whole new index at once.

``vaultd index --rebuild`` never deletes the database readers have open. It builds a new
generation beside it (``index-<stamp>.db`` in the machine state directory), then points
``index.current`` (a one-line file, replaced atomically) at it. A reader resolves the
pointer when it opens the index, and a long-lived reader (an MCP server, the agent)
checks it before each query and reopens when it moved (``IndexDB.current``). The
generation before stays on disk until the next rebuild, so a query already running on it
finishes on a file that still exists; older generations and their ``-wal``/``-shm`` files
are removed. A database file is never renamed: SQLite would pair a renamed file with the
wrong write-ahead log.

Before the first rebuild there is no pointer, and the index is ``index.db`` (the layout of
earlier versions).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import secrets
from pathlib import Path

POINTER = "index.current"
LEGACY = "index.db"
_SUFFIXES = ("", "-wal", "-shm", "-journal")


def current_index(machine_dir: Path) -> Path:
    """The live index database of a machine state directory (it may not exist yet)."""
    try:
        name = (machine_dir / POINTER).read_text(encoding="utf-8").strip()
    except (FileNotFoundError, NotADirectoryError):
        return machine_dir / LEGACY
    except OSError:  # unreadable pointer: the legacy name, and the rebuild rewrites it
        return machine_dir / LEGACY
    if not name or "/" in name or "\\" in name or not name.endswith(".db"):
        return machine_dir / LEGACY
    return machine_dir / name


def new_generation(machine_dir: Path) -> Path:
    """A fresh database path for a rebuild (not created)."""
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S")
    return machine_dir / f"index-{stamp}-{secrets.token_hex(3)}.db"


def activate(machine_dir: Path, fresh: Path) -> list[Path]:
    """Make ``fresh`` the live index (atomic pointer swap) and remove the generations
    before the one it replaces; returns the files removed."""
    previous = current_index(machine_dir)
    tmp = machine_dir / f".{POINTER}.{secrets.token_hex(4)}"
    with tmp.open("w", encoding="utf-8") as fh:
        fh.write(fresh.name + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    tmp.replace(machine_dir / POINTER)
    with contextlib.suppress(OSError):  # the rename itself made durable
        fd = os.open(machine_dir, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    keep = {fresh.name, previous.name}
    removed: list[Path] = []
    for path in machine_dir.iterdir():
        base = _database_of(path.name)
        if base is not None and base not in keep:
            with contextlib.suppress(OSError):
                path.unlink()
                removed.append(path)
    return removed


def _database_of(name: str) -> str | None:
    """The index database a file belongs to (``index-….db-wal`` → ``index-….db``)."""
    for suffix in _SUFFIXES:
        if suffix and not name.endswith(suffix):
            continue
        base = name[: len(name) - len(suffix)] if suffix else name
        if base == LEGACY or (base.startswith("index-") and base.endswith(".db")):
            return base
    return None
