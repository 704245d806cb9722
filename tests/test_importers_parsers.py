"""Properties of the pure parsers the importers share: Zotero's dates, Extra, and RIS."""

from __future__ import annotations

import string
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from vaultd.importers.dates import multipart, parse_text, ris_date, zotero_date
from vaultd.importers.extra import CSL_TEXT_VARS, parse_extra
from vaultd.importers.names import Creator, csl_name
from vaultd.importers.ris import read_ris_text
from vaultd.importers.zotero_schema import zotero_schema

FAST = settings(max_examples=80, deadline=None)
_SEASONS = ("spring", "summer", "autumn", "fall", "winter")


@st.composite
def date_parts(draw: st.DrawFn) -> list[int]:
    year = draw(st.integers(1, 9999))
    month = draw(st.integers(0, 12))
    if month == 0:
        return [year]
    day = draw(st.integers(0, 28))
    return [year, month] + ([day] if day else [])


typed = st.text(alphabet=string.ascii_letters + " ,.", max_size=20).filter(
    lambda t: not any(s in t.lower() for s in _SEASONS))


@FAST
@given(date_parts(), typed)
def test_a_multipart_date_gives_the_parts_zotero_parsed(parts: list[int], text: str) -> None:
    assert zotero_date(multipart(parts, text)) == {"date-parts": [parts]}


@FAST
@given(date_parts())
def test_iso_and_ris_dates_give_their_parts(parts: list[int]) -> None:
    iso = "-".join(f"{p:04d}" if i == 0 else f"{p:02d}" for i, p in enumerate(parts))
    assert parse_text(iso) == parts
    ris = "/".join(str(p) for p in parts) + "/" * (3 - len(parts)) + "/"
    assert ris_date(f"{parts[0]:04d}" + ris[len(str(parts[0])):]) == {"date-parts": [parts]}


@FAST
@given(st.text(max_size=40))
def test_any_date_text_is_a_date_a_literal_or_nothing(text: str) -> None:
    for date in (zotero_date(text), ris_date(text), zotero_date(text, access=True)):
        assert date is None or "date-parts" in date or set(date) == {"literal"}
        for part in (date or {}).get("date-parts", []):
            assert part and all(isinstance(p, int) for p in part)


def test_dates_as_zotero_stores_and_users_type_them() -> None:
    assert zotero_date("2017-06-00 June 2017") == {"date-parts": [[2017, 6]]}
    assert zotero_date("0000-00-00 n.d.") == {"literal": "n.d."}
    assert zotero_date('2001-00-00 "circa 2001"') == {"literal": "circa 2001"}
    assert zotero_date("2019-00-00 Spring 2019") == {"date-parts": [[2019]], "season": 1}
    assert zotero_date("2015-00-00 2015/2016") == {"date-parts": [[2015], [2016]]}
    assert zotero_date("2019-01-02 12:13:14", access=True) == {"date-parts": [[2019, 1, 2]]}
    assert zotero_date("2011-05-25~/2012-06-26") == {"date-parts": [[2011, 5, 25], [2012, 6, 26]]}
    assert zotero_date("2017-23") == {"date-parts": [[2017]], "season": 3}
    assert parse_text("June 12, 2017") == [2017, 6, 12]
    assert parse_text("12 Sept. 2017") == [2017, 9, 12]
    assert parse_text("10.5.2001") == [2001, 5, 10]
    assert parse_text("03/04/2017") == [2017]
    assert ris_date("1990/2/27") == {"date-parts": [[1990, 2, 27]]}
    assert ris_date("2019/00/00/Spring") == {"date-parts": [[2019]]}


keys = st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")),
               min_size=1, max_size=30).map(str.strip).filter(bool)
free = st.text(alphabet=string.ascii_letters + string.digits + " .,;!?()", max_size=30)


@FAST
@given(keys, st.lists(free, max_size=4))
def test_a_citation_key_in_extra_is_read_exactly_and_free_lines_kept_in_order(
        key: str, lines: list[str]) -> None:
    extra = "\n".join([*lines[:2], f"Citation Key: {key}", *lines[2:]])
    fields = parse_extra(extra, zotero_schema())
    assert fields.citation_key == key
    assert fields.rest == "\n".join(lines).strip("\n")


