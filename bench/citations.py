"""Citations against the oracle on the evaluation sets under eval/, style by style.

The oracle is pandoc's citeproc with the official CSL styles, fed the source's own data:
``.bib`` files read by pandoc's own biblatex reader; CrossRef records through the mapping
written from the CSL specification in tests/_crossref_oracle.py (no vaultd code). vaultd's
side goes through its real source parsers and its real renderer. A rendering counts as
exact when the whitespace-normalised plain text is equal. Renderings on the reviewed list
(eval/citations/reviewed.json: the reference rendering contradicts the style manual) are
reported apart, with the reason.

Run: python3 bench/citations.py [--set bib|crossref|all] [--show N]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from _citeproc_oracle import STYLE_NAMES, normalise, render_bib_file, render_items  # noqa: E402
from _crossref_oracle import crossref_csl  # noqa: E402

from vaultd.capture import crossref  # noqa: E402
from vaultd.capture.bib import parse_bib  # noqa: E402
from vaultd.formats import CitationRenderer  # noqa: E402
from vaultd.models import Work  # noqa: E402

EVAL = ROOT / "eval"
Case = tuple[str, str, str | None, str | None]  # (set/name, style, ours, theirs)


def vaultd_texts(works: dict[str, Work]) -> dict[str, dict[str, str]]:
    rendered = CitationRenderer().render(works)
    return {k: {s: normalise(r.text) for s, r in per.items()} for k, per in rendered.items()}


def _bib_file_cases(path: Path, styles: tuple[str, ...]) -> list[Case]:
    entries = parse_bib(path.read_text(encoding="utf-8"), path.name)
    works = {e.key: e.work for e in entries if e.work.title}
    ours = vaultd_texts(works)
    cases: list[Case] = []
    for style in styles:
        theirs = render_bib_file(path, style, list(works))
        cases += [(f"bib/{path.name}:{k}", style, ours[k][style], theirs.get(k))
                  for k in works]
    return cases


def bib_cases(styles: tuple[str, ...] = STYLE_NAMES) -> list[Case]:
    # Files in parallel: the time is pandoc processes, one per batch and style.
    with ThreadPoolExecutor(max_workers=4) as pool:
        per_file = pool.map(lambda p: _bib_file_cases(p, styles),
                            sorted((EVAL / "bib").glob("*.bib")))
        return [case for cases in per_file for case in cases]


#: eval/crossref's records, each CrossRef's ``message`` object as JSON, gzip-compressed.
CROSSREF_RECORDS = EVAL / "crossref" / "records"


def crossref_record(name: str) -> dict[str, Any]:
    """The record ``records/<name>.json.gz`` (a DOI with ``/`` as ``_``)."""
    data: dict[str, Any] = json.loads(gzip.decompress((CROSSREF_RECORDS / f"{name}.json.gz").read_bytes()))
    return data


def crossref_records() -> dict[str, dict[str, Any]]:
    names = (path.name.removesuffix(".json.gz") for path in sorted(CROSSREF_RECORDS.glob("*.json.gz")))
    return {name: crossref_record(name) for name in names}


def crossref_cases() -> list[Case]:
    records = crossref_records()
    ids = {name: f"w{i}" for i, name in enumerate(records)}
    works = {ids[n]: crossref.parse_work(m) for n, m in records.items()}
    works = {i: w for i, w in works.items() if w.title}
    ours = vaultd_texts(works)
    items = [crossref_csl(m, ids[n]) for n, m in records.items() if ids[n] in works]
    cases: list[Case] = []
    for style in STYLE_NAMES:
        theirs = render_items(items, style)
        cases += [(f"crossref/{n}", style, ours[i][style], theirs.get(i))
                  for n, i in ids.items() if i in works]
    return cases


def reviewed() -> dict[str, str]:
    path = EVAL / "citations" / "reviewed.json"
    if not path.is_file():
        return {}
    return {f"{r['case']}|{r['style']}": r["reason"]
            for r in json.loads(path.read_text(encoding="utf-8"))}


def report(cases: list[Case], show: int) -> dict[str, Any]:
    known = reviewed()
    summary: dict[str, Any] = {}
    for style in STYLE_NAMES:
        mine = [c for c in cases if c[1] == style]
        exact = sum(1 for c in mine if c[2] == c[3])
        listed = [c for c in mine if c[2] != c[3] and f"{c[0]}|{style}" in known]
        wrong = [c for c in mine if c[2] != c[3] and f"{c[0]}|{style}" not in known]
        summary[style] = {"works": len(mine), "exact": exact, "reviewed": len(listed),
                          "wrong": len(wrong),
                          "exact_pct": round(100 * exact / len(mine), 1) if mine else None}
        print(f"{style:8} {exact:4}/{len(mine):<4} exact ({summary[style]['exact_pct']} %), "
              f"{len(listed)} on the reviewed list, {len(wrong)} wrong")
        for name, _, ours, theirs in wrong[:show]:
            print(f"   {name}\n     vaultd: {ours}\n     oracle: {theirs}")
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=["bib", "crossref", "all"], default="all")
    parser.add_argument("--show", type=int, default=5, help="wrong renderings shown per style")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out: dict[str, Any] = {}
    for name, make in (("crossref", crossref_cases), ("bib", bib_cases)):
        if args.set not in (name, "all"):
            continue
        start = time.perf_counter()
        cases = make()
        print(f"== {name}: {len(cases) // len(STYLE_NAMES)} works "
              f"({time.perf_counter() - start:.1f} s)")
        out[name] = report(cases, args.show)
    if args.json:
        print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
