"""Benchmark the agent (`vaultd run`) on generated sample papers, offline, without an LLM.

    python3 bench/daemon.py                       # 20 drops, 100-PDF burst, 60 s idle
    python3 bench/daemon.py --idle-seconds 10     # shorter idle window

Figures: drop-to-note latency (p50/p90 over sequential drops, including the debounce),
throughput of one burst of PDFs, and the idle service's CPU % and RSS.
"""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CLOSED = "http://127.0.0.1:9"
OFFLINE_ENV = {
    "VAULTD_ARXIV_API_URL": CLOSED, "VAULTD_ARXIV_PDF_URL": CLOSED, "VAULTD_CROSSREF_URL": CLOSED,
    "VAULTD_OPENALEX_URL": CLOSED, "VAULTD_UNPAYWALL_URL": CLOSED, "OLLAMA_HOST": CLOSED,
    "VAULTD_CAPTURE_MAX_RETRIES": "0",
    # The closed local port stands in for arXiv; its 3 s politeness gap would only
    # measure the rate limiter (the sample paper prints an arXiv id in its references).
    "VAULTD_CAPTURE_ARXIV_INTERVAL_SECONDS": "0",
}


def variant(base: bytes, n: int) -> bytes:
    import pymupdf

    doc = pymupdf.open(stream=base, filetype="pdf")
    doc[0].insert_text((54, 770), f"Benchmark variant {n}.", fontname="helv", fontsize=8)
    meta = dict(doc.metadata or {})
    meta["title"] = f"Verbatim Quotes Benchmark {n}"
    doc.set_metadata(meta)
    data: bytes = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    return data


def counts(state_db: Path) -> tuple[int, int, int]:
    """(jobs, done jobs, failed jobs)."""
    if not state_db.exists():
        return 0, 0, 0
    db = sqlite3.connect(state_db, timeout=30)
    try:
        total = db.execute("SELECT COUNT(*) FROM daemon_jobs").fetchone()[0]
        done = db.execute("SELECT COUNT(*) FROM daemon_jobs WHERE state='done'").fetchone()[0]
        failed = db.execute("SELECT COUNT(*) FROM daemon_jobs WHERE state='failed'").fetchone()[0]
    except sqlite3.OperationalError:
        return 0, 0, 0
    finally:
        db.close()
    return int(total), int(done), int(failed)


def failures(state_db: Path) -> list[str]:
    db = sqlite3.connect(state_db, timeout=30)
    try:
        return [f"{Path(p).name}: {e}" for p, e in
                db.execute("SELECT path, error FROM daemon_jobs WHERE state='failed'")]
    finally:
        db.close()


def wait(cond: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not cond():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.01)


def drop(vault: Path, name: str, data: bytes) -> None:
    staging = vault / ".vaultd" / f"staging-{name}"
    staging.write_bytes(data)
    staging.replace(vault / "Inbox" / name)


def proc_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start(vault: Path, debounce: float) -> subprocess.Popen[bytes]:
    from vaultd.service_lock import service_running
    from vaultd.vault import Vault

    env = {**os.environ, **OFFLINE_ENV}
    proc = subprocess.Popen(
        [sys.executable, "-m", "vaultd", "--vault", str(vault), "--quiet", "run",
         "--debounce", str(debounce), "--no-schedule"],
        env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait(lambda: bool(service_running(Vault(vault))["running"]), 30, "agent start")
    return proc


def stop(proc: subprocess.Popen[bytes]) -> float:
    t = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    proc.wait(20)
    return time.monotonic() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--drops", type=int, default=20)
    ap.add_argument("--burst", type=int, default=100)
    ap.add_argument("--idle-seconds", type=float, default=60.0)
    ap.add_argument("--debounce", type=float, default=2.0, help="daemon.debounce_seconds")
    args = ap.parse_args()

    from vaultd.config import default_config_toml
    from vaultd.samplepdf import write_sample_paper
    from vaultd.vault import Vault

    tmp = Path(tempfile.mkdtemp(prefix="vaultd-bench-"))
    base_path = tmp / "base.pdf"
    write_sample_paper(base_path)
    base = base_path.read_bytes()
    pdfs = [variant(base, n) for n in range(args.drops + args.burst)]

    vault = tmp / "latency"
    Vault(vault).init(default_config_toml())
    proc = start(vault, args.debounce)
    latencies: list[float] = []
    db1 = vault / ".vaultd" / "state.db"
    for i in range(args.drops):
        t0 = time.monotonic()
        drop(vault, f"drop-{i:03d}.pdf", pdfs[i])
        wait(lambda i=i: sum(counts(db1)[1:]) >= i + 1, 60, f"drop {i}")
        if counts(db1)[1] == len(latencies) + 1:  # a failed job is not a drop-to-note
            latencies.append(time.monotonic() - t0)
    stop_latency = stop(proc)
    if not latencies:
        raise SystemExit("every drop failed: " + "; ".join(failures(db1)[:3]))

    vault2 = tmp / "burst"
    Vault(vault2).init(default_config_toml())
    proc = start(vault2, args.debounce)
    t0 = time.monotonic()
    for i in range(args.burst):
        drop(vault2, f"burst-{i:03d}.pdf", pdfs[args.drops + i])
    db2 = vault2 / ".vaultd" / "state.db"
    wait(lambda: sum(counts(db2)[1:]) >= args.burst, 900, "burst")
    burst_s = time.monotonic() - t0
    _, burst_done, burst_failed = counts(db2)
    notes = len(list((vault2 / "wiki").glob("*.md")))

    # Idle: the same agent, inbox now empty.
    time.sleep(2.0)  # let post-burst enrichment/index work drain before measuring idle
    cpu0, w0 = proc_cpu_seconds(proc.pid), time.monotonic()
    time.sleep(args.idle_seconds)
    cpu1, w1 = proc_cpu_seconds(proc.pid), time.monotonic()
    rss = proc_rss_mb(proc.pid)
    stop(proc)

    q = statistics.quantiles(latencies, n=10) if len(latencies) >= 2 else latencies * 9
    print(f"drop-to-note latency over {len(latencies)} drops (debounce {args.debounce} s, "
          f"no LLM): p50 {statistics.median(latencies):.2f} s, p90 {q[8]:.2f} s, "
          f"max {max(latencies):.2f} s")
    if len(latencies) < args.drops:
        print(f"  {args.drops - len(latencies)} drop(s) FAILED (not counted): "
              + "; ".join(failures(db1)[:3]))
    print(f"burst of {args.burst} PDFs: all settled in {burst_s:.1f} s, {burst_done} done "
          f"({burst_done / burst_s * 60:.0f} notes/min, {notes} notes), {burst_failed} failed")
    if burst_failed:
        print("  failures: " + "; ".join(failures(db2)[:3]))
    print(f"idle over {args.idle_seconds:.0f} s: CPU {100 * (cpu1 - cpu0) / (w1 - w0):.2f} %, "
          f"RSS {rss:.0f} MB")
    print(f"SIGTERM to exit: {stop_latency:.2f} s")


if __name__ == "__main__":
    main()
