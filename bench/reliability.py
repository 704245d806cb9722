#!/usr/bin/env python3
"""Reliability figures: nothing lost, nothing corrupt, no crash on bad input.

Four measures, each printed with what it found:

* ``kill``: 100 ingest runs of the real agent, each killed with SIGKILL at a random point
  (0–1.5 s after the drop), then restarted: partial notes, lost Inbox items, jobs that do
  not complete after the restart.
* ``disk``: a 20 MB tmpfs vault filled while ``vaultd compile`` of a real paper runs: the
  error line, partial files, and the compile once space is back (needs root for mount).
* ``fuzz``: 10,000 generated inputs (hypothesis) to the link-file, ``.bib``, config and
  WebVTT readers: anything but their own one-line error is a crash.
* ``sync``: two agents on two copies of a vault synced by a script every 0.5 s, 50 drops on
  each side: notes per paper, conflict copies, and ``PRAGMA integrity_check`` of every
  database.

    python3 bench/reliability.py [--only kill,disk,fuzz,sync] [--runs 100] [--drops 50]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))


def wait_for(cond: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _env(state: Path, **extra: str) -> dict[str, str]:
    dead = "http://127.0.0.1:9"
    env = {**os.environ, "VAULTD_STATE_DIR": str(state), "OLLAMA_HOST": dead,
           "VAULTD_BRIDGE_ENABLED": "false", "VAULTD_MCP_ENABLED": "false",
           "VAULTD_CAPTURE_MAX_RETRIES": "0", "VAULTD_VIDEO_PROXY": dead}
    for var in ("VAULTD_ARXIV_URL", "VAULTD_CROSSREF_URL", "VAULTD_OPENALEX_URL",
                "VAULTD_UNPAYWALL_URL"):
        env[var] = dead  # the sample paper needs no source; nothing leaves this machine
    env.update(extra)
    return env


def _start(vault: Path, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as err:
        return subprocess.Popen(
            [sys.executable, "-m", "vaultd", "--vault", str(vault), "run", "--debounce", "0.2",
             "--no-schedule"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=err, env=env)


def _jobs(state_db: Path) -> list[sqlite3.Row]:
    if not state_db.exists():
        return []
    db = sqlite3.connect(f"file:{state_db}?mode=ro", uri=True, timeout=5)
    db.row_factory = sqlite3.Row
    try:
        return list(db.execute("SELECT * FROM daemon_jobs"))
    except sqlite3.OperationalError:
        return []
    finally:
        db.close()


def _state_db(vault: Path, state: Path) -> Path:
    vid = (vault / ".vaultd" / "vault-id").read_text(encoding="utf-8").strip()
    return state / vid / "state.db"


def _notes_ok(vault: Path) -> tuple[int, int]:
    """(notes that parse, notes that do not) in wiki/, plus temporary files as bad."""
    from vaultd.errors import NoteFormatError
    from vaultd.notes.reader import parse_note

    good = bad = 0
    for path in (vault / "wiki").rglob("*"):
        if path.name.endswith(".tmp"):
            bad += 1
        elif path.suffix == ".md":
            try:
                parse_note(path.read_text(encoding="utf-8"))
                good += 1
            except (NoteFormatError, UnicodeDecodeError):
                bad += 1
    return good, bad


def _sample(tmp: Path, n: int) -> bytes:
    from test_daemon_support import sample_bytes, sample_variant

    return sample_variant(sample_bytes(tmp), n)


def _new_vault(root: Path) -> Path:
    from vaultd.config import default_config_toml
    from vaultd.vault import Vault

    Vault(root).init(default_config_toml())
    return root


def kill_runs(runs: int) -> None:
    rng = random.Random(20261124)
    partial = lost = unfinished = 0
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp_s:
        tmp = Path(tmp_s)
        vault = _new_vault(tmp / "vault")
        state = tmp / "state"
        env = _env(state)
        log = tmp / "agent.log"
        for i in range(runs):
            name = f"paper{i}.pdf"
            data = _sample(tmp, i)
            proc = _start(vault, env, log)
            wait_for(lambda: b"vaultd running on" in log.read_bytes(), 30)
            staging = vault / ".vaultd" / f"staging-{name}"
            staging.write_bytes(data)
            staging.replace(vault / "Inbox" / name)
            time.sleep(rng.uniform(0.0, 1.5))
            proc.kill()
            proc.wait(10)
            log.write_bytes(b"")
            proc = _start(vault, env, log)
            db = _state_db(vault, state)
            done = wait_for(lambda n=name, d=db: any(  # type: ignore[misc]
                j["path"].endswith(n) and j["state"] == "done" for j in _jobs(d)), 40)
            proc.send_signal(signal.SIGTERM)
            proc.wait(15)
            states = [j["state"] for j in _jobs(db) if j["path"].endswith(name)]
            unfinished += not done or "done" not in states
            in_inbox = (vault / "Inbox" / name).exists()
            in_raw = any(p.read_bytes() == data for p in (vault / "raw").glob("*.pdf"))
            lost += not (in_inbox or in_raw)
            _, bad = _notes_ok(vault)
            partial += bad
            print(f"\r  kill -9 run {i + 1}/{runs}", end="", file=sys.stderr, flush=True)
        good, _ = _notes_ok(vault)
    print(file=sys.stderr)
    print(f"kill -9 at random points of {runs} ingest runs ({time.perf_counter() - t0:.0f} s): "
          f"partial notes {partial}, lost Inbox items {lost}, jobs not done after restart "
          f"{unfinished}; notes {good}")


def disk_full() -> None:
    if os.geteuid() != 0:
        print("20 MB tmpfs: skipped (mount needs root)")
        return
    fixtures = Path(os.environ.get("VAULTD_TEST_FIXTURES", HERE.parent.parent / "shared" / "fixtures"))
    pdf = fixtures / "pdfs-eval" / "pdfs" / "wiley_spe_2022_microservices_devops.pdf"
    with tempfile.TemporaryDirectory() as tmp_s:
        tmp = Path(tmp_s)
        disk = tmp / "disk"
        disk.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=20m", "tmpfs", str(disk)], check=True)
        try:
            from test_compile import _meta

            from vaultd.vault import Vault

            vault = _new_vault(disk / "vault")
            shutil.copy(pdf, vault / "raw" / "k2022fritzsch.pdf")
            _meta(Vault(vault), "k2022fritzsch")
            filler = disk / "filler"
            stop = threading.Event()

            def fill() -> None:  # grows while the compile runs
                with filler.open("wb") as fh:
                    while not stop.is_set():
                        try:
                            fh.write(b"\0" * 65536)
                            fh.flush()
                        except OSError:
                            return

            env = _env(tmp / "state")
            filler_thread = threading.Thread(target=fill)
            t0 = time.perf_counter()
            filler_thread.start()
            proc = subprocess.run([sys.executable, "-m", "vaultd", "--vault", str(vault), "compile",
                                   "k2022fritzsch"], capture_output=True, text=True, env=env)
            stop.set()
            filler_thread.join()
            lines = (proc.stdout + proc.stderr).strip().splitlines()
            _, bad = _notes_ok(vault)
            note = vault / "wiki" / "k2022fritzsch.md"
            print(f"20 MB tmpfs filled during compile: exit {proc.returncode} in "
                  f"{time.perf_counter() - t0:.1f} s, {len(lines)} line(s): {lines[-1] if lines else ''}")
            print(f"  partial or temporary files {bad}, note written {note.exists()}")
            filler.unlink()
            again = subprocess.run([sys.executable, "-m", "vaultd", "--vault", str(vault), "compile",
                                    "k2022fritzsch"], capture_output=True, text=True, env=env)
            good, bad = _notes_ok(vault)
            print(f"  space back: exit {again.returncode}, notes {good}, bad {bad}")
        finally:
            subprocess.run(["umount", "-l", str(disk)], check=False)


def fuzz(examples: int) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from vaultd.capture.bib import parse_bib_library
    from vaultd.capture.detect import links_in_url_file, links_in_webloc
    from vaultd.config import load_settings
    from vaultd.errors import VaultdError
    from vaultd.video.transcript import read_vtt

    crashes: list[str] = []
    counts: dict[str, int] = {}
    tmp = Path(tempfile.mkdtemp())

    def run(name: str, fn: Callable[[], object]) -> None:
        counts[name] = counts.get(name, 0) + 1
        try:
            fn()
        except VaultdError:
            pass  # the reader's own one-line error: what bad input should get
        except Exception as exc:
            crashes.append(f"{name}: {exc.__class__.__name__}: {exc}"[:200])

    per = examples // 4
    opts = settings(max_examples=per, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))
    texty = st.one_of(st.text(max_size=400), st.binary(max_size=400).map(
        lambda b: b.decode("utf-8", "replace")))
    bib_like = st.lists(st.sampled_from(["@article{", "@book{", "k2020,", "title = {", "}",
                                         "{", "author = \"", "\"", "doi = ", "10.1/x", ",",
                                         "\n", "@string{a = \"b\"}", "@comment{", "#", "%"]),
                        max_size=40).map("".join)
    vtt_like = st.lists(st.sampled_from(["WEBVTT\n\n", "00:00:01.000 --> 00:00:02.000\n",
                                         "00:01.000 --> 00:02.000", "text\n", "\n", "<c>",
                                         "</c>", "NOTE x\n", "99:99:99.999 --> ",
                                         "00:00:03.000 --> 00:00:01.000\n"]),
                        max_size=30).map("".join)
    toml_like = st.lists(st.sampled_from(["[daemon]\n", "[capture]\n", "[citekey]\n",
                                          "verify_at = \"25:99\"\n", "concurrency = 0\n",
                                          "pattern = \"[auth\"\n", "x = \n", "= 1\n",
                                          "max_download_mb = -1\n", "\"", "[", "]\n",
                                          "styles = [\"apa\"]\n", "\x00", "é"]),
                         max_size=20).map("".join)

    @opts
    @given(texty)
    def links(text: str) -> None:
        run("link", lambda: links_in_url_file(text))
        run("link", lambda: links_in_webloc(text.encode("utf-8", "replace")))

    @opts
    @given(st.one_of(bib_like, texty))
    def bibs(text: str) -> None:
        run("bib", lambda: parse_bib_library(text))

    @opts
    @given(st.one_of(toml_like, texty))
    def configs(text: str) -> None:
        path = tmp / "config.toml"
        path.write_text(text, encoding="utf-8", errors="replace")
        run("config", lambda: load_settings(path, environ={}))

    @opts
    @given(st.one_of(vtt_like, texty))
    def vtts(text: str) -> None:
        run("vtt", lambda: read_vtt(text))

    t0 = time.perf_counter()
    for test in (links, bibs, configs, vtts):
        test()
    shutil.rmtree(tmp, ignore_errors=True)
    total = sum(counts.values())
    print(f"fuzzed inputs: {total} ({', '.join(f'{k} {v}' for k, v in counts.items())}) in "
          f"{time.perf_counter() - t0:.0f} s: crashes {len(crashes)}")
    for line in crashes[:10]:
        print(f"  {line}")


def two_machines(drops: int) -> None:
    from test_two_machines import Sync

    from vaultd.sync_conflicts import conflict_original

    with tempfile.TemporaryDirectory() as tmp_s:
        tmp = Path(tmp_s)
        a = _new_vault(tmp / "a" / "vault")
        shutil.copytree(a, tmp / "b" / "vault")
        b = tmp / "b" / "vault"
        states = {a: tmp / "a" / "state", b: tmp / "b" / "state"}
        sync = Sync(a, b)
        lock = threading.Lock()
        stop = threading.Event()

        def syncing() -> None:
            while not stop.is_set():
                # a file that vanishes mid-copy is taken by the next round
                with lock, contextlib.suppress(OSError):
                    sync()
                time.sleep(0.5)

        procs = [_start(v, _env(states[v], VAULTD_DAEMON_INBOX_LEASE_SETTLE_SECONDS="2"),
                        tmp / f"{v.parent.name}.log") for v in (a, b)]
        thread = threading.Thread(target=syncing)
        thread.start()
        t0 = time.perf_counter()
        data: list[bytes] = []
        try:
            for i in range(drops):
                for n, side in enumerate((a, b)):
                    pdf = _sample(tmp, 2 * i + n)
                    data.append(pdf)
                    name = f"{side.parent.name}-{i}.pdf"
                    staging = side / ".vaultd" / f"staging-{name}"
                    with lock:
                        staging.write_bytes(pdf)
                        staging.replace(side / "Inbox" / name)
                time.sleep(0.3)

            def settled() -> bool:
                notes = list((a / "wiki").glob("*.md"))
                return len(notes) >= 2 * drops and not list((a / "Inbox").glob("*.pdf")) \
                    and not list((b / "Inbox").glob("*.pdf"))

            finished = wait_for(settled, 600)
        finally:
            for p in procs:
                p.send_signal(signal.SIGTERM)
                p.wait(20)
            stop.set()
            thread.join()
        with lock:
            sync()
        seconds = time.perf_counter() - t0
        conflicts = [p for v in (a, b) for p in v.rglob("*") if conflict_original(p.name)]
        raw = [p.read_bytes() for p in (a / "raw").glob("*.pdf")]
        once = sum(1 for d in data if raw.count(d) == 1)
        notes = len(list((a / "wiki").glob("*.md")))
        bad = []
        for v in (a, b):
            for db in states[v].rglob("*.db"):
                con = sqlite3.connect(db)
                if con.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                    bad.append(db.name)
                con.close()
        jobs = {v.parent.name: len(_jobs(_state_db(v, states[v]))) for v in (a, b)}
        print(f"two synced machines, {drops} drops on each side ({seconds:.0f} s, settled "
              f"{finished}): notes {notes} for {len(data)} papers, PDFs stored once "
              f"{once}/{len(data)}, conflict copies {len(conflicts)}, corrupt databases "
              f"{len(bad)}; jobs per machine {jobs}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="kill,disk,fuzz,sync")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--drops", type=int, default=50)
    ap.add_argument("--examples", type=int, default=10000)
    args = ap.parse_args()
    parts = set(args.only.split(","))
    if "fuzz" in parts:
        fuzz(args.examples)
    if "disk" in parts:
        disk_full()
    if "sync" in parts:
        two_machines(args.drops)
    if "kill" in parts:
        kill_runs(args.runs)


if __name__ == "__main__":
    main()
