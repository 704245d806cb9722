"""Where this machine keeps a vault's state: outside the (usually synced) vault.

Sync tools (iCloud Drive, Dropbox, OneDrive, Syncthing, Obsidian Sync) copy a SQLite
database and its ``-wal``/``-shm`` files separately and not atomically, and two machines
would both write them. So the job queue and caches (``state.db``), the search index, logs,
locks and secrets live in a per-machine directory, keyed by the vault's id: the
platform's user state directory (``~/Library/Application Support/vaultd/<id>`` on macOS,
``$XDG_STATE_HOME/vaultd/<id>`` on Linux), or ``$VAULTD_STATE_DIR/<id>``. The vault keeps
what syncs safely: notes, ``raw/``, ``library.bib``, ``.vaultd/config.toml``, rules and
``.vaultd/vault-id``.

A vault from before this layout is moved on first use: its ``.vaultd/state.db`` (with
its WAL files), ``index.db``, ``logs/``, ``secrets/`` and the bridge's records go to the
machine directory, so the queue, capture records and enrichment cache are kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import shutil
import threading
import uuid
from pathlib import Path

log = logging.getLogger("vaultd")

STATE_ENV = "VAULTD_STATE_DIR"
ID_FILE = "vault-id"
#: What a vault of an older layout kept in ``.vaultd/`` that belongs to the machine.
MOVED = ("state.db", "state.db-wal", "state.db-shm", "index.db", "index.db-wal",
         "index.db-shm", "logs", "secrets", "bridge")

_lock = threading.Lock()
_cache: dict[Path, Path] = {}


def state_home() -> Path:
    override = os.environ.get(STATE_ENV)
    if override:
        return Path(override).expanduser()
    # lazy: platformdirs costs 17 ms at import
    import platformdirs

    return Path(platformdirs.user_state_dir("vaultd", appauthor=False))


def vault_id(vault_dir: Path) -> str:
    """The vault's id, made on first use (``.vaultd/vault-id``; it syncs with the vault, so
    each machine finds its own state for the same vault). A vault that cannot be written
    gets an id from its path."""
    path = vault_dir / ID_FILE
    with contextlib.suppress(OSError):
        value = path.read_text(encoding="utf-8").strip()
        if value:
            return value
    value = uuid.uuid4().hex
    try:
        tmp = path.with_name(f".{ID_FILE}.{os.getpid()}.tmp")
        tmp.write_text(value + "\n", encoding="utf-8")
        tmp.replace(path)
    except OSError:
        return "path-" + hashlib.sha256(str(vault_dir.resolve()).encode()).hexdigest()[:24]
    return value


def machine_dir(vault_dir: Path) -> Path:
    """This machine's state directory for the vault whose ``.vaultd/`` is ``vault_dir``;
    created, and an older layout moved into it, on first use."""
    cached = _cache.get(vault_dir)  # every state_db/index_db access: no syscall when known
    if cached is not None:
        return cached
    key = vault_dir.resolve() if vault_dir.exists() else vault_dir
    with _lock:
        cached = _cache.get(key)
        if cached is not None:
            _cache[vault_dir] = cached
            return cached
        if not vault_dir.is_dir():  # no vault (yet): a path, nothing made
            return state_home() / "no-vault"
        target = state_home() / vault_id(vault_dir)
        target.mkdir(parents=True, exist_ok=True, mode=0o700)
        _move_old_layout(vault_dir, target)
        _cache[key] = _cache[vault_dir] = target
        return target


def _move_old_layout(vault_dir: Path, target: Path) -> None:
    for name in MOVED:
        old, new = vault_dir / name, target / name
        if not (old.exists() or old.is_symlink()) or new.exists():
            continue
        try:
            shutil.move(str(old), str(new))
        except OSError as exc:  # a read-only vault: its state is left, and read from the new place
            log.warning("could not move %s to %s: %s", old, new, exc)
            continue
        log.info("moved %s out of the vault to %s (machine state is not synced)", old, new)


def forget_cache() -> None:
    """For tests that swap the state home between vaults of the same path."""
    with _lock:
        _cache.clear()


#: Folder names that mean a sync tool owns what is below them.
_SYNC_DIRS = {"Mobile Documents": "iCloud Drive", "iCloud Drive": "iCloud Drive",
              "Dropbox": "Dropbox", "OneDrive": "OneDrive", "Google Drive": "Google Drive",
              "GoogleDrive": "Google Drive", "pCloudDrive": "pCloud", "Nextcloud": "Nextcloud",
              "ownCloud": "ownCloud"}


def synced_by(root: Path) -> str | None:
    """The sync tool the vault at ``root`` seems to live under, if any: a known sync
    folder among its parents, a Syncthing folder marker (``.stfolder``), or Obsidian
    Sync's settings in the vault."""
    resolved = root.resolve()
    for part in resolved.parts:
        if part in _SYNC_DIRS or part.startswith(("OneDrive - ", "Dropbox (")):
            return _SYNC_DIRS.get(part, part.split(" ")[0])
    for folder in (resolved, *resolved.parents):
        if (folder / ".stfolder").exists():
            return "Syncthing"
    if (resolved / ".obsidian" / "sync.json").exists():
        return "Obsidian Sync"
    return None
