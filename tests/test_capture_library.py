"""`vaultd capture` and the Inbox take RIS, CSL-JSON and Better BibTeX JSON files as they
take a .bib: each entry captured under its own key, an entry for a work already in the
vault completing that record, a PDF the file names captured with it."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf

from vaultd import record_store
from vaultd.capture.detect import detect
from vaultd.config import load_settings
from vaultd.daemon.rules import decide, load_rules, read_facts
from vaultd.pipeline.capture import capture_sync
from vaultd.vault import Vault

RIS = ("TY  - JOUR\nID  - doe2019tides\nTI  - Tides of the Inner Sea\nAU  - Doe, Jane\n"
       "PY  - 2019\nJO  - Marine Letters\nVL  - 7\nER  - \n"
       "TY  - RPRT\nID  - roe:2021\nTI  - A report on reefs\nAU  - Roe, Rick\nPY  - 2021\n"
       "ER  - \n")


def test_library_files_are_recognised_and_routed_by_the_inbox_rules(tmp_path: Path) -> None:
    for name, text in (("refs.ris", RIS), ("items.json", "[]"), ("x.info.json", "{}")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert detect(str(tmp_path / "refs.ris")).kind == "library"  # type: ignore[union-attr]
    assert detect(str(tmp_path / "items.json")).kind == "library"  # type: ignore[union-attr]
    assert detect(str(tmp_path / "x.info.json")).kind == "video_info"  # type: ignore[union-attr]
    rules = load_rules(None)
    routed = {name: decide(rules, read_facts(tmp_path / name)).rule
              for name in ("refs.ris", "items.json", "x.info.json")}
    assert {n: r.rule.name for n, r in routed.items() if r} == {
        "refs.ris": "library-file", "items.json": "library-file", "x.info.json": "video-info"}
    assert routed["refs.ris"].rule.action == "import_bib"  # type: ignore[union-attr]


def test_a_ris_file_captures_each_entry_and_completes_a_work_already_there(
        vault: Vault, tmp_path: Path) -> None:
    settings = load_settings(vault.config_path)
    first = tmp_path / "first.bib"
    first.write_text("@article{doe2019tides, title={Tides of the inner sea}, "
                     "author={Doe, Jane}, year={2019}}\n", encoding="utf-8")
    capture_sync(vault, settings, str(first))
    ris = tmp_path / "refs.ris"
    ris.write_text(RIS, encoding="utf-8")
    done = capture_sync(vault, settings, str(ris))
    assert [(r.cite_key, r.status) for r in done] == [("doe2019tides", "completed"),
                                                     ("roe:2021", "metadata-only")]
    meta = record_store.load(vault, "doe2019tides")
    assert (meta.work.container_title, meta.work.volume) == ("Marine Letters", "7")
    assert meta.user["volume"].origin == "refs.ris"
    assert record_store.load(vault, "roe:2021").work.type == "report"


def test_csl_json_and_better_bibtex_json_keep_their_keys_and_bring_the_named_pdf(
        vault: Vault, tmp_path: Path) -> None:
    settings = load_settings(vault.config_path)
    csl = tmp_path / "items.json"
    csl.write_text(json.dumps([{"id": "Lee.2018", "type": "book", "title": "Old rivers",
                                "author": [{"family": "Lee", "given": "Al"}],
                                "issued": {"date-parts": [[2018]]}}]), encoding="utf-8")
    [book] = capture_sync(vault, settings, str(csl))
    assert book.cite_key == "Lee.2018" and book.meta.work.type == "book"
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 100), "Salt marshes of the north", fontsize=14)
    doc.save(tmp_path / "marsh.pdf")
    bbt = tmp_path / "export.json"
    bbt.write_text(json.dumps({"config": {}, "items": [{
        "itemType": "journalArticle", "citationKey": "kim2022salt", "itemKey": "ABCD2345",
        "title": "Salt marshes of the north", "date": "2022",
        "creators": [{"creatorType": "author", "lastName": "Kim", "firstName": "Eun"}],
        "attachments": [{"path": str(tmp_path / "marsh.pdf"), "title": "PDF"}]}]}),
        encoding="utf-8")
    [paper] = capture_sync(vault, settings, str(bbt))
    assert (paper.cite_key, paper.status) == ("kim2022salt", "created")
    assert vault.pdf_path("kim2022salt").read_bytes() == (tmp_path / "marsh.pdf").read_bytes()
