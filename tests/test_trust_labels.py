"""Labels that say what is true (issue 33): "they do not agree" only when sources give a
different title, first author or year (naming which), a work without authors that two
sources agree on is verified, and the fields the user entered are labelled as theirs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from vaultd.capture import crossref, openalex, unpaywall
from vaultd.capture.reconcile import reconcile
from vaultd.models import MetaFile, Note, NoteMeta, UserValue, Work
from vaultd.notes.markdown import render_note
from vaultd.trust import record_labels, record_verified, unverified_label

NO_AUTHORS = "10.1007_s40278-023-41815-2"


def _w(source: str, **fields: Any) -> Work:
    return Work.model_validate({"sources": [source], **fields})


def _json(fixtures_dir: Path, rel: str) -> Any:
    return json.loads((fixtures_dir / rel).read_text(encoding="utf-8"))


def test_a_work_without_authors_that_crossref_and_openalex_agree_on_is_verified(
        fixtures_dir: Path) -> None:
    works = [crossref.parse_work(_json(fixtures_dir, f"crossref/works/{NO_AUTHORS}.json")
                                 ["message"]),
             openalex.parse_work(_json(fixtures_dir, f"openalex/works/doi_{NO_AUTHORS}.json")),
             unpaywall.parse_work(_json(fixtures_dir, f"unpaywall/v2/{NO_AUTHORS}.json"))]
    merged = reconcile(works)
    assert not merged.work.authors
    assert merged.work.reconciled
    assert sorted(merged.agreed) == ["authors", "issued", "title"]
    assert not any("do not agree" in w or w.startswith("unreconciled") for w in
                   merged.work.warnings)


def test_one_source_with_authors_and_one_without_do_not_verify_the_first_author() -> None:
    merged = reconcile([_w("crossref", title="A study", issued=[2020],
                           authors=[{"family": "Doe"}]),
                        _w("openalex", title="A study", issued=[2020])])
    assert not merged.work.reconciled
    assert merged.agreed == ["title", "issued"]
    assert merged.field_sources["authors"] == ["crossref"]


def test_they_do_not_agree_is_said_only_of_a_disagreement_and_names_the_field() -> None:
    agreeing_but_one_witness = reconcile([_w("crossref", title="A study", issued=[2020]),
                                          _w("unpaywall", title="A study", issued=[2020])])
    work = agreeing_but_one_witness.work
    assert unverified_label(work.sources, work.warnings) == (
        "UNVERIFIED (from CrossRef, Unpaywall; not confirmed by two independent sources)")
    years = reconcile([_w("crossref", title="A study", issued=[2020],
                          authors=[{"family": "Doe"}]),
                       _w("openalex", title="A study", issued=[2021],
                          authors=[{"family": "Doe"}])]).work
    assert unverified_label(years.sources, years.warnings) == (
        "UNVERIFIED (from CrossRef, OpenAlex; they do not agree on the year)")
    both = reconcile([_w("crossref", title="A study", issued=[2020], authors=[{"family": "Doe"}]),
                      _w("openalex", title="Another thing entirely", issued=[2021],
                         authors=[{"family": "Roe"}])]).work
    assert unverified_label(both.sources, both.warnings) == (
        "UNVERIFIED (from CrossRef, OpenAlex; they do not agree on the title, first author "
        "and year)")
    assert unverified_label(["pdf-layout", "user"]) == (
        "UNVERIFIED (from the PDF's first page only)")


def _meta(work: Work, **extra: Any) -> MetaFile:
    return MetaFile.from_work("doe2020study", work, **extra)


def _user(value: Any) -> UserValue:
    return UserValue(value=value, origin="vaultd meta")


def test_fields_the_user_entered_stand_in_for_agreement_on_title_author_and_year() -> None:
    # The sources disagree on the year only; the user enters the year: verified, and
    # labelled as entered by the user, not as unverified.
    work = _w("crossref", title="A study", issued=[2021], authors=[{"family": "Doe"}],
              warnings=["year: crossref 2020 vs openalex 2021"])
    meta = _meta(work, agreed=["title", "authors"], user={"issued": _user([2021])})
    assert record_verified(meta)
    assert record_labels(meta, ["year"]) == ["ENTERED BY YOU (year)"]
    # A scan no source knows: title entered, the page's year not: unverified, and says so.
    scan = _meta(_w("pdf-layout", title="A scan", issued=[1999]),
                 user={"title": _user("A scan")})
    assert not record_verified(scan)
    assert record_labels(scan, ["title"]) == [
        "UNVERIFIED (from the PDF's first page only)", "ENTERED BY YOU (title)"]
    # Title and year entered, no authors: nothing left to confirm.
    scan.user["issued"] = _user([1999])
    assert record_verified(scan)


def test_a_note_shows_entered_fields_as_yours_instead_of_unverified() -> None:
    meta = NoteMeta(cite_key="doe2020study", title="A study", sources=["pdf-layout", "user"],
                    entered=["title", "author", "year"], verified=True)
    text = render_note(Note(meta=meta))
    assert "UNVERIFIED" not in text
    assert "> [!info] ENTERED BY YOU (title, author, year)" in text
    meta.verified = False
    assert "> [!warning] UNVERIFIED (from the PDF's first page only)" in render_note(Note(meta=meta))


def test_a_title_without_its_subtitle_agrees_but_a_generic_main_title_does_not() -> None:
    from vaultd.capture.reconcile import titles_agree

    assert titles_agree("Convalescent plasma therapy: three case reports",
                        "Convalescent plasma therapy")
    assert not titles_agree("Introduction: why we sleep", "Introduction")
