"""Printed page labels: folios read as a sequence, reconciled with /PageLabels, the printed
range and a record's first page; never a wrong label (vaultd.parse.folios, folio_reader)."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import pymupdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vaultd.parse.folio_reader import (
    band_lines,
    block_lines,
    dict_lines,
    document_evidence,
    labels_for,
    labels_from,
    labels_from_rules,
)
from vaultd.parse.folios import (
    BandLine,
    Evidence,
    PageLabel,
    decide_labels,
    line_folios,
    parse_folio,
    printed_range,
)

REPO = Path(__file__).resolve().parents[1]
TRUTH = REPO / "eval" / "pages" / "truth.json"
SHARED_PREFIX = "../shared/fixtures/"


def _bench() -> ModuleType:
    path = REPO / "bench" / "page_labels.py"
    spec = importlib.util.spec_from_file_location("page_labels_bench", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("page_labels_bench", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def foot(*texts: str) -> list[BandLine]:
    """One page's band lines: each text a line in the foot."""
    return [BandLine(t, "bottom") for t in texts]


def labels(pages: Sequence[Sequence[BandLine]], **evidence: object) -> list[str | None]:
    return [lab.label for lab in decide_labels(pages, Evidence(**evidence))]  # type: ignore[arg-type]


def statuses(pages: Sequence[Sequence[BandLine]], **evidence: object) -> list[str]:
    return [lab.status for lab in decide_labels(pages, Evidence(**evidence))]  # type: ignore[arg-type]


def test_the_public_surface_of_page_labels_is_pinned() -> None:
    from vaultd.parse import folio_bands, folio_reader, folio_text, folios

    assert folios.__all__ == [
        "BandLine", "Evidence", "Folio", "PageLabel", "decide_from_folios", "decide_labels",
        "find_runs", "label_map", "line_folios", "page_folios", "page_readings",
        "parse_folio", "printed_range", "to_roman"]
    assert folio_reader.__all__ == [
        "band_lines", "block_lines", "dict_lines", "document_evidence", "document_labels",
        "labels_for", "labels_from", "labels_from_rules", "page_band_lines", "page_labels",
        "read_document", "record_first_page"]
    assert folio_bands.__all__ == [
        "HEAD_FOOT_FRACTION", "SIDE_FRACTION", "LineBox", "band_lines", "band_of",
        "block_lines", "dict_lines", "document_evidence", "labels_from_rules", "page_labels"]
    assert all(hasattr(folios, n) for n in folios.__all__)
    assert all(hasattr(folio_reader, n) for n in folio_reader.__all__)
    assert all(hasattr(folio_bands, n) for n in folio_bands.__all__)
    assert all(hasattr(folio_text, n) for n in folio_text.__all__)


# ------------------------------------------------------------------ reading one folio


def test_a_folio_is_arabic_roman_e_number_or_supplement_page_and_nothing_else() -> None:
    assert parse_folio("4969") is not None and parse_folio("4969").render() == "4969"  # type: ignore[union-attr]
    assert parse_folio("xiv").render() == "xiv"  # type: ignore[union-attr]
    assert parse_folio("XIV").render() == "XIV"  # type: ignore[union-attr]
    assert parse_folio("e1234").render() == "e1234"  # type: ignore[union-attr]
    assert parse_folio("S12").render() == "S12"  # type: ignore[union-attr]
    for noise in ("012011", "12.5", "(14)", "3.", "l", "Xiv", "2020.", "lx", "123456"):
        assert parse_folio(noise) is None, noise


def test_page_n_of_m_and_n_slash_m_give_n() -> None:
    assert {f.render() for f in line_folios("Légaré et al. Trials (2015) 16:50   Page 2 of 8")} == {"2"}
    assert "1" in {f.render() for f in line_folios("PLOS ONE | DOI:10.1371/journal.pone.0115884  1 / 14")}
    assert {f.render() for f in line_folios("Webb et al. (2017), PeerJ Comput. Sci. 8/16")} == {"8"}
    assert {f.render() for f in line_folios("January 2015 | Volume 5 | Article 1582 | 7")} == {"7"}


def test_printed_range_reads_the_forms_journals_print_on_page_one() -> None:
    assert printed_range("Proceedings of the 58th Annual Meeting, pages 4969–4983") == ("4969", "4983")
    assert printed_range("Trans. Graph. 26:1, 147–156") == ("147", "156")
    assert printed_range("Softw: Pract Exper. 2023;53:790–810.") == ("790", "810")
    assert printed_range("Future Internet 2014, 6, 61-75; doi:10.3390/fi6010061") == ("61", "75")
    assert printed_range("Neural Comput. pp. 4969-83") == ("4969", "4983")
    assert printed_range("Received: 19 July 2022 | Revised 1990–2020") is None


