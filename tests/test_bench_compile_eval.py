"""The evaluation bench's pure scoring rules (bench/compile_eval.py), on hand-made input."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest


def _bench() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "bench" / "compile_eval.py"
    spec = importlib.util.spec_from_file_location("compile_eval", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("compile_eval", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


ev = _bench()


def test_loose_matching_drops_punctuation_case_accents_and_ligatures() -> None:
    # Ö → o (mark dropped), ’ “ ” - , ! and spaces dropped, ﬁ → fi, case folded
    assert ev.loose("Ödeen’s “co-adapted” ﬁsh, 2011!") == "odeenscoadaptedfish2011"
    assert ev.loose("Informação") == ev.loose("INFORMACAO") == "informacao"
    assert ev.loose("Straße") == "strasse"


def test_box_coverage_counts_overlapping_regions_once_and_ignores_the_outside() -> None:
    piece = (0.0, 0.0, 100.0, 10.0)  # 1000 pt²
    # x 0-50 and x 40-80 overlap on 40-50: the union covers x 0-80, 800 pt²;
    # the third region lies wholly outside the piece
    regions = [(0.0, 0.0, 50.0, 10.0), (40.0, 0.0, 80.0, 10.0), (200.0, 0.0, 300.0, 10.0)]
    assert ev.covered(piece, regions) == pytest.approx(0.8)
    # a region half as tall over the right half: 50 × 5 = 250 pt² of 1000
    assert ev.covered(piece, [(50.0, 5.0, 120.0, 30.0)]) == pytest.approx(0.25)
    assert ev.covered(piece, []) == 0.0


def test_section_matches_a_level_of_a_path_with_or_without_its_number() -> None:
    assert ev.section_names("Methods › Outcome measures", "Outcome measures")
    assert ev.section_names("2.5 Filtering paper clusters", "Filtering paper clusters", "2.5")
    assert ev.section_names("I N T RO DU CT ION", "Introduction")
    assert not ev.section_names("What is the best highlighting algorithm? We", "Introduction")
    assert not ev.section_names(None, "Introduction")


def test_strict_verbatim_accepts_a_line_end_hyphen_dropped_or_kept_and_nothing_else() -> None:
    ref = ev.raw_reference("an exam-\nple of stream-\nside  banks\n")
    assert ev.verbatim_in("an example of stream-side banks", ref)
    assert ev.verbatim_in("an exam-ple of streamside banks", ref)
    assert not ev.verbatim_in("an examp le of", ref)
    assert not ev.verbatim_in("an example, of", ref)
