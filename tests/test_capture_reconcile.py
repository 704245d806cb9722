"""Reconcile: LaTeX in arXiv titles equals the Unicode CrossRef/PDFs print; only
independent sources count as witnesses."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vaultd.capture.names import make_work
from vaultd.capture.reconcile import (
    _LATEX_GREEK,
    latex_to_unicode,
    normalise_title,
    reconcile,
    titles_match,
)
from vaultd.models import Notice, Work

GREEK_SMALL = "αβγδεζηθικλμνξπρστυφχψω"
GREEK_CAPITAL = "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΠΡΣΤΥΦΧΨΩ"


@pytest.mark.parametrize(("latex", "printed"), [
    (r"The role of $\alpha$-synuclein in disease", "The role of α-synuclein in disease"),
    (r"Constraints on $\Lambda$CDM from galaxy clusters",
     "Constraints on ΛCDM from galaxy clusters"),
    (r"Search for the rare decay $B^0_s\to\mu^+\mu^-$ at LHCb",
     "Search for the rare decay B0s→μ+μ− at LHCb"),
    (r"\emph{Ab} initio molecular dynamics", "Ab initio molecular dynamics"),
    (r"\textit{In vivo} imaging of $\mathrm{H}_2\mathrm{O}_2$", "In vivo imaging of H2O2"),
    (r"Measurement of $\sin^2\theta_W$", "Measurement of sin2θW"),
    (r"The $\eta \to \pi^0 \gamma\gamma$ decay", "The η→π0γγ decay"),
])
def test_latex_titles_compare_equal_to_the_unicode_form_crossref_prints(latex: str,
                                                                         printed: str) -> None:
    assert normalise_title(latex) == normalise_title(printed)
    assert titles_match(latex, printed)


def test_a_different_greek_letter_is_a_different_title() -> None:
    assert normalise_title(r"$\alpha$-decay rates") != normalise_title("β-decay rates")


@given(st.sampled_from(range(len(_LATEX_GREEK))), st.booleans(), st.text(max_size=20))
def test_every_greek_letter_command_becomes_its_unicode_letter(i: int, capital: bool,
                                                               rest: str) -> None:
    name = _LATEX_GREEK[i].capitalize() if capital else _LATEX_GREEK[i]
    letter = (GREEK_CAPITAL if capital else GREEK_SMALL)[i]
    assert latex_to_unicode(f"${chr(92)}{name}$") == letter
    assert normalise_title(f"${chr(92)}{name}$ {rest}") == normalise_title(f"{letter} {rest}")


@given(st.text(max_size=200))
def test_no_title_crashes_the_normaliser_and_plain_text_is_untouched(title: str) -> None:
    normalise_title(title)
    if "\\" not in title and "$" not in title:
        assert latex_to_unicode(title) == title


def test_crossref_and_unpaywall_agreeing_is_not_two_witnesses() -> None:
    def w(source: str) -> object:
        return make_work(title="Same Title", authors=[{"family": "Adak"}], issued=[2001],
                         doi="10.1023/a:1007154515475", sources=[source])
    out = reconcile([w("crossref"), w("unpaywall")])  # type: ignore[list-item]
    assert out.work.reconciled is False
    assert reconcile([w("crossref"), w("openalex")]).work.reconciled is True  # type: ignore[list-item]


def test_bib_titles_read_as_printed_with_accents_and_maths() -> None:
    from vaultd.capture.bib import parse_bib

    [entry] = parse_bib(r'@misc{k, title={M{\"u}ller and {\v{C}}ech on $\Lambda$CDM in '
                        r'{\TeX}}}')
    assert entry.work.title == "Müller and Čech on ΛCDM in TeX"


def test_an_arxiv_journal_ref_naming_the_published_version_makes_the_year_a_note(
        fixtures_dir: Path) -> None:
    from vaultd.capture.arxiv import parse_feed

    feed = (fixtures_dir / "arxiv/astro-ph_0601001.atom.xml").read_text()
    preprint = parse_feed(feed, "astro-ph/0601001")
    assert preprint is not None and preprint.journal_ref == "ActaAstron.56:1-50,2006"
    assert preprint.doi_published is None  # arXiv does not know the published DOI
    preprint.issued = [2005, 12, 30]  # posted the year before the journal printed it
    published = make_work(title=preprint.title, authors=preprint.authors, issued=[2006],
                          doi="10.1000/acta.56.1", volume="56", sources=["crossref"])
    out = reconcile([preprint, published])
    assert out.notes == ["year: arxiv 2005 is the preprint, crossref 2006 the published "
                         "version (expected difference)"]
    assert not any(w.startswith("year:") for w in out.work.warnings)
    assert out.work.reconciled is True
    # A journal_ref for another volume names another paper: the year is a warning.
    other = published.model_copy(update={"volume": "57"})
    assert any(w == "year: crossref 2006 vs arxiv 2005" for w in reconcile([preprint, other])
               .work.warnings)


def _notice(kind: str, doi: str | None, source: str) -> Notice:
    return Notice.model_validate({"kind": kind, "doi": doi, "source": source})


def _work(source: str, **fields: object) -> Work:
    return make_work(title="Same Title", authors=[{"family": "Adak"}], issued=[2001],
                     doi="10.1023/a:1007154515475", sources=[source], **fields)


def test_notices_from_every_source_are_merged_once_per_doi_and_kind() -> None:
    correction = _notice("correction", "10.1000/fix", "crossref")
    concern = _notice("expression_of_concern", "10.1000/eoc", "crossref")
    out = reconcile([
        _work("openalex", notices=[_notice("correction", "10.1000/FIX", "openalex"),
                                   _notice("erratum", "10.1000/fix", "openalex")]),
        _work("crossref", notices=[correction, concern]),
    ]).work
    # CrossRef first (source priority); the same DOI and kind from OpenAlex is a duplicate,
    # the same DOI with another kind is not.
    assert [(n.kind, n.doi, n.source) for n in out.notices] == [
        ("correction", "10.1000/fix", "crossref"),
        ("expression_of_concern", "10.1000/eoc", "crossref"),
        ("erratum", "10.1000/fix", "openalex")]
    assert out.retracted is False
    assert not [w for w in out.warnings if w.startswith("retracted")]


def test_one_source_reporting_a_retraction_makes_the_merged_work_retracted() -> None:
    out = reconcile([_work("crossref"),
                     _work("openalex", retracted=True,
                           notices=[_notice("retraction", None, "openalex")])]).work
    assert out.retracted is True and out.reconciled is True
    assert [w for w in out.warnings if w.startswith("retracted")] == [
        "retracted: no notice DOI (openalex)"]


def test_a_withdrawal_is_named_in_the_retraction_warning() -> None:
    out = reconcile([_work("crossref", retracted=True,
                           notices=[_notice("withdrawal", "10.1000/w", "crossref")])]).work
    assert "retracted: withdrawal 10.1000/w (crossref)" in out.warnings


def test_the_rich_title_comes_from_the_source_whose_title_is_kept() -> None:
    out = reconcile([_work("openalex", title_rich="<i>Same</i> Title"), _work("crossref")])
    assert out.work.title == "Same Title" and out.work.title_rich is None
    out = reconcile([_work("crossref", title_rich="<i>Same</i> Title"), _work("openalex")])
    assert out.work.title_rich == "<i>Same</i> Title"
