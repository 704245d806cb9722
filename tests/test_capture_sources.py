"""Source parsers on real recorded responses, and the pure reconciler."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vaultd.capture import arxiv, crossref, openalex, unpaywall
from vaultd.capture.bib import parse_bib
from vaultd.capture.names import make_work
from vaultd.capture.pdfmeta import find_ids, read_pdf_meta, split_authors
from vaultd.capture.reconcile import normalise_title, reconcile
from vaultd.models import Author


def _json(fx: Path, rel: str) -> dict:  # type: ignore[type-arg]
    return json.loads((fx / rel).read_text())  # type: ignore[no-any-return]


def test_arxiv_parser_reads_new_and_old_style_entries(fixtures_dir: Path) -> None:
    w = arxiv.parse_feed((fixtures_dir / "arxiv/1605.08386.atom.xml").read_text(), "1605.08386")
    assert w is not None and w.title == "Heat-bath random walks with Markov bases"
    assert [a.family for a in w.authors] == ["Stanley", "Windisch"]
    assert (w.year, w.arxiv_version, w.arxiv_primary_class) == (2016, 1, "math.CO")
    old = arxiv.parse_feed((fixtures_dir / "arxiv/astro-ph_0601001.atom.xml").read_text(),
                           "astro-ph/0601001")
    assert old is not None and old.arxiv_id == "astro-ph/0601001" and old.journal_ref
    assert old.title.startswith("Frequency of Hot Jupiters")  # type: ignore[union-attr]
    many = arxiv.parse_feed((fixtures_dir / "arxiv/1707.08567.atom.xml").read_text(), "1707.08567")
    assert many is not None and len(many.authors) == 34  # counted by hand: 34 <author> elements


def test_arxiv_error_feed_and_empty_feed_mean_not_found(fixtures_dir: Path) -> None:
    assert arxiv.parse_feed((fixtures_dir / "arxiv/error_incorrect_id_abc.atom.xml").read_text(),
                            "abc") is None
    assert arxiv.parse_feed((fixtures_dir / "arxiv/empty_0000.0000.atom.xml").read_text(),
                            "0000.0000") is None
    multi = (fixtures_dir / "arxiv/multi_0808.05394_1707.08567.atom.xml").read_text()
    assert arxiv.parse_feed(multi, "0808.05394") is None
    assert arxiv.parse_feed(multi, "1707.08567") is not None


def test_crossref_parser_handles_null_dates_missing_authors_and_preprint_relations(
        fixtures_dir: Path) -> None:
    null_date = crossref.parse_work(_json(fixtures_dir, "crossref/works/10.1109_icdcsw.2003.1203662.json")["message"])
    assert null_date.issued is None and null_date.title
    no_author = crossref.parse_work(_json(fixtures_dir, "crossref/works/10.1007_s40278-023-41815-2.json")["message"])
    assert no_author.authors == []
    colon = crossref.parse_work(_json(fixtures_dir, "crossref/works/10.1023_a_1007154515475.json")["message"])
    assert colon.doi == "10.1023/a:1007154515475" and colon.issued == [2001, 2]
    pre = crossref.parse_work(_json(fixtures_dir, "crossref/works/10.1101_2024.04.01.587366.json")["message"])
    assert pre.doi_preprint == "10.1101/2024.04.01.587366"
    assert pre.doi_published == "10.1016/j.xgen.2025.100814"


def test_openalex_and_unpaywall_parsers_find_authors_and_oa_pdfs(fixtures_dir: Path) -> None:
    oa = openalex.parse_work(_json(fixtures_dir, "openalex/works/doi_10.1073_pnas.1414271111.json"))
    assert oa.doi == "10.1073/pnas.1414271111" and oa.authors[0].family == "Makris"
    assert oa.abstract and oa.year == 2014
    up = unpaywall.parse_work(_json(fixtures_dir, "unpaywall/v2/10.1073_pnas.1414271111.json"))
    assert up.pdf_url == "https://www.pnas.org/content/pnas/111/45/E4832.full.pdf"
    assert up.authors[0].family == "Makris"
    closed = unpaywall.parse_work(_json(fixtures_dir, "unpaywall/v2/10.1007_s40278-023-41815-2.json"))
    assert closed.pdf_url is None and closed.authors == []


def test_titles_normalise_case_punctuation_unicode_and_latex() -> None:
    assert normalise_title(r"Learning $\alpha$-Divergences with {BERT}") == \
        normalise_title("Learning α-divergences with BERT")
    assert normalise_title("Café: Über—alles!") == "cafe uber alles"


def test_preprint_and_published_year_difference_is_explained_not_warned(
        fixtures_dir: Path) -> None:
    feed = (fixtures_dir / "arxiv/search_testing_start0_max10.atom.xml").read_text()
    pre = arxiv.parse_feed(feed, "2405.13786")
    assert pre is not None and pre.year == 2024
    assert pre.doi_published == "10.1109/icstw58534.2023.00023"
    published = make_work(title=pre.title, authors=list(pre.authors), issued=[2023],
                          doi="10.1109/icstw58534.2023.00023", sources=["crossref"])
    out = reconcile([pre, published])
    assert out.work.reconciled is True
    assert not [w for w in out.work.warnings if w.startswith("year")]
    assert out.notes == ["year: arxiv 2024 is the preprint, crossref 2023 the published "
                         "version (expected difference)"]
    assert out.work.doi_preprint == "10.48550/arxiv.2405.13786"
    assert out.work.doi_published == "10.1109/icstw58534.2023.00023"


def test_unrelated_year_disagreement_is_a_specific_warning() -> None:
    a = make_work(title="Attention is all you need", authors=[Author(family="Vaswani")],
                  issued=[2017], arxiv_id="1706.03762", sources=["arxiv"])
    b = make_work(title="Attention Is All You Need", authors=[Author(family="Vaswani")],
                  issued=[2018], doi="10.5555/3295222", sources=["crossref"])
    out = reconcile([a, b])
    assert "year: crossref 2018 vs arxiv 2017" in out.work.warnings
    assert out.work.reconciled is False


def test_one_source_alone_is_never_reconciled() -> None:
    only = make_work(title="T", authors=[{"family": "X"}], issued=[2000], sources=["crossref"])
    out = reconcile([only])
    assert out.work.reconciled is False
    assert any(w.startswith("unreconciled: only crossref answered") for w in out.work.warnings)


def test_printed_ids_are_found_in_a_real_pdf(fixtures_dir: Path) -> None:
    meta = read_pdf_meta(fixtures_dir / "pdfs/two_column/jner_2016_demarchis_0046d83a.pdf")
    assert meta.dois[0] == "10.1186/s12984-016-0129-6"
    assert meta.first_page_title.startswith("Multi-contact functional electrical")  # type: ignore[union-attr]
    math = read_pdf_meta(fixtures_dir / "pdfs/math/arxiv_0908.0054_ultralight_bosonic_dm.pdf")
    assert math.arxiv_ids == ["0908.0054"]
    assert math.first_page_title == "Ultra light bosonic dark matter and CMB"
    assert find_ids("see doi:10.1023/A:1007154515475.") == (["10.1023/a:1007154515475"], [])


def test_bib_entries_keep_keys_and_ids(fixtures_dir: Path) -> None:
    text = (fixtures_dir / "crossref/transform/10.1007_s40278-023-41815-2.bib").read_text()
    text += "\n@misc{vaswani2017, title={Attention Is All You Need}, eprint={1706.03762v5}," \
            " archivePrefix={arXiv}, author={Vaswani, Ashish and Shazeer, Noam}, year={2017}}\n"
    entries = parse_bib(text)
    assert entries[0].doi == "10.1007/s40278-023-41815-2"
    assert (entries[1].key, entries[1].arxiv_id) == ("vaswani2017", "1706.03762")
    assert [a.family for a in entries[1].work.authors] == ["Vaswani", "Shazeer"]


def test_names_keep_capitalised_particles_in_the_family_name() -> None:
    from vaultd.capture.names import split_name

    assert split_name("Cristiano De Marchis").family == "De Marchis"
    lvdm = split_name("Laurens van der Maaten")
    assert (lvdm.family, lvdm.non_dropping_particle) == ("Maaten", "van der")
    assert split_name("Webb, Andrew E.").given == "Andrew E."


def test_openalex_record_of_an_arxiv_doi_becomes_an_arxiv_id(fixtures_dir: Path) -> None:
    result = _json(fixtures_dir, "openalex/search/title_search_paperqa.json")["results"][0]
    w = openalex.parse_work(result)
    assert (w.arxiv_id, w.doi, w.year) == ("2312.07559", None, 2023)


@pytest.mark.parametrize(("field", "names"), [
    ("Nuala E. Tully {et al.}", ["Nuala E. Tully"]),  # a real Author field (Hindawi 2010)
    ("A. Smith et al.", ["A. Smith"]),
    ("Ada Lovelace; Charles Babbage", ["Ada Lovelace", "Charles Babbage"]),
    ("Ada Lovelace and Charles Babbage", ["Ada Lovelace", "Charles Babbage"]),
    ("Ada Lovelace & Charles Babbage", ["Ada Lovelace", "Charles Babbage"]),
    ("Alan Etal", ["Alan Etal"]),
    ("", []),
])
def test_embedded_author_field_splits_into_names_without_et_al(
        field: str, names: list[str]) -> None:
    assert split_authors(field) == names



# --- CrossRef and OpenAlex records → CSL-shaped Works --------------------------------------
# Expected values were read off the recorded JSON by hand; only the fields a record carries
# are listed, and every other listed field must be absent.

def _crossref(fx: Path, name: str) -> dict:  # type: ignore[type-arg]
    data = _json(fx, f"crossref/{name}")["message"]
    return data["items"][0] if "items" in data else data  # type: ignore[no-any-return]


CROSSREF_WORKS: dict[str, dict[str, object]] = {
    "works/10.1007_978-3-0348-8720-5_13.json": dict(
        type="chapter",
        title="Differentiability with Respect to Initial Data for a Scalar Conservation Law",
        container_title="Hyperbolic Problems: Theory, Numerics, Applications",
        collection_title=None, page="113-118", publisher="Birkhäuser Basel",
        publisher_place="Basel", isbn="9783034897426", issn=None, issued=[1999],
        volume=None, number=None, event=None, language="en"),
    "works/10.1007_s40278-023-41815-2.json": dict(
        type="article-journal",
        # "Title: Subtitle" (the record's subtitle is part of the title)
        title="Convalescent-anti-sars-cov-2-plasma/immune-globulin: Fever and mild decrease "
              "in baseline oxygen saturation following off-label use: 3 case reports",
        container_title="Reactions Weekly", container_title_short="Reactions Weekly",
        volume="1962", issue="1", page="145",  # "145-145" is one page issn="1179-2051", issued=[2023, 6, 24],
        publisher="Springer Science and Business Media LLC", isbn=None, number=None),
    "works/10.1023_a_1007154515475.json": dict(
        type="article-journal", container_title="Molecular and Cellular Biochemistry",
        container_title_short="Mol Cell Biochem", volume="218", issue="1-2", page="1-11",
        issn="0300-8177", issued=[2001, 2]),
    "works/10.1038_s42256-024-00832-8.json": dict(
        type="article-journal", title="Augmenting large language models with chemistry tools",
        container_title="Nature Machine Intelligence", container_title_short="Nat Mach Intell",
        volume="6", issue="5", page="525-535", issn="2522-5839", issued=[2024, 5, 8]),
    "works/10.1063_1.4938384.json": dict(
        type="article-journal", container_title="Journal of Applied Physics", volume="118",
        issue="23", page=None, number="235306", issn="0021-8979", publisher="AIP Publishing",
        container_title_short=None),
    "works/10.1073_pnas.1414271111.json": dict(
        type="article-journal", container_title_short="Proc. Natl. Acad. Sci. U.S.A.",
        volume="111", issue="45", page=None, issn="0027-8424", issued=[2014, 10, 27]),
    "works/10.1101_2024.04.01.587366.json": dict(
        # a preprint: its server (CrossRef `institution`), not the server's owner
        type="article", genre="Preprint", container_title=None,
        publisher="bioRxiv", issued=[2024, 4, 1], volume=None),
    "works/10.1103_physrevb.89.140501.json": dict(
        type="article-journal", container_title="Physical Review B",
        container_title_short="Phys. Rev. B", volume="89", issue="14", number="140501",
        page=None, issn="1098-0121"),
    "works/10.1109_icdcsw.2003.1203662.json": dict(
        type="paper-conference",
        container_title="23rd International Conference on Distributed Computing Systems "
                        "Workshops, 2003. Proceedings.",
        # published in the proceedings: cited in them, not "presented at" the event
        event=None, event_place=None, page="877-882", publisher="IEEE",
        issued=None),
    "works/10.1136_esmoopen-2020-000776.json": dict(
        type="article-journal", container_title="ESMO Open", volume="5", issue="4",
        page="e000776", number="e000776", issued=[2020], issn="2059-7029"),
    "works/10.1145_3184558.3186235.json": dict(
        type="paper-conference", title="DL-Learner Structured Machine Learning on Semantic Web Data",
        container_title="Companion of the The Web Conference 2018 on The Web Conference 2018 "
                        "- WWW '18",
        event=None, event_place=None,
        publisher="ACM Press", publisher_place="New York, New York, USA",
        isbn="9781450356404", issued=[2018]),
    "works/10.1371_journal.pone.0033693.json": dict(
        type="article-journal", container_title="PLoS ONE", volume="7", issue="3",
        page="e33693", issn="1932-6203", issued=[2012, 3, 21],
        publisher="Public Library of Science (PLoS)"),
    "search/query_title_attention_is_all_you_need_rows1.json": dict(
        type="paper-conference", title="Self-Attention with Relative Position Representations",
        container_title="Proceedings of the 2018 Conference of the North American Chapter of "
                        "the Association for Computational Linguistics: Human Language "
                        "Technologies, Volume 2 (Short Papers)",
        event_place=None, publisher_place="Stroudsburg, PA, USA",
        publisher="Association for Computational Linguistics", issued=[2018]),
}


@pytest.mark.parametrize("name", sorted(CROSSREF_WORKS))
def test_every_recorded_crossref_work_parses_into_its_csl_type_and_fields(
        fixtures_dir: Path, name: str) -> None:
    w = crossref.parse_work(_crossref(fixtures_dir, name))
    assert {k: getattr(w, k) for k in CROSSREF_WORKS[name]} == CROSSREF_WORKS[name]
    assert w.title and "<" not in w.title and "\n" not in w.title
    assert w.sources == ["crossref"] and w.url == f"https://doi.org/{w.doi}"


def test_crossref_names_keep_orcids_editors_and_hyphenated_given_names(
        fixtures_dir: Path) -> None:
    chem = crossref.parse_work(_crossref(fixtures_dir, "works/10.1038_s42256-024-00832-8.json"))
    assert (chem.authors[0].given, chem.authors[0].family) == ("Andres", "M. Bran")
    assert chem.authors[2].orcid == "0000-0003-0310-0851"
    aps = crossref.parse_work(_crossref(fixtures_dir, "works/10.1103_physrevb.89.140501.json"))
    assert [(a.given, a.family) for a in aps.authors] == [
        ("C. M.", "Herdman"), ("P.-N.", "Roy"), ("R. G.", "Melko"), ("A.", "Del Maestro")]
    pone = crossref.parse_work(_crossref(fixtures_dir, "works/10.1371_journal.pone.0033693.json"))
    assert [(e.given, e.family) for e in pone.editors] == [("Cesario V.", "Borlongan")]
    esmo = crossref.parse_work(_crossref(fixtures_dir, "works/10.1136_esmoopen-2020-000776.json"))
    assert len(esmo.authors) == 13 and esmo.authors[0].orcid == "0000-0003-3863-9582"


def test_a_crossref_work_with_an_empty_title_keeps_its_original_title(fixtures_dir: Path) -> None:
    # A real Japanese article had `title: []` and its title only in `original-title`.
    message = _crossref(fixtures_dir, "works/10.1023_a_1007154515475.json")
    message["title"] = []
    message["original-title"] = ["西洋わさびペルオキシダーゼによるヨウ化物の酸化"]
    w = crossref.parse_work(message)
    assert w.title == "西洋わさびペルオキシダーゼによるヨウ化物の酸化"
    message["title"] = [""]
    assert crossref.parse_work(message).title == w.title


def test_crossref_organisations_stay_literal_and_no_name_is_invented(fixtures_dir: Path) -> None:
    message = _crossref(fixtures_dir, "works/10.1063_1.4938384.json")
    message["author"] += [
        {"name": "World Health Organization", "sequence": "additional", "affiliation": []},
        {"given": "Sukarno", "sequence": "additional", "affiliation": []},
        {"given": "Martin Luther", "family": "King", "suffix": "Jr.", "sequence": "additional",
         "affiliation": []},
        {"sequence": "additional", "affiliation": []},
    ]
    w = crossref.parse_work(message)
    org, mononym, suffixed = w.authors[2:]
    assert (org.literal, org.family, org.given) == ("World Health Organization", None, None)
    assert (mononym.given, mononym.family, mononym.literal) == ("Sukarno", None, None)
    assert (suffixed.family, suffixed.suffix) == ("King", "Jr.")
    assert len(w.authors) == 5  # the entry with no name at all is dropped
    assert "Anonymous" not in json.dumps(w.model_dump())


def test_title_markup_is_not_printed_as_tags_and_is_kept_as_rich_text(fixtures_dir: Path) -> None:
    message = _crossref(fixtures_dir, "works/10.1023_a_1007154515475.json")
    message["title"] = ["Growth of <i>Escherichia coli</i> under CO<sub>2</sub> &amp; "
                        "<jats:italic>in vivo</jats:italic>"]
    message["container-title"] = ["<i>Molecular</i> and Cellular Biochemistry"]
    w = crossref.parse_work(message)
    assert w.title == "Growth of Escherichia coli under CO2 & in vivo"
    assert w.title_rich == "Growth of <i>Escherichia coli</i> under CO<sub>2</sub> & <i>in vivo</i>"
    assert w.container_title == "Molecular and Cellular Biochemistry"
    assert crossref.parse_work(_crossref(
        fixtures_dir, "works/10.1023_a_1007154515475.json")).title_rich is None


@pytest.mark.parametrize(("crossref_type", "csl"), [
    ("journal-article", "article-journal"), ("book-chapter", "chapter"),
    ("book-section", "chapter"), ("book-part", "chapter"),
    ("proceedings-article", "paper-conference"), ("proceedings", "book"),
    ("book", "book"), ("monograph", "book"), ("edited-book", "book"),
    ("reference-book", "book"), ("book-set", "book"), ("book-series", "book"),
    ("book-track", "book"), ("dissertation", "thesis"), ("report", "report"),
    ("report-component", "report"), ("report-series", "report"),
    ("posted-content", "article"), ("dataset", "dataset"), ("database", "dataset"),
    ("reference-entry", "entry-encyclopedia"), ("standard", "standard"),
    ("peer-review", "document"), ("journal-issue", "periodical"),
    ("journal-volume", "periodical"), ("journal", "periodical"), ("component", "document"),
    ("other", "document"), ("grant", "document"), ("a-type-crossref-adds-later", "document"),
])
def test_every_crossref_type_maps_to_a_csl_type(fixtures_dir: Path, crossref_type: str,
                                                 csl: str) -> None:
    message = _crossref(fixtures_dir, "works/10.1007_978-3-0348-8720-5_13.json")
    message["type"] = crossref_type
    assert crossref.parse_work(message).type == csl


def test_a_book_in_a_series_and_a_chapter_in_a_series_volume_keep_both_titles(
        fixtures_dir: Path) -> None:
    chapter = _crossref(fixtures_dir, "works/10.1007_978-3-0348-8720-5_13.json")
    chapter["container-title"] = ["Lecture Notes in Mathematics",
                                  "Hyperbolic Problems: Theory, Numerics, Applications"]
    w = crossref.parse_work(chapter)
    assert (w.container_title, w.collection_title) == (
        "Hyperbolic Problems: Theory, Numerics, Applications", "Lecture Notes in Mathematics")
    book = dict(chapter, type="edited-book", title=[chapter["container-title"][1]],
                **{"container-title": ["Lecture Notes in Mathematics"], "edition-number": 2})
    b = crossref.parse_work(book)
    assert (b.type, b.container_title, b.collection_title, b.edition) == (
        "book", None, "Lecture Notes in Mathematics", "2")


def test_a_crossref_dissertation_takes_its_institution_and_degree(fixtures_dir: Path) -> None:
    message = _crossref(fixtures_dir, "works/10.1101_2024.04.01.587366.json")
    message.update(type="dissertation", degree=["Doctor of Philosophy (PhD)"],
                   institution=[{"name": "University of Washington", "place": ["Seattle"]}])
    del message["publisher"]
    w = crossref.parse_work(message)
    assert (w.type, w.publisher, w.publisher_place, w.genre) == (
        "thesis", "University of Washington", "Seattle", "Doctoral dissertation")


def test_crossref_translators_are_kept(fixtures_dir: Path) -> None:
    message = _crossref(fixtures_dir, "works/10.1007_978-3-0348-8720-5_13.json")
    message["translator"] = [{"given": "Constance", "family": "Garnett", "sequence": "first",
                              "affiliation": []}]
    assert [t.family for t in crossref.parse_work(message).translators] == ["Garnett"]


_PART = st.one_of(st.none(), st.text(max_size=12),
                  st.sampled_from(["", " ", "Jr.", "van der", "Anonymous", " de  la "]))


def _clean(value: str | None) -> str | None:
    return " ".join(value.split()) or None if value is not None else None


@given(family=_PART, given_name=_PART, literal=_PART, suffix=_PART, orcid=st.booleans())
def test_crossref_names_never_invent_a_name_and_keep_every_given_part(
        family: str | None, given_name: str | None, literal: str | None, suffix: str | None,
        orcid: bool) -> None:
    entry = {k: v for k, v in (("family", family), ("given", given_name), ("name", literal),
                                ("suffix", suffix)) if v is not None}
    if orcid:
        entry["ORCID"] = "http://orcid.org/0000-0002-1825-0097"
    a = crossref.contributor(entry)
    fam, giv, lit, suf = map(_clean, (family, given_name, literal, suffix))
    if not (fam or giv or lit):
        assert a is None
        return
    assert a is not None
    assert (a.given, a.suffix) == (giv, suf)
    if fam:  # a person: the family name as deposited; a stray `name` is not a second name
        assert (a.family, a.literal) == (fam, None)
    else:  # an organisation (or a single given name), never split
        assert (a.family, a.literal) == (None, lit)
    produced = {a.family, a.given, a.literal, a.suffix} - {None}
    assert produced <= {fam, giv, lit, suf}
    assert a.orcid == ("0000-0002-1825-0097" if orcid else None)


OPENALEX_WORKS: dict[str, dict[str, object]] = {
    "works/doi_10.1007_s40278-023-41815-2.json": dict(
        type="article-journal", title="Convalescent-anti-sars-cov-2-plasma/immune-globulin",
        container_title="Reactions Weekly", volume="1962", issue="1", page="145",
        issued=[2023, 6, 23], authors=[], retracted=False, notices=[]),
    "works/doi_10.1023_a_1007154515475.json": dict(
        type="article-journal", container_title="Molecular and Cellular Biochemistry",
        volume="218", issue="1/2", page="1-11", issued=[2001, 1, 1], retracted=False),
    "works/doi_10.1073_pnas.1414271111.json": dict(
        type="article-journal", container_title="Proceedings of the National Academy of Sciences",
        volume="111", issue="45", page=None, issued=[2014, 10, 27], retracted=False),
}


@pytest.mark.parametrize("name", sorted(OPENALEX_WORKS))
def test_every_recorded_openalex_work_parses_into_its_csl_type_and_fields(
        fixtures_dir: Path, name: str) -> None:
    w = openalex.parse_work(_json(fixtures_dir, f"openalex/{name}"))
    assert {k: getattr(w, k) for k in OPENALEX_WORKS[name]} == OPENALEX_WORKS[name]


def test_openalex_takes_its_type_from_type_crossref_when_it_has_one(fixtures_dir: Path) -> None:
    preprint = _json(fixtures_dir, "openalex/search/title_search_paperqa.json")["results"][0]
    assert openalex.parse_work(preprint).type == "article"  # posted-content
    record = _json(fixtures_dir, "openalex/works/doi_10.1023_a_1007154515475.json")
    record["type_crossref"] = "proceedings-article"
    assert openalex.parse_work(record).type == "paper-conference"
    del record["type_crossref"]
    record["type"] = "book-chapter"
    assert openalex.parse_work(record).type == "chapter"


def test_an_openalex_authorship_without_a_name_is_dropped_not_invented(
        fixtures_dir: Path) -> None:
    record = _json(fixtures_dir, "openalex/works/doi_10.1073_pnas.1414271111.json")
    first = record["authorships"][0]
    first["author"]["display_name"] = None
    first["raw_author_name"] = ""
    w = openalex.parse_work(record)
    assert len(w.authors) == len(record["authorships"]) - 1
    assert w.authors[0].family == "Responte"
    assert "Anonymous" not in json.dumps(w.model_dump())


@pytest.mark.parametrize(("key", "value"), [("author", ["A. Author"]),
                                            ("author", {"family": "Author"}),
                                            ("updated-by", ["Correction"])])
def test_a_crossref_record_in_an_unknown_shape_is_refused_not_read_with_a_name_missing(
        fixtures_dir: Path, key: str, value: object) -> None:
    # The capture then names CrossRef as answering in an unexpected shape and goes on.
    message = _crossref(fixtures_dir, "works/10.1371_journal.pone.0033693.json")
    message[key] = value
    with pytest.raises(TypeError):
        crossref.parse_work(message)
