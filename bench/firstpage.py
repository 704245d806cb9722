"""Score what vaultd reads from a PDF's first page on the first-page truth set.

    python3 bench/firstpage.py [--paper NAME] [--round N] [--verbose] [--json] [--truth FILE]

The truth (eval/firstpage/truth.json, origins in eval/firstpage/SOURCES.md) was written
from rendered page images. For every PDF, vaultd reads the first page as a capture does
when no metadata source answers (``read_pdf_meta`` then the pipeline's PDF hint: the
fields recorded with source ``pdf-layout``) and the bench prints, per file and in total:

- title right: the title read equals the printed title (or the title with its subtitle,
  or a parallel title in another language the page prints, ``alt_titles``);
- authors right: the complete author list, every name in order, and no name more;
- year right: the year read equals the printed publication year (``null`` when the page
  prints none: reading none is then right);
- ids found: every DOI and arXiv id printed on the page is among the ids read (counted
  over the pages that print one).

Normalisation, the same on both sides, chosen so that typesetting differences do not
count but a wrong word or name does: texts are compared after Unicode NFKC then NFKD,
case-folding, dropping combining marks, and keeping letters and digits only (so "LaTeX"
typeset as "LATEX", spacing, punctuation, quotes and a hyphen at a line end do not
matter). Authors are compared by family name only (given names and initials are printed
in many forms): the last word of the name once a generational suffix (Jr., III, V) is
dropped, normalised as above; a name written in Chinese, Japanese or Korean script is
compared whole. DOIs are compared case-insensitively, as DOIs are.

Timing: wall-clock seconds to read each PDF (open, page 1 and 2 text, layout), and the
total. A benchmark: it always exits 0.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import unicodedata
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TRUTH = REPO / "eval" / "firstpage" / "truth.json"
TARGETS = {"title": 0.95, "authors": 0.90, "year": 0.95, "ids": 1.0}
_SUFFIXES = {"jr", "sr", "ii", "iii", "iv", "v"}
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")

# ---------------------------------------------------------------- pure scoring


def loose(text: str) -> str:
    """Letters and digits only, case-folded, accents dropped."""
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text))
    return "".join(c for c in decomposed.casefold()
                   if c.isalnum() and not unicodedata.combining(c))


def family_key(name: str) -> str:
    """The family name a name is compared by (see the module doc)."""
    if _CJK_RE.search(name):
        return loose(name)
    words = [w for w in name.replace(",", " ").split() if loose(w)]
    while len(words) > 1 and loose(words[-1]) in _SUFFIXES:
        words.pop()
    return loose(words[-1]) if words else ""


def title_right(found: str | None, truth: dict[str, Any]) -> bool:
    if not found:
        return False
    wanted = [truth["title"], *truth.get("alt_titles", [])]
    if truth.get("subtitle"):
        wanted.append(f"{truth['title']} {truth['subtitle']}")
    return loose(found) in {loose(w) for w in wanted}


def authors_right(found: list[str], truth: list[str]) -> bool:
    return [family_key(n) for n in found] == [family_key(n) for n in truth]


def ids_found(found: list[str], truth: list[str]) -> int:
    have = {i.lower() for i in found}
    return sum(1 for i in truth if i.lower() in have)


@dataclass
class FileScore:
    name: str
    title: bool = False
    authors: bool = False
    year: bool = False
    ids_printed: int = 0
    ids_found: int = 0
    seconds: float = 0.0
    got: dict[str, Any] = field(default_factory=dict)


def score(name: str, truth: dict[str, Any], got: dict[str, Any], seconds: float) -> FileScore:
    return FileScore(
        name, title_right(got.get("title"), truth),
        authors_right(list(got.get("authors") or []), truth["authors"]),
        got.get("year") == truth["year"], len(truth["ids"]),
        ids_found(list(got.get("ids") or []), truth["ids"]), seconds, got)


def totals(scores: list[FileScore]) -> dict[str, float]:
    n = len(scores) or 1
    printed = sum(s.ids_printed for s in scores)
    return {"files": len(scores), "title": sum(s.title for s in scores) / n,
            "authors": sum(s.authors for s in scores) / n,
            "year": sum(s.year for s in scores) / n,
            "ids": (sum(s.ids_found for s in scores) / printed) if printed else 1.0,
            "seconds": sum(s.seconds for s in scores)}


# ---------------------------------------------------------------- running vaultd


def pdf_path(entry: dict[str, Any]) -> Path:
    return (REPO / entry["pdf"]).resolve()


def read(path: Path) -> dict[str, Any]:
    """What a capture records from this PDF alone (no source answered)."""
    from vaultd.capture.pdfmeta import read_pdf_meta  # heavy (PyMuPDF): only when run
    from vaultd.pipeline.pdf_hint import pdf_hint

    meta = read_pdf_meta(path)
    hint = pdf_hint(meta)
    ids = [f"doi:{d}" for d in meta.dois] + [f"arxiv:{a}" for a in meta.arxiv_ids]
    return {"title": hint.title if hint else None,
            "authors": [a.display for a in hint.authors] if hint else [],
            "year": hint.year if hint else None, "ids": ids}


def run(truth: dict[str, dict[str, Any]], only: str | None,
        round_: int | None = None) -> list[FileScore]:
    out: list[FileScore] = []
    for name, entry in truth.items():
        if only and only not in name:
            continue
        if round_ is not None and entry.get("round", 1) != round_:
            continue
        path = pdf_path(entry)
        if not path.is_file():
            print(f"{name}: {path} missing; skipped", file=sys.stderr)
            continue
        start = time.perf_counter()
        got = read(path)
        out.append(score(name, entry, got, time.perf_counter() - start))
    return out


def _mark(ok: bool) -> str:
    return "ok " if ok else "-- "


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--paper", help="only the papers whose name contains this")
    ap.add_argument("--verbose", action="store_true", help="show what was read on failures")
    ap.add_argument("--json", action="store_true", help="print the scores as JSON")
    ap.add_argument("--round", type=int, dest="round_",
                    help="only the pages added in this round (1: the first 56)")
    ap.add_argument("--truth", type=Path, default=TRUTH)
    args = ap.parse_args(argv)
    truth = json.loads(args.truth.read_text(encoding="utf-8"))
    scores = run(truth, args.paper, args.round_)
    summary = totals(scores)
    if args.json:
        print(json.dumps({"files": [asdict(s) for s in scores], "totals": summary},
                         ensure_ascii=False, indent=1))
        return 0
    print(f"{'file':44} title authors year ids   ms")
    for s in scores:
        ids = f"{s.ids_found}/{s.ids_printed}" if s.ids_printed else "-"
        print(f"{s.name[:44]:44} {_mark(s.title)}   {_mark(s.authors)}     {_mark(s.year)} "
              f"{ids:5} {s.seconds * 1000:5.0f}")
        if args.verbose and not (s.title and s.authors and s.year
                                 and s.ids_found == s.ids_printed):
            t = truth[s.name]
            if not s.title:
                print(f"    title: {s.got.get('title')!r}\n      want {t['title']!r}")
            if not s.authors:
                print(f"    authors: {s.got.get('authors')}\n      want {t['authors']}")
            if not s.year:
                print(f"    year: {s.got.get('year')} want {t['year']}")
            if s.ids_found != s.ids_printed:
                print(f"    ids: {s.got.get('ids')} want {t['ids']}")
    print(f"\n{summary['files']} files: title {summary['title']:.1%} (target ≥ 95 %), "
          f"authors {summary['authors']:.1%} (≥ 90 %), year {summary['year']:.1%} (≥ 95 %), "
          f"printed ids {summary['ids']:.1%} (100 %); {summary['seconds']:.2f} s in all, "
          f"{summary['seconds'] / max(1, summary['files']) * 1000:.0f} ms a file")
    return 0


if __name__ == "__main__":
    sys.exit(main())
