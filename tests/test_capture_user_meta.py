"""The user's metadata in capture (issue 33): a value entered with `vaultd meta` survives a
refresh and a recompile; a .bib for a work already in the vault completes its record
instead of making a second one."""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from replay_server import (
    ReplayServer,
    capture_overrides,
    loopback_client,
    serve_crossref,
    serve_openalex,
    serve_unpaywall,
)

from vaultd.config import Settings, load_settings
from vaultd.models import MetaFile
from vaultd.notes.reader import parse_note
from vaultd.pipeline.capture import CaptureResult, capture
from vaultd.pipeline.compile import compile_note
from vaultd.pipeline.ingest import ingest_item
from vaultd.pipeline.record_edit import set_fields
from vaultd.vault import Vault

HRP = "10.1023/a:1007154515475"
HRP_TITLE = ("An essential role of active site arginine residue in iodide binding and "
             "histidine residue in electron transfer for iodide oxidation by horseradish "
             "peroxidase")
SCAN = "smith2020scanned"
SCAN_BIB = ("@report{smith2020scanned,\n  title = {A Survey of Scanned Reports},\n"
            "  author = {Smith, Jane and Doe, John},\n  year = {2020},\n"
            "  institution = {Acme Labs}\n}\n")


@pytest.fixture
def server(fixtures_dir: Path) -> Iterator[ReplayServer]:
    with ReplayServer() as s:
        name = "10.1023_a_1007154515475"
        serve_crossref(s, HRP, fixtures_dir / f"crossref/works/{name}.json")
        serve_openalex(s, HRP, fixtures_dir / f"openalex/works/doi_{name}.json")
        serve_unpaywall(s, HRP, fixtures_dir / f"unpaywall/v2/{name}.json")
        yield s


def _settings(server: ReplayServer) -> Settings:
    return load_settings(overrides=capture_overrides(server))


def run(vault: Vault, server: ReplayServer, text: str, **kw: Any) -> list[CaptureResult]:
    async def go() -> list[CaptureResult]:
        async with loopback_client(server) as client:
            return await capture(vault, _settings(server), text, client=client, **kw)
    return asyncio.run(go())


def _record(vault: Vault, key: str) -> MetaFile:
    return MetaFile.model_validate_json(vault.meta_path(key).read_text(encoding="utf-8"))


def _records(vault: Vault) -> list[str]:
    return sorted(p.name for p in vault.raw.glob("*.meta.json"))


def test_a_value_the_user_entered_survives_a_refresh_and_a_recompile(
        vault: Vault, server: ReplayServer) -> None:
    [first] = run(vault, server, HRP)
    key = first.cite_key
    assert first.meta.reconciled and first.meta.title == HRP_TITLE
    set_fields(vault, _settings(server), key, {"title": "Arginine and iodide binding",
                                              "volume": "99"})
    [again] = run(vault, server, HRP, refresh=True)
    assert (again.cite_key, again.status) == (key, "refreshed")
    record = _record(vault, key)
    assert (record.title, record.work.volume) == ("Arginine and iodide binding", "99")
    assert record.reconciled  # the sources still agree; the user's title is labelled
    assert record.user["title"].sources_value == HRP_TITLE
    assert record.user["title"].sources == ["crossref", "openalex", "unpaywall"]
    assert record.field_sources["title"] == ["user"]
    assert record.field_sources["authors"] == ["crossref", "openalex", "unpaywall"]
    assert sorted(record.agreed) == ["authors", "issued", "title"]
    compile_note(vault, _settings(server), key)
    note = parse_note(vault.note_path(key).read_text(encoding="utf-8"))
    assert (note.meta.title, note.meta.entered) == ("Arginine and iodide binding",
                                                   ["title", "volume"])
    assert "Arginine and iodide binding" in note.citations["apa"]


def _scan_pdf(path: Path) -> Path:
    """A scan whose text layer names no title, author, year or id."""
    pymupdf: Any = importlib.import_module("pymupdf")
    doc = pymupdf.open()
    doc.new_page().insert_text((50, 700), "scanned page 1 of 3", fontsize=8)
    doc.save(path)
    return path


