#!/usr/bin/env python3
"""Note size per paper: the note's bytes against the bytes of its quote text (target ≤ 2.5×).

Compiles every fixture paper and every pdfs-eval paper into a scratch vault and prints,
per note, its chunks, its bytes, its quote-text bytes, the ratio and the bytes each chunk
costs beyond its quote (markers, page link, provenance), then the ratio over all notes.

    python3 bench/note_sizes.py [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compile_eval import eval_dir
from note_screens import compile_fixtures

TARGET = 2.5


def main() -> None:
    from vaultd.notes.reader import parse_note

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="machine-readable output")
    args = ap.parse_args()
    fixtures = eval_dir().parent / "pdfs"
    pdfs = sorted(p for p in fixtures.rglob("*.pdf") if p.parent.name not in {"corrupt", "encrypted"})
    pdfs += sorted((eval_dir() / "pdfs").glob("*.pdf"))
    if not pdfs:
        sys.exit(f"no PDFs under {fixtures}; set VAULTD_TEST_FIXTURES to ../shared/fixtures")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for pdf, note in zip(pdfs, compile_fixtures(Path(tmp) / "vault", pdfs), strict=True):
            md = note.read_text(encoding="utf-8")
            chunks = parse_note(md).chunks
            quotes = sum(len(c.text.encode()) for c in chunks)
            size = len(md.encode())
            rows.append({"paper": pdf.stem, "chunks": len(chunks), "note_bytes": size,
                         "quote_bytes": quotes, "ratio": round(size / max(quotes, 1), 2),
                         "per_chunk": round((size - quotes) / max(len(chunks), 1))})
    total = sum(r["note_bytes"] for r in rows) / max(sum(r["quote_bytes"] for r in rows), 1)
    over = [r["paper"] for r in rows if r["ratio"] > TARGET]
    if args.json:
        print(json.dumps({"notes": rows, "overall": round(total, 2), "over_target": over}, indent=1))
        return
    print(f"{'paper':<42}{'chunks':>7}{'note B':>9}{'quotes B':>10}{'ratio':>7}{'B/chunk':>9}")
    for r in rows:
        print(f"{r['paper'][:41]:<42}{r['chunks']:>7}{r['note_bytes']:>9}{r['quote_bytes']:>10}"
              f"{r['ratio']:>6.2f}×{r['per_chunk']:>9}")
    print(f"\nover all {len(rows)} notes: {total:.2f}×   target ≤ {TARGET}× per note; over it: "
          f"{', '.join(over) or 'none'}")


if __name__ == "__main__":
    main()
