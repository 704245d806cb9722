"""The polite HTTP layer every metadata source uses.

User-Agent naming vaultd (with a mailto when configured, for CrossRef's and OpenAlex's
polite pools), retries with exponential backoff on connect errors, timeouts, 429 and 5xx
honouring ``Retry-After``, a per-host minimum interval (arXiv asks for one request every
3 s) shared by every capture in the process and, through a lock file under
``<vault>/.vaultd/``, by every vaultd process on the vault (the service and a CLI capture),
and a response cache in ``state.db``.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import fcntl
import ipaddress
import os
import socket
import sqlite3
import ssl
import threading
import time
import urllib.request
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import httpx

from vaultd import __version__
from vaultd.errors import FetchError

BACKOFF_BASE_SECONDS = 0.5
MAX_RETRY_AFTER_SECONDS = 60.0
THREAD_POLL_SECONDS = 0.01
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


_SSL_CONTEXT: list[ssl.SSLContext] = []
_SSL_CONTEXT_LOCK = threading.Lock()


def shared_ssl_context() -> ssl.SSLContext:
    """This process's verifying TLS context, made once: httpx's own default (certifi's
    bundle, or ``SSL_CERT_FILE``/``SSL_CERT_DIR``). Loading the bundle costs 0.1-0.2 s of
    CPU, which a client made per capture paid each time (the agent's bursts capture
    dozens of PDFs). Every client given it speaks HTTP/1.1 (httpcore sets the context's
    ALPN protocols on each connection)."""
    with _SSL_CONTEXT_LOCK:
        if not _SSL_CONTEXT:
            _SSL_CONTEXT.append(httpx.create_ssl_context())
        return _SSL_CONTEXT[0]


def new_client() -> httpx.AsyncClient:
    """An ``httpx.AsyncClient`` for one capture, with the process's shared TLS context."""
    return httpx.AsyncClient(verify=shared_ssl_context())


def user_agent(email: str | None) -> str:
    return f"vaultd/{__version__}" + (f" (mailto:{email})" if email else "")


@dataclass(frozen=True)
class Response:
    """A fetched (or cached) response: only what the parsers need."""

    url: str
    status: int
    content_type: str
    body: bytes
    cached: bool = False

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class RateLimiter:
    """One request at a time, each starting at least ``interval`` seconds after the
    previous one finished (arXiv: "no more than one request every three seconds, and a
    single connection at a time"), across every task and thread sharing it.

    With ``state_file``, other processes take part too: the slot also holds an exclusive
    ``flock`` on that file, which stores when the last request (of any process) finished.
    """

    def __init__(self, interval_seconds: float, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 state_file: Path | None = None,
                 wall_clock: Callable[[], float] = time.time) -> None:
        self.interval = interval_seconds
        self.state_file = state_file
        self._clock = clock
        self._wall = wall_clock
        self._sleep = sleep
        self._next = 0.0
        self._held = threading.Lock()  # across threads (daemon workers run their own loops)
        self._loop_locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop,
                                                    asyncio.Lock] = weakref.WeakKeyDictionary()

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        loop_lock = self._loop_locks.setdefault(asyncio.get_running_loop(), asyncio.Lock())
        async with loop_lock:
            # Polling keeps cancellation safe; it only spins while another thread's loop
            # holds the slot.
            while not self._held.acquire(blocking=False):
                await asyncio.sleep(THREAD_POLL_SECONDS)
            fd: int | None = None
            try:
                delay = self._next - self._clock()
                if self.state_file is not None:
                    fd = await self._lock_file(self.state_file)
                    delay = max(delay, _read_stamp(fd) + self.interval - self._wall())
                if delay > 0:
                    await self._sleep(delay)
                yield
            finally:
                self._next = self._clock() + self.interval
                if fd is not None:
                    with contextlib.suppress(OSError):
                        os.ftruncate(fd, 0)
                        os.pwrite(fd, f"{self._wall():.6f}\n".encode(), 0)
                    os.close(fd)  # closing releases the flock
                self._held.release()

    @staticmethod
    async def _lock_file(path: Path) -> int:
        """Open ``path`` and take its exclusive lock, polling so the loop stays free."""
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return fd
                except BlockingIOError:
                    await asyncio.sleep(THREAD_POLL_SECONDS)
        except BaseException:
            os.close(fd)
            raise


def _read_stamp(fd: int) -> float:
    """When the last request through this lock file finished (0 when never / unreadable)."""
    try:
        return float(os.pread(fd, 64, 0).decode().strip() or 0.0)
    except (OSError, ValueError):
        return 0.0


