#!/usr/bin/env python3
"""A 30-page draft with 100 citations, verified against a 1,000-paper vault (target ≤ 2 s).

Generates a vault of 1,000 paper notes × 50 chunks (each note with its meta record; words
drawn from a 3,000-word made-up vocabulary, so a 12-word quote is one passage's) and
indexes it (keywords only), then a Markdown draft of about 15,000 words (30 pages) with
100 quotes: 80 exact (half with the page), 10 with one changed word, 5 with a wrong
page, 5 citing a key the vault does not have. Printed, medians of 3: ``vaultd verify
--draft`` as a whole process and the check alone in process, beside pandoc reading the
same draft (the floor: parsing it at all), and the findings counted per kind.

    python3 bench/verify_draft.py
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

N_NOTES, N_CHUNKS, RUNS = 1000, 50, 3


def vocabulary(rng: random.Random, n: int = 3000) -> list[str]:
    letters = "abcdefghiklmnoprstuvw"
    return ["".join(rng.choice(letters) for _ in range(rng.randint(3, 10))) for _ in range(n)]


def build_vault(root: Path, rng: random.Random, words: list[str]) -> dict[str, list[tuple[str, int]]]:
    from vaultd.canonical import text_sha256
    from vaultd.config import Settings, default_config_toml
    from vaultd.models import Chunk, MetaFile, Note, NoteMeta, Provenance, Work
    from vaultd.notes.markdown import render_note
    from vaultd.pipeline.index import index_vault
    from vaultd.vault import Vault, atomic_write_text

    vault = Vault(root)
    vault.init(default_config_toml())
    texts: dict[str, list[tuple[str, int]]] = {}
    for n in range(N_NOTES):
        key = f"author{n:04d}2020paper"
        chunks = []
        for c in range(N_CHUNKS):
            text = " ".join(rng.choice(words) for _ in range(rng.randint(40, 90))) + "."
            page = c // 5 + 1
            prov = Provenance(page=page, page_label=str(page + 100), text_sha256=text_sha256(text),
                              char_range=[0, len(text)], chunk_type="paragraph", parser="pymupdf")
            chunks.append(Chunk(id=f"p{page}s1c{c}", text=text, provenance=prov))
            texts.setdefault(key, []).append((text, page + 100))
        work = Work(title=f"Paper {n}", issued=[2020], reconciled=True)
        meta = MetaFile.from_work(key, work)
        vault.meta_path(key).write_text(meta.model_dump_json(), encoding="utf-8")
        note = Note(meta=NoteMeta(cite_key=key, title=f"Paper {n}", year=2020, chunks=N_CHUNKS,
                                  reconciled=True), chunks=chunks)
        atomic_write_text(vault.note_path(key), render_note(note))
    index_vault(vault, Settings(), embedder=None)
    return texts


def build_draft(rng: random.Random, words: list[str], texts: dict[str, list[tuple[str, int]]]) -> str:
    keys = sorted(texts)
    paras = []
    for i in range(100):
        filler = " ".join(rng.choice(words) for _ in range(150))
        key = rng.choice(keys)
        text, page = rng.choice(texts[key])
        ws = text.rstrip(".").split()
        start = rng.randrange(0, len(ws) - 14)
        quote = ws[start:start + 12]
        cite = f"[@{key}]"
        if i < 40:
            cite = f"[@{key}, p. {page}]"
        elif 80 <= i < 90:
            quote[5] = "zebra"
        elif 90 <= i < 95:
            cite = f"[@{key}, p. {page + 7}]"
        elif i >= 95:
            cite = f"[@{key}x]"
        paras.append(f"{filler} “{' '.join(quote)}” {cite}.")
    return "# Draft\n\n" + "\n\n".join(paras) + "\n"


def timed(fn: object) -> float:
    t = time.perf_counter()
    fn()  # type: ignore[operator]
    return time.perf_counter() - t


def main() -> None:
    from vaultd.index.store import open_index
    from vaultd.vault import Vault
    from vaultd.verify.draft import check_drafts

    rng = random.Random(7)
    words = vocabulary(rng)
    with tempfile.TemporaryDirectory(prefix="vaultd-bench-draft-") as tmp:
        root = Path(tmp) / "vault"
        t = time.perf_counter()
        texts = build_vault(root, rng, words)
        print(f"vault of {N_NOTES} notes × {N_CHUNKS} chunks built and indexed in "
              f"{time.perf_counter() - t:.0f} s")
        draft = Path(tmp) / "draft.md"
        draft.write_text(build_draft(rng, words, texts), encoding="utf-8")
        n_words = len(draft.read_text(encoding="utf-8").split())
        vault = Vault(root)
        cli = [sys.executable, "-m", "vaultd", "--vault", str(root), "verify", "--draft", str(draft)]
        whole = [timed(lambda: subprocess.run(cli, capture_output=True, check=False))
                 for _ in range(RUNS)]

        def in_process() -> None:
            db = open_index(vault.index_db, load_vec=False)
            try:
                check_drafts(vault, [draft], index_db=db)
            finally:
                db.close()

        inside = [timed(in_process) for _ in range(RUNS)]
        from vaultd.formats.citeproc import find_pandoc

        pandoc = [str(find_pandoc()), str(draft), "-t", "json", "-o", "/dev/null"]
        floor = [timed(lambda: subprocess.run(pandoc, check=True)) for _ in range(RUNS)]
        db = open_index(vault.index_db, load_vec=False)
        report = check_drafts(vault, [draft], index_db=db)
        db.close()
    print(f"30-page draft ({n_words:,} words), "
          f"100 quoted citations, medians of {RUNS}:")
    print(f"  vaultd verify --draft, whole process {statistics.median(whole):.2f} s (target ≤ 2 s); "
          f"the check in process {statistics.median(inside):.2f} s")
    print(f"  pandoc reading the same draft {statistics.median(floor):.2f} s")
    print(f"  findings: {report.summary()}")


if __name__ == "__main__":
    main()
