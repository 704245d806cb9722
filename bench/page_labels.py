"""Score vaultd's printed-page labels on the page-read truth set (eval/pages/truth.json).

    python3 bench/page_labels.py [--paper NAME] [--verbose] [--json] [--no-speed] [--truth FILE]

For every paper: its pages, the pages that print a folio, the labels given right and
wrong, and the pages cited as PDF pages. A label is wrong when it differs from the folio
the page prints or, on a page that prints none, from the page a reader would cite there
(``unprinted`` in the truth; a label on a page with neither is wrong). Targets (issue 32):
0 wrong labels, ≥ 99 % of printed folios given right.

Speed: ``labels_for`` (its own word extraction) against a plain PyMuPDF parse of the same
PDFs (``page.get_text("dict")`` for every page) in the same run, medians of ``RUNS`` runs;
and the cost of labels for a parser that already holds each page's dict (``dict_lines``),
the way the parse pays for them. A benchmark: it always exits 0.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TRUTH = REPO / "eval" / "pages" / "truth.json"
RUNS = 3  # timings are the median of this many runs
TARGETS = {"wrong": "0", "right": "≥ 99 % of printed folios", "time": "≤ 5 % of the parse"}

# ---------------------------------------------------------------- pure scoring


@dataclass
class PaperScore:
    """One paper's page labels against what its pages print."""

    name: str
    pages: int = 0
    printed: int = 0  # pages that print a folio
    right: int = 0  # labels equal to the printed folio (or to the cited page where none)
    wrong: int = 0  # labels that name another page: must stay 0
    pdf: int = 0  # pages cited by their PDF page
    missed: int = 0  # printed folios cited as PDF pages
    printed_right: int = 0  # printed folios given right
    failures: list[str] = field(default_factory=list)
    labels_s: float | None = None
    parse_s: float | None = None
    from_dict_s: float | None = None
    error: str | None = None


def score_paper(name: str, truth: Sequence[str | None], unprinted: dict[str, str],
                labels: Sequence[tuple[str | None, str]]) -> PaperScore:
    """Compare ``labels`` ((label, status) per PDF page) with the truth's printed folios.

    Only the pages the truth records are scored (the first 30 of a long document).
    """
    s = PaperScore(name, pages=len(truth))
    for i, printed in enumerate(truth):
        label, status = labels[i] if i < len(labels) else (None, "pdf")
        expected = printed if printed is not None else unprinted.get(str(i + 1))
        s.printed += printed is not None
        if label is None:
            s.pdf += 1
            if printed is not None:
                s.missed += 1
                s.failures.append(f"p{i + 1}: prints {printed}, cited as PDF page")
        elif label == expected:
            s.right += 1
            s.printed_right += printed is not None
        else:
            s.wrong += 1
            s.failures.append(f"p{i + 1}: {status} {label!r}, the page prints {printed!r}"
                              + (f" (cited as {expected!r})" if expected != printed else ""))
    return s


def totals(scores: Sequence[PaperScore]) -> dict[str, Any]:
    """Sums over the set; the right share is of the pages that print a folio."""
    tot: dict[str, Any] = {k: sum(getattr(s, k) for s in scores)
                           for k in ("pages", "printed", "right", "wrong", "pdf", "missed",
                                     "printed_right")}
    tot["right_of_printed"] = tot["printed_right"] / tot["printed"] if tot["printed"] else 1.0
    timed = [s for s in scores if s.labels_s is not None and s.parse_s]
    if timed:
        parse = sum(s.parse_s or 0.0 for s in timed)
        tot["parse_s"] = parse
        tot["labels_s"] = sum(s.labels_s or 0.0 for s in timed)
        tot["from_dict_s"] = sum(s.from_dict_s or 0.0 for s in timed)
        tot["labels_pct"] = 100 * tot["labels_s"] / parse
        tot["from_dict_pct"] = 100 * tot["from_dict_s"] / parse
    return tot


# ---------------------------------------------------------------- running vaultd


