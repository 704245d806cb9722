"""One agent per vault: the lock `vaultd run` holds, and the probe that asks who holds it.

The lock is an ``flock`` on ``<machine state dir>/vaultd.lock``: the OS drops it when the
process dies, so a killed agent never leaves a stale lock behind. The probe (`vaultd
status`, the MCP ``status`` tool, tests waiting for an agent) takes a shared lock and lets
go at once, so it never keeps an agent from starting.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from typing import IO, Any

from vaultd.errors import VaultError
from vaultd.vault import Vault

LOCK_FILE = "vaultd.lock"


@contextlib.contextmanager
def vault_lock(vault: Vault) -> Iterator[IO[str]]:
    """Exclusive, non-blocking lock on the vault (one `vaultd run` per vault); the file
    names the holder (``pid N``) for the next process that finds it taken."""
    fh = (vault.machine_dir / LOCK_FILE).open("a+", encoding="utf-8")
    try:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            fh.seek(0)
            holder = fh.read().strip() or "another process"
            raise VaultError(
                f"vault {vault.root} is in use by {holder}; stop that process first (`vaultd service uninstall` if it runs as a login service, else end it with Ctrl-C or `kill`)"
            ) from exc
        fh.seek(0)
        fh.truncate()
        fh.write(f"pid {os.getpid()}\n")
        fh.flush()
        yield fh
    finally:
        fh.close()


def service_running(vault: Vault) -> dict[str, Any]:
    """Probe the lock without taking it over (a shared, non-blocking try):
    ``{"running": True, "holder": "pid N"}`` while an agent holds it, else ``{"running": False}``."""
    path = vault.machine_dir / LOCK_FILE
    if not path.exists():
        return {"running": False}
    with path.open("r", encoding="utf-8") as fh:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = fh.read().strip()
            return {"running": True, "holder": holder or None}
        fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
    return {"running": False}