# ------------------------------------------------------------------ sequences


def test_a_year_and_a_figure_number_among_folios_do_not_break_the_sequence() -> None:
    pages = [foot("Proceedings, pages 4969–4983", "4969"), foot("4970", "2020"),
             foot("4971"), foot("Figure", "7", "4972"), foot("4973")]
    assert labels(pages) == ["4969", "4970", "4971", "4972", "4973"]
    assert set(statuses(pages)) == {"confirmed"}


def test_roman_front_matter_then_arabic_each_read_as_its_own_sequence() -> None:
    pages = [foot(), foot("i"), foot("ii"), foot("iii"), foot("1"), foot("2"), foot("3")]
    assert labels(pages) == [None, "i", "ii", "iii", "1", "2", "3"]


def test_two_roman_pages_are_confirmed_only_when_the_page_labels_agree() -> None:
    pages = [foot(), foot(), foot("i"), foot("ii"), foot("1"), foot("2"), foot("3")]
    assert labels(pages) == [None, None, None, None, "1", "2", "3"]
    with_labels = labels(pages, page_labels=["T-1", "T-2", "i", "ii", "1", "2", "3"])
    assert with_labels == [None, None, "i", "ii", "1", "2", "3"]


def test_e_numbers_and_supplement_pages_form_sequences() -> None:
    assert labels([foot("e1234"), foot("e1235"), foot("e1236")]) == ["e1234", "e1235", "e1236"]
    assert labels([foot("S1"), foot("S2"), foot("S3"), foot("S4")]) == ["S1", "S2", "S3", "S4"]


def test_a_page_printing_none_inside_a_sequence_is_inferred() -> None:
    pages = [foot("11"), foot("12"), foot(), foot("14"), foot("15"), foot("16")]
    out = decide_labels(pages)
    assert out[2] == PageLabel("13", "inferred", "folio")
    assert out[1].status == "confirmed"


def test_a_short_sequence_must_sit_on_consecutive_pages_in_one_slot() -> None:
    # Three numbers that count up across a gap, or from three places on the page, are
    # as likely chance (table values, section numbers) as folios.
    assert labels([foot("11"), foot("12"), foot(), foot("14")]) == [None] * 4
    scattered = [[BandLine("11", "top", 0.45, 0.02, 0.55, 0.04)],
                 [BandLine("12", "bottom", 0.45, 0.95, 0.55, 0.97)],
                 [BandLine("13", "top", 0.9, 0.02, 0.95, 0.04)]]
    assert labels(scattered) == [None] * 3
    aligned = [[BandLine(str(n), "bottom", 0.45, 0.95, 0.55, 0.97)] for n in (11, 12, 13)]
    assert labels(aligned) == ["11", "12", "13"]


def test_first_page_is_inferred_when_the_sequence_starts_the_article_there() -> None:
    pages = [foot(), foot("2"), foot("3"), foot("4")]
    assert decide_labels(pages)[0] == PageLabel("1", "inferred", "folio")


def test_first_page_of_an_excerpt_is_not_inferred_backwards() -> None:
    # Article pages 1, 9, 10, 11 in one PDF: the run would make page one "8".
    pages = [foot(), foot("Page 9 of 11"), foot("Page 10 of 11"), foot("Page 11 of 11")]
    assert labels(pages) == [None, "9", "10", "11"]


def test_a_first_page_before_a_volume_sequence_needs_the_printed_range() -> None:
    pages = [foot(), *(foot(str(n)) for n in range(62, 76))]
    assert labels(pages)[0] is None
    out = decide_labels(pages, Evidence(first_page_range=("61", "75")))
    assert out[0] == PageLabel("61", "inferred", "printed-range")
    assert decide_labels(pages, Evidence(record_first_page="61"))[0].label == "61"
    assert decide_labels(pages, Evidence(record_first_page="60"))[0].label is None


def test_page_labels_that_contradict_printed_folios_are_distrusted() -> None:
    pages = [foot(), *(foot(str(n)) for n in range(62, 66))]
    wrong = [str(i) for i in range(1, 6)]
    assert labels(pages, page_labels=wrong) == [None, "62", "63", "64", "65"]


