"""Parse + chunk time of two vaultd trees on the same PDFs, against ``pdftotext -layout``.

    python3 bench/parse_ab.py --base DIR [--rounds N] [--set DIR ...] [--quotes]

Measures what a layout rule costs: ``DIR`` is another checkout's root (a ``git worktree``
of an earlier commit, say), whose ``vaultd`` one child process imports, this checkout's
the other. Both children stay up; the parent hands them the PDFs one at a time, the two
trees in turn (which goes first alternates), and each answers with the CPU seconds
(``time.process_time``) of that PDF's ``parse_pdf`` + ``chunk_blocks``; ``pdftotext
-layout`` is timed in between by the CPU seconds of its process. So the two trees are timed
within a second of each other on the same PDF, on a machine others share; a round is one
pass over the set, and the report gives each tree's least time a paper over the rounds,
the sums, and the median over the rounds of the set's time ratio, this tree to base — the
figure that moves least when the machine is busy. A benchmark: it always exits 0.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
from pathlib import Path

from compile_eval import QUOTES_SET, eval_dir

#: What a child runs: a PDF path a line on stdin → the CPU seconds of its parse + chunk.
CHILD = """
import sys, time
from pathlib import Path
import vaultd
from vaultd.config import Settings
from vaultd.parse.chunker import chunk_blocks
from vaultd.parse.tiers import parse_pdf

settings = Settings()
print(Path(vaultd.__file__).parent, flush=True)
for line in sys.stdin:
    t = time.process_time()
    doc = parse_pdf(Path(line.strip()), settings.parse.parser, ocr=settings.parse.ocr,
                    ocr_language=settings.parse.ocr_language)
    chunk_blocks([b for b in doc.blocks if b.text.strip()], doc.parser)
    print(time.process_time() - t, flush=True)
"""


class Child:
    """A child process that parses the PDFs it is handed with one tree's vaultd."""

    def __init__(self, tree: Path | None) -> None:
        env = dict(os.environ)
        if tree is not None:
            env["PYTHONPATH"] = str(tree)
        self.proc = subprocess.Popen([sys.executable, "-c", CHILD], env=env, cwd="/", text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self.proc.stdout is not None
        self.vaultd = self.proc.stdout.readline().strip()

    def cpu(self, pdf: Path) -> float:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{pdf}\n")
        self.proc.stdin.flush()
        return float(self.proc.stdout.readline())

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def pdftotext_cpu(pdf: Path) -> float:
    """CPU seconds of one ``pdftotext -layout`` process (user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, required=True, help="the other checkout's root")
    ap.add_argument("--rounds", type=int, default=9, help="passes over the set")
    ap.add_argument("--set", type=Path, action="append", default=[], help="evaluation set (repeatable)")
    ap.add_argument("--quotes", action="store_true", help="also eval/quotes")
    args = ap.parse_args()
    roots = args.set or [eval_dir()]
    if args.quotes:
        roots.append(QUOTES_SET)
    pdfs = sorted(p for root in roots for p in (root / "pdfs").glob("*.pdf"))
    kids = {"base": Child(args.base), "this": Child(None)}
    times: dict[str, dict[str, list[float]]] = {k: {p.name: [] for p in pdfs} for k in ("base", "this", "pdftotext")}
    try:
        for pdf in pdfs:  # warm-up: imports, caches, the page cache
            for kid in kids.values():
                kid.cpu(pdf)
        for r in range(args.rounds):
            for pdf in pdfs:
                for label in ("base", "this") if r % 2 == 0 else ("this", "base"):
                    times[label][pdf.name].append(kids[label].cpu(pdf))
                times["pdftotext"][pdf.name].append(pdftotext_cpu(pdf))
            print(f"round {r + 1} of {args.rounds}", file=sys.stderr)
    finally:
        for kid in kids.values():
            kid.close()
    names = {label: kid.vaultd for label, kid in kids.items()}
    best = {k: {name: min(v) for name, v in per.items()} for k, per in times.items()}
    ratios = sorted(sum(times["this"][p.name][r] for p in pdfs) / sum(times["base"][p.name][r] for p in pdfs)
                    for r in range(args.rounds))
    print(f"base: vaultd from {names['base']}\nthis: vaultd from {names['this']}\n"
          f"CPU seconds, least of {args.rounds} rounds")
    print(f"{'paper':<44}{'pdftotext':>10}{'base':>8}{'this':>8}{'change':>9}")
    for pdf in pdfs:
        p, b, t = (best[k][pdf.name] for k in ("pdftotext", "base", "this"))
        print(f"{pdf.stem[:43]:<44}{p:>10.3f}{b:>8.3f}{t:>8.3f}{100 * (t - b) / b:>8.1f}%")
    p, b, t = (sum(best[k].values()) for k in ("pdftotext", "base", "this"))
    print(f"{'set (' + str(len(pdfs)) + ' PDFs)':<44}{p:>10.3f}{b:>8.3f}{t:>8.3f}{100 * (t - b) / b:>8.1f}%")
    print(f"pdftotext -layout / parse + chunk: base {p / b:.2f}×, this {p / t:.2f}×")
    print(f"this / base, the set's time round by round: median {ratios[len(ratios) // 2]:.3f} "
          f"(from {ratios[0]:.3f} to {ratios[-1]:.3f})")


if __name__ == "__main__":
    main()
