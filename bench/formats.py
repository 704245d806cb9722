"""Citation rendering speed, beside the reference tool (pandoc --citeproc) in the same run.

Targets (issue 13): every configured style of one work adds <= 300 ms to a compile;
re-rendering a 1,000-work vault after a style change <= 60 s; `vaultd cite` from stored
renderings <= 300 ms, MCP cite warm <= 20 ms.

Run: python3 bench/formats.py [--works 1000]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from vaultd.formats import CitationRenderer, to_csl_json
from vaultd.formats.citeproc import find_pandoc
from vaultd.models import Author, Work
from vaultd.statedb import apply_migrations

GIVEN = ["Anna", "Bob", "Carl", "Dora", "Emil", "Fay", "Gus", "Hal", "Ivy", "Jo"]
KINDS = ["article-journal", "article", "paper-conference", "book", "chapter", "thesis", "report"]


def works(n: int) -> dict[str, Work]:
    out = {}
    for i in range(n):
        out[f"w{i}"] = Work(
            type=KINDS[i % len(KINDS)], title=f"A study of thing {i}: what it shows",
            authors=[Author(family=f"Family{i}x{j}", given=GIVEN[(i + j) % 10])
                     for j in range(1 + i % 7)],
            issued=[1990 + i % 35, 1 + i % 12], container_title=f"Journal of Things {i % 40}",
            volume=str(1 + i % 60), issue=str(1 + i % 12), page=f"{100 + i}-{120 + i}",
            publisher="Some Press", doi=f"10.9999/bench.{i}", arxiv_id=None)
    return out


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def reference_one(work: Work, style: Path) -> float:
    """pandoc --citeproc itself, one work in one style (what a user would run)."""
    with tempfile.TemporaryDirectory() as tmp:
        bib = Path(tmp) / "w.json"
        bib.write_text(json.dumps([to_csl_json(work, "w0")]), encoding="utf-8")
        t0 = time.perf_counter()
        subprocess.run([str(find_pandoc()), "--citeproc", "--bibliography", str(bib), "--csl",
                        str(style), "-t", "plain", "-o", os.devnull], input="---\nnocite: '@*'\n---\n",
                       text=True, check=True)
        return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--works", type=int, default=1000)
    args = ap.parse_args()
    batch = works(args.works)
    one = {"w0": batch["w0"]}
    renderer = CitationRenderer()
    styles = renderer.styles
    print(f"styles: {', '.join(s.name for s in styles)}; pandoc {find_pandoc()}")

    ref = [sum(reference_one(one["w0"], s.path) for s in styles) for _ in range(3)]
    ours = []
    for _ in range(3):
        t0 = time.perf_counter()
        renderer.render(one)
        ours.append(time.perf_counter() - t0)
    print(f"one work, {len(styles)} styles: vaultd {_ms(statistics.median(ours))} "
          f"(one pandoc process) | pandoc --citeproc once per style "
          f"{_ms(statistics.median(ref))}   target <= 300 ms")

    with tempfile.TemporaryDirectory() as tmp:
        db = sqlite3.connect(Path(tmp) / "state.db", check_same_thread=False)
        apply_migrations(db)
        cached = CitationRenderer(styles, db=db)
        t0 = time.perf_counter()
        cached.render(batch)
        cold = time.perf_counter() - t0
        print(f"{len(batch)} works x {len(styles)} styles, nothing stored: {cold:.1f} s "
              f"({cold / (len(batch) * len(styles)) * 1000:.1f} ms per rendering; reference "
              f"pandoc one process per style and work ≈ {statistics.median(ref) * len(batch):.0f}"
              " s)   target <= 60 s")
        warm = []
        for i in range(200):
            key = f"w{i}"
            t0 = time.perf_counter()
            cached.one(batch[key], key, "apa")
            warm.append(time.perf_counter() - t0)
        warm.sort()
        print(f"stored rendering lookup (MCP cite, warm): p50 {warm[100] * 1000:.2f} ms, "
              f"p95 {warm[190] * 1000:.2f} ms   target <= 20 ms")
    with tempfile.TemporaryDirectory() as tmp:
        vault = Path(tmp) / "v"
        env = {**os.environ, "VAULTD_EMBEDDING_PROVIDER": "none"}
        subprocess.run([sys.executable, "-m", "vaultd", "init", str(vault)], check=True,
                       capture_output=True, env=env)
        from vaultd.models import MetaFile

        meta = MetaFile.from_work("w0", batch["w0"])
        (vault / "raw" / "w0.meta.json").write_text(meta.model_dump_json(by_alias=True))
        cmd = [sys.executable, "-m", "vaultd", "--vault", str(vault), "cite", "w0", "-f", "apa"]
        subprocess.run(cmd, check=True, capture_output=True, env=env)  # stores it
        runs = []
        for _ in range(5):
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True, env=env)
            runs.append(time.perf_counter() - t0)
        bare = []
        for _ in range(5):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
            bare.append(time.perf_counter() - t0)
        print(f"`vaultd cite` from stored renderings (whole process): "
              f"{_ms(statistics.median(runs))} (a bare `python3 -c pass`: "
              f"{_ms(statistics.median(bare))})   target <= 300 ms")


if __name__ == "__main__":
    main()