def test_a_bib_dropped_for_a_scan_already_in_the_vault_completes_its_record(
        vault: Vault, server: ReplayServer) -> None:
    settings = _settings(server)
    # The scan renamed as the failure message advises: saved under that key, no title.
    scan = ingest_item(vault, settings, _scan_pdf(vault.inbox / f"{SCAN}.pdf"),
                       action="capture", index=False)
    assert scan.cite_keys == [SCAN] and _record(vault, SCAN).title is None
    assert "No citation yet" in vault.note_path(SCAN).read_text(encoding="utf-8")
    bib = vault.inbox / "scan.bib"
    bib.write_text(SCAN_BIB, encoding="utf-8")
    done = ingest_item(vault, settings, bib, action="import_bib", index=False)
    assert (done.cite_keys, done.statuses) == ([SCAN], ["completed"])
    assert _records(vault) == [f"{SCAN}.meta.json"]  # no smith2020scanneda
    record = _record(vault, SCAN)
    assert (record.title or "").casefold() == "a survey of scanned reports"
    assert (record.authors, record.year, record.work.type) == (
        ["Jane Smith", "John Doe"], 2020, "report")
    assert {a: uv.origin for a, uv in record.user.items()} == {
        "title": "scan.bib", "authors": "scan.bib", "issued": "scan.bib", "type": "scan.bib",
        "publisher": "scan.bib"}
    assert record.pdf == f"raw/{SCAN}.pdf"
    text = vault.note_path(SCAN).read_text(encoding="utf-8")
    note = parse_note(text)
    assert note.meta.title == record.title and "No citation yet" not in text
    assert note.citations["apa"].startswith("Smith, J., & Doe, J. (2020).")
    assert "> [!info] ENTERED BY YOU (title, author, year, type, publisher)" in text
    assert "UNVERIFIED" not in text
    # The same file again changes nothing.
    again = ingest_item(vault, settings, bib, action="import_bib", compile=False, index=False)
    assert (again.cite_keys, again.statuses) == ([SCAN], ["existing"])
    # Asking the sources again (none knows a scan) keeps what the user gave.
    [refreshed] = run(vault, server, str(vault.pdf_path(SCAN)), refresh=True)
    assert (refreshed.cite_key, refreshed.status) == (SCAN, "refreshed")
    assert _record(vault, SCAN).title == record.title
    assert _record(vault, SCAN).user == record.user


def test_a_bib_entry_under_another_key_completes_the_record_of_the_same_work(
        vault: Vault, server: ReplayServer, tmp_path: Path) -> None:
    first = tmp_path / "a.bib"
    first.write_text("@article{doe2019tides, title={Tides of the inner sea}, "
                     "author={Doe, Jane}, year={2019}}\n", encoding="utf-8")
    [made] = run(vault, server, str(first))
    second = tmp_path / "b.bib"
    second.write_text("@article{Doe:2019, title={Tides of the Inner Sea}, author={Doe, J.}, "
                      "year={2019}, journal={Marine Letters}, volume={7}}\n", encoding="utf-8")
    [res] = run(vault, server, str(second))
    assert (res.cite_key, res.status) == (made.cite_key, "completed")
    assert _records(vault) == ["doe2019tides.meta.json"]
    assert (res.meta.work.container_title, res.meta.work.volume) == ("Marine Letters", "7")
    assert any("completed from b.bib: container-title, volume" in n for n in res.notes), res.notes
    assert any("'Doe:2019'" in w and "already captured as 'doe2019tides'" in w
               for w in res.warnings)


def test_a_bib_key_of_another_work_gets_a_new_key_and_the_message_names_that_work(
        vault: Vault, server: ReplayServer, tmp_path: Path) -> None:
    run(vault, server, HRP, cite_key="knuth1984")
    bib = tmp_path / "lib.bib"
    bib.write_text("@book{knuth1984, title={The {\\TeX}book}, author={Knuth, Donald E.},"
                   " year={1984}}\n", encoding="utf-8")
    [res] = run(vault, server, str(bib))
    assert res.cite_key == "knuth1984a"
    assert (f".bib key 'knuth1984' already belongs to a different paper, \"{HRP_TITLE[:57]}"
            f"...\" (doi:{HRP}); this entry was saved as 'knuth1984a'") in res.warnings


def test_a_bib_never_replaces_what_two_sources_agree_on(
        vault: Vault, server: ReplayServer, tmp_path: Path) -> None:
    [first] = run(vault, server, HRP)
    bib = tmp_path / "lib.bib"
    bib.write_text(f"@article{{{first.cite_key}, title={{Something else}}, doi={{{HRP}}}, "
                   "note={x}}\n", encoding="utf-8")
    [res] = run(vault, server, str(bib))
    assert (res.cite_key, res.status) == (first.cite_key, "existing")
    assert _record(vault, first.cite_key).title == HRP_TITLE and not res.meta.user
    assert any(n.startswith("kept the record's title: lib.bib gives other values")
               for n in res.notes)
