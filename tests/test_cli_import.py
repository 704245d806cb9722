"""`vaultd import zotero|file --dry-run`: the listing of what a library would bring."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests._zotero_library import ZoteroLibrary
from vaultd.cli import main_group, run_command


def _run(args: list[str], monkeypatch: pytest.MonkeyPatch,
         capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["vaultd", *args])
    code = run_command(main_group)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_import_zotero_dry_run_lists_items_as_json(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    lib = ZoteroLibrary(tmp_path / "Zotero")
    item_id, _ = lib.item("journalArticle", {"title": "A paper", "date": "2020-00-00 2020",
                                             "extra": "Citation Key: doe2020"},
                          [("author", "Doe", "Jane")], tags=("to read",))
    pdf, _ = lib.attachment(item_id, "stored", "storage:a.pdf")
    lib.annotation(pdf, "highlight", text="words", position={"pageIndex": 2, "rects": []})
    lib.close()
    code, out, _ = _run(["import", "zotero", str(lib.folder), "--dry-run", "--json"],
                        monkeypatch, capsys)
    assert code == 0
    data = json.loads(out)
    (item,) = data["items"]
    assert (item["key"], item["title"], item["year"], item["annotations"]) == (
        "doe2020", "A paper", 2020, 1)
    assert item["pdfs"] == [str(lib.folder / "storage" / Path(item["pdfs"][0]).parent.name / "a.pdf")]
    assert data["libraries"] == ["My Library"] and data["problems"] == []


def test_import_without_dry_run_says_it_is_not_wired(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(["import", "file", str(tmp_path / "x.ris")], monkeypatch, capsys)
    assert code == 2
    assert err.strip() == ("Error: importing into the vault is not wired yet; add --dry-run to "
                           "list what would be imported")


def test_an_unknown_zotero_schema_is_one_error_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    lib = ZoteroLibrary(tmp_path / "Zotero", userdata=131)
    lib.close()
    code, out, err = _run(["import", "zotero", str(lib.folder), "--dry-run"], monkeypatch, capsys)
    assert code == 1 and out == ""
    assert err == (f"Error: {lib.db}: Zotero database schema version 131 is newer than vaultd "
                   "knows (it reads 120–129: Zotero 6 to 10); update vaultd, or export the "
                   "library from Zotero as Better BibTeX JSON and import that file\n")


def test_import_file_lists_items_and_names_bad_records(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "refs.ris"
    path.write_text("TY  - JOUR\nID  - k1\nTI  - One\nPY  - 2001\nER  - \n"
                    "TY  - JOUR\nN1  - nothing\nER  - \n", "utf-8")
    code, out, err = _run(["import", "file", str(path), "--dry-run"], monkeypatch, capsys)
    assert code == 0
    assert out == "@k1\tOne (2001)\t0 PDF\n"
    assert f"{path}: record 2 (line 6): has neither a title" in err
    assert "1 items would be imported, 1 skipped" in err
