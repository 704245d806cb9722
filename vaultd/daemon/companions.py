"""Servers the agent runs beside its loop while it holds the vault.

The browser bridge and MCP over HTTP are other interfaces: the daemon never imports them.
`vaultd run` (the composition root, ``cli/run_cmd``) builds a :class:`Companion` for each
one enabled and hands them to the daemon, which builds and starts them once it holds the
vault lock (so a second agent never takes their ports) and stops them at shutdown.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from vaultd.errors import VaultdError

log = logging.getLogger("vaultd.daemon")


class Server(Protocol):
    """A loopback server in a thread of its own."""

    @property
    def url(self) -> str: ...

    def start(self) -> None: ...

    def stop(self) -> None: ...


@dataclass(frozen=True)
class Companion:
    """How to build one server, and what to call it."""

    label: str  # named in the warning when it cannot start ("browser bridge")
    build: Callable[[], Server]  # binds its port; a VaultdError: the agent runs on without it
    meta_key: str | None = None  # state.db meta: where it listens (read by status and MCP)


def start_companions(companions: Iterable[Companion],
                     set_meta: Callable[[str, dict[str, Any]], None]) -> list[Server]:
    """Build and start each server; the ones that started, in order."""
    started: list[Server] = []
    for companion in companions:
        try:
            server = companion.build()
        except VaultdError as exc:
            log.warning("%s not started: %s", companion.label, exc)
            continue
        server.start()
        if companion.meta_key is not None:
            set_meta(companion.meta_key, {"url": server.url, "pid": os.getpid()})
        started.append(server)
    return started