@FAST
@given(st.sampled_from(sorted(CSL_TEXT_VARS - {"note"})),
       st.text(alphabet=string.ascii_letters + string.digits + " .:-/", min_size=1,
               max_size=30).map(str.strip).filter(bool))
def test_a_csl_variable_in_extra_is_read_under_its_name(variable: str, value: str) -> None:
    fields = parse_extra(f"{variable}: {value}", zotero_schema())
    assert fields.csl == {variable: value} or (variable == "citation-key"
                                                and fields.citation_key == value)


@FAST
@given(st.text(max_size=200))
def test_any_extra_text_parses(text: str) -> None:
    fields = parse_extra(text, zotero_schema())
    assert isinstance(fields.rest, str)


def test_extra_reads_zotero_fields_names_types_and_aliases() -> None:
    fields = parse_extra("Original Date: 1886\nPMID: 12\neditor: Smith || John\n"
                         "director: ACME\ntype: article\ntex.ids: a1, b2\n"
                         "Citation Key Alias: c3\n{:issued: 2001}\nSee: also\n"
                         "bibtex: doe:2001", zotero_schema())
    assert fields.csl == {"original-date": "1886", "PMID": "12", "issued": "2001"}
    assert fields.names == [("editor", "Smith || John"), ("director", "ACME")]
    assert fields.item_type == "article" and fields.aliases == ("a1", "b2", "c3")
    assert fields.citation_key == "doe:2001" and fields.rest == "See: also"


def test_creators_are_cited_with_citeproc_particles() -> None:
    assert csl_name(Creator("author", "van der Maaten", "Laurens")) == {
        "family": "Maaten", "given": "Laurens", "non-dropping-particle": "van der"}
    assert csl_name(Creator("author", "Beethoven", "Ludwig van")) == {
        "family": "Beethoven", "given": "Ludwig", "dropping-particle": "van"}
    assert csl_name(Creator("author", "King", "Martin Luther, Jr.")) == {
        "family": "King", "given": "Martin Luther", "suffix": "Jr."}
    assert csl_name(Creator("author", '"van Gogh"', "Vincent")) == {
        "family": "van Gogh", "given": "Vincent"}
    assert csl_name(Creator("author", "De Marchis", "Cristiano")) == {
        "family": "De Marchis", "given": "Cristiano"}
    assert csl_name(Creator("author", "World Health Organization", None, True)) == {
        "literal": "World Health Organization"}


ris_text = st.text(alphabet=string.ascii_letters + string.digits + " .,:'-", min_size=1,
                   max_size=40).map(str.strip).filter(lambda t: bool(t) and "," not in t[:1])
ris_name = st.tuples(st.text(alphabet=string.ascii_letters, min_size=1, max_size=12),
                     st.text(alphabet=string.ascii_letters + ". ", min_size=1, max_size=12)
                     .map(str.strip).filter(bool))


@st.composite
def ris_records(draw: st.DrawFn) -> dict[str, object]:
    return {"ty": draw(st.sampled_from(["JOUR", "BOOK", "CHAP", "CONF", "RPRT", "THES", "ELEC"])),
            "title": draw(ris_text), "authors": draw(st.lists(ris_name, min_size=1, max_size=4)),
            "year": draw(st.integers(1000, 2100))}


@FAST
@given(st.lists(ris_records(), min_size=1, max_size=5))
def test_written_ris_records_read_back(records: list[dict[str, object]]) -> None:
    lines = []
    for r in records:
        lines.append(f"TY  - {r['ty']}")
        lines += [f"AU  - {last}, {first}" for last, first in r["authors"]]  # type: ignore[attr-defined]
        lines += [f"TI  - {r['title']}", f"PY  - {r['year']}", "ER  - ", ""]
    result = read_ris_text("\n".join(lines), Path("gen.ris"))
    assert result.problems == []
    assert [i.work.title for i in result.items] == [r["title"] for r in records]
    assert [i.work.year for i in result.items] == [r["year"] for r in records]
    for item, r in zip(result.items, records, strict=True):
        names = [(a.family_full, a.given, a.dropping_particle) for a in
                 (*item.work.authors, *item.work.editors)]
        assert len(names) == len(r["authors"])  # type: ignore[arg-type]


@FAST
@given(st.text(max_size=300))
def test_any_text_reads_as_ris_without_raising(text: str) -> None:
    result = read_ris_text(text, Path("any.ris"))
    assert all(str(p).startswith("any.ris: ") for p in result.problems)
