"""The browser bridge against hostile and honest local clients (docs/bridge.md).

A real bridge on a free 127.0.0.1 port, real HTTP (httpx) and a real WebSocket client
(the ``websockets`` package) standing in for the extension's service worker.
"""

from __future__ import annotations

import asyncio
import base64
import json
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from hypothesis import given
from hypothesis import strategies as st

from vaultd import secrets
from vaultd.bridge.guard import RateLimiter, check_origin
from vaultd.bridge.lookup import normalise_url
from vaultd.bridge.server import BridgeServer
from vaultd.config import Settings, default_config_toml
from vaultd.models import MetaFile, Work
from vaultd.vault import Vault, safe_stem

EXT = "chrome-extension://abcdefghijklmnopabcdefghijklmnop"
PDF = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"


class Client:
    def __init__(self, server: BridgeServer, token: str) -> None:
        self.server = server
        self.base = f"http://127.0.0.1:{server.port}"
        self.token = token

    def request(self, method: str, path: str, *, token: str | None = "", origin: str | None = None,
                host: str | None = None, **kw: Any) -> httpx.Response:
        headers = dict(kw.pop("headers", {}))
        tok = self.token if token == "" else token
        if tok is not None:
            headers["Authorization"] = f"Bearer {tok}"
        if origin is not None:
            headers["Origin"] = origin
        if host is not None:
            headers["Host"] = host
        return httpx.request(method, self.base + path, headers=headers, timeout=10, **kw)

    def capture(self, body: dict[str, Any], **kw: Any) -> httpx.Response:
        return self.request("POST", "/capture", json=body, **kw)


def start(vault: Vault, **bridge: Any) -> BridgeServer:
    settings = Settings.model_validate({"bridge": bridge}) if bridge else Settings()
    server = BridgeServer(vault, settings, port=0)
    server.start()
    return server


@pytest.fixture
def bridge(vault: Vault) -> Iterator[Client]:
    server = start(vault)
    yield Client(server, secrets.bridge_token(vault))
    server.stop()


def inbox_files(vault: Vault) -> list[str]:
    return sorted(p.name for p in vault.inbox.iterdir() if p.is_file())


# --- refused: nothing is done ---------------------------------------------------------

def test_token_is_private_and_stable(vault: Vault) -> None:
    token = secrets.bridge_token(vault)
    path = vault.machine_dir / "secrets" / "bridge.token"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert secrets.bridge_token(vault) == token and len(token) >= 40
    assert secrets.bridge_token(vault, reset=True) != token


@pytest.mark.parametrize(("kw", "status"), [
    ({"token": None}, 401),
    ({"token": "wrong"}, 401),
    ({"origin": "https://evil.example"}, 403),
    ({"origin": "null"}, 403),
    ({"host": "evil.example"}, 421),
    ({"host": "evil.example:7600"}, 421),
])
def test_hostile_requests_are_refused_and_write_nothing(bridge: Client, vault: Vault,
                                                         kw: dict[str, Any], status: int) -> None:
    r = bridge.capture({"url": "https://arxiv.org/abs/1706.03762", "title": "x"}, **kw)
    assert r.status_code == status
    assert "error" in r.json()
    assert r.headers.get("access-control-allow-origin") is None
    assert inbox_files(vault) == []


def test_a_foreign_preflight_gets_no_cors_grant(bridge: Client) -> None:
    r = bridge.request("OPTIONS", "/capture", token=None, origin="https://evil.example",
                       headers={"Access-Control-Request-Method": "POST"})
    assert r.status_code == 403
    assert not any(h.startswith("access-control-") for h in r.headers)


def test_the_first_extension_with_the_token_pairs_and_others_are_refused(
        bridge: Client, vault: Vault) -> None:
    assert bridge.request("GET", "/status", origin=EXT).json()["paired"] is True
    assert secrets.paired_origin(vault) == EXT
    other = "chrome-extension://zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"
    assert bridge.request("GET", "/status", origin=other).status_code == 403
    assert bridge.request("GET", "/status", origin=EXT).status_code == 200
    assert bridge.request("GET", "/status").status_code == 200  # local program, no Origin


