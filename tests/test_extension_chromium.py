"""The browser extension (extension/) in real Chromium against the real bridge.

One headless Chromium (Debian's, never a downloaded one) with the unpacked extension, a
bridge for a temporary vault, and test pages served on 127.0.0.1. The extension is paired
the way a user pairs it: its options page, the token, Save. Each test then opens a page,
opens the popup on that page's tab (``popup.html?tab=<id>``), and saves it.
"""

from __future__ import annotations

import base64
import json
import os
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import REQUIRE_ENV

from vaultd.bridge.server import BridgeServer
from vaultd.config import Settings, default_config_toml, load_settings
from vaultd.pipeline.ingest import ingest_item
from vaultd.samplepdf import TITLE as SAMPLE_TITLE
from vaultd.samplepdf import write_sample_paper
from vaultd.secrets import bridge_token
from vaultd.vault import Vault

try:
    from playwright.sync_api import BrowserContext, Page, Worker, expect, sync_playwright
except ImportError:  # the dev extra is not installed
    sync_playwright = None  # type: ignore[assignment]

CHROMIUM = Path("/usr/bin/chromium")
EXTENSION = Path(__file__).resolve().parents[1] / "extension"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", f"--disable-extensions-except={EXTENSION}",
                  f"--load-extension={EXTENSION}"]
WAIT_MS = 10_000
WAIT_SECONDS = WAIT_MS / 1000

ARXIV_ID = "2401.01234"
ARXIV_TITLE = "Sparse Mixtures of Careful Experts"
JSONLD_DOI = "10.5555/vaultd.jsonld.2024"
JSONLD_TITLE = "Careful Notes on Quoting"
WEB_TITLE = "A Plain Blog Post"


def _require(ok: bool, reason: str) -> None:
    """Skip when the browser is missing, unless VAULTD_REQUIRE_FIXTURES=1 (CI): then fail."""
    if ok:
        return
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{reason}; {REQUIRE_ENV}=1 requires it")
    pytest.skip(reason)


# --- the test pages --------------------------------------------------------------------

def _arxiv_page(base: str) -> str:
    return f"""<!doctype html><html><head><title>[{ARXIV_ID}] {ARXIV_TITLE}</title>
<meta name="citation_title" content="{ARXIV_TITLE}">
<meta name="citation_author" content="Lovelace, Ada">
<meta name="citation_author" content="Babbage, Charles">
<meta name="citation_date" content="2024/01/03">
<meta name="citation_arxiv_id" content="{ARXIV_ID}">
<meta name="citation_pdf_url" content="{base}/pdf/{ARXIV_ID}">
</head><body><h1>{ARXIV_TITLE}</h1><p>Abstract: experts, carefully.</p></body></html>"""


JSONLD = {"@context": "https://schema.org", "@graph": [
    {"@type": "WebPage", "name": "Journal of Tests"},
    {"@type": "ScholarlyArticle", "headline": JSONLD_TITLE, "datePublished": "2024-02-01",
     "author": [{"@type": "Person", "name": "Ada Lovelace"}, {"@type": "Person", "name": "Charles Babbage"}],
     "identifier": {"@type": "PropertyValue", "propertyID": "DOI", "value": JSONLD_DOI}}]}

PAGES = {
    "/article/notes": f"""<!doctype html><html><head><title>Quoting | Journal of Tests</title>
<script type="application/ld+json">{json.dumps(JSONLD)}</script></head>
<body><h1>{JSONLD_TITLE}</h1></body></html>""",
    "/blog/post": f"""<!doctype html><html><head><title>{WEB_TITLE}</title></head>
<body><article><h1>{WEB_TITLE}</h1><p>Nothing scholarly here.</p></article></body></html>""",
    "/form": """<!doctype html><html><head><title>A form</title></head><body>
<input id="q"><button id="go" onclick="document.getElementById('out').textContent =
'searched ' + document.getElementById('q').value">Go</button><p id="out"></p></body></html>""",
    "/many-metas": "<!doctype html><html><head><title>Many</title>"
        + "".join(f'<meta name="citation_keyword_{i}" content="k{i}">' for i in range(60))
        + "</head><body></body></html>",
    "/long-meta": f"""<!doctype html><html><head><title>Long</title>
<meta name="citation_abstract" content="{'x' * 5000}"></head><body></body></html>""",
}


