"""vaultd's citations of the evaluation sets under eval/ against the oracle (pandoc's
citeproc fed the source's own data; bench/citations.py prints the same comparison with
every differing rendering). The sets are in the repository, so these run everywhere."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import citations as bench

# The .bib set's measured floor in APA (99.3 % on 2026-11-28; what is still wrong is
# listed in docs/citations.md): renderings on the reviewed list count as exact.
BIB_APA_FLOOR = 0.98


@pytest.fixture(scope="module")
def crossref_cases() -> list[bench.Case]:
    return bench.crossref_cases()


def test_the_crossref_set_is_large_and_covers_the_kinds_of_work(
        crossref_cases: list[bench.Case]) -> None:
    records = bench.crossref_records()
    assert len(records) >= 300
    kinds = {str(m.get("type")) for m in records.values()}
    assert {"journal-article", "book-chapter", "proceedings-article", "posted-content",
            "dissertation", "dataset", "report", "standard", "monograph", "reference-entry",
            "peer-review", "component", "book", "other"} <= kinds


@pytest.mark.parametrize("style", ["apa", "mla", "chicago", "ieee"])
def test_every_crossref_record_is_cited_as_the_oracle_cites_it(
        crossref_cases: list[bench.Case], style: str) -> None:
    known = bench.reviewed()
    wrong = [(name, ours, theirs) for name, s, ours, theirs in crossref_cases
             if s == style and ours != theirs and f"{name}|{style}" not in known]
    assert not wrong, "\n".join(f"{n}\n  vaultd: {o}\n  oracle: {t}" for n, o, t in wrong[:10])


def test_the_bib_set_is_cited_as_pandoc_cites_the_file_in_apa() -> None:
    cases = [c for c in bench.bib_cases(styles=("apa",)) if c[1] == "apa"]
    assert len(cases) >= 250
    known = bench.reviewed()
    exact = sum(1 for name, _, ours, theirs in cases
                if ours == theirs or f"{name}|apa" in known)
    assert exact / len(cases) >= BIB_APA_FLOOR, f"{exact}/{len(cases)}"
