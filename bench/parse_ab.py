"""Parse + chunk time of two vaultd trees on the same PDFs, against ``pdftotext -layout``.

    python3 bench/parse_ab.py --base DIR [--rounds N] [--set DIR ...] [--quotes]

Measures what a layout rule costs: ``DIR`` is another checkout's root (a ``git worktree``
of an earlier commit, say), whose ``vaultd`` a child process imports instead of this
one's. Each round runs one child per tree, alternating, and each child times every PDF's
``parse_pdf`` + ``chunk_blocks`` in CPU seconds (``time.process_time``) after one untimed
warm-up parse; ``pdftotext -layout`` is timed by the CPU seconds of its process. A paper's
figure is its least time over the rounds — on a machine others share, interference only
ever adds time — and the report gives the sums over the set, the two trees' ratios to
pdftotext and the change from base to this tree. A benchmark: it always exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

from compile_eval import QUOTES_SET, eval_dir

#: What a child runs: the PDFs' CPU times of parse + chunk, as JSON on stdout.
CHILD = """
import json, sys, time
from pathlib import Path
import vaultd
from vaultd.config import Settings
from vaultd.parse.chunker import chunk_blocks
from vaultd.parse.tiers import parse_pdf

settings = Settings()
def run(pdf):
    doc = parse_pdf(pdf, settings.parse.parser, ocr=settings.parse.ocr,
                    ocr_language=settings.parse.ocr_language)
    chunk_blocks([b for b in doc.blocks if b.text.strip()], doc.parser)
pdfs = [Path(p) for p in sys.argv[1:]]
run(pdfs[0])  # warm-up: imports, caches
out = {}
for pdf in pdfs:
    t = time.process_time()
    run(pdf)
    out[pdf.name] = time.process_time() - t
print(json.dumps({"vaultd": str(Path(vaultd.__file__).parent), "cpu": out}))
"""


def child_times(tree: Path | None, pdfs: list[Path]) -> tuple[str, dict[str, float]]:
    """One child's run: the vaultd it imported and each PDF's CPU seconds."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    proc = subprocess.run([sys.executable, "-c", CHILD, *map(str, pdfs)], env=env,
                          capture_output=True, check=True, cwd="/")
    got = json.loads(proc.stdout)
    return got["vaultd"], got["cpu"]


def pdftotext_cpu(pdf: Path) -> float:
    """CPU seconds of one ``pdftotext -layout`` process (user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, required=True, help="the other checkout's root")
    ap.add_argument("--rounds", type=int, default=5, help="alternated rounds (least time kept)")
    ap.add_argument("--set", type=Path, action="append", default=[], help="evaluation set (repeatable)")
    ap.add_argument("--quotes", action="store_true", help="also eval/quotes")
    args = ap.parse_args()
    roots = args.set or [eval_dir()]
    if args.quotes:
        roots.append(QUOTES_SET)
    pdfs = sorted(p for root in roots for p in (root / "pdfs").glob("*.pdf"))
    best: dict[str, dict[str, float]] = {"base": {}, "this": {}, "pdftotext": {}}
    names: dict[str, str] = {}
    for r in range(args.rounds):
        for label, tree in (("base", args.base), ("this", None)) if r % 2 == 0 else \
                (("this", None), ("base", args.base)):
            names[label], cpu = child_times(tree, pdfs)
            for name, t in cpu.items():
                best[label][name] = min(t, best[label].get(name, t))
        for pdf in pdfs:
            t = pdftotext_cpu(pdf)
            best["pdftotext"][pdf.name] = min(t, best["pdftotext"].get(pdf.name, t))
        print(f"round {r + 1} of {args.rounds}", file=sys.stderr)
    print(f"base: vaultd from {names['base']}\nthis: vaultd from {names['this']}\n"
          f"CPU seconds, least of {args.rounds} alternated rounds")
    print(f"{'paper':<44}{'pdftotext':>10}{'base':>8}{'this':>8}{'change':>9}")
    for pdf in pdfs:
        p, b, t = (best[k][pdf.name] for k in ("pdftotext", "base", "this"))
        print(f"{pdf.stem[:43]:<44}{p:>10.3f}{b:>8.3f}{t:>8.3f}{100 * (t - b) / b:>8.1f}%")
    p, b, t = (sum(best[k].values()) for k in ("pdftotext", "base", "this"))
    print(f"{'set (' + str(len(pdfs)) + ' PDFs)':<44}{p:>10.3f}{b:>8.3f}{t:>8.3f}{100 * (t - b) / b:>8.1f}%")
    print(f"pdftotext -layout / parse + chunk: base {p / b:.2f}×, this {p / t:.2f}×")


if __name__ == "__main__":
    main()