_SHARED: dict[tuple[str, Path | None], RateLimiter] = {}
_SHARED_LOCK = threading.Lock()


def shared_limiter(name: str, interval_seconds: float,
                   state_dir: Path | None = None) -> RateLimiter:
    """The process-wide limiter ``name`` (re-made if the configured interval changed);
    with ``state_dir`` (a vault's ``.vaultd/``), shared with other processes through
    ``<state_dir>/ratelimit-<name>.lock``."""
    state_file = state_dir / f"ratelimit-{name}.lock" if state_dir is not None else None
    with _SHARED_LOCK:
        limiter = _SHARED.get((name, state_file))
        if limiter is None or limiter.interval != interval_seconds:
            limiter = _SHARED[(name, state_file)] = RateLimiter(interval_seconds,
                                                                state_file=state_file)
        return limiter


def retry_after_seconds(value: str | None) -> float | None:
    """``Retry-After`` as seconds: either delta-seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


@dataclass
class Fetcher:
    """GETs through an injected ``httpx.AsyncClient`` with the house politeness rules."""

    client: httpx.AsyncClient
    email: str | None = None
    max_retries: int = 3
    timeout_seconds: float = 20.0
    cache: sqlite3.Connection | None = None
    refresh: bool = False
    limiters: dict[str, RateLimiter] = field(default_factory=dict)
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    backoff_base_seconds: float = BACKOFF_BASE_SECONDS
    requests: int = 0
    max_bytes: int = 200 * 2**20
    error_ttl_seconds: float = 3600.0
    allow_private: bool = False
    #: Told, in one sentence, each time a request must wait to be tried again (the CLI
    #: prints it, so a slow or offline network is never a silent pause).
    on_wait: Callable[[str], None] | None = None

    async def get(self, url: str, *, source: str, use_cache: bool = True,
                  limiter: str | None = None, untrusted: bool = False) -> Response:
        """GET ``url``; raises FetchError when the source cannot be reached after retries.

        Any HTTP status (including 404) is returned, not raised: each source decides.
        ``untrusted``: a URL from an input or a metadata record, not a configured service:
        it and every redirect must resolve to public addresses (``allow_private`` lifts
        this), checked hop by hop.
        """
        if use_cache and not self.refresh:
            hit = self._cache_get(url)
            if hit is not None:
                return hit
        headers = {"User-Agent": user_agent(self.email)}
        attempt = 0
        while True:
            self.requests += 1
            try:
                resp, body = await (self._send_checked(url, headers, limiter) if untrusted
                                    else self._send(url, headers, limiter))
            except (httpx.TimeoutException, httpx.TransportError) as exc:
                if attempt >= self.max_retries:
                    kind = "timed out" if isinstance(exc, httpx.TimeoutException) else "unreachable"
                    raise FetchError(
                        f"{source} {kind} for {url} after {attempt + 1} attempts; "
                        "check the network and retry later"
                    ) from exc
                wait = self.backoff_base_seconds * 2**attempt
                timed_out = isinstance(exc, httpx.TimeoutException)
                self._waiting(source, "timed out" if timed_out else "unreachable", wait, attempt)
                await self.sleep(wait)
                attempt += 1
                continue
            if resp.status_code in RETRY_STATUSES:
                if attempt >= self.max_retries:
                    raise FetchError(
                        f"{source} answered HTTP {resp.status_code} for {url} after "
                        f"{attempt + 1} attempts; retry later"
                    )
                wait = retry_after_seconds(resp.headers.get("Retry-After"))
                if wait is None:
                    wait = self.backoff_base_seconds * 2**attempt
                wait = min(wait, MAX_RETRY_AFTER_SECONDS)
                self._waiting(source, f"answered HTTP {resp.status_code}", wait, attempt)
                await self.sleep(wait)
                attempt += 1
                continue
            out = Response(url, resp.status_code, resp.headers.get("content-type", ""), body)
            if use_cache and resp.status_code in (200, 404):
                self._cache_put(out)
            return out

    async def _send(self, url: str, headers: dict[str, str], limiter: str | None,
                    follow: bool = True, check_peer: bool = False) -> tuple[httpx.Response, bytes]:
        """The response and its body, read as it comes and stopped past ``max_bytes``
        (``check_peer``: the connected address must be public, ``refuse_private_peer``)."""
        slot = self.limiters[limiter].slot() if limiter and limiter in self.limiters \
            else contextlib.nullcontext()
        async with slot, self.client.stream("GET", url, headers=headers,
                                            timeout=self.timeout_seconds,
                                            follow_redirects=follow) as resp:
            if check_peer:
                refuse_private_peer(url, resp)
            declared = resp.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > self.max_bytes:
                raise self._too_large(url)
            body = bytearray()
            async for chunk in resp.aiter_bytes():
                body += chunk
                if len(body) > self.max_bytes:
                    raise self._too_large(url)
            return resp, bytes(body)

    def _waiting(self, source: str, why: str, seconds: float, attempt: int) -> None:
        if self.on_wait is not None:
            self.on_wait(f"{source} {why}; waiting for the network, trying again in "
                         f"{round(seconds, 1):g} s (attempt {attempt + 2} of {self.max_retries + 1})")

    async def _send_checked(self, url: str, headers: dict[str, str],
                            limiter: str | None) -> tuple[httpx.Response, bytes]:
        """``_send`` following redirects itself, each hop's address checked first."""
        for _ in range(MAX_REDIRECTS + 1):
            if not self.allow_private:
                await refuse_private(url)
            resp, body = await self._send(url, headers, limiter, follow=False,
                                          check_peer=not self.allow_private)
            location = resp.headers.get("location")
            if resp.status_code not in (301, 302, 303, 307, 308) or not location:
                return resp, body
            url = urljoin(url, location)
        err = FetchError(f"{url}: more than {MAX_REDIRECTS} redirects; giving up")
        err.transient = False
        raise err

    def _too_large(self, url: str) -> FetchError:
        err = FetchError(f"{url} is larger than the {self.max_bytes // 2**20} MB download limit; "
                         "raise [capture] max_download_mb in .vaultd/config.toml if it is right")
        err.transient = False
        return err

    def _cache_get(self, url: str) -> Response | None:
        if self.cache is None:
            return None
        row = self.cache.execute(
            "SELECT status, content_type, body, fetched_at FROM http_cache WHERE url = ?", (url,)
        ).fetchone()
        if row is None:
            return None
        if int(row[0]) != 200 and time.time() - float(row[3] or 0) > self.error_ttl_seconds:
            return None  # a "not found" may be found now: ask again
        return Response(url, int(row[0]), str(row[1] or ""), bytes(row[2]), cached=True)

    def _cache_put(self, resp: Response) -> None:
        if self.cache is None:
            return
        with self.cache:
            self.cache.execute(
                "INSERT OR REPLACE INTO http_cache(url, status, content_type, body, fetched_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (resp.url, resp.status, resp.content_type, resp.body, time.time()),
            )