def test_oversized_bodies_get_413_and_nothing_is_written(vault: Vault) -> None:
    server = start(vault, max_capture_mb=1)
    client = Client(server, secrets.bridge_token(vault))
    try:
        big = base64.b64encode(PDF + b"0" * (2 * 2**20)).decode()
        r = client.capture({"url": "https://example.org/a.pdf", "pdf_base64": big})
        assert r.status_code == 413
        # no Content-Length (chunked): the cap holds as the body arrives
        chunks = (json.dumps({"url": "https://e.org/", "html": "x" * 2**20}).encode()[i:i + 65536]
                  for i in range(0, 2**20 + 100, 65536))
        r = client.request("POST", "/capture", content=chunks)
        assert r.status_code == 413
    finally:
        server.stop()
    assert inbox_files(vault) == []


@pytest.mark.parametrize("body", [
    {"url": "file:///etc/passwd"},
    {"url": "javascript:alert(1)"},
    {"url": "https://e.org/", "pdf_base64": base64.b64encode(b"<html>login</html>").decode()},
    {"url": "https://e.org/", "pdf_base64": "%%%not base64"},
    {"url": "https://e.org/", "path": "../../.ssh/authorized_keys"},
    {"url": "https://e.org/", "title": 5},
    {"url": "https://e.org/", "doi": "not a doi"},
    {"title": "no url"},
])
def test_bad_captures_get_one_sentence_and_write_nothing(bridge: Client, vault: Vault,
                                                         body: dict[str, Any]) -> None:
    r = bridge.capture(body)
    assert r.status_code == 422
    error = r.json()["error"]
    assert "\n" not in error and "pydantic" not in error
    assert inbox_files(vault) == []


def test_names_built_to_escape_inbox_stay_inside_it(bridge: Client, vault: Vault) -> None:
    for title in ("../../../etc/passwd", "/etc/passwd", "..", ".hidden", "a/../../b",
                  "C:\\Windows\\system32", "\x00nul"):
        r = bridge.capture({"url": "https://arxiv.org/abs/1706.03762", "title": title})
        assert r.status_code == 202
        saved = vault.root / r.json()["saved"]
        assert saved.parent == vault.inbox and not saved.name.startswith(".")
    assert len(inbox_files(vault)) == 7
    assert not (vault.root.parent / "etc").exists()


def test_a_flood_is_cut_off_with_429_and_the_extension_still_gets_through(vault: Vault) -> None:
    server = start(vault, requests_per_minute=20)
    client = Client(server, secrets.bridge_token(vault))
    try:
        began = time.monotonic()
        codes = [client.request("GET", "/status", token="wrong").status_code for _ in range(40)]
        # The bucket refills 20 a minute: on a slow machine a request may slip through per
        # 3 s the flood took (the last one among them), never more.
        refills = int((time.monotonic() - began) * 20 / 60) + 1
        assert codes[:20] == [401] * 20 and set(codes[20:]) <= {401, 429}
        assert codes[20:].count(401) <= refills and 429 in codes[20:]
        # the next refused request (a refill may let one through first) says when to retry
        answers = (client.request("GET", "/status", token="wrong") for _ in range(5))
        limited = next(r for r in answers if r.status_code == 429)
        assert int(limited.headers["Retry-After"]) >= 1
        assert client.request("GET", "/status", origin=EXT).status_code == 200
    finally:
        server.stop()


# --- captures land in Inbox/ ----------------------------------------------------------

