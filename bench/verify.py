# mypy: disable-error-code="call-arg"
"""Benchmark: `verify_notes` throughput over a generated vault of 1,000 notes x 50 chunks.

Run: python3 bench/verify.py [NOTES] [CHUNKS]   (target: >= 50,000 chunks/s)
"""

from __future__ import annotations

import random
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from vaultd.canonical import text_sha256
from vaultd.models import Chunk, Note, NoteMeta, Provenance
from vaultd.notes.markdown import render_note
from vaultd.notes.merge import merge_for_recompile
from vaultd.vault import Vault, atomic_write_text
from vaultd.verify import verify_notes

WORDS = ["attention", "transformer", "encoder", "decoder", "sequence", "model", "residual",
         "softmax", "gradient", "scaled", "dot-product", "multi-head", "Schölkopf", "naïve"]


def make_note(rng: random.Random, n: int, chunks: int) -> Note:
    key = f"author{n:04d}2020paper"
    items = []
    for c in range(chunks):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(30, 90))) + "."
        prov = Provenance(page=c // 5 + 1, section=f"{c // 10}", bbox=[72.0, 100.0 + c, 300.0, 140.0 + c],
                          pdf_rect=[72.0, 652.0 - c, 300.0, 692.0 - c], text_sha256=text_sha256(text),
                          char_range=[c * 500, c * 500 + len(text)], chunk_type="paragraph", parser="pymupdf")
        items.append(Chunk(id=f"p{c // 5 + 1}s{c // 10}c{c}", text=textwrap.fill(text, 80, break_on_hyphens=False), provenance=prov))
    meta = NoteMeta(cite_key=key, title=f"Paper {n}", authors=["Ada Lovelace"], year=2020, chunks=chunks)
    return merge_for_recompile(None, Note(meta=meta, citations={"apa": f"Lovelace, A. (2020). Paper {n}."},
                                          chunks=items))


def main() -> None:
    n_notes = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    n_chunks = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    rng = random.Random(42)
    with tempfile.TemporaryDirectory() as tmp:
        vault = Vault(Path(tmp) / "vault")
        vault.wiki.mkdir(parents=True)
        t0 = time.perf_counter()
        for n in range(n_notes):
            note = make_note(rng, n, n_chunks)
            atomic_write_text(vault.note_path(note.meta.cite_key), render_note(note))
        gen = time.perf_counter() - t0
        best = best_cpu = float("inf")
        for _ in range(3):
            t0, c0 = time.perf_counter(), time.process_time()
            report = verify_notes(vault)
            best = min(best, time.perf_counter() - t0)
            best_cpu = min(best_cpu, time.process_time() - c0)
        assert report.ok and report.chunks == n_notes * n_chunks, report.findings[:3]
        size = sum(p.stat().st_size for p in vault.wiki.glob("*.md")) / 1e6
    print(f"generated {n_notes} notes x {n_chunks} chunks ({size:.1f} MB) in {gen:.1f} s")
    print(f"verify_notes: {report.chunks} chunks in {best:.3f} s (best of 3) = "
          f"{report.chunks / best:,.0f} chunks/s wall (target >= 50,000)")
    print(f"  CPU time {best_cpu:.3f} s = {report.chunks / best_cpu:,.0f} chunks/s of CPU "
          f"(wall time suffers when other processes share the cores)")


if __name__ == "__main__":
    main()
