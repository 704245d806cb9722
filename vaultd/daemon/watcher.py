"""Watch ``Inbox/`` and ``wiki/``; report inbox files once they are complete.

The debounce is pure (``Debouncer.step`` takes the stats and the clock) so it is unit
tested without a filesystem; ``InboxWatcher`` feeds it from watchdog events plus a rescan.
"""

from __future__ import annotations

import fnmatch
import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

IGNORED_SUFFIXES = (".crdownload", ".part", ".download", ".tmp")
IGNORED_GLOBS = ("~$*", ".DS_Store", ".~lock*")
ICLOUD_SUFFIX = ".icloud"
SF_DATALESS = 0x40000000  # macOS st_flags bit: content not downloaded yet
READ_ONLY_EVENTS = frozenset({"opened", "closed_no_write"})  # watchdog's event_type names


@dataclass(frozen=True)
class FileStat:
    size: int
    mtime_ns: int
    dataless: bool = False
    # ctime changes when a file is renamed into the inbox: the same file dropped again
    # later (even with its mtime preserved) is a new job, while repeated events are not.
    ctime_ns: int = 0

    @property
    def fingerprint(self) -> str:
        return f"{self.size}:{self.mtime_ns}:{self.ctime_ns}"


def is_ignored_name(name: str) -> bool:
    """Temporary, partial-download and system names that are never inbox items."""
    lower = name.lower()
    if lower.endswith(IGNORED_SUFFIXES) or lower.endswith(ICLOUD_SUFFIX):
        return True
    if name.startswith(".") and not lower.endswith(ICLOUD_SUFFIX):
        return True  # hidden files (our own temp files, editor swap files)
    return any(fnmatch.fnmatchcase(name, g) for g in IGNORED_GLOBS)


def icloud_target(name: str) -> str | None:
    """``.paper.pdf.icloud`` → ``paper.pdf`` (the file iCloud will download)."""
    if name.startswith(".") and name.endswith(ICLOUD_SUFFIX):
        return name[1 : -len(ICLOUD_SUFFIX)] or None
    return None


def stat_file(path: Path) -> FileStat | None:
    """The file's stat, or None when it is gone or not a regular file."""
    try:
        st = path.stat()
    except FileNotFoundError:
        # A dangling symlink is still an item (it fails cleanly and moves to _failed/).
        if path.is_symlink():
            return FileStat(0, 0)
        return None
    except OSError:
        return FileStat(0, 0)
    if not path.is_file():
        return None
    dataless = bool(getattr(st, "st_flags", 0) & SF_DATALESS)
    return FileStat(st.st_size, st.st_mtime_ns, dataless, st.st_ctime_ns)


@dataclass
class _Pending:
    stat: FileStat | None
    since: float


@dataclass
class Debouncer:
    """Paths become ready once their size and mtime stay unchanged for ``window`` s."""

    window: float
    pending: dict[Path, _Pending] = field(default_factory=dict)

    def touch(self, path: Path) -> None:
        """An event for ``path``: (re)start waiting unless it is already pending."""
        if path not in self.pending:
            self.pending[path] = _Pending(stat=None, since=float("-inf"))

    def step(self, stats: dict[Path, FileStat | None], now: float) -> list[tuple[Path, FileStat]]:
        """Advance with fresh stats for the pending paths; return those now complete."""
        ready: list[tuple[Path, FileStat]] = []
        # Only the paths that were stat'ed: one touched after the caller took its snapshot
        # stays pending for the next step (it must not be mistaken for a vanished file).
        for path in [p for p in stats if p in self.pending]:
            entry = self.pending[path]
            current = stats[path]
            if current is None:
                del self.pending[path]  # vanished (moved away, renamed, deleted)
                continue
            if current.dataless:
                entry.stat, entry.since = current, now
                continue
            if entry.stat != current:
                entry.stat, entry.since = current, now
                if self.window > 0:
                    continue
            if now - entry.since >= self.window:
                ready.append((path, current))
                del self.pending[path]
        return ready


def scan_inbox(inbox: Path) -> list[Path]:
    """Every candidate file in the inbox (top level and subfolders, not ``_failed/``)."""
    found: list[Path] = []
    if not inbox.is_dir():
        return found
    for dirpath, dirnames, filenames in os.walk(inbox):
        dirnames[:] = [d for d in dirnames if not d.startswith(("_", "."))]
        for name in filenames:
            if not is_ignored_name(name):
                found.append(Path(dirpath) / name)
    return found


def _in_inbox(path: Path, inbox: Path) -> bool:
    try:
        rel = path.relative_to(inbox)
    except ValueError:
        return False
    return not any(part.startswith(("_", ".")) for part in rel.parts[:-1])


class InboxWatcher:
    """watchdog observer on Inbox/ and wiki/, feeding the debouncer and a wiki-change set."""

    def __init__(self, inbox: Path, wiki: Path, debounce_seconds: float,
                 on_wiki_change: Callable[[Path], None] | None = None) -> None:
        self.inbox = inbox
        self.wiki = wiki
        self.debouncer = Debouncer(debounce_seconds)
        self._lock = threading.Lock()
        self._on_wiki_change = on_wiki_change
        self._observer: Any = None

    def _event(self, paths: Iterable[str]) -> None:
        for raw in paths:
            if not raw:
                continue
            path = Path(raw)
            if _in_inbox(path, self.inbox):
                if icloud_target(path.name) or is_ignored_name(path.name):
                    continue
                with self._lock:
                    self.debouncer.touch(path)
            elif self._on_wiki_change and path.suffix == ".md" and self.wiki in path.parents:
                self._on_wiki_change(path)

    def start(self) -> None:
        # lazy: watchdog costs 75 ms at import
        from watchdog.events import FileSystemEvent, FileSystemEventHandler

        # lazy: watchdog costs 75 ms at import
        from watchdog.observers import Observer

        outer = self

        class Handler(FileSystemEventHandler):
            def on_any_event(self, event: FileSystemEvent) -> None:
                # Reads (ours included: a job opening its file) are not changes; an event
                # for them could queue the same file again after its job has failed.
                if event.is_directory or event.event_type in READ_ONLY_EVENTS:
                    return
                outer._event([str(event.src_path), str(getattr(event, "dest_path", "") or "")])

        self.inbox.mkdir(parents=True, exist_ok=True)
        self.wiki.mkdir(parents=True, exist_ok=True)
        observer = Observer()
        observer.schedule(Handler(), str(self.inbox), recursive=True)
        observer.schedule(Handler(), str(self.wiki), recursive=True)
        observer.daemon = True
        observer.start()
        self._observer = observer
        self.rescan()

    def rescan(self) -> None:
        """Pick up files dropped while the service was down (or events that were lost)."""
        for path in scan_inbox(self.inbox):
            with self._lock:
                self.debouncer.touch(path)

    def poll(self, now: float) -> list[tuple[Path, FileStat]]:
        with self._lock:
            paths = list(self.debouncer.pending)
        stats = {p: stat_file(p) for p in paths}
        with self._lock:
            return self.debouncer.step(stats, now)

    def has_pending(self) -> bool:
        with self._lock:
            return bool(self.debouncer.pending)

    def stop(self, timeout: float = 2.0) -> None:
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout)
            self._observer = None