def test_captures_land_in_inbox_as_the_inbox_rules_expect(bridge: Client, vault: Vault) -> None:
    r = bridge.capture({"url": "https://arxiv.org/abs/1706.03762v5", "title": "Attention Is All You Need",
                        "kind": "arxiv"}, origin=EXT)
    assert r.status_code == 202 and r.json() == {"saved": "Inbox/Attention Is All You Need.url",
                                                 "kind": "link"}
    assert "URL=https://arxiv.org/abs/1706.03762v5" in (vault.inbox / "Attention Is All You Need.url").read_text()
    r = bridge.capture({"url": "https://journals.example/article/42", "title": "A paper",
                        "doi": "10.1371/journal.pone.0105786"})
    assert (vault.root / r.json()["saved"]).read_text().count("URL=https://doi.org/10.1371/journal.pone.0105786") == 1
    r = bridge.capture({"url": "https://library.example/get?id=9", "title": "Behind a login",
                        "pdf_base64": base64.b64encode(PDF).decode(), "kind": "pdf"})
    assert r.json() == {"saved": "Inbox/Behind a login.pdf", "kind": "pdf"}
    assert (vault.inbox / "Behind a login.pdf").read_bytes() == PDF
    r = bridge.capture({"url": "https://blog.example/post", "title": "A post",
                        "html": "<html><head><title>A post</title></head><body>Hi</body></html>"})
    assert r.json()["kind"] == "web"
    page = (vault.root / r.json()["saved"]).read_text()
    assert '<meta name="vaultd:url" content="https://blog.example/post">' in page
    # the same title again gets its own file; nothing is overwritten
    r = bridge.capture({"url": "https://arxiv.org/abs/1706.03762", "title": "Attention Is All You Need"})
    assert r.json()["saved"] == "Inbox/Attention Is All You Need (2).url"


def test_lookup_finds_works_by_doi_arxiv_url_and_captured_pdf(bridge: Client, vault: Vault) -> None:
    work = Work(title="Attention Is All You Need", arxiv_id="1706.03762", doi="10.48550/arXiv.1706.03762")
    meta = MetaFile.from_work("vaswani2017attention", work, pdf="raw/vaswani2017attention.pdf",
                              pdf_sha256=__import__("hashlib").sha256(PDF).hexdigest())
    vault.meta_path("vaswani2017attention").write_text(meta.model_dump_json(), encoding="utf-8")

    def lookup(**q: str) -> dict[str, Any]:
        r = bridge.request("GET", "/lookup", params=q)
        assert r.status_code == 200
        return dict(r.json())

    hit = lookup(arxiv="1706.03762v7")
    assert hit["found"] and hit["cite_key"] == "vaswani2017attention"
    assert hit["note"] == "wiki/vaswani2017attention.md"
    assert lookup(url="http://www.arxiv.org/pdf/1706.03762v2")["found"]
    assert lookup(doi="10.48550/ARXIV.1706.03762")["found"]
    assert lookup(url="https://example.org/other") == {"found": False}
    # a PDF captured from a URL: pending in Inbox/, then found once it is the work's PDF
    pdf_url = "https://library.example/get?id=9"
    other = PDF + b"%extra\n"
    bridge.capture({"url": pdf_url, "title": "x", "pdf_base64": base64.b64encode(other).decode()})
    assert lookup(url=pdf_url) == {"found": False, "pending": "Inbox/x.pdf"}
    bridge.capture({"url": pdf_url, "title": "y", "pdf_base64": base64.b64encode(PDF).decode()})
    assert lookup(url=pdf_url)["cite_key"] == "vaswani2017attention"
    assert bridge.request("GET", "/lookup").status_code == 422


def test_a_web_page_from_the_extension_is_saved_by_the_agent_not_compiled(
        bridge: Client, vault: Vault) -> None:
    from vaultd.daemon.rules import decide, load_rules, read_facts
    from vaultd.pipeline.web_source import save_web_page

    r = bridge.capture({"url": "https://blog.example/post", "title": "A post",
                        "meta": {"og:site_name": "Blog"},
                        "html": "<html><head><title>ignored</title></head><body>Hi</body></html>"})
    path = vault.root / r.json()["saved"]
    decision = decide(load_rules(vault.rules_dir), read_facts(path))
    assert decision.rule is not None and decision.rule.rule.action == "save_web"
    page = save_web_page(vault, path)
    assert not path.exists() and page.html.parent == vault.raw / "web"
    record = json.loads(page.record.read_text())
    assert record["url"] == "https://blog.example/post" and record["title"] == "A post"
    assert record["compiled"] is False and record["meta"] == {"og:site_name": "Blog"}
    found = bridge.request("GET", "/lookup", params={"url": "https://blog.example/post/"}).json()
    assert found["found"] and found["web"] == vault.rel(page.html)


