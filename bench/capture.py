"""Capture speed: local-PDF capture with every source answering from a loopback server,
and 50 concurrent arXiv captures within the arXiv request-interval rule.

Run: python3 bench/capture.py
Targets (issue 3): < 0.5 s per local-PDF capture (compile excluded); 50 concurrent
captures never closer together at arXiv than the configured interval.
Responses are the real recordings in ../shared/fixtures (set VAULTD_TEST_FIXTURES).
"""

from __future__ import annotations

import asyncio
import importlib
import itertools
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from replay_server import (  # noqa: E402
    ReplayServer,
    capture_overrides,
    loopback_client,
    serve_arxiv,
    serve_crossref,
    serve_openalex,
    serve_unpaywall,
)

from vaultd.config import default_config_toml, load_settings  # noqa: E402
from vaultd.pipeline.capture import capture  # noqa: E402
from vaultd.vault import Vault  # noqa: E402

FIXTURES = Path(os.environ.get("VAULTD_TEST_FIXTURES") or ROOT.parent / "shared" / "fixtures")
PNAS = "10.1073/pnas.1414271111"
PNAS_TITLE = ("Developing functional musculoskeletal tissues through hypoxia and lysyl "
              "oxidase-induced collagen cross-linking")
N_LOCAL = 20
N_CONCURRENT = 50
ARXIV_INTERVAL_SECONDS = 0.05


def make_pdf(path: Path) -> Path:
    pymupdf: Any = importlib.import_module("pymupdf")
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(50, 60, 550, 200), PNAS_TITLE, fontsize=18)
    page.insert_text((50, 230), f"doi:{PNAS}", fontsize=9)
    doc.save(path)
    return path


def new_vault(tmp: Path, name: str) -> Vault:
    v = Vault(tmp / name)
    v.init(default_config_toml())
    return v


async def bench_local(server: ReplayServer, tmp: Path) -> tuple[list[float], float, bool]:
    serve_crossref(server, PNAS, FIXTURES / "crossref/works/10.1073_pnas.1414271111.json")
    serve_openalex(server, PNAS, FIXTURES / "openalex/works/doi_10.1073_pnas.1414271111.json")
    serve_unpaywall(server, PNAS, FIXTURES / "unpaywall/v2/10.1073_pnas.1414271111.json")
    pdf = make_pdf(tmp / "paper.pdf")
    settings = load_settings(overrides=capture_overrides(server))
    times: list[float] = []
    reconciled = True
    async with loopback_client(server) as client:
        await capture(new_vault(tmp, "warm"), settings, str(pdf), client=client)  # imports
        for i in range(N_LOCAL):
            vault = new_vault(tmp, f"v{i}")
            t0 = time.perf_counter()
            [res] = await capture(vault, settings, str(pdf), client=client)
            times.append(time.perf_counter() - t0)
            reconciled &= res.meta.reconciled
        t0 = time.perf_counter()
        [again] = await capture(vault, settings, str(pdf), client=client)
        existing = time.perf_counter() - t0
        assert again.status == "existing"
    return times, existing, reconciled


def arxiv_ids() -> list[tuple[str, Path]]:
    ids = [("1605.08386", FIXTURES / "arxiv/1605.08386.atom.xml"),
           ("1707.08567", FIXTURES / "arxiv/1707.08567.atom.xml"),
           ("astro-ph/0601001", FIXTURES / "arxiv/astro-ph_0601001.atom.xml")]
    feed = FIXTURES / "arxiv/search_testing_start0_max10.atom.xml"
    for m in re.finditer(r"<id>http://arxiv.org/abs/([^<]+?)v\d+</id>", feed.read_text()):
        ids.append((m.group(1), feed))  # the real feed holds this id's entry
    return ids


async def bench_concurrent(server: ReplayServer, tmp: Path) -> dict[str, float]:
    ids = arxiv_ids()
    for arxiv_id, body in ids:
        serve_arxiv(server, arxiv_id, body)
    settings = load_settings(overrides=capture_overrides(
        server, arxiv_interval_seconds=ARXIV_INTERVAL_SECONDS))
    vault = new_vault(tmp, "concurrent")
    inputs = [i for i, _ in itertools.islice(itertools.cycle(ids), N_CONCURRENT)]
    before = len(server.requests)
    t0 = time.perf_counter()
    async with loopback_client(server) as client:
        results = await asyncio.gather(*(capture(vault, settings, i, client=client)
                                         for i in inputs))
    wall = time.perf_counter() - t0
    stamps = sorted(r.at for r in server.requests[before:] if r.path.startswith("/arxiv/"))
    gaps = [b - a for a, b in itertools.pairwise(stamps)]
    return {"captures": len(results), "records": len(list(vault.raw.glob("*.meta.json"))),
            "distinct_ids": len(ids), "wall_s": wall, "arxiv_requests": len(stamps),
            "min_gap_s": min(gaps) if gaps else 0.0}


async def main() -> None:
    with tempfile.TemporaryDirectory() as d, ReplayServer() as server:
        tmp = Path(d)
        times, existing, reconciled = await bench_local(server, tmp)
        print(f"local PDF capture, 3 sources answering (n={N_LOCAL}, fresh vault each): "
              f"median {statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms "
              f"(target < 500 ms); reconciled={reconciled}")
        print(f"same PDF again (idempotent 'existing'): {existing * 1000:.0f} ms")
        c = await bench_concurrent(server, tmp)
        print(f"{c['captures']:.0f} concurrent arXiv captures over {c['distinct_ids']:.0f} real "
              f"recorded ids: {c['records']:.0f} records, wall {c['wall_s']:.2f} s, "
              f"{c['arxiv_requests']:.0f} arXiv requests, min gap {c['min_gap_s'] * 1000:.1f} ms "
              f"(interval set to {ARXIV_INTERVAL_SECONDS * 1000:.0f} ms; default 3 s)")


if __name__ == "__main__":
    asyncio.run(main())
