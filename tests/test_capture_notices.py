"""Editorial notices: CrossRef ``updated-by``/``update-to`` and OpenAlex ``is_retracted``.

The recorded records hold real ``updated-by`` corrections (PLOS ONE, PNAS). Retractions
have the same shape with another ``type``, so they are made by editing a copy of a real
record's entry, never by writing a response shape from memory.
"""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import pytest
from replay_server import (
    ReplayServer,
    capture_overrides,
    loopback_client,
    serve_crossref,
    serve_openalex,
)

from vaultd.capture import crossref, openalex
from vaultd.capture.reconcile import reconcile
from vaultd.config import load_settings
from vaultd.models import Notice
from vaultd.pipeline.capture import capture
from vaultd.vault import Vault

PONE = "10.1371/journal.pone.0033693"
PONE_NOTICE = "10.1371/annotation/c76da2c1-ccb8-4797-94c1-359d3ceceeda"
PNAS = "10.1073/pnas.1414271111"


def _message(fx: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((fx / "crossref/works" / name).read_text())["message"]
    return data


def _pone(fx: Path) -> dict[str, Any]:
    return _message(fx, "10.1371_journal.pone.0033693.json")


def _with_update(message: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """The record with its real ``updated-by`` entry changed (type, source, …)."""
    edited = copy.deepcopy(message)
    edited["updated-by"][0].update(changes)
    return edited


def test_the_plos_one_correction_becomes_a_correction_notice_and_not_retracted(
        fixtures_dir: Path) -> None:
    w = crossref.parse_work(_pone(fixtures_dir))
    assert w.notices == [Notice(kind="correction", doi=PONE_NOTICE, date=[2012, 5, 8],
                                source="crossref", label="Correction")]
    assert w.retracted is False
    out = reconcile([w]).work
    assert out.notices == w.notices and out.retracted is False
    assert not [x for x in out.warnings if x.startswith("retracted")]


def test_the_pnas_correction_keeps_its_notice_doi_and_date(fixtures_dir: Path) -> None:
    w = crossref.parse_work(_message(fixtures_dir, "10.1073_pnas.1414271111.json"))
    assert [(n.kind, n.doi, n.date) for n in w.notices] == [
        ("correction", "10.1073/pnas.1507001112", [2015, 5, 4])]
    assert w.retracted is False


def test_records_without_updates_have_no_notices(fixtures_dir: Path) -> None:
    w = crossref.parse_work(_message(fixtures_dir, "10.1063_1.4938384.json"))
    assert (w.notices, w.retracted, w.warnings) == ([], False, [])


def test_a_retraction_in_updated_by_marks_the_work_retracted_with_one_warning(
        fixtures_dir: Path) -> None:
    w = crossref.parse_work(_with_update(_pone(fixtures_dir), type="retraction",
                                         label="Retraction"))
    assert w.retracted is True
    assert [(n.kind, n.doi, n.label) for n in w.notices] == [
        ("retraction", PONE_NOTICE, "Retraction")]
    out = reconcile([w]).work
    assert out.retracted is True
    assert [x for x in out.warnings if x.startswith("retracted")] == [
        f"retracted: {PONE_NOTICE} (crossref)"]


@pytest.mark.parametrize(("crossref_type", "kind", "retracted"), [
    ("retraction", "retraction", True),
    ("withdrawal", "withdrawal", True),
    ("removal", "withdrawal", True),
    ("expression_of_concern", "expression_of_concern", False),
    ("erratum", "erratum", False),
    ("corrigendum", "correction", False),
    ("addendum", "addendum", False),
    ("partial_retraction", "other", False),
    ("new_version", "other", False),
])
def test_every_crossref_update_type_becomes_a_notice_kind(
        fixtures_dir: Path, crossref_type: str, kind: str, retracted: bool) -> None:
    w = crossref.parse_work(_with_update(_pone(fixtures_dir), type=crossref_type))
    assert [n.kind for n in w.notices] == [kind]
    assert w.retracted is retracted


def test_a_retraction_watch_notice_names_retraction_watch_as_its_source(
        fixtures_dir: Path) -> None:
    message = _with_update(_pone(fixtures_dir), type="retraction", label="Retraction",
                           source="retraction-watch")
    # The same notice deposited by the publisher too: one notice, the first source kept.
    message["updated-by"].append(dict(message["updated-by"][0], source="publisher"))
    w = crossref.parse_work(message)
    assert [(n.kind, n.source) for n in w.notices] == [("retraction", "retraction-watch")]
    assert f"retracted: {PONE_NOTICE} (retraction-watch)" in reconcile([w]).work.warnings


def test_a_retraction_notice_record_is_not_itself_retracted(fixtures_dir: Path) -> None:
    # `update-to` is on the notice: it names the work the notice is about.
    notice = _pone(fixtures_dir)
    entry = dict(notice.pop("updated-by")[0], type="retraction", label="Retraction", DOI=PNAS)
    notice["update-to"] = [entry]
    w = crossref.parse_work(notice)
    assert (w.retracted, w.notices) == (False, [])
    assert w.warnings == [f"notice: this record is a Retraction of {PNAS} (crossref); it is "
                          "not the work itself"]


def test_an_update_to_naming_the_record_itself_is_a_notice_about_it(fixtures_dir: Path) -> None:
    message = _pone(fixtures_dir)
    entry = dict(message.pop("updated-by")[0], type="retraction", label="Retraction", DOI=PONE)
    message["update-to"] = [entry]
    w = crossref.parse_work(message)
    assert w.retracted is True
    assert [(n.kind, n.doi) for n in w.notices] == [("retraction", PONE)]


def _openalex(fx: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (fx / "openalex/works/doi_10.1073_pnas.1414271111.json").read_text())
    return data


def test_openalex_is_retracted_marks_the_work_retracted_with_a_notice(fixtures_dir: Path) -> None:
    record = _openalex(fixtures_dir)
    assert openalex.parse_work(record).retracted is False
    record["is_retracted"] = True
    w = openalex.parse_work(record)
    assert w.retracted is True
    assert [(n.kind, n.doi, n.source) for n in w.notices] == [("retraction", None, "openalex")]


def test_sources_reporting_one_retraction_give_one_warning_naming_each(fixtures_dir: Path) -> None:
    cr = crossref.parse_work(_with_update(_message(fixtures_dir, "10.1073_pnas.1414271111.json"),
                                          type="retraction", label="Retraction"))
    record = _openalex(fixtures_dir)
    record["is_retracted"] = True
    out = reconcile([openalex.parse_work(record), cr]).work
    assert out.retracted is True
    assert [(n.source, n.doi) for n in out.notices] == [
        ("crossref", "10.1073/pnas.1507001112"), ("openalex", None)]
    assert [x for x in out.warnings if x.startswith("retracted")] == [
        "retracted: 10.1073/pnas.1507001112 (crossref, openalex)"]


def test_a_captured_retracted_work_carries_its_notice_and_warning(
        vault: Vault, fixtures_dir: Path, tmp_path: Path) -> None:
    body = tmp_path / "pone.json"
    recorded = json.loads((fixtures_dir / "crossref/works/10.1371_journal.pone.0033693.json")
                          .read_text())
    recorded["message"] = _with_update(recorded["message"], type="retraction",
                                       label="Retraction")
    body.write_text(json.dumps(recorded))
    with ReplayServer() as server:
        serve_crossref(server, PONE, body)
        serve_openalex(server, PONE, fixtures_dir / "openalex/errors/404_not_in_openalex.html",
                       status=404, content_type="text/html")

        async def go() -> Any:
            async with loopback_client(server) as client:
                settings = load_settings(overrides=capture_overrides(server, email=None))
                return await capture(vault, settings, PONE, client=client)
        [res] = asyncio.run(go())
    assert res.meta.work.retracted is True
    assert [n.doi for n in res.meta.work.notices] == [PONE_NOTICE]
    assert f"retracted: {PONE_NOTICE} (crossref)" in res.meta.warnings


def test_a_note_shows_each_warning_on_one_short_line_without_urls() -> None:
    from vaultd.trust import WARNING_CHARS, short_warning

    long = ("title: CrossRef \"A Very Long Title\" vs OpenAlex \"Another\"; see\n"
            "https://api.crossref.org/works/10.1000/xyz?mailto=a@b.c and https://doi.org/10.1/x " + "x" * 300)
    shown = short_warning(long)
    assert "\n" not in shown and "https://" not in shown and "api.crossref.org" in shown
    assert len(shown) <= WARNING_CHARS and shown.endswith("…")
    assert short_warning("year: CrossRef 2017 vs arXiv 2016") == "year: CrossRef 2017 vs arXiv 2016"