# --- the extension's WebSocket and agent actions ---------------------------------------

async def _extension(port: int, token: str, actions: dict[str, Any], *,
                     origin: str = EXT, answer: Any = None) -> Any:
    ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws", origin=origin)  # type: ignore[arg-type]
    await ws.send(json.dumps({"type": "hello", "token": token, "version": 1, "actions": actions}))
    assert json.loads(await ws.recv())["type"] == "welcome"
    return ws


def test_websocket_from_a_web_page_or_without_the_token_is_refused(bridge: Client) -> None:
    async def run() -> None:
        with pytest.raises(websockets.InvalidStatus):
            await websockets.connect(f"ws://127.0.0.1:{bridge.server.port}/ws",
                                     origin="https://evil.example")  # type: ignore[arg-type]
        ws = await websockets.connect(f"ws://127.0.0.1:{bridge.server.port}/ws",
                                      origin=EXT)  # type: ignore[arg-type]
        await ws.send(json.dumps({"type": "hello", "token": "wrong"}))
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    asyncio.run(run())
    assert bridge.request("GET", "/status").json()["extension_connected"] is False


def test_agent_actions_are_refused_unless_the_user_enabled_them_twice(vault: Vault) -> None:
    off = start(vault)
    client = Client(off, secrets.bridge_token(vault))
    try:
        r = client.request("POST", "/command", json={"action": "ping"})
        assert r.status_code == 403 and "agent_actions" in r.json()["error"]
    finally:
        off.stop()
    on = start(vault, agent_actions=True)
    client = Client(on, secrets.bridge_token(vault))
    log: list[dict[str, Any]] = []

    async def run() -> None:
        def command(body: dict[str, Any]) -> httpx.Response:
            return client.request("POST", "/command", json=body)

        assert (await asyncio.to_thread(command, {"action": "ping"})).status_code == 503
        ws = await _extension(on.port, client.token, {"enabled": False})
        r = await asyncio.to_thread(command, {"action": "ping"})
        assert r.status_code == 403 and "extension's options" in r.json()["error"]
        await ws.send(json.dumps({"type": "settings", "actions": {
            "enabled": True, "origins": ["https://allowed.example"]}}))
        await asyncio.sleep(0.1)
        r = await asyncio.to_thread(command, {"action": "navigate",
                                              "params": {"url": "https://other.example/"}})
        assert r.status_code == 403 and "not an allowed origin" in r.json()["error"]
        for bad in ({"action": "eval", "params": {"code": "1"}},
                    {"action": "click", "params": {}},
                    {"action": "click", "params": {"selector": "a", "js": "x"}},
                    {"action": "navigate", "params": {"url": "javascript:alert(1)"}},
                    {"action": "wait", "params": {"selector": "a", "timeout_ms": 10**9}}):
            r = await asyncio.to_thread(command, bad)
            assert r.status_code == 422, bad

        async def answer() -> None:
            msg = json.loads(await ws.recv())
            log.append(msg)
            await ws.send(json.dumps({"type": "result", "id": msg["id"], "ok": True,
                                      "result": {"clicked": msg["params"]["selector"]}}))

        task = asyncio.create_task(answer())
        r = await asyncio.to_thread(command, {"action": "click",
                                              "params": {"selector": "a[href='x'];alert(1)"}})
        await task
        assert r.json() == {"ok": True, "result": {"clicked": "a[href='x'];alert(1)"}}
        await ws.close()

    try:
        asyncio.run(run())
    finally:
        on.stop()
    # the selector went as data, in its own field
    assert log == [{"type": "command", "id": 1, "action": "click",
                    "params": {"selector": "a[href='x'];alert(1)"}}]


# --- the pure checks, over any input ----------------------------------------------------

@given(st.text(max_size=300), st.text(max_size=200))
def test_safe_stem_never_leaves_the_folder(title: str, url: str) -> None:
    stem = safe_stem(title, url)
    assert stem and len(stem) <= 80
    assert "/" not in stem and "\\" not in stem and "\x00" not in stem
    assert not stem.startswith(".") and ".." not in stem
    assert Path(stem).name == stem


