"""Helpers for the daemon tests: a real `vaultd run` process, sample-paper variants,
bounded waits and a loopback server replaying recorded arXiv responses. (No tests here.)"""

from __future__ import annotations

import http.server
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from vaultd.daemon.queue import Job, JobQueue
from vaultd.service_lock import service_running
from vaultd.vault import Vault

POLL = 0.05


def wait_for(cond: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll ``cond`` until true; fail after ``timeout`` seconds (a bounded wait)."""
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(POLL)


def jobs(vault: Vault) -> list[Job]:
    """Read the queue the way an observer should: read-only, never taking a write lock."""
    return jobs_at(vault.state_db)


def jobs_at(state_db: Path) -> list[Job]:
    """``jobs`` of the state database at ``state_db`` (another machine's, say)."""
    if not state_db.exists():
        return []
    db = sqlite3.connect(f"file:{state_db}?mode=ro", uri=True, timeout=5)
    db.row_factory = sqlite3.Row
    try:
        return JobQueue(db).jobs(limit=100000)
    except sqlite3.OperationalError:
        return []  # the agent has not created its tables yet
    finally:
        db.close()


def settled(vault: Vault, expected: int) -> bool:
    js = jobs(vault)
    return len(js) >= expected and all(j.state in ("done", "failed") for j in js)


class Agent:
    def __init__(self, vault: Vault, proc: subprocess.Popen[bytes], log: Path) -> None:
        self.vault, self.proc, self.log = vault, proc, log

    def stop(self, timeout: float = 12.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout)

    def kill9(self) -> None:
        self.proc.kill()
        self.proc.wait(5)

    def stderr(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


@contextmanager
def agent(vault: Vault, *, debounce: float = 0.2, concurrency: int = 2,
          env: dict[str, str] | None = None) -> Iterator[Agent]:
    a = start_agent(vault, debounce=debounce, concurrency=concurrency, env=env)
    try:
        yield a
    finally:
        if a.proc.poll() is None:
            a.proc.kill()
            a.proc.wait(5)


def start_agent(vault: Vault, *, debounce: float = 0.2, concurrency: int = 2,
                env: dict[str, str] | None = None) -> Agent:
    log = vault.root.parent / f"agent-{time.monotonic_ns()}.stderr"
    full_env = {**os.environ, "VAULTD_CAPTURE_MAX_RETRIES": "0",
                "VAULTD_CAPTURE_ARXIV_INTERVAL_SECONDS": "0", **(env or {})}
    with log.open("wb") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "vaultd", "--vault", str(vault.root), "run",
             "--debounce", str(debounce), "--concurrency", str(concurrency), "--no-schedule"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, env=full_env)
    a = Agent(vault, proc, log)
    wait_for(lambda: service_running(vault)["running"] or proc.poll() is not None, 20,
             "the agent to take the vault lock")
    # The lock is taken before the watchers start: wait for the line logged once they
    # watch, or a file written right away would predate them.
    wait_for(lambda: "vaultd running on" in a.stderr() or proc.poll() is not None, 20,
             "the agent to start watching")
    assert proc.poll() is None, a.stderr()
    return a


def sample_variant(base: bytes, n: int) -> bytes:
    """The sample paper with its title and one extra line changed, so each PDF differs."""
    import pymupdf

    doc = pymupdf.open(stream=base, filetype="pdf")
    page = doc[0]
    page.insert_text((54, 770), f"Variant {n} of the sample paper.", fontname="helv",
                     fontsize=8)
    meta = dict(doc.metadata or {})
    meta["title"] = f"Verbatim Quotes Variant {n}"
    doc.set_metadata(meta)
    data: bytes = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    return data


def sample_bytes(tmp: Path) -> bytes:
    from vaultd.samplepdf import write_sample_paper

    path = tmp / "sample-base.pdf"
    write_sample_paper(path)
    return path.read_bytes()


def drop(inbox: Path, name: str, data: bytes) -> Path:
    """Write outside the watched tree, then rename in: how browsers finish a download."""
    staging = inbox.parent / ".vaultd" / f"staging-{name}"
    staging.write_bytes(data)
    target = inbox / name
    staging.replace(target)
    return target


@contextmanager
def arxiv_replay(fixtures_dir: Path) -> Iterator[str]:
    """Loopback HTTP server: arXiv API answers from the recorded fixtures; all else 404."""
    arxiv = fixtures_dir / "arxiv"

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            query = parse_qs(urlsplit(self.path).query)
            ids = query.get("id_list", [""])[0]
            body: bytes | None = None
            if ids:
                candidate = arxiv / f"{ids.replace('/', '_')}.atom.xml"
                body = candidate.read_bytes() if candidate.is_file() else \
                    (arxiv / "empty_0000.0000.atom.xml").read_bytes()
            if body is None:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/atom+xml")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            return

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def replay_env(base: str) -> dict[str, str]:
    return {
        "VAULTD_ARXIV_API_URL": f"{base}/api/query",
        "VAULTD_ARXIV_PDF_URL": f"{base}/pdf",
        "VAULTD_CROSSREF_URL": base, "VAULTD_OPENALEX_URL": base, "VAULTD_UNPAYWALL_URL": base,
        "VAULTD_CAPTURE_ARXIV_INTERVAL_SECONDS": "0",
    }
