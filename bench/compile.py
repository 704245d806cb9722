"""Benchmark compile: PyMuPDF parse + chunk + note write, side by side with pdftotext.

    python3 bench/compile.py [--rounds N]

Over the text-layer fixture PDFs in ../shared/fixtures/pdfs (or $VAULTD_TEST_FIXTURES):
pages/s for `compile_note` with the PyMuPDF tier (parse, chunk, figure crops, note render
and atomic write; net of process start), the time of the figure crops inside it and the
issue's figure "parse + chunk + note write" (the same compiles less their crop time),
pages/s for `pdftotext -layout` on the same files in the same run (one process per PDF, as
a user would run it; its rounds alternate with compile's), peak RSS, the verbatim share and the two-column reading-order check.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from _papers import stage_pdf, text_layer_pdfs

from vaultd.config import Settings, default_config_toml
from vaultd.parse.pymupdf import PyMuPDFParser
from vaultd.parse.verbatim import check_blocks
from vaultd.pipeline import compile as compile_mod
from vaultd.pipeline.compile import compile_note
from vaultd.vault import Vault


def fixtures() -> Path:
    env = os.environ.get("VAULTD_TEST_FIXTURES")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "fixtures"


def page_count(pdf: Path) -> int:
    import pymupdf

    with pymupdf.open(pdf) as doc:  # type: ignore[no-untyped-call]
        return int(doc.page_count)


class CropTimer:
    """Wraps ``_crop_figures`` in the compile module: time spent cropping, figures cropped."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.figures = 0
        self._orig: Callable[..., None] = compile_mod._crop_figures

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        t = time.perf_counter()
        try:
            self._orig(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - t
            self.figures += sum(1 for c in args[4] if c.figure)

    def __enter__(self) -> CropTimer:
        compile_mod._crop_figures = self  # type: ignore[assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        compile_mod._crop_figures = self._orig  # type: ignore[assignment]


@dataclass
class Round:
    """One round: the first compile of every PDF (and the crop time inside it), their
    re-compile, and ``pdftotext -layout`` on the same PDFs right after."""

    compile: float
    crops: float
    figures: int
    recompile: float
    pdftotext: float
    extract: float


def compile_round(vault: Vault, settings: Settings, keys: list[str]) -> tuple[float, float, int, float]:
    for note in vault.wiki.glob("*.md"):
        note.unlink()
    for fig in vault.figs.glob("*.png"):
        fig.unlink()
    with CropTimer() as crops:
        t = time.perf_counter()
        for key in keys:
            compile_note(vault, settings, key)
        first = time.perf_counter() - t
    t = time.perf_counter()
    for key in keys:
        compile_note(vault, settings, key)
    return first, crops.seconds, crops.figures, time.perf_counter() - t


def pdftotext_round(pdfs: list[Path]) -> float:
    t = time.perf_counter()
    for pdf in pdfs:
        subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, check=True)
    return time.perf_counter() - t


def extract_round(pdfs: list[Path]) -> float:
    """MuPDF's own part alone: open each PDF and take every page's ``get_text("dict")``
    with the flags compile uses, nothing else (the floor of any span-level parse)."""
    import pymupdf

    t = time.perf_counter()
    for pdf in pdfs:
        with pymupdf.open(pdf) as doc:  # type: ignore[no-untyped-call]
            for page in doc:
                page.get_text("dict", flags=pymupdf.TEXT_MEDIABOX_CLIP)
    return time.perf_counter() - t


def bench_rounds(pdfs: list[Path], rounds: int) -> list[Round]:
    """Compile and pdftotext alternate round by round, so both see the same machine (its
    speed drifts by tens of per cent over minutes on a shared 2-core box)."""
    out: list[Round] = []
    with tempfile.TemporaryDirectory() as tmp:
        vault = Vault(Path(tmp) / "v")
        vault.init(default_config_toml())
        keys = []
        for i, pdf in enumerate(pdfs):
            key = f"doc{i}"
            stage_pdf(vault, key, pdf)
            keys.append(key)
        settings = Settings()
        compile_note(vault, settings, keys[0])  # warm-up: import pymupdf, formats, note
        pdftotext_round(pdfs[:1])
        for _ in range(rounds):
            first, crops, figures, again = compile_round(vault, settings, keys)
            out.append(Round(first, crops, figures, again, pdftotext_round(pdfs),
                             extract_round(pdfs)))
    return out


