"""The evaluation bench's pure scoring rules (bench/eval_scoring.py and
bench/eval_verbatim.py, which bench/compile_eval.py scores with), on hand-made input."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))  # the bench's own modules

import eval_scoring as ev
import eval_verbatim as vb


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
    # a chapter's label before its number: the truth gives the number apart (a USGS manual's
    # ``Chapter 2: OVERVIEW AND PROGRAM CONTROL``, number ``2``)
    assert ev.section_names("Chapter 2: OVERVIEW AND PROGRAM CONTROL", "OVERVIEW AND PROGRAM CONTROL", "2")
    assert not ev.section_names("Chapter Two", "Two")


def test_strict_verbatim_accepts_a_line_end_hyphen_dropped_or_kept_and_nothing_else() -> None:
    ref = vb.raw_reference("an exam-\nple of stream-\nside  banks\n")
    assert vb.verbatim_in("an example of stream-side banks", ref)
    assert vb.verbatim_in("an exam-ple of streamside banks", ref)
    assert not vb.verbatim_in("an examp le of", ref)
    assert not vb.verbatim_in("an example, of", ref)


def test_the_raw_reference_of_a_region_leaves_out_a_margin_column_of_line_numbers() -> None:
    page = ('<page width="612" height="792">'
            '<word xMin="20.9" yMin="100" xMax="28.8" yMax="105">417</word>'
            '<word xMin="60" yMin="99" xMax="90" yMax="109">A</word>'
            '<word xMin="95" yMin="99" xMax="140" yMax="109">handy</word>'
            '<word xMin="145" yMin="99" xMax="190" yMax="109">cheat-</word>'
            '<word xMin="20.9" yMin="112" xMax="28.8" yMax="117">418</word>'
            '<word xMin="50" yMin="111" xMax="80" yMax="121">sheet</word>'
            '<word xMin="80.1" yMin="109" xMax="83" yMax="115">1</word>'
            '<word xMin="85" yMin="111" xMax="120" yMax="121">&amp; more.</word></page>')
    raw = "417\nA handy cheat-\n418\nsheet1 & more.\n\f"
    pages = vb.raw_words(page, raw)
    assert [w[4] for w in pages[0]][:2] == ["417", "A"] and pages[0][-1][4] == "& more."
    region = (50.0, 99.0, 190.0, 121.0)
    assert vb.region_text(pages[0], region) == "A handy cheat-\nsheet1 & more."  # poppler's separators
    quote = "A handy cheatsheet1 & more."
    assert vb.region_verbatim(quote, [(1, quote)], [(1, region)], pages)
    assert not vb.verbatim_in(quote, vb.raw_reference(raw))  # the whole page: no one run


def test_a_paragraph_over_two_regions_reads_as_one_run_in_each() -> None:
    pages = vb.raw_words('<page width="612" height="792">'
                         '<word xMin="50" yMin="700" xMax="90" yMax="710">first</word>'
                         '<word xMin="300" yMin="700" xMax="340" yMax="710">Table</word>'
                         '<word xMin="300" yMin="100" xMax="340" yMax="110">second</word></page>',
                         "first\nTable\nsecond\n\f")
    pieces = [(1, "first"), (1, "second")]
    regions = [(1, (50.0, 700.0, 90.0, 710.0)), (1, (300.0, 100.0, 340.0, 110.0))]
    assert vb.region_verbatim("first second", pieces, regions, pages)
    assert not vb.region_verbatim("first third", [(1, "first"), (1, "third")], regions, pages)


def test_absent_strings_keep_their_case_and_the_folded_match_is_reported_apart() -> None:
    # Wiley's running head "FRITZSCH et al." against the body's citation "Fritzsch et al.8"
    assert ev.loose_cased("FRITZSCH et al.") == "FRITZSCHetal"
    assert ev.loose_cased("Fritzsch et al.8") == "Fritzschetal8"
    assert ev.loose_cased("Ödeen’s ﬁsh") == "Odeensfish"


def test_a_glyph_of_an_unmapped_font_is_contested_where_poppler_reads_it_otherwise() -> None:
    # MuPDF's "≪" (CMSY, no ToUnicode) where poppler wrote nothing; "δr0" read alike
    spans = [(100.0, 10.0, 110.0, 20.0, "≪"), (80.0, 10.0, 95.0, 20.0, "δr0")]
    words = [(80.0, 10.0, 95.0, 20.0, "δr0", ""), (112.0, 10.0, 120.0, 20.0, "r0", " ")]
    assert vb.contested_spans(spans, words) == [(100.0, 10.0, 110.0, 20.0)]
    # poppler's "0" for TeX's prime, over the glyph's box
    assert vb.contested_spans([(0.0, 0.0, 5.0, 5.0, "′")], [(0.0, 0.0, 5.0, 5.0, "0", "")]) == [(0.0, 0.0, 5.0, 5.0)]
    # µ (micro sign) and μ (Greek) are one character after NFKC
    assert vb.contested_spans([(0.0, 0.0, 5.0, 5.0, "µm")], [(0.0, 0.0, 9.0, 5.0, "μm", "")]) == []
    contested = [[(100.0, 10.0, 110.0, 20.0)], []]
    assert vb.holds_contested([(1, (50.0, 0.0, 300.0, 30.0))], contested)
    assert not vb.holds_contested([(1, (200.0, 0.0, 300.0, 30.0)), (2, (0.0, 0.0, 500.0, 500.0))], contested)