@given(st.text(max_size=80))
def test_web_origins_never_pass(origin: str) -> None:
    if not origin.startswith("chrome-extension://"):
        assert check_origin(origin, None) is not None
        assert check_origin(origin, EXT) is not None


def test_rate_limiter_refills_over_time() -> None:
    now = [0.0]
    limiter = RateLimiter(60, clock=lambda: now[0])
    assert all(limiter.check("a") is None for _ in range(60))
    assert limiter.check("a") is not None and limiter.check("b") is None
    now[0] += 1.0
    assert limiter.check("a") is None and limiter.check("a") is not None


@given(st.sampled_from(["http", "https", "HTTPS"]), st.sampled_from(["", "www."]),
       st.sampled_from(["", "/", "#frag", "/#x"]))
def test_one_page_has_one_normal_url(scheme: str, www: str, tail: str) -> None:
    assert normalise_url(f"{scheme}://{www}Example.org/a{tail}") == "https://example.org/a"


def test_mcp_browser_tool_exists_only_when_enabled_and_relays_to_the_extension(
        vault: Vault) -> None:
    from mcp import Client

    from vaultd.mcp.server import build_server

    async def tools(settings: Settings) -> set[str]:
        async with Client(build_server(vault, settings)) as client:
            return {t.name for t in (await client.list_tools()).tools}

    assert "browser" not in asyncio.run(tools(Settings()))
    server = start(vault, agent_actions=True)
    settings = Settings.model_validate({"bridge": {"agent_actions": True, "port": server.port}})
    assert "browser" in asyncio.run(tools(settings))
    token = secrets.bridge_token(vault)

    async def run() -> tuple[Any, Any]:
        ws = await _extension(server.port, token, {"enabled": True, "origins": []})

        async def answer() -> None:
            msg = json.loads(await ws.recv())
            await ws.send(json.dumps({"type": "result", "id": msg["id"], "ok": True,
                                      "result": {"title": "A page", "url": "https://a.example/"}}))

        async with Client(build_server(vault, settings)) as client:
            task = asyncio.create_task(answer())
            ok = await client.call_tool("browser", {"action": "tab_info"})
            await task
            refused = await client.call_tool("browser", {"action": "navigate",
                                                         "url": "https://b.example/"})
        await ws.close()
        return ok, refused

    try:
        ok, refused = asyncio.run(run())
    finally:
        server.stop()
    assert not ok.is_error and "A page" in ok.content[0].text
    assert refused.is_error and "not an allowed origin" in refused.content[0].text


def test_another_extension_is_told_why_its_socket_is_closed(bridge: Client, vault: Vault) -> None:
    secrets.pair(vault, EXT)
    bridge.server.bridge.paired = EXT

    async def run() -> int:
        ws = await websockets.connect(f"ws://127.0.0.1:{bridge.server.port}/ws",
                                      origin="chrome-extension://other")  # type: ignore[arg-type]
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
        assert closed.value.rcvd is not None
        return closed.value.rcvd.code

    assert asyncio.run(run()) == 4403


def test_two_processes_making_a_token_at_once_agree_on_it(tmp_path: Path) -> None:
    # `vaultd mcp --http` makes its token as a client reads it: whoever writes first, both
    # must hold the token that is in the file, or the client is refused with 401.
    import multiprocessing

    vault = Vault(tmp_path / "v")
    vault.init(default_config_toml())
    ctx = multiprocessing.get_context("fork")
    start, out = ctx.Barrier(8), ctx.Queue()
    procs = [ctx.Process(target=_make_mcp_token, args=(str(vault.root), start, out)) for _ in range(8)]
    for proc in procs:
        proc.start()
    tokens = {out.get(timeout=30) for _ in procs}
    for proc in procs:
        proc.join(10)
    on_disk = (secrets.secrets_dir(vault) / "mcp.token").read_text(encoding="utf-8").strip()
    assert tokens == {on_disk}


def _make_mcp_token(root: str, start: Any, out: Any) -> None:
    start.wait()  # all at once, none finding the file yet
    out.put(secrets.token(Vault(Path(root)), "mcp"))
