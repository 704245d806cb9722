"""`vaultd meta`: a record's fields with their sources, corrected by the user; bad input
is one `Error:` line naming the field, exit 2, and nothing written."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from test_index_support import sample_vault

from vaultd.cli import main_group
from vaultd.models import MetaFile
from vaultd.notes.reader import parse_note
from vaultd.vault import Vault

KEY = "vaswani2017attention"


def _cli(vault: Vault, *args: str) -> tuple[int, str, str]:
    out = CliRunner().invoke(main_group, ["--vault", str(vault.root), *args],
                             catch_exceptions=False)
    return out.exit_code, out.stdout, out.stderr


def _record(vault: Vault, key: str = KEY) -> MetaFile:
    return MetaFile.model_validate_json(vault.meta_path(key).read_text(encoding="utf-8"))


def test_meta_shows_every_field_with_its_sources_and_agreement(vault: Vault) -> None:
    sample_vault(vault)
    code, out, _ = _cli(vault, "meta", KEY)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"{KEY}: UNVERIFIED (no source confirmed it)"
    assert lines[1].split() == ["title", "Attention", "Is", "All", "You", "Need",
                                "[no", "source;", "unconfirmed]"]
    assert "Vaswani, Ashish; Shazeer, Noam" in lines[2]
    code, out, _ = _cli(vault, "meta", KEY, "--json")
    data = json.loads(out)
    assert (data["verified"], data["labels"]) == (False, ["UNVERIFIED (no source confirmed it)"])
    fields = {f["field"]: f for f in data["fields"]}
    assert list(fields)[:4] == ["title", "author", "year", "type"]
    assert fields["year"] == {"field": "year", "value": 2017, "sources": [],
                              "agreement": "unconfirmed", "entered_by_you": False}


def test_set_enters_the_users_values_and_the_note_citations_and_library_bib_follow(
        vault: Vault) -> None:
    sample_vault(vault)
    code, out, err = _cli(vault, "meta", KEY, "--set", "title=Attention Is All You Need, Again",
                          "--set", "author=Vaswani, Ashish", "--set", "author=Parmar, Niki",
                          "--set", "year=2018", "--set", "type=report", "--json")
    assert code == 0, err
    assert err == (f"{KEY}: title, author, year, type changed; the note and library.bib "
                   "updated\n")
    data = json.loads(out)
    assert data["verified"] is True
    assert data["labels"] == ["ENTERED BY YOU (title, author, year, type)"]
    record = _record(vault)
    assert record.user["issued"].value == [2018] and record.user["issued"].origin == "vaultd meta"
    assert record.user["issued"].sources_value == [2017]
    assert (record.title, record.year, record.authors) == (
        "Attention Is All You Need, Again", 2018, ["Ashish Vaswani", "Niki Parmar"])
    assert record.field_sources["title"] == ["user"] and "user" in record.sources
    note_text = vault.note_path(KEY).read_text(encoding="utf-8")
    note = parse_note(note_text)
    assert (note.meta.title, note.meta.year, note.meta.entered) == (
        "Attention Is All You Need, Again", 2018, ["title", "author", "year", "type"])
    assert note.meta.aliases == ["Attention Is All You Need, Again"]  # the old title's gone
    assert "# Attention Is All You Need, Again" in note_text and "UNVERIFIED" not in note_text
    assert "> [!info] ENTERED BY YOU (title, author, year, type)" in note_text
    assert note.citations["apa"].startswith("Vaswani, A., & Parmar, N. (2018). Attention Is All")
    assert [c.id for c in note.chunks] == ["p1s1c1", "p3s2c1", "p5s3c1"]  # quotes untouched
    bib = (vault.root / "library.bib").read_text(encoding="utf-8")
    assert "@techreport{vaswani2017attention," in bib and "year = {2018}" in bib
    code, out, err = _cli(vault, "cite", KEY, "--strict")
    assert (code, err) == (0, f"note: {KEY}: ENTERED BY YOU (title, author, year, type)\n")
    assert out.startswith("Vaswani, A., & Parmar, N. (2018). Attention Is All You Need, Again.")


def test_unset_returns_a_field_to_what_the_sources_give(vault: Vault) -> None:
    sample_vault(vault)
    _cli(vault, "meta", KEY, "--set", "year=2018", "--set", "title=Other")
    code, out, err = _cli(vault, "meta", KEY, "--unset", "year", "--json")
    assert code == 0 and err == f"{KEY}: year changed; the note and library.bib updated\n"
    record = _record(vault)
    assert (record.year, list(record.user)) == (2017, ["title"])
    assert json.loads(out)["labels"] == ["UNVERIFIED (no source confirmed it)",
                                         "ENTERED BY YOU (title)"]
    assert parse_note(vault.note_path(KEY).read_text(encoding="utf-8")).meta.year == 2017


@pytest.mark.parametrize(("args", "error"), [
    (["--set", "colour=red"], "Error: colour: not a field of a record; fields: title, "
     "author, year, type, container-title, editor, volume, issue, page, number, publisher, "
     "publisher-place, edition, genre, event, collection-title, collection-number, doi, "
     "arxiv, isbn, issn, url, language, abstract"),
    (["--set", "year=20x9"], "Error: year: '20x9' is not a year; give it as 2019 (or "
     "2019-05, 2019-05-03)"),
    (["--set", "year=2019-13"], "Error: year: '2019-13' is not a year; give it as 2019 (or "
     "2019-05, 2019-05-03)"),
    (["--set", "author=1234"], "Error: author: '1234' is no name; give it as \"Family, Given\""),
    (["--set", "author=Smith, J. and Doe, K."], "Error: author: 'Smith, J. and Doe, K.' holds "
     "more than one name; give one author per --set author=\"Family, Given\""),
    (["--set", "title="], "Error: title: cannot be empty: every record has one"),
    (["--set", "doi=abc"], "Error: doi: 'abc' is not a DOI; give it as 10.NNNN/…"),
    (["--set", "type=rapport"], "Error: type: 'rapport' is not a CSL type; e.g. "
     "article-journal, book, chapter, paper-conference, report, thesis, webpage"),
    (["--set", "year"], "Error: year: give it as FIELD=VALUE (e.g. year=2019)"),
    (["--set", "year=2019", "--set", "year=2020"], "Error: year: given twice; give it once"),
    (["--unset", "colour"], "Error: colour: not a field of a record; fields: title, author, "
     "year, type, container-title, editor, volume, issue, page, number, publisher, "
     "publisher-place, edition, genre, event, collection-title, collection-number, doi, "
     "arxiv, isbn, issn, url, language, abstract"),
])
def test_bad_input_is_one_error_line_naming_the_field_and_nothing_is_written(
        vault: Vault, args: list[str], error: str) -> None:
    sample_vault(vault)
    before = vault.meta_path(KEY).read_bytes(), vault.note_path(KEY).read_bytes()
    code, out, err = _cli(vault, "meta", KEY, *args)
    assert (code, out, err) == (2, "", error + "\n")
    assert (vault.meta_path(KEY).read_bytes(), vault.note_path(KEY).read_bytes()) == before
    assert not (vault.root / "library.bib").exists()


def test_edit_opens_the_fields_as_yaml_and_enters_what_changed(
        vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    sample_vault(vault)
    seen: list[str] = []

    def editor(text: str, **kw: object) -> str:
        seen.append(text)
        return text.replace("year: 2017", "year: 2016").replace(
            "volume: null", "volume: '12'")

    monkeypatch.setattr("click.edit", editor)
    code, _, err = _cli(vault, "meta", KEY, "--edit")
    assert code == 0 and err == f"{KEY}: year, volume changed; the note and library.bib updated\n"
    assert "title: Attention Is All You Need  # no source" in seen[0]
    assert "author: ['Vaswani, Ashish', 'Shazeer, Noam']  # no source" in seen[0]
    record = _record(vault)
    assert (record.year, record.work.volume, sorted(record.user)) == (2016, "12",
                                                                      ["issued", "volume"])


@pytest.mark.parametrize(("edited", "error"), [
    ("title: [unclosed\n", "Error: title: the edited text is not valid YAML at line 1 "),
    ("year: nineteen\n", "Error: year: 'nineteen' is not a year; give it as 2019 (or "
     "2019-05, 2019-05-03)"),
    ("colour: red\n", "Error: colour: not a field of a record"),
])
def test_edit_that_leaves_invalid_yaml_writes_nothing(
        vault: Vault, monkeypatch: pytest.MonkeyPatch, edited: str, error: str) -> None:
    sample_vault(vault)
    monkeypatch.setattr("click.edit", lambda text, **kw: edited)
    before = vault.meta_path(KEY).read_bytes()
    code, out, err = _cli(vault, "meta", KEY, "--edit")
    assert code == 2 and out == "" and err.startswith(error) and err.count("\n") == 1
    assert vault.meta_path(KEY).read_bytes() == before


def test_cite_and_bib_strict_exit_3_for_an_unverified_work_and_keep_the_warning(
        vault: Vault) -> None:
    sample_vault(vault)
    code, out, err = _cli(vault, "cite", KEY, "--strict")
    assert code == 3 and out.startswith("Vaswani, A., & Shazeer, N. (2017).")
    assert err == f"warning: {KEY}: UNVERIFIED (no source confirmed it)\n"
    assert _cli(vault, "cite", KEY)[0] == 0
    code, out, _ = _cli(vault, "bib", KEY, "srivastava2014dropout", "--strict", "--json")
    assert code == 3 and [c["verified"] for c in json.loads(out)["citations"]] == [False, False]
    assert _cli(vault, "bib", KEY, "srivastava2014dropout")[0] == 0
