#!/usr/bin/env python3
"""Click → Inbox file → note, through the real extension in headless Chromium.

Starts ``vaultd run`` (offline, bridge on a free port) on a scratch vault, serves the
project's generated sample paper on 127.0.0.1 in a variant per run, loads ``extension/``
into Debian's Chromium (Playwright, no download), pairs it through its options page, and
for each run opens the PDF tab, opens the popup on it and clicks Save. Prints, medians of
five: click → the popup's "Saved" line, click → the file in ``Inbox/``, click → the note
in ``wiki/``; beside them, the same PDF written into ``Inbox/`` by hand → note, in the
same run. Both go through the Inbox debounce (2 s by default).

    python3 bench/extension.py
"""

from __future__ import annotations

import os
import re
import statistics
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bridge import Agent, free_port, variant, wait

ROOT = Path(__file__).resolve().parents[1]
EXTENSION = ROOT / "extension"
CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--disable-extensions-except={EXTENSION}", f"--load-extension={EXTENSION}"]
RUNS = 5


def serve(pdfs: dict[str, bytes]) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pdfs.get(self.path)
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/pdf")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> None:
    if not CHROMIUM.is_file():
        sys.exit("no /usr/bin/chromium: run `bash scripts/install.sh --dev` first")
    from playwright.sync_api import expect, sync_playwright

    from vaultd.config import default_config_toml
    from vaultd.samplepdf import write_sample_paper
    from vaultd.secrets import bridge_token
    from vaultd.vault import Vault

    tmp = Path(tempfile.mkdtemp(prefix="vaultd-bench-ext-"))
    vault = Vault(tmp / "vault")
    vault.init(default_config_toml())
    token = bridge_token(vault)
    write_sample_paper(tmp / "sample.pdf")
    sample = (tmp / "sample.pdf").read_bytes()
    pdfs = {f"/paper{i}.pdf": variant(sample, 100 + i) for i in range(RUNS)}
    site = serve(pdfs)
    port = free_port()
    agent = Agent(vault.root, port, bridge=True)

    def notes() -> int:
        return len(list(vault.wiki.glob("*.md")))

    def inbox() -> int:
        return len([p for p in vault.inbox.iterdir() if p.suffix == ".pdf"])

    saved, filed, noted, by_hand = [], [], [], []
    try:
        with sync_playwright() as pw:
            ctx = pw.chromium.launch_persistent_context(
                tmp / "profile", executable_path=str(CHROMIUM), headless=True, args=FLAGS,
                env={**os.environ, "HOME": str(tmp)})
            worker = ctx.service_workers[0] if ctx.service_workers else ctx.wait_for_event("serviceworker")
            ext = worker.url.split("/")[2]
            opts = ctx.new_page()
            opts.goto(f"chrome-extension://{ext}/options.html")
            opts.get_by_test_id("token").fill(token)
            opts.get_by_test_id("port").fill(str(port))
            opts.get_by_test_id("save-options").click()
            expect(opts.get_by_test_id("options-status")).to_have_text("Saved.")
            for path in pdfs:
                url = f"http://127.0.0.1:{site.server_address[1]}{path}"
                tab = ctx.new_page()
                tab.goto(url)
                tab_id = worker.evaluate(
                    "u => chrome.tabs.query({}).then(ts => ts.find(t => t.url === u)?.id)", url)
                popup = ctx.new_page()
                popup.goto(f"chrome-extension://{ext}/popup.html?tab={tab_id}")
                expect(popup.get_by_test_id("save")).to_be_enabled(timeout=10_000)
                before_notes, before_inbox = notes(), inbox()
                t = time.perf_counter()
                popup.get_by_test_id("save").click()
                expect(popup.get_by_test_id("status")).to_have_text(
                    re.compile("^Saved to Inbox/"), timeout=30_000)
                saved.append(time.perf_counter() - t)
                wait(lambda b=before_inbox, n=before_notes: inbox() > b or notes() > n)
                filed.append(time.perf_counter() - t)
                wait(lambda n=before_notes: notes() > n, 120)
                noted.append(time.perf_counter() - t)
                popup.close()
                tab.close()
            ctx.close()
        for i in range(RUNS):
            before = notes()
            t = time.perf_counter()
            staging = vault.state_dir / f"staging-{i}.pdf"
            staging.write_bytes(variant(sample, 200 + i))
            staging.replace(vault.inbox / f"hand{i}.pdf")
            wait(lambda n=before: notes() > n, 120)
            by_hand.append(time.perf_counter() - t)
    finally:
        agent.stop()
        site.shutdown()

    def ms(xs: list[float]) -> str:
        return f"{statistics.median(xs) * 1000:.0f} ms"

    print(f"extension, sample-paper PDF tab, medians of {RUNS}:")
    print(f"  click → popup says Saved {ms(saved)}; click → file in Inbox/ {ms(filed)}; "
          f"click → note {statistics.median(noted):.2f} s")
    print(f"  same PDF written into Inbox/ by hand → note {statistics.median(by_hand):.2f} s")


if __name__ == "__main__":
    main()
