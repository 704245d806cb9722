"""`vaultd import zotero|file`: what a library would bring (--dry-run), and the import
itself, reported line by line and counted."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests._zotero_library import ZoteroLibrary
from vaultd.cli import main_group, run_command
from vaultd.vault import Vault


def _run(args: list[str], monkeypatch: pytest.MonkeyPatch,
         capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["vaultd", *args])
    code = run_command(main_group)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_import_zotero_dry_run_lists_items_as_json(
        tmp_path: Path, vault: Vault, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    lib = ZoteroLibrary(tmp_path / "Zotero")
    item_id, _ = lib.item("journalArticle", {"title": "A paper", "date": "2020-00-00 2020",
                                             "extra": "Citation Key: doe2020"},
                          [("author", "Doe", "Jane")], tags=("to read",))
    pdf, _ = lib.attachment(item_id, "stored", "storage:a.pdf")
    lib.annotation(pdf, "highlight", text="words", position={"pageIndex": 2, "rects": []})
    lib.close()
    code, out, _ = _run(["--vault", str(vault.root), "import", "zotero", str(lib.folder),
                         "--dry-run", "--json"], monkeypatch, capsys)
    assert code == 0
    data = json.loads(out)
    (item,) = data["items"]
    assert (item["key"], item["title"], item["action"], data["imported"]) == (
        "doe2020", "A paper", "imported", 1)
    assert item["pdf"] == str(lib.folder / "storage" / Path(item["pdf"]).parent.name / "a.pdf")
    assert data["dry_run"] and data["problems"] == [] and not list(vault.raw.iterdir())


def test_import_file_imports_and_counts_in_its_last_line(
        tmp_path: Path, vault: Vault, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("VAULTD_EMBEDDING_PROVIDER", "none")
    path = tmp_path / "refs.ris"
    path.write_text("TY  - JOUR\nID  - k1\nTI  - One\nPY  - 2001\nER  - \n", "utf-8")
    args = ["--vault", str(vault.root), "import", "file", str(path), "--workers", "1"]
    code, out, err = _run(args, monkeypatch, capsys)
    assert code == 0 and out == "imported\t@k1\tOne\tno quotes: no attachment\n"
    assert err.endswith(f"{path}: 1 imported, 0 updated, 0 unchanged, 0 failed, 0 PDFs "
                        "compiled, skipped 1 (no attachment 1)\n")
    code, out, err = _run(args, monkeypatch, capsys)
    assert out == "unchanged\t@k1\tOne\n" and "0 imported, 0 updated, 1 unchanged" in err


def test_an_unknown_zotero_schema_is_one_error_line(
        tmp_path: Path, vault: Vault, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    lib = ZoteroLibrary(tmp_path / "Zotero", userdata=131)
    lib.close()
    code, out, err = _run(["--vault", str(vault.root), "import", "zotero", str(lib.folder),
                           "--dry-run"], monkeypatch, capsys)
    assert code == 1 and out == ""
    assert err == (f"Error: {lib.db}: Zotero database schema version 131 is newer than vaultd "
                   "knows (it reads 120–129: Zotero 6 to 10); update vaultd, or export the "
                   "library from Zotero as Better BibTeX JSON and import that file\n")


def test_import_file_lists_items_and_names_bad_records(
        tmp_path: Path, vault: Vault, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "refs.ris"
    path.write_text("TY  - JOUR\nID  - k1\nTI  - One\nPY  - 2001\nER  - \n"
                    "TY  - JOUR\nN1  - nothing\nER  - \n", "utf-8")
    code, out, err = _run(["--vault", str(vault.root), "import", "file", str(path),
                           "--dry-run"], monkeypatch, capsys)
    assert code == 0
    assert out == "new\t@k1\tOne\tno quotes: no attachment\n"
    assert f"{path}: record 2 (line 6): has neither a title" in err
    assert err.endswith(f"{path}: 1 to import, 0 to update, 0 unchanged, skipped 2 (no "
                        "attachment 1, unreadable entry 1); nothing written (dry run)\n")