def _median_time(fn: Callable[[], object], runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def run_paper(path: Path, entry: dict[str, Any], speed: bool) -> PaperScore:
    """Label one PDF, score it, and time it beside a plain PyMuPDF parse."""
    import pymupdf  # bench only: the labels code under test opens PDFs itself

    from vaultd.parse.folio_reader import band_lines, dict_lines, labels_for, read_document
    from vaultd.parse.folios import decide_labels

    name = path.name
    try:
        labels = labels_for(path)
    except Exception as exc:  # a benchmark reports and goes on
        return PaperScore(name, pages=len(entry["pages"]), error=str(exc))
    score = score_paper(name, entry["pages"], entry.get("unprinted", {}),
                        [(lab.label, lab.status) for lab in labels])
    if not speed:
        return score

    def parse() -> list[Any]:
        with pymupdf.open(path) as doc:
            return [page.get_text("dict") for page in doc]

    def from_dict(dicts: list[Any], sizes: list[tuple[float, float]], evidence: Any) -> None:
        pages = [band_lines(dict_lines(d), w, h) for d, (w, h) in zip(dicts, sizes, strict=True)]
        decide_labels(pages, evidence)

    with pymupdf.open(path) as doc:
        sizes = [(p.rect.width, p.rect.height) for p in doc]
        _, evidence = read_document(doc)
    dicts = parse()
    score.parse_s = _median_time(parse)
    score.labels_s = _median_time(lambda: labels_for(path))
    score.from_dict_s = _median_time(lambda: from_dict(dicts, sizes, evidence))
    return score


def _pct(num: float | None, den: float | None) -> str:
    return f"{100 * num / den:5.1f} %" if num is not None and den else "    -  "


def print_table(scores: Sequence[PaperScore], tot: dict[str, Any], verbose: bool) -> None:
    head = (f"{'paper':<48}{'pages':>6}{'folio':>6}{'right':>6}{'wrong':>6}{'pdf':>5}"
            f"{'labels':>10}{'from dict':>11}")
    print(head)
    print("-" * len(head))
    for s in scores:
        print(f"{s.name[:47]:<48}{s.pages:>6}{s.printed:>6}{s.right:>6}{s.wrong:>6}{s.pdf:>5}"
              f"{_pct(s.labels_s, s.parse_s):>10}{_pct(s.from_dict_s, s.parse_s):>11}")
        if s.error:
            print(f"{'':<4}error: {s.error}")
        if verbose or s.wrong:
            for f in s.failures:
                print(f"{'':<4}{f}")
    print()
    print(f"over the set ({len(scores)} PDFs): {tot['pages']} pages, {tot['printed']} print a "
          f"folio; {tot['right']} labels right, {tot['wrong']} wrong (target "
          f"{TARGETS['wrong']}), {tot['pdf']} cited as PDF pages")
    print(f"printed folios given right: {tot['right_of_printed']:.1%} (target {TARGETS['right']})")
    if "parse_s" in tot:
        print(f"time: plain parse (get_text('dict'), every page) {tot['parse_s'] * 1000:.0f} ms; "
              f"labels_for {tot['labels_s'] * 1000:.0f} ms = {tot['labels_pct']:.1f} % of it; "
              f"labels from the parse's own dicts {tot['from_dict_s'] * 1000:.1f} ms = "
              f"{tot['from_dict_pct']:.2f} % (target {TARGETS['time']})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paper", help="score one paper (a unique part of its file name)")
    ap.add_argument("--verbose", action="store_true", help="list every failure")
    ap.add_argument("--json", action="store_true", help="machine-readable output")
    ap.add_argument("--no-speed", action="store_true", help="skip the timings")
    ap.add_argument("--truth", type=Path, default=TRUTH, help="truth file (paths relative to the repo)")
    args = ap.parse_args()
    truth: dict[str, dict[str, Any]] = json.loads(args.truth.read_text(encoding="utf-8"))
    if args.paper:
        truth = {k: v for k, v in truth.items() if args.paper in k}
    sys.path.insert(0, str(REPO))  # the checkout's vaultd, installed or not
    scores: list[PaperScore] = []
    for rel, entry in truth.items():
        path = (REPO / rel).resolve()
        if not path.is_file():
            print(f"missing: {rel} (the shared fixtures sit beside the repo)", file=sys.stderr)
            continue
        scores.append(run_paper(path, entry, not args.no_speed))
    tot = totals(scores)
    if args.json:
        print(json.dumps({"truth": str(args.truth), "targets": TARGETS, "totals": tot,
                          "papers": [asdict(s) for s in scores]}, indent=1, ensure_ascii=False))
        return
    print_table(scores, tot, args.verbose)


if __name__ == "__main__":
    main()
