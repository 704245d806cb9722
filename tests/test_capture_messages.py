"""Capture's messages name the action the user can take where they are (Inbox, CLI)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from replay_server import (
    ReplayServer,
    capture_overrides,
    serve_arxiv,
    serve_crossref,
    serve_openalex,
)

from vaultd.config import Settings, load_settings
from vaultd.errors import InputError
from vaultd.vault import Vault

UNKNOWN_DOI = "10.48550/arxiv.2312.07559"


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    with ReplayServer() as s:
        yield s


def _settings(server: ReplayServer) -> Settings:
    return load_settings(overrides=capture_overrides(server, email=None))


def _nobody_knows(server: ReplayServer, fixtures_dir: Path) -> None:
    for _ in range(2):
        serve_crossref(server, UNKNOWN_DOI,
                       fixtures_dir / "crossref/errors/404_10.48550_arxiv.2312.07559.txt",
                       status=404, content_type="text/plain")
        serve_openalex(server, UNKNOWN_DOI, fixtures_dir / "openalex/errors/404_not_in_openalex.html",
                       status=404, content_type="text/html")


def test_an_inbox_link_to_a_doi_no_source_knows_says_what_to_drop_beside_it(
        vault: Vault, server: ReplayServer, fixtures_dir: Path) -> None:
    from vaultd.pipeline.ingest import ingest_item

    _nobody_knows(server, fixtures_dir)
    link = vault.inbox / "A paper.url"
    link.write_text(f"[InternetShortcut]\nURL=https://doi.org/{UNKNOWN_DOI}\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        ingest_item(vault, _settings(server), link, action="capture", compile=False)
    assert str(err.value) == (
        f"A paper.url: no metadata source knows {UNKNOWN_DOI}; drop a .bib file with its entry "
        "(title, authors, year, DOI) into Inbox/ and it is saved from that")


def _capture(vault: Vault, server: ReplayServer, text: str, **kw: object) -> list[Any]:
    from replay_server import loopback_client

    from vaultd.pipeline.capture import capture

    async def go() -> list[Any]:
        async with loopback_client(server) as client:
            return await capture(vault, _settings(server), text, client=client, **kw)  # type: ignore[arg-type]

    return asyncio.run(go())


def test_an_arxiv_pdf_that_answered_404_is_not_reported_as_no_open_pdf(
        vault: Vault, server: ReplayServer, fixtures_dir: Path) -> None:
    serve_arxiv(server, "1605.08386", fixtures_dir / "arxiv/1605.08386.atom.xml")
    [res] = _capture(vault, server, "1605.08386")  # the PDF URL is not served: 404
    assert res.status == "metadata-only"
    assert not [w for w in res.warnings if "no open PDF" in w], res.warnings
    assert ("the PDF could not be downloaded (its host refused it or did not answer); drop the "
            "PDF into the Inbox and it will attach to this record by its DOI or arXiv id"
            ) in res.warnings
    assert any("answered HTTP 404" in w for w in res.warnings)


def test_capturing_a_json_file_that_is_no_library_names_what_is_wrong_not_no_such_file(
        vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from vaultd.cli import main_group
    from vaultd.cli.common import run_command

    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.json").write_text('[{"id": "a", "title": "A"}]', encoding="utf-8")
    monkeypatch.setattr("sys.argv", ["vaultd", "--vault", str(vault.root), "capture", "x.json"])
    assert run_command(main_group) == 1
    assert capsys.readouterr().err.strip().splitlines() == [
        "Error: x.json: no entry could be read (item 1 (a): no 'type'); fix the file"]


def test_a_titleless_record_with_an_arxiv_id_is_not_told_to_get_an_id() -> None:
    from vaultd.models import Note, NoteMeta
    from vaultd.notes.markdown import render_note

    text = render_note(Note(meta=NoteMeta(cite_key="vaswani2017", arxiv_id="1706.03762")))
    assert "give it an id" not in text.lower()
    assert ("*No citation yet: this record has no title, as no metadata source has answered "
            "for arXiv:1706.03762 yet; `vaultd capture --retry-pending` asks them again.*") in text


def test_cite_of_a_titleless_record_with_an_id_says_the_sources_have_not_answered(
        vault: Vault, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from vaultd.cli import main_group
    from vaultd.cli.common import run_command
    from vaultd.models import MetaFile, Work

    meta = MetaFile.from_work("vaswani2017", Work(arxiv_id="1706.03762"),
                              captured_at="2024-01-01T00:00:00+00:00")
    vault.meta_path("vaswani2017").write_text(meta.model_dump_json(), encoding="utf-8")
    monkeypatch.setattr("sys.argv", ["vaultd", "--vault", str(vault.root), "cite",
                                     "vaswani2017"])
    assert run_command(main_group) == 1
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        "Error: vaswani2017 has no title yet, so no citation is made for it: no metadata "
        "source has answered for its id yet; `vaultd capture --retry-pending` asks again "
        "when online")


def test_one_unknown_doi_in_an_inbox_link_list_is_reported_with_inbox_advice(
        vault: Vault, server: ReplayServer, fixtures_dir: Path) -> None:
    from replay_server import serve_unpaywall

    from vaultd.pipeline.ingest import ingest_item

    known = "10.1023/a:1007154515475"
    serve_crossref(server, known, fixtures_dir / "crossref/works/10.1023_a_1007154515475.json")
    serve_openalex(server, known, fixtures_dir / "openalex/works/doi_10.1023_a_1007154515475.json")
    serve_unpaywall(server, known, fixtures_dir / "unpaywall/v2/10.1023_a_1007154515475.json")
    _nobody_knows(server, fixtures_dir)
    links = vault.inbox / "reading.txt"
    links.write_text(f"https://doi.org/{known}\nhttps://doi.org/{UNKNOWN_DOI}\n", encoding="utf-8")
    result = ingest_item(vault, _settings(server), links, action="capture", compile=False)
    assert len(result.cite_keys) == 1
    [(item, why)] = result.failed
    assert UNKNOWN_DOI in item
    assert why == (f"no metadata source knows {UNKNOWN_DOI}; drop a .bib file with its entry "
                   "(title, authors, year, DOI) into Inbox/ and it is saved from that")


def test_an_inbox_link_list_whose_dois_no_source_knows_names_no_cli_flag(
        vault: Vault, server: ReplayServer, fixtures_dir: Path) -> None:
    from vaultd.pipeline.ingest import ingest_item

    other = "10.48550/arxiv.2312.07560"
    _nobody_knows(server, fixtures_dir)
    for _ in range(2):  # the same recorded "not found" answers, for a second DOI
        serve_crossref(server, other,
                       fixtures_dir / "crossref/errors/404_10.48550_arxiv.2312.07559.txt",
                       status=404, content_type="text/plain")
        serve_openalex(server, other, fixtures_dir / "openalex/errors/404_not_in_openalex.html",
                       status=404, content_type="text/html")
    links = vault.inbox / "reading.txt"
    links.write_text(f"https://doi.org/{UNKNOWN_DOI}\nhttps://doi.org/{other}\n",
                     encoding="utf-8")
    with pytest.raises(InputError) as err:
        ingest_item(vault, _settings(server), links, action="capture", compile=False)
    assert "--cite-key" not in str(err.value)
    assert str(err.value).startswith("none of the 2 items could be captured: ")
    assert "drop a .bib file with its entry" in str(err.value)
