"""Source parsers on real recorded responses, and the pure reconciler."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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