@dataclass
class Site:
    """Test pages on 127.0.0.1; remembers the Content-Type each PDF request got."""

    pdf: bytes
    base: str = ""
    pdf_answers: list[tuple[str, str]] = field(default_factory=list)  # (Sec-Fetch-Dest, type)


def _serve(site: Site) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = self.path.split("?")[0]
            if path == "/papers/sample.pdf":
                # Chrome downloads an octet-stream PDF instead of showing it, so the tab is
                # given application/pdf, while the extension's own fetch gets
                # application/octet-stream, as many repositories answer: the extension
                # must take the bytes because they start with %PDF-, whatever the label.
                dest = self.headers.get("Sec-Fetch-Dest", "")
                kind = "application/pdf" if dest == "document" else "application/octet-stream"
                site.pdf_answers.append((dest, kind))
                self._reply(site.pdf, kind)
            elif path == f"/abs/{ARXIV_ID}":
                self._reply(_arxiv_page(site.base).encode(), "text/html; charset=utf-8")
            elif path in PAGES:
                self._reply(PAGES[path].encode(), "text/html; charset=utf-8")
            else:
                self.send_error(404)

        def _reply(self, body: bytes, content_type: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    site.base = f"http://127.0.0.1:{server.server_port}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


# --- one browser, one bridge, one vault for the module -----------------------------------

@dataclass
class Browser:
    vault: Vault
    bridge: BridgeServer
    token: str
    site: Site
    context: BrowserContext
    worker: Worker
    extension_id: str

    def status(self) -> dict[str, Any]:
        answer = httpx.get(f"http://127.0.0.1:{self.bridge.port}/status", timeout=5,
                           headers={"Authorization": f"Bearer {self.token}"})
        answer.raise_for_status()
        data: dict[str, Any] = answer.json()
        return data

    def command(self, action: str, **params: Any) -> dict[str, Any]:
        """POST /command; the bridge's answer, with its HTTP status under "http"."""
        answer = httpx.post(f"http://127.0.0.1:{self.bridge.port}/command", timeout=40,
                            json={"action": action, "params": params},
                            headers={"Authorization": f"Bearer {self.token}"})
        data: dict[str, Any] = answer.json()
        return {"http": answer.status_code, **data}

    def badge(self) -> str:
        text: str = self.worker.evaluate("chrome.action.getBadgeText({})")
        return text

    def open(self, url: str) -> tuple[Page, int]:
        """``url`` in a new tab, and that tab's id as the extension sees it."""
        page = self.context.new_page()
        page.goto(url)
        tab_id = self.worker.evaluate(
            "url => chrome.tabs.query({}).then(tabs => tabs.find(t => t.url === url)?.id)", url)
        assert isinstance(tab_id, int), f"no tab for {url}"
        return page, tab_id

    def popup(self, tab_id: int) -> Page:
        page = self.context.new_page()
        page.goto(f"chrome-extension://{self.extension_id}/popup.html?tab={tab_id}")
        return page

    def options(self, **fields: str | bool) -> None:
        page = self.context.new_page()
        page.goto(f"chrome-extension://{self.extension_id}/options.html")
        for name, value in fields.items():
            if isinstance(value, bool):
                page.get_by_test_id(name).set_checked(value)
            else:
                page.get_by_test_id(name).fill(value)
        page.get_by_test_id("save-options").click()
        expect(page.get_by_test_id("options-status")).to_have_text("Saved.", timeout=WAIT_MS)
        page.close()

    def wait_for(self, ready: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + WAIT_SECONDS
        while not ready():
            assert time.monotonic() < deadline, f"{what}: not within {WAIT_SECONDS:.0f} s"
            time.sleep(0.05)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    _require(sync_playwright is not None, "Python Playwright is not installed (dev extra)")
    _require(CHROMIUM.is_file(), f"no Chromium at {CHROMIUM} (Debian package chromium)")
    root = tmp_path_factory.mktemp("extension")
    vault = Vault(root / "vault")
    vault.init(default_config_toml())
    token = bridge_token(vault)
    bridge = BridgeServer(vault, Settings.model_validate({"bridge": {"agent_actions": True}}),
                          port=0)
    bridge.start()
    write_sample_paper(root / "sample.pdf")
    site = Site(pdf=(root / "sample.pdf").read_bytes())
    pages = _serve(site)
    try:
        with sync_playwright() as pw:
            context = pw.chromium.launch_persistent_context(
                root / "profile", executable_path=str(CHROMIUM), headless=True,
                args=CHROMIUM_FLAGS, env={**os.environ, "HOME": str(root)})  # ~/.pki stays here
            worker = (context.service_workers[0] if context.service_workers
                      else context.wait_for_event("serviceworker", timeout=WAIT_MS))
            extension_id = worker.url.split("/")[2]
            b = Browser(vault, bridge, token, site, context, worker, extension_id)
            b.options(token=token, port=str(bridge.port))
            yield b
            context.close()
    finally:
        pages.shutdown()
        pages.server_close()
        bridge.stop()


def _saved(popup: Page) -> str:
    """Click Save; the Inbox/ path the popup reports."""
    popup.get_by_test_id("save").click()
    status = popup.get_by_test_id("status")
    expect(status).to_have_text(re.compile(r"^Saved to Inbox/"), timeout=WAIT_MS)
    return status.inner_text().removeprefix("Saved to ")


def _popup_shows(popup: Page, kind: str, title: str) -> None:
    expect(popup.get_by_test_id("save")).to_be_enabled(timeout=WAIT_MS)
    expect(popup.get_by_test_id("kind")).to_have_attribute("data-kind", kind)
    expect(popup.get_by_test_id("title")).to_have_text(title)


# --- pairing and the WebSocket -------------------------------------------------------------

def test_the_paired_extension_keeps_a_websocket_to_the_bridge(browser: Browser) -> None:
    browser.wait_for(lambda: browser.status()["extension_connected"] is True,
                     "the extension's WebSocket")
    assert browser.status()["paired"] is True
    paired = json.loads((browser.vault.machine_dir / "secrets" / "bridge-paired.json").read_text())
    assert paired["origin"] == f"chrome-extension://{browser.extension_id}"


def test_test_connection_in_the_options_shows_the_vault(browser: Browser) -> None:
    page = browser.context.new_page()
    page.goto(f"chrome-extension://{browser.extension_id}/options.html")
    expect(page.get_by_test_id("port")).to_have_value(str(browser.bridge.port))
    page.get_by_test_id("test-connection").click()
    expect(page.get_by_test_id("options-status")).to_have_text(
        re.compile(r'^Connected to vault "vault" .*the agent is not running'), timeout=WAIT_MS)
    page.close()


# --- saving pages from the popup -----------------------------------------------------------

def test_saving_an_arxiv_abstract_page_leaves_a_link_to_its_abs_url(browser: Browser) -> None:
    page, tab = browser.open(f"{browser.site.base}/abs/{ARXIV_ID}")
    popup = browser.popup(tab)
    _popup_shows(popup, "arxiv", ARXIV_TITLE)
    expect(popup.get_by_test_id("ids")).to_have_text(f"arXiv:{ARXIV_ID}")
    saved = browser.vault.root / _saved(popup)
    assert saved.suffix == ".url"
    assert f"URL=https://arxiv.org/abs/{ARXIV_ID}" in saved.read_text()
    page.close()
    popup.close()


def test_saving_a_jsonld_article_leaves_a_link_to_its_doi(browser: Browser) -> None:
    page, tab = browser.open(f"{browser.site.base}/article/notes")
    popup = browser.popup(tab)
    _popup_shows(popup, "doi", JSONLD_TITLE)
    saved = browser.vault.root / _saved(popup)
    assert f"URL=https://doi.org/{JSONLD_DOI}" in saved.read_text()
    page.close()
    popup.close()


def test_saving_a_web_page_leaves_its_snapshot_with_its_address(browser: Browser) -> None:
    url = f"{browser.site.base}/blog/post"
    page, tab = browser.open(url)
    popup = browser.popup(tab)
    _popup_shows(popup, "web", WEB_TITLE)
    tabs = len(browser.context.pages)
    saved = browser.vault.root / _saved(popup)
    assert len(browser.context.pages) == tabs  # saving opens nothing
    text = saved.read_text()
    assert saved.suffix == ".html"
    assert f'<meta name="vaultd:url" content="{url}">' in text
    assert "Nothing scholarly here." in text
    page.close()
    popup.close()


def test_a_saved_pdf_is_the_served_bytes_and_becomes_a_note_the_popup_then_knows(
        browser: Browser, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"{browser.site.base}/papers/sample.pdf"
    page, tab = browser.open(url)
    # The viewer's tab is titled with the address until the PDF has loaded, then with the
    # PDF's own title (document.title stays empty); a reader clicks the button after that.
    browser.wait_for(lambda: browser.worker.evaluate(
        "id => chrome.tabs.get(id).then(t => t.title)", tab) == SAMPLE_TITLE, "the PDF's title")
    popup = browser.popup(tab)
    _popup_shows(popup, "pdf", SAMPLE_TITLE)
    expect(popup.get_by_test_id("in-vault")).to_be_hidden()
    saved = browser.vault.root / _saved(popup)
    assert saved.name == f"{SAMPLE_TITLE}.pdf"
    assert saved.read_bytes() == browser.site.pdf
    assert ("empty", "application/octet-stream") in browser.site.pdf_answers
    popup.close()

    # The agent's ingest, offline: every metadata source is a closed port (conftest).
    monkeypatch.setenv("VAULTD_CAPTURE_MAX_RETRIES", "0")
    monkeypatch.setenv("VAULTD_CAPTURE_ARXIV_INTERVAL_SECONDS", "0")
    settings = load_settings(browser.vault.config_path)
    # Playwright's sync API runs an event loop in this thread; ingest runs its own.
    with ThreadPoolExecutor(1) as pool:
        result = pool.submit(ingest_item, browser.vault, settings, saved,
                             action="capture").result()
    key = result.cite_keys[0]
    assert browser.vault.note_path(key).is_file()

    again = browser.popup(tab)
    expect(again.get_by_test_id("in-vault")).to_have_text(f"Already in your vault: {key}",
                                                          timeout=WAIT_MS)
    again.close()
    page.close()


def test_the_popup_and_badge_say_so_when_vaultd_is_not_running(browser: Browser) -> None:
    page, tab = browser.open(f"{browser.site.base}/blog/post")
    browser.options(port=str(_free_port()))
    try:
        popup = browser.popup(tab)
        expect(popup.get_by_test_id("status")).to_have_text("vaultd is not running",
                                                            timeout=WAIT_MS)
        expect(popup.get_by_test_id("save")).to_be_disabled()
        browser.wait_for(lambda: browser.badge() == "×", "the agent-down badge")
        popup.close()
    finally:
        browser.options(port=str(browser.bridge.port))
    browser.wait_for(lambda: browser.badge() == "", "the connected badge")
    page.close()


def test_the_popup_and_badge_say_so_when_the_extension_is_not_paired(browser: Browser) -> None:
    page, tab = browser.open(f"{browser.site.base}/blog/post")
    browser.options(token="")
    try:
        popup = browser.popup(tab)
        expect(popup.get_by_test_id("status")).to_have_text("Not paired: open options",
                                                            timeout=WAIT_MS)
        expect(popup.get_by_test_id("save")).to_be_disabled()
        browser.wait_for(lambda: browser.badge() == "!", "the not-paired badge")
        popup.close()
    finally:
        browser.options(token=browser.token)
    browser.wait_for(lambda: browser.status()["extension_connected"] is True, "reconnected")
    page.close()


def test_a_wrong_token_is_refused_and_shown_as_not_paired(browser: Browser) -> None:
    page, tab = browser.open(f"{browser.site.base}/blog/post")
    browser.options(token="not-the-token")
    try:
        browser.wait_for(lambda: browser.badge() == "!", "the 4401 close shown on the badge")
        popup = browser.popup(tab)
        expect(popup.get_by_test_id("status")).to_have_text(
            re.compile(r"token", re.IGNORECASE), timeout=WAIT_MS)  # the bridge's 401 sentence
        popup.close()
    finally:
        browser.options(token=browser.token)
    browser.wait_for(lambda: browser.status()["extension_connected"] is True, "reconnected")
    page.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- agent actions ---------------------------------------------------------------------------

def test_agent_actions_run_only_when_enabled_and_only_on_allowed_origins(
        browser: Browser) -> None:
    page, _ = browser.open(f"{browser.site.base}/form")
    page.bring_to_front()
    browser.wait_for(lambda: browser.status()["extension_connected"] is True, "connected")
    refused = browser.command("extract")  # off by default in the extension's options
    assert refused["http"] == 403 and "extension" in refused["error"]

    browser.options(actions=True, origins=browser.site.base)
    try:
        page.bring_to_front()
        # the service worker reads the saved options when storage tells it, a moment after
        # the options page says "Saved." (a loaded machine's ping came first once, refused)
        browser.wait_for(lambda: "result" in browser.command("ping"), "agent actions enabled")
        assert browser.command("ping")["result"]["pong"] is True
        assert browser.command("tab_info")["result"]["url"] == f"{browser.site.base}/form"
        assert browser.command("type", selector="#q", text="quotes")["ok"] is True
        assert browser.command("click", selector="#go")["ok"] is True
        assert browser.command("wait", selector="#out", timeout_ms=2000)["ok"] is True
        assert browser.command("extract", selector="#out")["result"]["text"] == "searched quotes"
        # Chrome grants screenshots only with activeTab (a click on the toolbar button).
        shot = browser.command("screenshot")
        assert shot["ok"] is False and "open the vaultd popup on this tab" in shot["error"]
        missing = browser.command("click", selector="#nothing-here")
        assert missing == {"http": 200, "ok": False,
                           "error": 'No element matches "#nothing-here".'}

        moved = browser.command("navigate", url=f"{browser.site.base}/blog/post")
        assert moved["result"] == {"url": f"{browser.site.base}/blog/post", "loaded": True}
        assert browser.command("extract", selector="h1")["result"]["text"] == WEB_TITLE
        elsewhere = browser.command("navigate", url="https://example.org/")
        assert elsewhere["http"] == 403  # the bridge checks navigate's target itself

        # The same page on localhost is another origin: the extension refuses it.
        other = browser.site.base.replace("127.0.0.1", "localhost") + "/form"
        page.goto(other)
        page.bring_to_front()
        foreign = browser.command("extract")
        assert foreign["ok"] is False
        assert "is not on the allowed origins" in foreign["error"]
    finally:
        browser.options(actions=False, origins="")
    page.close()


# --- what detect.js makes of a page ----------------------------------------------------------

def _detect_in(browser: Browser, path: str) -> dict[str, Any]:
    page = browser.context.new_page()
    page.goto(browser.site.base + path)
    page.add_script_tag(path=EXTENSION / "detect.js")
    found: dict[str, Any] = page.evaluate("detectPage()")
    page.close()
    return found


def test_detect_reads_citation_metas_and_joins_repeated_ones(browser: Browser) -> None:
    found = _detect_in(browser, f"/abs/{ARXIV_ID}")
    assert found["kind"] == "arxiv" and found["arxiv"] == ARXIV_ID
    assert found["meta"]["citation_author"] == "Lovelace, Ada; Babbage, Charles"
    assert found["meta"]["citation_pdf_url"] == f"{browser.site.base}/pdf/{ARXIV_ID}"


def test_detect_keeps_at_most_50_metas_of_at_most_2_kb(browser: Browser) -> None:
    assert len(_detect_in(browser, "/many-metas")["meta"]) == 50
    assert len(_detect_in(browser, "/long-meta")["meta"]["citation_abstract"]) == 2048


def test_detect_reads_jsonld_authors_and_date(browser: Browser) -> None:
    found = _detect_in(browser, "/article/notes")
    assert (found["kind"], found["doi"], found["title"]) == ("doi", JSONLD_DOI, JSONLD_TITLE)
    assert found["meta"]["jsonld:author"] == "Ada Lovelace; Charles Babbage"
    assert found["meta"]["jsonld:datePublished"] == "2024-02-01"


CLASSIFY_CASES = [
    ({"url": "https://www.youtube.com/watch?v=dQw4w9WgXcQ"}, "youtube", None),
    ({"url": "https://youtu.be/dQw4w9WgXcQ"}, "youtube", None),
    ({"url": "https://m.youtube.com/shorts/dQw4w9WgXcQ"}, "youtube", None),
    ({"url": "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"}, "youtube", None),
    ({"url": "http://127.0.0.1:8000/watch?v=dQw4w9WgXcQ"}, "web", None),
    ({"url": "https://arxiv.org/pdf/1706.03762v7"}, "arxiv", "1706.03762"),
    ({"url": "https://example.org/files/Paper.PDF?download=1"}, "pdf", None),
    ({"url": "https://example.org/view", "contentType": "application/pdf"}, "pdf", None),
    ({"url": "https://example.org/view", "pdfEmbed": True}, "pdf", None),
    ({"url": "https://example.org/view", "contentType": "application/pdf",
      "metas": [["citation_doi", "10.1000/in.pdf"]]}, "pdf", "10.1000/in.pdf"),
    ({"url": "https://journals.example.org/doi/full/10.1234/abc.def"}, "doi", "10.1234/abc.def"),
    ({"url": "https://example.org/a", "metas": [["citation_doi", "https://doi.org/10.1000/hw.2"]]},
     "doi", "10.1000/hw.2"),
    ({"url": "https://example.org/a", "metas": [["DC.Identifier", "doi:10.1000/dc.3"]]},
     "doi", "10.1000/dc.3"),
    ({"url": "https://example.org/a", "coins": [
        "ctx_ver=Z39.88-2004&rft_id=info%3Adoi%2F10.1000%2Fcoins.4&rft.atitle=A"]},
     "doi", "10.1000/coins.4"),
    ({"url": "https://example.org/a", "jsonld": [{"@type": ["ScholarlyArticle"],
                                                 "sameAs": ["https://doi.org/10.1000/ld.5"]}]},
     "doi", "10.1000/ld.5"),
    ({"url": "https://example.org/a", "title": "Just a page"}, "web", None),
]


@pytest.mark.parametrize(("facts", "kind", "ident"), CLASSIFY_CASES)
def test_classify_tells_the_kind_and_id_from_the_facts(
        browser: Browser, facts: dict[str, Any], kind: str, ident: str | None) -> None:
    page = browser.context.new_page()
    page.goto(f"{browser.site.base}/blog/post")
    page.add_script_tag(path=EXTENSION / "detect.js")
    found = page.evaluate("facts => classify(facts)", facts)
    page.close()
    assert found["kind"] == kind
    assert ident in (None, found["arxiv"], found["doi"])


def test_the_extension_asks_for_no_more_than_it_needs() -> None:
    manifest = json.loads((EXTENSION / "manifest.json").read_text())
    assert manifest["manifest_version"] == 3
    assert sorted(manifest["permissions"]) == ["activeTab", "scripting", "storage"]
    assert manifest["host_permissions"] == ["http://127.0.0.1/*", "http://localhost/*"]
    scripts = "".join(p.read_text() for p in EXTENSION.glob("*.js"))
    assert "eval(" not in scripts and "new Function" not in scripts


def test_pdf_bytes_are_base64_encoded_in_chunks_that_join_into_one_encoding(
        browser: Browser) -> None:
    data = bytes(range(256)) * 400  # 102,400 bytes: three chunks of background.js's toBase64
    encoded = browser.worker.evaluate(
        "b64 => toBase64(Uint8Array.from(atob(b64), c => c.charCodeAt(0)))",
        base64.b64encode(data).decode())
    assert encoded == base64.b64encode(data).decode()
