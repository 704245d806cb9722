"""biblatex's data model in vaultd's .bib reading: lists, inheritance (xdata, crossref
chains), periodical issues, multi-volume containers, report genres, patents.

The entries are biblatex's own examples (eval/bib/biblatex-examples.bib and
biblatex-gost-examples.bib, see eval/bib/SOURCES.md) or minimal ones; the expected values
were read from biblatex's manual (appendix B, "Default crossref setup"; section 2.3 on
list fields) and checked against what pandoc's biblatex reader gives for the same entry.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vaultd.capture.bib import parse_bib, read_bib
from vaultd.capture.bib_inherit import inherit
from vaultd.formats import CitationRenderer
from vaultd.formats.csl import citable_item, ordinal
from vaultd.models import Work

EVAL_BIB = Path(__file__).resolve().parents[1] / "eval" / "bib"


def _one(text: str) -> Work:
    (entry,) = [e for e in parse_bib(text) if e.work.title]
    return entry.work


def _from(file: str, key: str) -> Work:
    return next(e.work for e in read_bib(EVAL_BIB / file) if e.key == key)


def test_a_biblatex_list_of_places_is_split_on_and() -> None:
    work = _from("biblatex-examples.bib", "gerhardt")  # location = {Durham and London}
    assert work.publisher_place == "Durham; London"
    nietzsche = _from("biblatex-examples.bib", "nietzsche:ksa")
    assert nietzsche.publisher == "Deutscher Taschenbuch-Verlag; Walter de Gruyter"


def test_a_bibtex_publisher_is_one_name() -> None:
    # classic BibTeX (no biblatex field): publisher is plain text, not a list
    work = _one("@article{k, title = {T}, journal = {J}, year = 2020, "
                "publisher = {Springer Science and Business Media LLC}}")
    assert work.publisher == "Springer Science and Business Media LLC"


def test_and_inside_braces_is_part_of_one_item() -> None:
    work = _one("@book{k, title = {T}, date = {2020}, publisher = {{Smith and Sons} and Wiley}}")
    assert work.publisher == "Smith and Sons; Wiley"


def test_xdata_lends_its_fields_and_is_no_work() -> None:
    entries = {e.key: e.work for e in read_bib(EVAL_BIB / "biblatex-gost-examples.bib")}
    assert "if-common" not in entries
    assert (entries["if1"].publisher, entries["if1"].publisher_place) == ("ИФРАН", "М.")
    # through crossref to if5, which has it from its xdata
    assert entries["ajdukiewicz_pti"].publisher == "ИФРАН"
    assert entries["ajdukiewicz_pti"].container_title == "История философии. № 5"


def test_a_chapter_inherits_through_its_volume_from_the_multivolume_work() -> None:
    # wittgenstein_fi (@inbook) → wittgenstein_fr1 (@book, no title) → wittgenstein_fr
    # (@mvbook "Философские работы"): the mvbook's title is the chapter's maintitle, its
    # container; publisher and series come down the chain.
    work = _from("biblatex-gost-examples.bib", "wittgenstein_fi")
    assert work.container_title == "Философские работы"
    assert (work.publisher, work.collection_title) == (
        "Гнозис", "Феноменология, Герменевтика, Философия языка")
    assert work.volume == "I"  # the volume's part, as biblatex prints it


def test_inheritance_renames_titles_by_entry_type() -> None:
    fields = {"b": {"title": "Book", "subtitle": "Sub", "author": "A", "publisher": "P"},
              "c": {"title": "Chapter", "crossref": "b"},
              "j": {"title": "Journal"},
              "a": {"title": "Article", "crossref": "j"}}
    inherit({"b": "book", "c": "inbook", "j": "periodical", "a": "article"}, fields)
    assert fields["c"] == {"title": "Chapter", "crossref": "b", "booktitle": "Book",
                           "booksubtitle": "Sub", "author": "A", "bookauthor": "A",
                           "publisher": "P"}
    assert fields["a"]["journaltitle"] == "Journal"
    assert "subtitle" not in fields["a"]


def test_a_crossref_cycle_ends() -> None:
    fields = {"a": {"title": "A", "crossref": "b", "year": "1"},
              "b": {"title": "B", "crossref": "a", "publisher": "P"}}
    inherit({"a": "incollection", "b": "incollection"}, fields)
    assert fields["a"]["publisher"] == "P" or fields["b"]["year"] == "1"


def test_a_periodical_issue_is_cited_as_its_issue_in_the_journal() -> None:
    work = _from("biblatex-examples.bib", "jcg")
    assert (work.type, work.title, work.container_title, work.volume, work.issue) == (
        "article-journal", "Semantic 3D media and content", "Computers and Graphics", "35", "4")


def test_a_book_s_booktitle_is_not_its_container() -> None:
    work = _one("@collection{k, editor = {Westfahl, Gary}, title = {Space and Beyond}, "
                "booktitle = {Space and Beyond}, date = {2000}, publisher = {Greenwood}}")
    assert work.container_title is None
    apa = CitationRenderer().render({"k": work})["k"]["apa"].text
    assert apa == "Westfahl, G. (Ed.). (2000). Space and beyond. Greenwood."


@pytest.mark.parametrize(("kind", "genre"), [("techreport", "technical report"),
                                             ("resreport", "research report")])
def test_report_type_keys_read_as_biblatex_prints_them(kind: str, genre: str) -> None:
    work = _one(f"@report{{k, title = {{T}}, type = {{{kind}}}, institution = {{I}}, "
                "date = {1999}}")
    assert work.genre == genre
    assert "[Technical report]" in CitationRenderer().render({"k": work})["k"]["apa"].text \
        or genre != "technical report"


def test_a_manual_is_cited_as_a_book_with_its_edition() -> None:
    work = _one("@manual{k, title = {Dart Programming Language Specification}, "
                "organization = {Google Inc.}, edition = {7th}, year = 2023}")
    assert work.type == "book"
    ieee = CitationRenderer().render({"k": work})["k"]["ieee"].text
    assert "7th ed." in ieee


def test_a_patent_location_of_country_keys_is_its_jurisdiction() -> None:
    work = _from("biblatex-examples.bib", "almendro")
    assert work.publisher_place is None
    assert work.csl_extra["jurisdiction"] == "France; United Kingdom; Germany"


def test_a_title_addon_follows_a_full_stop() -> None:
    work = _one('@legislation{k, title = "Sarbanes-{Oxley} Act", titleaddon = "of 2002", '
                'year = "2002"}')
    # title and addon joined with a full stop (biblatex's \newunitpunct), not a colon
    assert work.title == "Sarbanes-Oxley act. Of 2002"  # stored in sentence case


def test_a_journal_series_number_is_cited_as_an_ordinal_series() -> None:
    work = _from("biblatex-examples.bib", "reese")  # series = {3}
    assert work.collection_title == "3"  # stored as written
    assert citable_item(work, "k")["collection-title"] == "3rd series"
    mla = CitationRenderer().render({"k": work})["k"]["mla"].text
    assert "William and Mary Quarterly, 3rd series, vol. 15" in mla


@given(st.integers(min_value=1, max_value=10_000))
def test_ordinals_follow_english_rules(n: int) -> None:
    text = ordinal(n)
    assert text.startswith(str(n))
    expected = "th" if n % 100 in range(10, 21) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    assert text.endswith(expected)


def test_an_acronym_glued_to_cjk_text_keeps_its_capitals() -> None:
    work = _one("@report{k, author = {冯西桥}, title = {核反应堆压力容器的{LBB}分析}, "
                "institution = {清华大学核能技术设计研究院}, year = {1997}}")
    per_style = CitationRenderer().render({"k": work})["k"]
    for style in ("apa", "mla", "chicago", "ieee"):
        assert "核反应堆压力容器的LBB分析" in per_style[style].text, style
