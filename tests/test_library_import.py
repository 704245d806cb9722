"""`vaultd import` through the pipeline: a generated Zotero library into a vault (keys kept,
PDFs compiled, citation-only notes, child notes under "My notes", collections as tags,
highlights on their chunks), re-imported (idempotent, the user's edits kept), duplicates
across libraries merged with their keys as aliases, a dry run that writes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
import pytest

from tests._zotero_library import ZoteroLibrary
from vaultd import record_store
from vaultd.config import Settings, load_settings
from vaultd.importers import read_library_file, read_zotero
from vaultd.lookup import citation, load_meta, quote
from vaultd.notes.reader import parse_note
from vaultd.pipeline.library_import import ImportReport, import_library
from vaultd.pipeline.record_edit import set_fields
from vaultd.vault import Vault

BODY = ("Attention mechanisms have become an integral part of compelling sequence modeling "
        "and transduction models in various tasks.")


@pytest.fixture(autouse=True)
def _no_embeddings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VAULTD_EMBEDDING_PROVIDER", "none")


def pdf_bytes(text: str = BODY) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_textbox(pymupdf.Rect(72, 100, 520, 400), text, fontsize=11)
    return bytes(doc.tobytes())


def user_rect(data: bytes, words: str) -> list[float]:
    """Where ``words`` stand on page 1, in PDF user space (as Zotero stores positions)."""
    page = pymupdf.open(stream=data)[0]
    r = page.search_for(words)[0] * ~page.transformation_matrix
    return [r.x0, r.y0, r.x1, r.y1]


def _import(vault: Vault, lib: ZoteroLibrary, **kw: object) -> ImportReport:
    return import_library(vault, _settings(vault), read_zotero(lib.folder), **kw)  # type: ignore[arg-type]


def _settings(vault: Vault) -> Settings:
    return load_settings(vault.config_path)


def _library(tmp_path: Path) -> tuple[ZoteroLibrary, dict[str, int]]:
    lib = ZoteroLibrary(tmp_path / "Zotero")
    thesis = lib.collection("Thesis")
    ch1 = lib.collection("Ch1", parent=thesis)
    item, _ = lib.item("journalArticle", {"title": "Attention everywhere", "date": "2020",
                                          "DOI": "10.1/abc",
                                          "extra": "Citation Key: Doe.2020:attention"},
                       [("author", "Doe", "Jane")], tags=("to read",), collections=(ch1,))
    data = pdf_bytes()
    pdf, _ = lib.attachment(item, "stored", "storage:doe.pdf", content=data)
    lib.annotation(pdf, "highlight", text="integral part of", comment="central",
                   page_label="12", position={"pageIndex": 0,
                                              "rects": [user_rect(data, "integral part of")]})
    lib.annotation(pdf, "highlight", text="sequence modelling", color="#ff6666",
                   position={"pageIndex": 0, "rects": [user_rect(data, "sequence modeling")]})
    lib.note(item, "<div><h1>Summary</h1><p>My <b>own</b> words.</p></div>")
    book, _ = lib.item("book", {"title": "A book without a file", "date": "2011"},
                       [("author", "Roe", "Rick")])
    return lib, {"item": item, "pdf": pdf, "book": book}


def test_a_zotero_library_becomes_records_and_notes_with_keys_kept_exactly(
        vault: Vault, tmp_path: Path) -> None:
    lib, _ = _library(tmp_path)
    report = _import(vault, lib)
    assert (report.count("imported"), report.count("failed")) == (2, 0)
    assert report.skipped == {"no attachment": 1}
    meta = record_store.load(vault, "Doe.2020:attention")  # the key exactly as Zotero has it
    assert meta.pdf == "raw/Doe.2020:attention.pdf" and vault.pdf_path(meta.cite_key).is_file()
    assert meta.user["title"].origin == "Zotero (My Library)" and meta.tags == ["to-read",
                                                                                "Thesis/Ch1"]
    note = parse_note(vault.note_path("Doe.2020:attention").read_text(encoding="utf-8"))
    assert note.meta.parser == "pymupdf" and note.chunks
    assert {"paper", "to-read", "Thesis/Ch1"} <= set(note.meta.tags)
    my_notes = "".join(note.user_blocks)
    assert my_notes.startswith("## My notes\n\n### Note from Zotero (My Library)\n\n"
                               "#### Summary\n\nMy **own** words.")
    (book,) = [o.key for o in report.outcomes if o.skipped]
    cited = parse_note(vault.note_path(book).read_text(encoding="utf-8"))
    assert cited.chunks == [] and cited.citations and cited.meta.raw is None


def test_a_highlight_is_shown_under_its_chunk_with_its_span_and_quote_returns_it(
        vault: Vault, tmp_path: Path) -> None:
    lib, _ = _library(tmp_path)
    _import(vault, lib)
    note = parse_note(vault.note_path("Doe.2020:attention").read_text(encoding="utf-8"))
    (chunk,) = [c for c in note.chunks if c.highlights]
    good, bad = chunk.highlights
    assert chunk.text[good.span[0]:good.span[1]] == "integral part of"  # type: ignore[index]
    assert (good.status, good.page_label, good.comment) == ("verified", "12", "central")
    # Zotero stored 'modelling'; the PDF prints 'modeling': shown as such, not verified
    assert bad.status == "differs" and bad.text == "sequence modelling"
    assert chunk.text[bad.span[0]:bad.span[1]] == "sequence modeling"  # type: ignore[index]
    text = vault.note_path("Doe.2020:attention").read_text(encoding="utf-8")
    assert "> [!quote] Your highlight (yellow, p. 12, from Zotero)\n> “integral part of”\n" \
           "> **Comment:** central\n" in text
    assert "> [!warning] Your highlight (red, p. 1 of the PDF, from Zotero): text differs " \
           "from the PDF\n> Zotero stored:\n> “sequence modelling”\n" in text
    got = quote(vault, "Doe.2020:attention", chunk.id, renderer=None)
    assert [(h["quote"], h["verified"]) for h in got["highlights"]] == [
        ("integral part of", True), ("sequence modeling", False)]


def test_reimport_is_idempotent_keeps_the_users_edits_and_adds_what_is_new(
        vault: Vault, tmp_path: Path) -> None:
    lib, ids = _library(tmp_path)
    _import(vault, lib)
    key = "Doe.2020:attention"
    set_fields(vault, None, key, {"issued": [2019]})  # the user's own correction
    path = vault.note_path(key)
    path.write_text(path.read_text(encoding="utf-8").replace(
        "My **own** words.", "My **own** words, edited in Obsidian."), encoding="utf-8")
    before = {p.name: p.read_bytes() for p in vault.raw.glob("*.json")}
    again = _import(vault, lib)
    assert again.count("unchanged") == 2 and again.count("imported") == 0
    assert {p.name: p.read_bytes() for p in vault.raw.glob("*.json")} == before
    # the library changes: a title, a new note, a new item, a year the user corrected
    c = lib.conn
    c.execute("UPDATE itemDataValues SET value = 'Attention, everywhere' "
              "WHERE value = 'Attention everywhere'")
    c.execute("UPDATE itemDataValues SET value = '2021' WHERE value = '2020'")
    c.commit()
    lib.note(ids["item"], "<p>A second thought.</p>")
    lib.item("report", {"title": "A new report", "date": "2024"}, [("author", "Poe", "Ann")])
    third = _import(vault, lib)
    assert (third.count("imported"), third.count("updated"), third.count("unchanged")) == (1, 1, 1)
    meta = record_store.load(vault, key)
    assert meta.title == "Attention, everywhere" and meta.year == 2019  # the user's year wins
    assert meta.user["issued"].origin == "vaultd meta"
    (updated,) = [o for o in third.outcomes if o.action == "updated"]
    assert updated.fields == ["title"] and updated.kept == ["year"]
    text = path.read_text(encoding="utf-8")
    assert "edited in Obsidian." in text and text.count("### Note from Zotero") == 2
    assert "A second thought." in text and "# Attention, everywhere\n" in text
    assert len(list(vault.wiki.glob("*.md"))) == 3


def test_the_same_work_in_two_libraries_is_one_record_with_every_key_and_cite_finds_it(
        vault: Vault, tmp_path: Path) -> None:
    lib = ZoteroLibrary(tmp_path / "Zotero")
    group = lib.group("Lab group")
    lib.item("journalArticle", {"title": "Shared paper", "date": "2019", "DOI": "10.5/X",
                                "extra": "Citation Key: mine2019"}, [("author", "Lee", "Al")])
    lib.item("journalArticle", {"title": "Shared paper", "date": "2019", "DOI": "10.5/x",
                                "extra": "Citation Key: lab:lee2019"}, [("author", "Lee", "Al")],
             library=group, tags=("group-tag",))
    report = _import(vault, lib)
    (outcome,) = report.outcomes
    assert outcome.key == "mine2019" and outcome.aliases == ["lab:lee2019"]
    assert len(outcome.items) == 2 and len(list(vault.raw.glob("*.meta.json"))) == 1
    assert load_meta(vault, "lab:lee2019").cite_key == "mine2019"
    from vaultd.pipeline.citations import renderer_for

    got = citation(vault, "lab:lee2019", "bibtex", renderer=renderer_for(vault, None))
    assert got.text.startswith("@article{lab:lee2019,")  # \cite{lab:lee2019} still works
    assert "group-tag" in record_store.load(vault, "mine2019").tags
    assert _import(vault, lib).count("unchanged") == 1


def test_a_dry_run_writes_nothing_and_says_what_would_change(vault: Vault,
                                                              tmp_path: Path) -> None:
    lib, _ = _library(tmp_path)
    def files() -> list[Path]:
        return sorted(p for folder in (vault.root, vault.machine_dir) for p in folder.rglob("*"))

    before = files()
    report = _import(vault, lib, dry_run=True)
    assert [o.action for o in report.outcomes] == ["imported", "imported"]
    assert files() == before
    assert json.loads(json.dumps(report.to_json()))["imported"] == 2


def test_the_report_counts_unreadable_pdfs_other_files_and_unreadable_entries(
        vault: Vault, tmp_path: Path) -> None:
    lib = ZoteroLibrary(tmp_path / "Zotero")
    bad, _ = lib.item("journalArticle", {"title": "Broken PDF", "date": "2001"})
    lib.attachment(bad, "stored", "storage:bad.pdf", content=b"<html>not a pdf</html>")
    epub, _ = lib.item("book", {"title": "An EPUB", "date": "2002"})
    lib.attachment(epub, "stored", "storage:b.epub", content_type="application/epub+zip",
                   content=b"PK")
    lib.close()
    report = import_library(vault, _settings(vault), read_zotero(lib.folder))
    assert report.skipped == {"unreadable PDF": 1, "unsupported type": 1}
    assert report.count("imported") == 2 and report.count("failed") == 0
    ris = tmp_path / "refs.ris"
    ris.write_text("TY  - JOUR\nID  - k1\nTI  - One\nPY  - 2001\nER  - \n"
                   "TY  - JOUR\nN1  - nothing\nER  - \n", "utf-8")
    from_file = import_library(vault, _settings(vault), read_library_file(ris))
    assert from_file.count("imported") == 1
    assert from_file.skipped == {"no attachment": 1, "unreadable entry": 1}
    assert record_store.load(vault, "k1").user["title"].origin == "refs.ris"


def test_draft_verify_accepts_a_highlights_words_and_never_its_stored_text_that_differs(
        vault: Vault, tmp_path: Path) -> None:
    from vaultd.verify.draft import check_text

    lib, _ = _library(tmp_path)
    _import(vault, lib)
    draft = ("As argued, attention is now an “integral part of compelling sequence modeling” "
             "[@Doe.2020:attention, p. 1].\n\n"
             "They speak of “integral part of” [@Doe.2020:attention].\n\n"
             "Zotero's copy says “compelling sequence modelling and transduction” "
             "[@Doe.2020:attention].\n")
    first, second, third = check_text(vault, draft, "markdown").findings
    assert first.kind == "OK" and first.highlight is None  # more than the highlight marks
    assert second.kind == "OK" and second.highlight  # the very words of a highlight
    assert "the words of your highlight (yellow, p. 12, from Zotero)" in second.message
    # the text Zotero stored ('modelling'), which the PDF does not print: never verified
    assert third.kind == "MISQUOTED"
    assert "the text Zotero stored for your highlight (red" in third.message
    assert "not the PDF's" in third.message


def test_a_highlight_deleted_in_zotero_leaves_the_note_on_reimport_and_the_users_text_stays(
        vault: Vault, tmp_path: Path) -> None:
    lib, _ = _library(tmp_path)
    _import(vault, lib)
    key = "Doe.2020:attention"
    path = vault.note_path(key)
    warning = "> [!warning] Your highlight (red"
    text = path.read_text(encoding="utf-8")
    assert warning in text
    # the user's comment on the passage, after its chunk block (docs/note-format.md)
    at = text.index("<!-- /chunk -->\n", text.index(warning)) + len("<!-- /chunk -->\n")
    path.write_text(text[:at] + "My remark on modelling.\n\n" + text[at:], encoding="utf-8")
    c = lib.conn  # the red highlight deleted in Zotero
    (gone,) = c.execute("SELECT itemID FROM itemAnnotations WHERE color = '#ff6666'").fetchone()
    c.execute("DELETE FROM itemAnnotations WHERE itemID = ?", (gone,))
    c.execute("DELETE FROM items WHERE itemID = ?", (gone,))
    c.commit()
    report = _import(vault, lib)
    (updated,) = [o for o in report.outcomes if o.key == key]
    assert updated.action == "updated" and "highlights" in updated.other
    assert [h.text for h in record_store.load(vault, key).highlights] == ["integral part of"]
    text = path.read_text(encoding="utf-8")
    assert warning not in text and "sequence modelling" not in text.replace(
        "My remark on modelling.", "")
    assert "> [!quote] Your highlight (yellow, p. 12, from Zotero)" in text
    assert "My remark on modelling." in text
    assert _import(vault, lib).count("unchanged") == 2  # and then it is stable


def test_a_pdf_without_an_item_is_captured_as_a_dropped_pdf_and_counted(
        vault: Vault, tmp_path: Path) -> None:
    lib, _ = _library(tmp_path)
    lib.attachment(None, "stored", "storage:smith2020orphan.pdf",
                   content=pdf_bytes("Orphans of the library. A paper no item names."))
    lib.attachment(None, "stored", "storage:gone.pdf", content=None)  # a file not there
    dry = _import(vault, lib, dry_run=True)
    assert dry.orphans == 1 and not list(vault.raw.glob("*.json"))
    report = _import(vault, lib)
    assert report.orphans == 1 and report.left_out["attachment without an item"] == 1
    (orphan,) = [o for o in report.outcomes if o.items[0].startswith("PDF without an item")]
    assert orphan.action == "imported" and orphan.compiled, orphan.messages
    assert f"vaultd meta {orphan.key}" in orphan.messages[0]
    note = parse_note(vault.note_path(orphan.key).read_text(encoding="utf-8"))
    assert "Orphans of the library." in " ".join(c.text for c in note.chunks)
    assert report.to_json()["orphans"] == 1
    again = _import(vault, lib)  # found again, not captured twice
    assert [o.action for o in again.outcomes if o.key == orphan.key] == ["unchanged"]
    assert len(list(vault.wiki.glob("*.md"))) == 3