def test_two_printed_folios_are_not_enough_without_a_second_source() -> None:
    pages = [foot("147"), foot("148")]
    assert labels(pages) == [None, None]
    assert labels(pages, record_first_page="147") == ["147", "148"]
    assert labels(pages, record_first_page="1") == [None, None]


def test_pages_without_folios_are_cited_as_pdf_pages() -> None:
    pages = [foot("PLOS ONE | DOI:10.1371/journal.pone.0115884"), foot("Research Article")]
    out = decide_labels(pages)
    assert all(lab == PageLabel(None, "pdf", "pdf") for lab in out)


def test_page_labels_alone_are_one_source_and_agreeing_with_the_record_confirm() -> None:
    pages: list[list[BandLine]] = [[], [], []]
    assert labels(pages, page_labels=["147", "148", "149"]) == [None, None, None]
    out = decide_labels(pages, Evidence(page_labels=["147", "148", "149"], record_first_page="147"))
    assert [lab.label for lab in out] == ["147", "148", "149"]
    assert {lab.source for lab in out} == {"page-labels"}


def test_printed_range_and_record_agreeing_confirm_a_document_without_folios() -> None:
    pages: list[list[BandLine]] = [[], [], []]
    ev = Evidence(first_page_range=("147", "149"), record_first_page="147")
    assert [lab.label for lab in decide_labels(pages, ev)] == ["147", "148", "149"]
    short = Evidence(first_page_range=("147", "156"), record_first_page="147")
    assert [lab.label for lab in decide_labels(pages, short)] == [None, None, None]


def test_a_column_of_line_numbers_in_the_margin_makes_no_sequence() -> None:
    margin = [BandLine(str(k), "left") for k in range(1, 40)]
    assert labels([margin] * 6) == [None] * 6
    numbered_foot = [foot(*(str(k) for k in range(30, 45)))] * 6
    assert labels(numbered_foot) == [None] * 6


def test_page_label_strings_follow_the_pdf_label_ranges() -> None:
    rules = [{"startpage": 0, "prefix": "T-", "style": "D", "firstpagenum": 1},
             {"startpage": 2, "prefix": "", "style": "r", "firstpagenum": 1},
             {"startpage": 4, "prefix": "", "style": "D", "firstpagenum": 1},
             {"startpage": 6, "prefix": "A-", "style": "", "firstpagenum": 1}]
    assert labels_from_rules(rules, 8) == ["T-1", "T-2", "i", "ii", "1", "2", "A-", "A-"]
    assert labels_from_rules([{"startpage": 1, "style": "A", "firstpagenum": 27}], 3) == ["", "AA", "BB"]


# ------------------------------------------------------------------ the reader's geometry


def test_a_running_head_merged_into_a_body_block_is_still_read_as_head() -> None:
    block = (50.0, 46.0, 549.0, 586.0, "Future Internet 2014, 6 \n73 \n \n" + "Body line\n" * 30, 0, 0)
    lines = band_lines(block_lines([block]), 595.0, 842.0)
    assert [ln.text for ln in lines if ln.band == "top"][:2] == ["Future Internet 2014, 6", "73"]


# ------------------------------------------------------------------ properties


@st.composite
def printed_document(draw: st.DrawFn) -> tuple[list[list[BandLine]], list[str]]:
    """A document of 1..40 pages numbered from a random first page, its folio in one place
    (head or foot; centred, outer edges or right), where some pages print none and every
    page carries up to three random numbers anywhere in its bands (years, table values,
    references), some of them small, some in lines whose words' places are unknown."""
    n = draw(st.integers(1, 40))
    first = draw(st.integers(1, 5000))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    drop = draw(st.floats(0.0, 0.6))
    band = draw(st.sampled_from(["top", "bottom"]))
    style = draw(st.sampled_from(["centre", "outer", "right"]))
    truth = [str(first + i) for i in range(n)]
    pages: list[list[BandLine]] = []
    for i in range(n):
        lines = []
        for _ in range(rng.randint(0, 3)):
            x = rng.random() * 0.9
            value = rng.randint(1, rng.choice([50, 500, 9999]))
            lines.append(BandLine(str(value), rng.choice(["top", "bottom"]), x, 0.0, x + 0.05,
                                  0.02, rng.random() > 0.2))
        if rng.random() >= drop:
            x = 0.48 if style == "centre" else (0.9 if style == "right" or i % 2 else 0.05)
            lines.insert(rng.randint(0, len(lines)),
                         BandLine(truth[i], band, x, 0.0, x + 0.04, 0.02, rng.random() > 0.2))
        pages.append(lines)
    return pages, truth


