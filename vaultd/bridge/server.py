"""The bridge's HTTP and WebSocket server on 127.0.0.1 (docs/bridge.md).

A Starlette app served by uvicorn in a thread of its own, inside ``vaultd run`` or alone
(``vaultd bridge``). Every request passes :class:`Gate` first: Host, Origin, rate, body
size and token, in that order; a refused request does nothing else.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from typing import Any

from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from vaultd import __version__, secrets
from vaultd.bridge import guard
from vaultd.bridge.actions import (
    ActionError,
    ExtensionLink,
    capped_result,
    first_problem,
    parse_command,
)
from vaultd.bridge.clips import CaptureRequest, ClipError, plan_clip, write_clip
from vaultd.bridge.lookup import Lookup
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
from vaultd.vault import Vault

log = logging.getLogger("vaultd.bridge")

HELLO_TIMEOUT = 5.0


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


class Gate:
    """ASGI middleware: refuse before anything runs (docs/bridge.md, "What is refused")."""

    def __init__(self, app: ASGIApp, bridge: Bridge) -> None:
        self.app = app
        self.bridge = bridge

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        b = self.bridge
        origin = header(scope, b"origin")
        refusal = (check_host(header(scope, b"host"), b.port, guard.SERVED)
                   or guard.check_origin(origin, b.paired))
        client = origin or "local"
        if refusal is None and scope["type"] == "http":
            refusal = b.limiter.check(client)
            if refusal is None and scope["method"] == "OPTIONS":
                refusal = Refusal(403, "the bridge grants no CORS preflight")
            length = header(scope, b"content-length")
            if refusal is None and length is not None and length.isdigit() \
                    and int(length) > b.max_body:
                refusal = Refusal(413, f"the body is over the {b.max_body // 2**20} MB "
                                       "limit ([bridge] max_capture_mb)")
            if refusal is None:
                refusal = check_token(header(scope, b"authorization"), b.token,
                                      guard.TOKEN_REFUSED)
        if refusal is not None:
            if scope["type"] == "websocket":
                await self._refuse_socket(refusal, origin, receive, send)
                return
            headers = ({"Retry-After": str(b.limiter.retry_after(client))}
                       if refusal.status == 429 else None)
            await _error(refusal.status, refusal.error, headers)(scope, receive, send)
            return
        if scope["type"] == "http" and guard.pairs(origin, b.paired):
            b.pair(origin)  # type: ignore[arg-type]
        await self.app(scope, receive, send)


    @staticmethod
    async def _refuse_socket(refusal: Refusal, origin: str | None, receive: Receive,
                             send: Send) -> None:
        """A web page's socket fails at the handshake (HTTP 403/421). Another extension
        is told why (close code 4403), so it can say "paired with another extension"."""
        if refusal.status == 403 and origin and origin.startswith(guard.EXTENSION_SCHEME):
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": 4403, "reason": refusal.error[:120]})
            return
        await send({"type": "websocket.close", "code": 4000 + refusal.status})


class Bridge:
    """The bridge's state: who is paired, the connected extension, the lookup cache."""

    def __init__(self, vault: Vault, settings: Settings, *, agent: bool) -> None:
        self.vault = vault
        self.settings = settings
        self.agent = agent
        self.port = settings.bridge.port
        self.token = secrets.bridge_token(vault)
        self.paired = secrets.paired_origin(vault)
        self.max_body = settings.bridge.max_capture_mb * 2**20
        self.limiter = guard.RateLimiter(settings.bridge.requests_per_minute)
        self.lookup = Lookup(vault)
        self.link: ExtensionLink | None = None

    def pair(self, origin: str) -> None:
        secrets.pair(self.vault, origin)
        self.paired = origin
        log.info("bridge paired with %s", origin)

    async def _body(self, request: Request) -> Any:
        data = bytearray()
        async for part in request.stream():  # no Content-Length (chunked): cap as it comes
            data += part
            if len(data) > self.max_body:
                raise ActionError(413, f"the body is over the {self.max_body // 2**20} MB limit")
        try:
            return json.loads(data)
        except ValueError as exc:
            raise ActionError(400, "the body is not JSON") from exc

    async def status(self, request: Request) -> Response:
        return JSONResponse({
            "vaultd": __version__, "vault": self.vault.root.name, "agent": self.agent,
            "paired": self.paired is not None, "extension_connected": self.link is not None,
            "agent_actions": self.settings.bridge.agent_actions})

    async def capture(self, request: Request) -> Response:
        try:
            req = CaptureRequest.model_validate(await self._body(request))
            clip = plan_clip(req)
            path = await asyncio.to_thread(write_clip, self.vault, clip)
        except ActionError as exc:
            return _error(exc.status, str(exc))
        except ValidationError as exc:
            return _error(422, f"capture: {first_problem(exc)}")
        except ClipError as exc:
            return _error(422, str(exc))
        except OSError as exc:
            return _error(507, f"cannot write into Inbox/: {exc.strerror or exc}")
        await asyncio.to_thread(self.lookup.record, clip.url, path.name,
                                hashlib.sha256(clip.data).hexdigest())
        log.info("capture from the extension: %s → Inbox/%s", clip.url, path.name)
        return JSONResponse({"saved": f"Inbox/{path.name}", "kind": clip.kind}, status_code=202)

    async def find(self, request: Request) -> Response:
        q = request.query_params
        if set(q) - {"url", "doi", "arxiv"} or not any(q.get(k) for k in ("url", "doi", "arxiv")):
            return _error(422, "ask /lookup?url=… or ?doi=… or ?arxiv=…")
        found = await asyncio.to_thread(self.lookup.find, url=q.get("url"), doi=q.get("doi"),
                                        arxiv=q.get("arxiv"))
        return JSONResponse(found)

    async def command(self, request: Request) -> Response:
        try:
            verb, params = parse_command(await self._body(request))
            if not self.settings.bridge.agent_actions:
                raise ActionError(403, "agent actions are off: set `agent_actions = true` "
                                       "under [bridge] in .vaultd/config.toml")
            link = self.link
            if link is None:
                raise ActionError(503, "no extension is connected; open Chrome with the "
                                       "vaultd extension paired")
            link.check(verb, params)
            log.info("agent action %s %s", verb, json.dumps(params)[:300])
            answer = await link.call(verb, params)
        except ActionError as exc:
            log.info("agent action refused (%d): %s", exc.status, exc)
            return _error(exc.status, str(exc))
        return JSONResponse(capped_result(verb, answer))

    async def websocket(self, ws: WebSocket) -> None:
        await ws.accept()
        try:
            hello = await asyncio.wait_for(ws.receive_json(), HELLO_TIMEOUT)
        except (TimeoutError, ValueError, WebSocketDisconnect):
            with contextlib.suppress(Exception):
                await ws.close(4408)
            return
        origin = ws.headers.get("origin")
        if not isinstance(hello, dict) or hello.get("type") != "hello" or check_token(
                f"Bearer {hello.get('token')}", self.token, guard.TOKEN_REFUSED) is not None:
            await ws.close(4401)
            return
        if guard.pairs(origin, self.paired):
            self.pair(origin)  # type: ignore[arg-type]
        link = ExtensionLink(send=ws.send_text)
        link.allow(hello.get("actions"))
        old, self.link = self.link, link
        if old is not None:
            old.close()
        await ws.send_json({"type": "welcome", "vault": self.vault.root.name})
        log.info("extension connected (%s)", origin or "no origin")
        try:
            while True:
                message = await ws.receive_json()
                if not isinstance(message, dict):
                    continue
                if message.get("type") == "result":
                    link.answer(message)
                elif message.get("type") == "settings":
                    link.allow(message.get("actions"))
                elif message.get("type") == "ping":
                    await ws.send_json({"type": "pong"})
        except (WebSocketDisconnect, ValueError):
            pass
        finally:
            link.close()
            if self.link is link:
                self.link = None
            log.info("extension disconnected")

    def app(self) -> ASGIApp:
        app = Starlette(routes=[
            Route("/status", self.status, methods=["GET"]),
            Route("/capture", self.capture, methods=["POST"]),
            Route("/lookup", self.find, methods=["GET"]),
            Route("/command", self.command, methods=["POST"]),
            WebSocketRoute("/ws", self.websocket),
        ])
        return Gate(app, self)


class BridgeServer:
    """The bridge on ``127.0.0.1:<port>`` in a thread (``port=0``: any free port)."""

    def __init__(self, vault: Vault, settings: Settings, *, port: int | None = None,
                 agent: bool = False) -> None:
        self.bridge = Bridge(vault, settings, agent=agent)
        sock = bind_loopback(settings.bridge.port if port is None else port, "[bridge] port")
        self._server = LoopbackServer(self.bridge.app(), sock, name="vaultd-bridge")
        self.port = self.bridge.port = self._server.port

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self._server.start()
        log.info("bridge listening on 127.0.0.1:%d", self.port)

    def stop(self) -> None:
        self._server.stop()
