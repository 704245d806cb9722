#!/usr/bin/env python3
"""The browser bridge's figures, each beside its baseline in the same run.

* capture → Inbox file: ``POST /capture`` answered (the file is written before the 202)
  for a link and for a 1 MB PDF, medians of 20, beside a plain ``GET /status``;
* capture → note: a PDF sent to a running ``vaultd run`` until its note exists, beside
  the same PDF dropped into ``Inbox/`` by hand (same agent, default debounce 2 s);
* idle memory: RSS of ``vaultd run`` with the bridge on and off, and of ``vaultd bridge``
  alone;
* a bounded local flood (4 threads, wrong token, 5 s): requests/s refused, and the
  drop → note latency of the agent while it lasts, beside the one without it.

Offline: every metadata source points at a closed port, so the sample paper's capture
fails over at once and its note is written as unverified (as in ``vaultd demo``).

    python3 bench/bridge.py
"""

from __future__ import annotations

import base64
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

DEAD = "http://127.0.0.1:9"
OFFLINE = {"VAULTD_ARXIV_API_URL": DEAD, "VAULTD_ARXIV_PDF_URL": DEAD, "VAULTD_CROSSREF_URL": DEAD,
           "VAULTD_OPENALEX_URL": DEAD, "VAULTD_UNPAYWALL_URL": DEAD, "OLLAMA_HOST": DEAD,
           "VAULTD_CAPTURE_MAX_RETRIES": "0", "VAULTD_INDEX_EMBEDDING_PROVIDER": "none"}


# As browsers do: without TCP_NODELAY, httpx's request in two writes meets the server's
# delayed ACK and every request on a kept-alive connection waits ~40 ms.
NODELAY = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]


def client(**kw: object) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(socket_options=NODELAY), **kw)  # type: ignore[arg-type]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def wait(cond: object, timeout: float = 60.0) -> float:
    t = time.perf_counter()
    while not cond():  # type: ignore[operator]
        if time.perf_counter() - t > timeout:
            raise SystemExit("timed out")
        time.sleep(0.01)
    return time.perf_counter() - t