def _wrong(out: Sequence[PageLabel], truth: Sequence[str]) -> list[tuple[int, PageLabel]]:
    return [(i, lab) for i, lab in enumerate(out) if lab.label is not None and lab.label != truth[i]]


@settings(max_examples=300, deadline=None)
@given(printed_document())
def test_random_noise_among_a_folio_sequence_never_yields_a_wrong_label(
        doc: tuple[list[list[BandLine]], list[str]]) -> None:
    pages, truth = doc
    assert _wrong(decide_labels(pages), truth) == []


@settings(max_examples=300, deadline=None)
@given(printed_document(), st.randoms(use_true_random=False))
def test_removing_folios_never_creates_a_wrong_label(
        doc: tuple[list[list[BandLine]], list[str]], rnd: random.Random) -> None:
    pages, truth = doc
    fewer = [[ln for ln in lines if not (ln.text == truth[i] and rnd.random() < 0.5)]
             for i, lines in enumerate(pages)]
    assert _wrong(decide_labels(fewer), truth) == []


@settings(max_examples=200, deadline=None)
@given(printed_document(), st.integers(-3, 3))
def test_page_labels_off_by_an_offset_never_yield_a_wrong_label(
        doc: tuple[list[list[BandLine]], list[str]], shift: int) -> None:
    pages, truth = doc
    wrong_labels = [str(int(t) + shift) for t in truth]
    out = decide_labels(pages, Evidence(page_labels=wrong_labels))
    assert _wrong(out, truth) == []


# ------------------------------------------------------------------ the truth set


def _truth() -> dict[str, dict[str, object]]:
    data: dict[str, dict[str, object]] = json.loads(TRUTH.read_text(encoding="utf-8"))
    return data


def _labels_from_dicts(path: Path) -> list[PageLabel]:
    """Labels the way a parser that already holds each page's dict gets them."""
    with pymupdf.open(path) as doc:
        pages = [band_lines(dict_lines(page.get_text("dict")), page.rect.width, page.rect.height)
                 for page in doc]
        evidence = document_evidence(doc, pages[0])
    return labels_from(pages, evidence)


def _score_all(entries: dict[str, tuple[Path, dict[str, object]]], from_dicts: bool = False,
               ) -> None:
    """0 wrong labels, and ≥ 99 % of the pages that print a folio labelled right."""
    bench = _bench()
    scores = []
    for name, (path, entry) in entries.items():
        out = _labels_from_dicts(path) if from_dicts else labels_for(path)
        scores.append(bench.score_paper(name, entry["pages"], entry.get("unprinted", {}),
                                        [(lab.label, lab.status) for lab in out]))
    wrong = [f"{s.name} {f}" for s in scores for f in s.failures if "cited as PDF page" not in f]
    assert wrong == []
    printed = sum(s.printed for s in scores)
    right = sum(s.printed_right for s in scores)
    assert printed and right / printed >= 0.99, [f for s in scores for f in s.failures]


def test_truth_set_has_at_least_25_pdfs_read_from_their_pages() -> None:
    truth = _truth()
    assert len(truth) >= 25
    for rel, entry in truth.items():
        assert entry["kind"] and isinstance(entry["pages"], list), rel


@pytest.mark.parametrize("from_dicts", [False, True], ids=["labels_for", "parser-dicts"])
def test_the_pdfs_shipped_in_eval_pages_get_no_wrong_label(from_dicts: bool) -> None:
    entries = {rel: (REPO / rel, entry) for rel, entry in _truth().items()
               if not rel.startswith(SHARED_PREFIX)}
    assert entries
    _score_all(entries, from_dicts)


@pytest.mark.parametrize("from_dicts", [False, True], ids=["labels_for", "parser-dicts"])
def test_the_shared_fixture_pdfs_get_no_wrong_label(fixtures_dir: Path, from_dicts: bool) -> None:
    entries = {rel: (fixtures_dir / rel.removeprefix(SHARED_PREFIX), entry)
               for rel, entry in _truth().items() if rel.startswith(SHARED_PREFIX)}
    missing = [str(p) for p, _ in entries.values() if not p.is_file()]
    if missing:
        pytest.fail(f"truth-set PDFs missing from the shared fixtures: {missing}")
    _score_all(entries, from_dicts)
