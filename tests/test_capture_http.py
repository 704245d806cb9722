"""The polite HTTP client: retries, Retry-After, the arXiv interval, the cache."""

from __future__ import annotations

import asyncio
import itertools
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from replay_server import ReplayServer, Reply, capture_overrides, loopback_client, serve_arxiv

from vaultd.capture.http import Fetcher, RateLimiter, retry_after_seconds
from vaultd.config import load_settings
from vaultd.errors import FetchError
from vaultd.pipeline.capture import capture
from vaultd.statedb import open_state_db
from vaultd.vault import Vault


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    with ReplayServer() as s:
        yield s


class Sleeps:
    def __init__(self) -> None:
        self.calls: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


def test_a_429_with_retry_after_waits_that_long_then_gets_the_record(
        server: ReplayServer, fixtures_dir: Path) -> None:
    record = fixtures_dir / "crossref/works/10.1073_pnas.1414271111.json"
    server.route("/works/10.1073/pnas.1414271111", responses=[
        Reply(429, fixtures_dir / "crossref/errors/400_validation_failure.json",
              headers={"Retry-After": "7"}),
        Reply(200, record),
    ])
    sleeps = Sleeps()

    async def go() -> int:
        async with httpx.AsyncClient() as client:
            f = Fetcher(client, max_retries=2, sleep=sleeps)
            resp = await f.get(server.url + "/works/10.1073/pnas.1414271111", source="crossref")
            return resp.status

    assert asyncio.run(go()) == 200
    assert sleeps.calls == [7.0]
    assert len(server.requests) == 2


def test_5xx_backs_off_exponentially_then_gives_up_with_a_fetch_error(
        server: ReplayServer, fixtures_dir: Path) -> None:
    server.route("/works/x", status=503,
                 body=fixtures_dir / "crossref/errors/404_10.48550_arxiv.2312.07559.txt")
    sleeps = Sleeps()

    async def go() -> None:
        async with httpx.AsyncClient() as client:
            await Fetcher(client, max_retries=3, sleep=sleeps).get(server.url + "/works/x",
                                                                   source="crossref")

    with pytest.raises(FetchError, match=r"crossref answered HTTP 503 .* after 4 attempts"):
        asyncio.run(go())
    assert sleeps.calls == [0.5, 1.0, 2.0]


def test_connect_errors_are_retried_and_reported_as_unreachable() -> None:
    sleeps = Sleeps()

    async def go() -> None:
        async with httpx.AsyncClient() as client:
            await Fetcher(client, max_retries=1, sleep=sleeps).get("http://127.0.0.1:9/x",
                                                                   source="openalex")

    with pytest.raises(FetchError, match="openalex unreachable"):
        asyncio.run(go())
    assert sleeps.calls == [0.5]


def test_retry_after_accepts_seconds_and_http_dates() -> None:
    assert retry_after_seconds("120") == 120.0
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0
    assert retry_after_seconds("soon") is None and retry_after_seconds(None) is None


def test_responses_are_cached_in_state_db_until_refresh(
        vault: Vault, server: ReplayServer, fixtures_dir: Path) -> None:
    server.route("/works/a", body=fixtures_dir / "crossref/works/10.1073_pnas.1414271111.json")
    db = open_state_db(vault.state_db)

    async def go(refresh: bool) -> bool:
        async with httpx.AsyncClient() as client:
            resp = await Fetcher(client, cache=db, refresh=refresh).get(server.url + "/works/a",
                                                                        source="crossref")
            return resp.cached

    assert asyncio.run(go(False)) is False
    assert asyncio.run(go(False)) is True
    assert asyncio.run(go(True)) is False
    assert len(server.requests) == 2
    db.close()


def test_rate_limiter_spaces_concurrent_callers() -> None:
    now = [0.0]

    async def fake_sleep(s: float) -> None:
        now[0] += s

    limiter = RateLimiter(3.0, clock=lambda: now[0], sleep=fake_sleep)

    async def go() -> list[float]:
        stamps: list[float] = []

        async def one() -> None:
            async with limiter.slot():
                stamps.append(now[0])

        await asyncio.gather(*(one() for _ in range(4)))
        return stamps

    assert asyncio.run(go()) == [0.0, 3.0, 6.0, 9.0]