class Agent:
    def __init__(self, root: Path, port: int, *, bridge: bool, alone: bool = False) -> None:
        env = {**os.environ, **OFFLINE, "VAULTD_BRIDGE_ENABLED": "true" if bridge else "false",
               "VAULTD_BRIDGE_PORT": str(port)}
        cmd = ["bridge"] if alone else ["run", "--no-schedule"]
        self.proc = subprocess.Popen([sys.executable, "-m", "vaultd", "--vault", str(root), *cmd],
                                     env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        from vaultd.vault import Vault

        log = Vault(root).logs_dir / "vaultd.log"
        if alone:
            wait(lambda: _answers(port))
        else:
            wait(lambda: log.is_file() and "vaultd running on" in log.read_text())
            if bridge:
                wait(lambda: _answers(port))
        time.sleep(1.0)  # let start-up settle before memory is read

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(15)


def _answers(port: int) -> bool:
    try:
        httpx.get(f"http://127.0.0.1:{port}/status", timeout=0.5)
        return True
    except httpx.HTTPError:
        return False


def variant(base: bytes, n: int) -> bytes:
    import pymupdf

    doc: Any = pymupdf.open(stream=base, filetype="pdf")  # type: ignore[no-untyped-call]
    doc[0].insert_text((54, 770), f"Bench variant {n}.", fontname="helv", fontsize=8)
    data: bytes = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    return data


def main() -> None:
    from vaultd.config import default_config_toml
    from vaultd.samplepdf import write_sample_paper
    from vaultd.secrets import bridge_token
    from vaultd.vault import Vault

    tmp = Path(tempfile.mkdtemp(prefix="vaultd-bench-bridge-"))
    vault = Vault(tmp / "vault")
    vault.init(default_config_toml())
    token = bridge_token(vault)
    auth = {"Authorization": f"Bearer {token}"}
    write_sample_paper(tmp / "sample.pdf")
    sample = (tmp / "sample.pdf").read_bytes()
    port = free_port()
    base = f"http://127.0.0.1:{port}"

    def notes() -> int:
        return len(list(vault.wiki.glob("*.md")))

    agent = Agent(vault.root, port, bridge=True)
    with_bridge = rss_kb(agent.proc.pid)
    http = client(headers=auth, timeout=30)
    status, link, pdf = [], [], []
    big = base64.b64encode(sample + b"%" + b"0" * (2**20 - len(sample)) + b"\n").decode()
    for i in range(20):
        t = time.perf_counter()
        http.get(f"{base}/status")
        status.append(time.perf_counter() - t)
        t = time.perf_counter()
        http.post(f"{base}/capture", json={"url": "https://blog.example/p", "title": f"p{i}",
                                           "html": "<p>x</p>"})
        link.append(time.perf_counter() - t)
        t = time.perf_counter()
        http.post(f"{base}/capture", json={"url": f"https://lib.example/{i}", "title": f"big{i}",
                                           "pdf_base64": big})
        pdf.append(time.perf_counter() - t)
    print("capture → Inbox file (202 answered, file written), medians of 20:")
    print(f"  GET /status {statistics.median(status) * 1000:6.1f} ms   web page "
          f"{statistics.median(link) * 1000:6.1f} ms   1 MB PDF {statistics.median(pdf) * 1000:6.1f} ms")
    wait(lambda: not [p for p in vault.inbox.iterdir() if p.is_file()], 300)

    def to_note(send: object) -> float:
        before = notes()
        t = time.perf_counter()
        send()  # type: ignore[operator]
        wait(lambda: notes() > before, 120)
        return time.perf_counter() - t

    n = [0]

    def via_bridge() -> None:
        n[0] += 1
        http.post(f"{base}/capture", json={"url": f"https://lib.example/s{n[0]}", "title": f"s{n[0]}",
                                           "pdf_base64": base64.b64encode(variant(sample, n[0])).decode()})

    def by_hand() -> None:
        n[0] += 1
        staging = vault.state_dir / f"staging-{n[0]}.pdf"
        staging.write_bytes(variant(sample, n[0]))
        staging.replace(vault.inbox / f"hand{n[0]}.pdf")

    bridge_t = statistics.median(to_note(via_bridge) for _ in range(3))
    hand_t = statistics.median(to_note(by_hand) for _ in range(3))
    print(f"capture → note (medians of 3): via the bridge {bridge_t:.2f} s, "
          f"dropped by hand {hand_t:.2f} s (debounce 2 s in both)")

    stop = threading.Event()
    counts = [0] * 4

    def flood(k: int) -> None:
        with client(headers={"Authorization": "Bearer wrong"}, timeout=5) as c:
            while not stop.is_set():
                c.get(f"{base}/status")
                counts[k] += 1

    threads = [threading.Thread(target=flood, args=(k,)) for k in range(4)]
    t0 = time.perf_counter()
    for th in threads:
        th.start()
    flooded = to_note(by_hand)
    while time.perf_counter() - t0 < 5:
        time.sleep(0.05)
    stop.set()
    for th in threads:
        th.join()
    elapsed = time.perf_counter() - t0
    print(f"flood of wrong-token requests (4 threads, {elapsed:.1f} s): {sum(counts) / elapsed:.0f} "
          f"refused/s; drop → note meanwhile {flooded:.2f} s vs {hand_t:.2f} s without")
    agent.stop()

    agent = Agent(vault.root, free_port(), bridge=False)
    without = rss_kb(agent.proc.pid)
    agent.stop()
    alone = Agent(vault.root, free_port(), bridge=True, alone=True)
    alone_kb = rss_kb(alone.proc.pid)
    alone.stop()
    print(f"idle RSS: vaultd run with bridge {with_bridge / 1024:.1f} MB, without "
          f"{without / 1024:.1f} MB; vaultd bridge alone {alone_kb / 1024:.1f} MB")


if __name__ == "__main__":
    main()
