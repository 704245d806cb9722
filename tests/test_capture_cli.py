"""`vaultd capture` from the command line, against the loopback replay server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from replay_server import ReplayServer, serve_crossref, serve_openalex, serve_unpaywall

from vaultd.cli import main_group
from vaultd.cli.common import run_command
from vaultd.vault import Vault

HRP = "10.1023/a:1007154515475"


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch, fixtures_dir: Path) -> Iterator[ReplayServer]:
    with ReplayServer() as s:
        for var, path in [("VAULTD_CROSSREF_URL", "/crossref"), ("VAULTD_OPENALEX_URL", "/openalex"),
                          ("VAULTD_UNPAYWALL_URL", "/unpaywall"),
                          ("VAULTD_ARXIV_API_URL", "/arxiv/api/query"),
                          ("VAULTD_ARXIV_PDF_URL", "/arxiv/pdf")]:
            monkeypatch.setenv(var, s.url + path)
        monkeypatch.setenv("VAULTD_EMAIL", "test@example.org")
        serve_crossref(s, HRP, fixtures_dir / "crossref/works/10.1023_a_1007154515475.json")
        serve_openalex(s, HRP, fixtures_dir / "openalex/works/doi_10.1023_a_1007154515475.json")
        serve_unpaywall(s, HRP, fixtures_dir / "unpaywall/v2/10.1023_a_1007154515475.json")
        yield s


def test_capture_prints_the_cite_key_and_json_carries_the_record(vault: Vault,
                                                                server: ReplayServer) -> None:
    runner = CliRunner()
    out = runner.invoke(main_group, ["--vault", str(vault.root), "capture", HRP, "--no-compile"],
                        catch_exceptions=False)
    assert out.exit_code == 0
    key = out.stdout.strip()
    assert key.startswith("adak2001") and vault.meta_path(key).is_file()
    again = runner.invoke(main_group, ["--vault", str(vault.root), "capture", f"https://doi.org/{HRP}",
                                       "--no-compile", "--json"], catch_exceptions=False)
    data = json.loads(again.stdout)
    assert [(d["cite_key"], d["status"]) for d in data] == [(key, "existing")]
    assert data[0]["meta"]["doi"] == HRP and data[0]["reconciled"] is True


def test_youtube_input_offline_exits_1_with_one_line(vault: Vault, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.argv", ["vaultd", "--vault", str(vault.root), "capture",
                                     "https://youtu.be/gogEJyoSB9s", "--no-compile"])
    assert run_command(main_group) == 1
    err = capsys.readouterr().err
    assert err == "Error: cannot reach YouTube through the configured proxy (no network?); try again when online\n"


def test_unrecognised_input_names_what_is_accepted(vault: Vault, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.argv", ["vaultd", "--vault", str(vault.root), "capture", "hello"])
    assert run_command(main_group) == 1
    assert "cannot recognise 'hello' as a PDF, arXiv id, DOI" in capsys.readouterr().err


def test_a_link_file_with_a_bad_item_captures_the_rest_and_exits_1_naming_it(
        vault: Vault, server: ReplayServer, fixtures_dir: Path, tmp_path: Path) -> None:
    landing = server.url + "/landing.pdf"
    server.route("/landing.pdf",
                 body=fixtures_dir / "openalex/errors/404_not_in_openalex.html",
                 content_type="text/html")
    links = tmp_path / "reading.md"
    links.write_text(f"- {landing}\n- https://doi.org/{HRP}\n"
                     "- https://www.youtube.com/watch?v=gogEJyoSB9s\n")
    out = CliRunner().invoke(main_group, ["--vault", str(vault.root), "capture", str(links),
                                          "--no-compile"], catch_exceptions=False)
    assert out.exit_code == 1
    [key] = out.stdout.split()
    assert key.startswith("adak2001") and vault.meta_path(key).is_file()
    errors = [line for line in out.stderr.splitlines() if line.startswith("Error:")]
    assert errors == [
        f"Error: {landing}: {landing} answered a web page, not a PDF; pass the DOI or arXiv "
        "id instead",
        "Error: https://www.youtube.com/watch?v=gogEJyoSB9s: cannot reach YouTube through the "
        "configured proxy (no network?); try again when online",
    ]



def test_json_lists_the_failed_items_of_a_link_file_after_the_captured_ones_and_exits_1(
        vault: Vault, server: ReplayServer, tmp_path: Path) -> None:
    links = tmp_path / "reading.md"
    links.write_text(f"- https://doi.org/{HRP}\n- https://www.youtube.com/watch?v=gogEJyoSB9s\n")
    out = CliRunner().invoke(main_group, ["--vault", str(vault.root), "capture", str(links),
                                          "--no-compile", "--json"], catch_exceptions=False)
    assert out.exit_code == 1
    data = json.loads(out.stdout)
    assert [d["status"] for d in data] == ["created", "failed"] or \
        [d["status"] for d in data] == ["metadata-only", "failed"]
    assert data[0]["cite_key"].startswith("adak2001")
    assert data[1] == {"cite_key": None, "status": "failed",
                       "input": "https://www.youtube.com/watch?v=gogEJyoSB9s",
                       "error": "cannot reach YouTube through the configured proxy (no "
                                "network?); try again when online"}


def test_retry_pending_with_nothing_waiting_says_so_and_refuses_an_input_too(
        vault: Vault, server: ReplayServer) -> None:
    runner = CliRunner()
    out = runner.invoke(main_group, ["--vault", str(vault.root), "capture", "--retry-pending"],
                        catch_exceptions=False)
    assert out.exit_code == 0 and out.stdout == ""
    assert "no record is waiting for a retry" in out.stderr
    both = runner.invoke(main_group, ["--vault", str(vault.root), "capture", HRP,
                                      "--retry-pending"])
    assert both.exit_code == 2 and "give INPUT or --retry-pending (not both)" in both.stderr
