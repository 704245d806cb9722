"""MCP over streamable HTTP on 127.0.0.1, behind a bearer token (docs/mcp.md, "HTTP").

Served by the running agent (``vaultd run``, ``[mcp] port``), where the index and the
citation processor stay warm between calls, or alone by ``vaultd mcp --http PORT``.
Every request passes :class:`McpGate` first: Host must be ``127.0.0.1:<port>`` or
``localhost:<port>`` (DNS rebinding), a request with an ``Origin`` is refused (agents
send none; a web page does), and ``Authorization: Bearer <token>`` must carry the
vault's MCP token (``vaultd mcp token``). The SDK's own DNS-rebinding guard stays on
behind it.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from vaultd import secrets
from vaultd.config import Settings
from vaultd.loopback import (
    ASGIApp,
    LoopbackServer,
    Receive,
    Scope,
    Send,
    bind_loopback,
    header,
)
from vaultd.loopback.guard import Refusal, check_host, check_token
from vaultd.mcp.server import build_server
from vaultd.vault import Vault

log = logging.getLogger("vaultd.mcp")

MCP_PATH = "/mcp"
SERVED = "vaultd's MCP endpoint"
TOKEN_REFUSED = ("missing or wrong MCP token: add the header 'Authorization: Bearer <token>' "
                 "(vaultd mcp token)")


def mcp_token(vault: Vault, *, reset: bool = False) -> str:
    return secrets.token(vault, "mcp", reset=reset)


class McpGate:
    """ASGI middleware: Host, Origin and token, before the SDK sees the request."""

    def __init__(self, app: ASGIApp, port: int, token: str) -> None:
        self.app, self.port, self.token = app, port, token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        origin = header(scope, b"origin")
        refusal = check_host(header(scope, b"host"), self.port, SERVED)
        if refusal is None and origin is not None:
            refusal = Refusal(403, f"origin {origin} may not use {SERVED}")
        if refusal is None:
            refusal = check_token(header(scope, b"authorization"), self.token, TOKEN_REFUSED)
        if refusal is not None:
            body = json.dumps({"error": refusal.error}).encode()
            await send({"type": "http.response.start", "status": refusal.status,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)


class McpHttpServer:
    """The vault's MCP server on ``127.0.0.1:<port>`` (``port=0``: any free port)."""

    def __init__(self, vault: Vault, settings: Settings | None, *, port: int | None = None,
                 warm: bool = False) -> None:
        # lazy: mcp costs 1292 ms at import
        from mcp.server.transport_security import TransportSecuritySettings


        want = port if port is not None else (settings.mcp.port if settings else 7601)
        sock = bind_loopback(want, "[mcp] port")
        self.port = int(sock.getsockname()[1])
        self.server = build_server(vault, settings)
        hosts = [f"127.0.0.1:{self.port}", f"localhost:{self.port}"]
        app = self.server.streamable_http_app(
            streamable_http_path=MCP_PATH,
            transport_security=TransportSecuritySettings(
                enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=[]))
        self.token = mcp_token(vault)
        self._loop = LoopbackServer(McpGate(app, self.port, self.token), sock, lifespan="on",
                                    name="vaultd-mcp")
        self.warm = warm

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{MCP_PATH}"

    def start(self) -> None:
        self._loop.start()
        log.info("MCP on %s", self.url)

    def stop(self) -> None:
        self._loop.stop()


def client_config(url: str, token: str) -> dict[str, Any]:
    """The JSON an MCP client's config takes for this endpoint (docs/mcp.md)."""
    return {"mcpServers": {"vaultd": {"type": "http", "url": url,
                                      "headers": {"Authorization": f"Bearer {token}"}}}}