MAX_REDIRECTS = 10


async def refuse_private(url: str) -> None:
    """FetchError unless ``url`` is http(s) to a host whose every address is public: no
    loopback, private, link-local, multicast or reserved address (so a link in an Inbox
    file cannot make vaultd fetch from this machine or its network)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        err = FetchError(f"{url} is not an http(s) URL; vaultd downloads only those")
        err.transient = False
        raise err
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(
            parts.hostname, parts.port or (443 if parts.scheme == "https" else 80),
            type=socket.SOCK_STREAM)
    except OSError as exc:
        raise FetchError(f"cannot resolve {parts.hostname} ({exc.strerror or exc}); check the "
                         "network and retry later") from exc
    for info in infos:
        _refuse_address(url, str(info[4][0]))


def _refuse_address(url: str, address: str) -> None:
    """FetchError when ``address`` is loopback, private, link-local, multicast, reserved
    or unspecified."""
    ip = ipaddress.ip_address(address.split("%")[0])
    if (ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_multicast
            or ip.is_reserved or ip.is_unspecified):
        err = FetchError(f"{url} points to {ip}, a local or private address; vaultd does "
                         "not download from those (set [capture] allow_private_addresses "
                         "= true if you mean it)")
        err.transient = False
        raise err


def _proxied(url: str) -> bool:
    """Whether the environment routes ``url`` through a proxy (then the peer is the proxy)."""
    return bool(urllib.request.getproxies()) and not urllib.request.proxy_bypass(
        urlsplit(url).hostname or "")


def refuse_private_peer(url: str, resp: httpx.Response) -> None:
    """The address the connection really went to, checked again once the response has
    started: a name that resolved to a public address when checked and to a private one
    when connecting (DNS rebinding) is refused before its body is read."""
    stream = resp.extensions.get("network_stream")
    peer = stream.get_extra_info("server_addr") if stream is not None else None
    if peer and not _proxied(url):
        _refuse_address(url, str(peer[0]))
