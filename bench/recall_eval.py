#!/usr/bin/env python3
"""Recall on real papers: does search rank the passage a researcher means first?

Compiles the ten pdfs-eval papers into a scratch vault, indexes them (keywords only: no
embedding model is assumed), and asks the hand-written questions of
``bench/data/recall_queries.json``, each with the passage that answers it. Prints, with the
passage-type prior on and off in the same run:

* MRR@5: the mean of 1/rank of the first hit holding the answer (0 when not in the top 5);
* hit 1 is the answer, and how often hit 1 is a heading, a reference entry, front matter or
  a fragment (under 40 characters or 6 words) instead;
* duplicate hits (the same chunk twice in one answer list).

    python3 bench/recall_eval.py [--json] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compile_eval import eval_dir, loose, stage

QUERIES = Path(__file__).resolve().parent / "data" / "recall_queries.json"
TOP = 5


def build_vault(root: Path) -> tuple[Any, dict[str, str]]:
    """A vault with every pdfs-eval paper compiled and indexed; paper prefix → cite key."""
    from vaultd.config import Settings, default_config_toml
    from vaultd.pipeline.compile import compile_note
    from vaultd.pipeline.index import index_vault
    from vaultd.vault import Vault

    vault = Vault(root)
    vault.init(default_config_toml())
    keys: dict[str, str] = {}
    for pdf in sorted((eval_dir() / "pdfs").glob("*.pdf")):
        prefix = pdf.stem.split("_")[0]
        key = f"{prefix}paper"
        stage(vault, key, pdf)
        compile_note(vault, Settings(), key)
        keys[prefix] = key
    index_vault(vault, Settings(), embedder=None)
    return vault, keys


def text_of(db: Any, hit: Any) -> str:
    """The whole indexed text of a hit (hits carry an excerpt only)."""
    row = next(iter(db.execute("SELECT text FROM chunks WHERE path = ? AND chunk_id = ?",
                               (hit.path, hit.chunk_id))), None)
    return str(row[0]) if row else ""


def fragment(hit: Any, text: str) -> bool:
    return hit.chunk_type in ("paragraph", "list") and (len(text) < 40 or len(text.split()) < 6)


def run(vault: Any, keys: dict[str, str], queries: list[dict[str, str]], prior: bool,
        verbose: bool) -> dict[str, Any]:
    from vaultd.index.search import hybrid_search
    from vaultd.index.store import open_index

    db = open_index(vault.index_db, load_vec=False)
    rr: list[float] = []
    first: dict[str, int] = {"answer": 0, "heading": 0, "reference": 0, "front": 0,
                             "fragment": 0, "other": 0}
    duplicates = 0
    try:
        for q in queries:
            hits = hybrid_search(db, q["q"], limit=TOP, type_prior=prior)
            want = loose(q["answer"])
            texts = [text_of(db, h) for h in hits]
            rank = next((i for i, (h, text) in enumerate(zip(hits, texts, strict=True), start=1)
                         if h.cite_key == keys[q["paper"]] and want in loose(text)), None)
            rr.append(1.0 / rank if rank else 0.0)
            ids = [(h.cite_key, h.chunk_id) for h in hits]
            duplicates += len(ids) - len(set(ids))
            top = hits[0] if hits else None
            if rank == 1:
                first["answer"] += 1
            elif top is None:
                first["other"] += 1
            elif top.chunk_type in ("heading", "reference", "front"):
                first[str(top.chunk_type)] += 1
            elif fragment(top, texts[0]):
                first["fragment"] += 1
            else:
                first["other"] += 1
            if verbose and rank != 1:
                shown = f"{top.chunk_type}: {texts[0][:80]!r}" if top else "no hits"
                print(f"  [{'prior' if prior else 'plain'}] rank {rank}  {q['q']!r}\n      hit 1 {shown}")
    finally:
        db.close()
    return {"queries": len(queries), "mrr5": sum(rr) / len(rr), "hit1": first,
            "duplicates": duplicates}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--verbose", action="store_true", help="list every query whose hit 1 misses")
    args = ap.parse_args()
    if not (eval_dir() / "pdfs").is_dir():
        sys.exit(f"no evaluation set at {eval_dir()}; set VAULTD_TEST_FIXTURES to ../shared/fixtures")
    queries = json.loads(QUERIES.read_text(encoding="utf-8"))["queries"]
    with tempfile.TemporaryDirectory() as tmp:
        vault, keys = build_vault(Path(tmp) / "vault")
        results = {name: run(vault, keys, queries, prior, args.verbose)
                   for name, prior in (("plain", False), ("prior", True))}
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"{len(queries)} questions on {len(keys)} pdfs-eval papers; keyword search, top {TOP}")
    print(f"{'':34}{'no type prior':>16}{'type prior':>14}")
    plain, prior = results["plain"], results["prior"]
    print(f"{'MRR@5':34}{plain['mrr5']:16.3f}{prior['mrr5']:14.3f}")
    for name in ("answer", "heading", "reference", "front", "fragment", "other"):
        print(f"{'hit 1 is ' + name:34}{plain['hit1'][name]:16d}{prior['hit1'][name]:14d}")
    print(f"{'duplicate hits':34}{plain['duplicates']:16d}{prior['duplicates']:14d}")


if __name__ == "__main__":
    main()
