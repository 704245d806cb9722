"""A real HTTP server on 127.0.0.1 replaying recorded responses (reusable by any test).

    with ReplayServer() as server:
        server.route("/works/10.1073/pnas.1414271111", body=fixtures / "crossref/works/...")
        server.route("/api/query?id_list=1605.08386", body=..., content_type="application/atom+xml")
        ... server.url ... server.requests

A route's key is the request path, or path + "?" + query for an exact-query match (tried
first). ``responses=[...]`` serves a sequence (the last one repeats): e.g. a 429 with
``Retry-After`` then the recorded body. ``delay_seconds`` holds the response back (the
wait ends early when the server stops, so nothing outlives the test).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from urllib.parse import unquote

import httpx


@dataclass
class Reply:
    status: int = 200
    body: bytes | Path = b""
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    delay_seconds: float = 0.0

    def payload(self) -> bytes:
        return self.body.read_bytes() if isinstance(self.body, Path) else self.body


@dataclass(frozen=True)
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    at: float


class ReplayServer:
    def __init__(self) -> None:
        self._routes: dict[str, list[Reply]] = {}
        self._served: dict[str, int] = {}
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                server._handle(self)

            def log_message(self, format: str, *args: object) -> None:
                return None

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def route(self, key: str, *, body: bytes | Path = b"", status: int = 200,
              content_type: str = "application/json", headers: dict[str, str] | None = None,
              delay_seconds: float = 0.0, responses: list[Reply] | None = None) -> None:
        """Serve ``key`` (decoded path, optionally with "?query")."""
        replies = responses or [Reply(status, body, content_type, dict(headers or {}),
                                      delay_seconds)]
        with self._lock:
            self._routes[unquote(key)] = replies
            self._served[unquote(key)] = 0

    def paths(self) -> list[str]:
        return [r.path for r in self.requests]

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        raw = handler.path
        decoded = unquote(raw)
        path_only = decoded.split("?", 1)[0]
        with self._lock:
            self.requests.append(Recorded("GET", decoded, dict(handler.headers.items()),
                                          time.monotonic()))
            key = decoded if decoded in self._routes else path_only
            replies = self._routes.get(key)
            if replies is not None:
                i = self._served[key]
                self._served[key] = i + 1
                reply = replies[min(i, len(replies) - 1)]
        if replies is None:
            reply = Reply(404, b"no recorded response for this path", "text/plain")
        if reply.delay_seconds and self._stopping.wait(reply.delay_seconds):
            return
        data = reply.payload()
        try:
            handler.send_response(reply.status)
            handler.send_header("Content-Type", reply.content_type)
            handler.send_header("Content-Length", str(len(data)))
            for name, value in reply.headers.items():
                handler.send_header(name, value)
            handler.end_headers()
            handler.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            return

    def __enter__(self) -> ReplayServer:
        self._thread.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


# --- routes for the metadata services, as vaultd's clients address them -------------------

def capture_overrides(server: ReplayServer, **extra: object) -> dict[str, dict[str, object]]:
    """Settings overrides pointing every capture source at ``server``."""
    capture: dict[str, object] = {
        "arxiv_api_url": server.url + "/arxiv/api/query",
        "arxiv_pdf_url": server.url + "/arxiv/pdf",
        "crossref_url": server.url + "/crossref",
        "openalex_url": server.url + "/openalex",
        "unpaywall_url": server.url + "/unpaywall",
        "email": "test@example.org",
        "arxiv_interval_seconds": 0.0,
        # the replay server is on 127.0.0.1: PDF links to it are "private" addresses
        "allow_private_addresses": True,
        "max_retries": 1,
        "timeout_seconds": 5.0,
    }
    capture.update(extra)
    return {"capture": capture}


def serve_arxiv(server: ReplayServer, arxiv_id: str, body: Path, status: int = 200) -> None:
    server.route(f"/arxiv/api/query?id_list={arxiv_id}", body=body, status=status,
                 content_type="application/atom+xml; charset=utf-8")


def serve_crossref(server: ReplayServer, doi: str, body: Path, status: int = 200,
                   content_type: str = "application/json") -> None:
    server.route(f"/crossref/works/{doi}", body=body, status=status, content_type=content_type)


def serve_openalex(server: ReplayServer, doi: str, body: Path, status: int = 200,
                   content_type: str = "application/json") -> None:
    server.route(f"/openalex/works/doi:{doi}", body=body, status=status,
                 content_type=content_type)


def serve_unpaywall(server: ReplayServer, doi: str, body: Path, status: int = 200) -> None:
    server.route(f"/unpaywall/v2/{doi}", body=body, status=status)


class LoopbackTransport(httpx.AsyncBaseTransport):
    """Send every request to the replay server: a foreign host ``h`` becomes the path
    prefix ``/_ext/h`` (so a PDF URL found in a recorded response can be served too, and
    nothing can reach the internet)."""

    def __init__(self, server: ReplayServer) -> None:
        self._server = server
        self._inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        base = httpx.URL(self._server.url)
        if request.url.host != base.host or request.url.port != base.port:
            raw_path = b"/_ext/" + request.url.host.encode() + request.url.raw_path
            request.url = base.copy_with(raw_path=raw_path)
            request.headers["Host"] = f"{base.host}:{base.port}"
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()


def loopback_client(server: ReplayServer) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=LoopbackTransport(server))