def _col(bbox: tuple[float, float, float, float]) -> int:
    return 0 if (bbox[0] + bbox[2]) / 2 < 306 else 1


def reading_order(pdfs: list[Path]) -> tuple[int, int]:
    ok = total = 0
    for pdf in pdfs:
        blocks = PyMuPDFParser().parse(pdf).blocks
        for i, h in enumerate(blocks):
            if h.type != "heading" or not h.bbox:
                continue
            nxt = next((b for b in blocks[i + 1 :] if b.type in ("paragraph", "reference")), None)
            if nxt is None or not nxt.bbox:
                continue
            total += 1
            ok += (nxt.page, _col(nxt.bbox), nxt.bbox[1]) >= (h.page, _col(h.bbox), h.bbox[1])
    return ok, total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    root = fixtures() / "pdfs"
    pdfs = text_layer_pdfs(fixtures())
    pages = sum(page_count(p) for p in pdfs)
    print(f"{len(pdfs)} PDFs, {pages} pages, best of {args.rounds} rounds")
    rs = bench_rounds(pdfs, args.rounds)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    best = min(rs, key=lambda r: r.compile)
    t_c, t_figs, figures = best.compile, best.crops, best.figures
    t_re = min(r.recompile for r in rs)
    t_p = min(r.pdftotext for r in rs)
    c_rate, p_rate = pages / t_c, pages / t_p
    n_rate = pages / (t_c - t_figs)
    paired = [r.pdftotext / (r.compile - r.crops) for r in rs]
    print(f"compile (PyMuPDF parse+chunk+figs+note):   {c_rate:7.1f} pages/s  ({t_c:.3f} s)")
    print(f"  figure crops inside it ({figures:3d} figures):  {t_figs:7.3f} s")
    print(f"parse + chunk + note write (less crops):  {n_rate:7.1f} pages/s  ({t_c - t_figs:.3f} s)")
    print(f"re-compile (note exists, merge):          {pages / t_re:7.1f} pages/s  ({t_re:.3f} s)")
    print(f"pdftotext -layout (process per PDF):      {p_rate:7.1f} pages/s  ({t_p:.3f} s)")
    print(f"ratio compile / pdftotext:                {c_rate / p_rate:7.2f}x  (target >= 0.6x)")
    print(f"ratio parse+chunk+note / pdftotext:       {n_rate / p_rate:7.2f}x  "
          f"(the issue's figure, best against best; target >= 0.6x)")
    print(f"  same, round by round (median; min-max): {statistics.median(paired):7.2f}x  "
          f"({min(paired):.2f}-{max(paired):.2f})")
    t_x = min(r.extract for r in rs)
    print(f"MuPDF get_text('dict') alone (floor):     {pages / t_x:7.1f} pages/s  ({t_x:.3f} s, "
          f"{t_p / t_x:.2f}x pdftotext's speed)")
    print(f"peak RSS (compile process):               {rss:7.1f} MiB")
    checked = found = nospace = 0
    for pdf in pdfs:
        r = check_blocks(pdf, PyMuPDFParser().parse(pdf).blocks)
        checked, found, nospace = checked + r.checked, found + r.found, nospace + r.found_ignoring_spaces
        print(f"  verbatim {pdf.name:45s} {r.found:4d}/{r.checked:<4d} {r.share:6.1%} "
              f"(loose {r.share_ignoring_spaces:6.1%})")
    print(f"verbatim share (paragraphs):              {found}/{checked} = {found / checked:.1%} "
          f"(ignoring spaces and unmapped glyphs {nospace / checked:.1%}; target 99%)")
    ok, total = reading_order(sorted((root / "two_column").glob("*.pdf")))
    print(f"reading order (two-column, heading → first paragraph after it): {ok}/{total}")


if __name__ == "__main__":
    main()
