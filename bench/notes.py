#!/usr/bin/env python3
"""Note size and speed on a long paper: what a reader opens and what vaultd re-reads.

Builds a 44-page paper by joining three pdfs-eval papers (Wiley 21 pages, ACL 15, BMC 8)
in a scratch directory, compiles it, and prints, each the median of five runs:

* the note's bytes against the bytes of its quote text (target ≤ 2.5×);
* ``render_note`` and ``parse_note`` of the whole note, and note verify of it;
* a CommonMark render of the note to HTML with markdown-it-py (what Obsidian's reading
  view does with it, give or take its plugins), against the same render of the quote text
  alone, in the same run.

    python3 bench/notes.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compile_eval import eval_dir, stage

PARTS = ("wiley", "acl", "bmc")
RUNS = 5


def timed(fn: Callable[[], object]) -> float:
    runs = []
    for _ in range(RUNS):
        t = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t)
    return statistics.median(runs)


def long_paper(path: Path) -> int:
    import pymupdf

    out = pymupdf.open()
    for part in PARTS:
        src = next((eval_dir() / "pdfs").glob(f"{part}_*.pdf"))
        with pymupdf.open(src) as doc:
            out.insert_pdf(doc)
    pages = int(out.page_count)
    out.save(path)
    out.close()
    return pages


def main() -> None:
    from markdown_it import MarkdownIt

    from vaultd.config import Settings, default_config_toml
    from vaultd.models import VerifyReport
    from vaultd.notes.markdown import render_note
    from vaultd.notes.reader import parse_note
    from vaultd.pipeline.compile import compile_note
    from vaultd.vault import Vault
    from vaultd.verify import verify_text

    if not (eval_dir() / "pdfs").is_dir():
        sys.exit(f"no evaluation set at {eval_dir()}; set VAULTD_TEST_FIXTURES to ../shared/fixtures")
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "long.pdf"
        pages = long_paper(pdf)
        vault = Vault(Path(tmp) / "vault")
        vault.init(default_config_toml())
        stage(vault, "long2024paper", pdf)
        compile_note(vault, Settings(), "long2024paper")
        text = vault.note_path("long2024paper").read_text(encoding="utf-8")
    note = parse_note(text)
    quotes = "\n\n".join(c.text for c in note.chunks)
    md = MarkdownIt("commonmark")
    size = len(text.encode())
    quote_bytes = sum(len(c.text.encode()) for c in note.chunks)
    render = timed(lambda: render_note(note))
    parse = timed(lambda: parse_note(text))
    verify = timed(lambda: verify_text(text, "wiki/long2024paper.md", VerifyReport()))
    html = timed(lambda: md.render(text))
    html_quotes = timed(lambda: md.render(quotes))
    print(f"{pages}-page paper ({' + '.join(PARTS)}), {len(note.chunks)} chunks, medians of {RUNS}")
    print(f"  note {size / 1024:.1f} KB for {quote_bytes / 1024:.1f} KB of quotes: {size / quote_bytes:.2f}×"
          "  (target ≤ 2.5×)")
    print(f"  render_note {render * 1000:.0f} ms, parse_note {parse * 1000:.0f} ms, "
          f"verify {verify * 1000:.0f} ms")
    print(f"  CommonMark HTML of the note {html * 1000:.0f} ms vs of its quote text alone "
          f"{html_quotes * 1000:.0f} ms")


if __name__ == "__main__":
    main()