def test_concurrent_arxiv_captures_respect_the_interval(
        vault: Vault, server: ReplayServer, fixtures_dir: Path) -> None:
    interval = 0.15
    for arxiv_id, name in [("1605.08386", "1605.08386"), ("1707.08567", "1707.08567"),
                           ("astro-ph/0601001", "astro-ph_0601001")]:
        serve_arxiv(server, arxiv_id, fixtures_dir / f"arxiv/{name}.atom.xml")
    settings = load_settings(overrides=capture_overrides(server, arxiv_interval_seconds=interval))

    async def go() -> None:
        async with loopback_client(server) as client:
            await asyncio.gather(*(capture(vault, settings, i, client=client)
                                   for i in ("1605.08386", "1707.08567", "astro-ph/0601001")))

    asyncio.run(go())
    stamps = sorted(r.at for r in server.requests if r.path.startswith("/arxiv/"))
    assert len(stamps) == 6  # three API calls, three PDF attempts
    gaps = [b - a for a, b in itertools.pairwise(stamps)]
    assert min(gaps) >= interval * 0.9
    assert len(list(vault.raw.glob("*.meta.json"))) == 3


def test_the_arxiv_limiter_is_shared_by_captures_in_different_threads() -> None:
    import threading
    import time

    from vaultd.capture.http import shared_limiter

    interval = 0.05
    limiter = shared_limiter("test-threads", interval)
    assert shared_limiter("test-threads", interval) is limiter
    spans: list[tuple[float, float]] = []

    async def three() -> None:
        for _ in range(3):
            async with limiter.slot():
                start = time.monotonic()
                await asyncio.sleep(0.005)
                spans.append((start, time.monotonic()))

    threads = [threading.Thread(target=asyncio.run, args=(three(),)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    spans.sort()
    assert len(spans) == 6
    # Each request starts at least `interval` after the previous one ended.
    assert all(b[0] - a[1] >= interval * 0.99 for a, b in itertools.pairwise(spans))


_LIMITED_REQUESTS = """
import asyncio, sys, time
from pathlib import Path
from vaultd.capture.http import RateLimiter

async def main() -> None:
    limiter = RateLimiter(float(sys.argv[2]), state_file=Path(sys.argv[1]))
    for _ in range(3):
        async with limiter.slot():
            start = time.time()
            await asyncio.sleep(0.02)  # the request
            print(start, time.time(), flush=True)

asyncio.run(main())
"""


def test_two_processes_sharing_a_vault_never_send_requests_closer_than_the_interval(
        tmp_path: Path) -> None:
    interval = 0.2
    lock = tmp_path / ".vaultd" / "ratelimit-arxiv.lock"
    procs = [subprocess.Popen([sys.executable, "-c", _LIMITED_REQUESTS, str(lock), str(interval)],
                              stdout=subprocess.PIPE, text=True) for _ in range(2)]
    spans = sorted(tuple(map(float, line.split()))
                   for p in procs for line in p.communicate(timeout=30)[0].splitlines())
    assert [p.returncode for p in procs] == [0, 0] and len(spans) == 6
    for (_, prev_end), (start, _) in itertools.pairwise(spans):
        assert start - prev_end >= interval - 0.005, spans  # one at a time, spaced


def test_two_limiters_on_one_lock_file_space_their_requests(tmp_path: Path) -> None:
    lock = tmp_path / "ratelimit-arxiv.lock"
    spans: list[tuple[float, float]] = []

    async def three(limiter: RateLimiter) -> None:
        for _ in range(3):
            async with limiter.slot():
                start = time.time()
                await asyncio.sleep(0.01)
                spans.append((start, time.time()))

    def run() -> None:
        asyncio.run(three(RateLimiter(0.1, state_file=lock)))

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    spans.sort()
    assert len(spans) == 6
    for (_, prev_end), (start, _) in itertools.pairwise(spans):
        assert start - prev_end >= 0.1 - 0.005, spans


def test_a_download_over_the_cap_is_stopped_and_refused_for_good(server: ReplayServer) -> None:
    big = b"%PDF-1.4\n" + b"0" * (3 * 2**20)
    server.route("/big.pdf", body=big, content_type="application/pdf")

    async def go() -> None:
        async with httpx.AsyncClient() as client:
            await Fetcher(client, max_retries=2, max_bytes=2**20).get(
                server.url + "/big.pdf", source="pdf")

    with pytest.raises(FetchError, match="larger than the 1 MB download limit") as raised:
        asyncio.run(go())
    assert raised.value.transient is False  # retrying will not make it smaller
    assert len(server.requests) == 1


def test_a_cap_holds_without_a_content_length_too() -> None:
    async def chunks() -> Any:
        for _ in range(40):  # 2.5 MB, length not declared
            yield b"x" * 65536

    def stream(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=chunks())

    async def go() -> None:
        async with httpx.AsyncClient(transport=httpx.MockTransport(stream)) as client:
            await Fetcher(client, max_bytes=2**20).get("https://example.org/x.pdf", source="pdf")

    with pytest.raises(FetchError, match="download limit"):
        asyncio.run(go())


def test_a_not_found_is_asked_again_once_its_cache_time_is_over(
        server: ReplayServer, vault: Vault) -> None:
    server.route("/works/10.1/x", responses=[Reply(404, b"{}"), Reply(404, b"{}"), Reply(200, b"{}")])
    db = open_state_db(vault.state_db)

    async def get(ttl: float) -> int:
        async with httpx.AsyncClient() as client:
            f = Fetcher(client, cache=db, error_ttl_seconds=ttl)
            return (await f.get(server.url + "/works/10.1/x", source="crossref")).status

    try:
        assert asyncio.run(get(3600)) == 404
        assert asyncio.run(get(3600)) == 404 and len(server.requests) == 1  # reused
        assert asyncio.run(get(0)) == 404 and len(server.requests) == 2  # asked again
    finally:
        db.close()


@pytest.mark.parametrize("where", ["127.0.0.1", "localhost", "[::1]", "10.0.0.5",
                                   "169.254.169.254", "192.168.1.10"])
def test_a_pdf_link_to_this_machine_or_its_network_is_refused(where: str) -> None:
    asked: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(str(request.url))
        return httpx.Response(200, content=b"%PDF-1.4")

    async def go() -> None:
        async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as client:
            await Fetcher(client).get(f"http://{where}:8080/secret.pdf", source="PDF URL",
                                      untrusted=True)

    with pytest.raises(FetchError, match="local or private address") as raised:
        asyncio.run(go())
    assert raised.value.transient is False and asked == []  # nothing was sent


def test_a_redirect_to_a_private_address_is_refused_hop_by_hop(
        server: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay server stands for a public host here (its own address let through), and
    redirects to the cloud metadata address: that hop is checked and refused."""
    import vaultd.capture.http as http_mod

    server.route("/paper.pdf", status=302, headers={"Location": "http://169.254.169.254/latest"})
    real = http_mod.refuse_private

    async def first_hop_public(url: str) -> None:
        if not url.startswith(server.url):
            await real(url)

    real_peer = http_mod.refuse_private_peer

    def server_is_public(url: str, resp: httpx.Response) -> None:
        if not url.startswith(server.url):
            real_peer(url, resp)

    monkeypatch.setattr(http_mod, "refuse_private", first_hop_public)
    monkeypatch.setattr(http_mod, "refuse_private_peer", server_is_public)

    async def go() -> None:
        async with httpx.AsyncClient() as client:
            await Fetcher(client).get(server.url + "/paper.pdf", source="PDF URL", untrusted=True)

    with pytest.raises(FetchError, match=r"169\.254\.169\.254, a local or private address"):
        asyncio.run(go())
    assert len(server.requests) == 1


def test_each_wait_for_the_network_is_told_not_silent() -> None:
    told: list[str] = []

    def down(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    async def go() -> None:
        async with httpx.AsyncClient(transport=httpx.MockTransport(down)) as client:
            await Fetcher(client, max_retries=2, sleep=Sleeps(), on_wait=told.append).get(
                "https://export.arxiv.org/api/query?id_list=1706.03762", source="arXiv")

    with pytest.raises(FetchError, match="unreachable"):
        asyncio.run(go())
    assert told == [
        "arXiv unreachable; waiting for the network, trying again in 0.5 s (attempt 2 of 3)",
        "arXiv unreachable; waiting for the network, trying again in 1 s (attempt 3 of 3)",
    ]


def test_a_name_that_resolves_public_then_private_is_refused_before_its_body_is_read(
        server: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """DNS rebinding: the check sees a public address, the connection a second later goes
    to this machine. The address the connection really reached is checked too."""
    import socket

    server.route("/paper.pdf", body=b"%PDF-1.4 secret", content_type="application/pdf")
    port = int(server.url.rsplit(":", 1)[1])
    answers = iter(["93.184.216.34"])  # the first lookup (the check), then the truth

    async def go() -> None:
        loop = asyncio.get_running_loop()
        real = loop.getaddrinfo

        async def rebinding(host: Any, *args: Any, **kw: Any) -> Any:
            if host == "rebind.example":
                ip = next(answers, "127.0.0.1")
                return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, port))]
            return await real(host, *args, **kw)

        monkeypatch.setattr(loop, "getaddrinfo", rebinding)
        async with httpx.AsyncClient(trust_env=False) as client:
            await Fetcher(client).get(f"http://rebind.example:{port}/paper.pdf",
                                      source="PDF URL", untrusted=True)

    monkeypatch.delenv("HTTP_PROXY", raising=False)
    monkeypatch.delenv("http_proxy", raising=False)
    with pytest.raises(FetchError, match=r"127\.0\.0\.1, a local or private address"):
        asyncio.run(go())
