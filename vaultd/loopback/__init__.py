"""An ASGI app served on 127.0.0.1 in a thread of its own (the bridge, MCP over HTTP).

What the loopback servers share lives in this package, so neither imports the other:
serving (here), who may talk to them (`guard`: Host and token checks) and the client a
local program uses to reach the running bridge (`client`).

The socket is bound here, before the thread starts, so a port in use is a clear error at
once (and port 0 gives a free port, known right away). ``TCP_NODELAY``: without it a
response written in two parts waits for the client's delayed ACK (~40 ms per request).
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import uvicorn

from vaultd.errors import VaultdError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def header(scope: Scope, name: bytes) -> str | None:
    """An ASGI request's header (``name`` lower-case bytes), or None."""
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


class PortError(VaultdError):
    """The port cannot be listened on."""


def bind_loopback(port: int, setting: str) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as exc:
        sock.close()
        raise PortError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}; is another "
                        f"vaultd using it? Set {setting} in .vaultd/config.toml") from exc
    sock.listen(64)
    return sock


class LoopbackServer:
    """``app`` on a bound loopback socket, served by uvicorn in a daemon thread."""

    def __init__(self, app: ASGIApp, sock: socket.socket, *, lifespan: str = "off",
                 name: str = "vaultd-loopback") -> None:
        self._sock = sock
        self.port = int(sock.getsockname()[1])
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan=lifespan,  # type: ignore[arg-type]
                                ws="websockets-sansio", ws_max_size=8 * 2**20)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def _run(self) -> None:
        asyncio.run(self._server.serve(sockets=[self._sock]))

    def start(self) -> None:
        self._thread.start()
        while not self._server.started and self._thread.is_alive():
            threading.Event().wait(0.01)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(5)
        self._sock.close()
