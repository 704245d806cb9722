"""The JSON APIs' shared GET: DOI URLs, unknown DOIs, error statuses, non-JSON bodies."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import httpx
import pytest
from replay_server import ReplayServer, serve_crossref, serve_openalex

from vaultd.capture import crossref, openalex
from vaultd.capture.http import Fetcher
from vaultd.errors import FetchError
from vaultd.models import Work

HTML_404 = "openalex/errors/404_not_in_openalex.html"
ARXIV_DOI = "10.48550/arxiv.2312.07559"


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    with ReplayServer() as s:
        yield s


def run(fetch: Callable[[Fetcher, str, str], Awaitable[Work | None]], base: str,
        doi: str) -> Work | None:
    async def go() -> Work | None:
        async with httpx.AsyncClient() as client:
            return await fetch(Fetcher(client, max_retries=0), base, doi)

    return asyncio.run(go())


def test_works_urls_quote_the_doi_and_ask_for_the_polite_pool() -> None:
    doi = "10.1002/(SICI)1097-4636(199706)35:4<425::AID-JBM3>3.0.CO;2-D"
    assert crossref.works_url("https://api.crossref.org/", doi, "me@example.org") == (
        "https://api.crossref.org/works/10.1002/(SICI)1097-4636(199706)35:4<425::AID-JBM3>3.0.CO;"
        "2-D?mailto=me%40example.org")
    assert openalex.works_url("https://api.openalex.org", "10.1038/nature 1") == (
        "https://api.openalex.org/works/doi:10.1038/nature%201")


def test_unknown_dois_are_no_record_not_an_error(server: ReplayServer, fixtures_dir: Path) -> None:
    serve_crossref(server, ARXIV_DOI, fixtures_dir / "crossref/errors/404_10.48550_arxiv.2312.07559.txt",
                   status=404, content_type="text/plain")
    serve_crossref(server, "bad", fixtures_dir / "crossref/errors/400_validation_failure.json",
                   status=400)
    serve_openalex(server, ARXIV_DOI, fixtures_dir / HTML_404, status=404, content_type="text/html")
    assert run(crossref.fetch, server.url + "/crossref", ARXIV_DOI) is None
    assert run(crossref.fetch, server.url + "/crossref", "bad") is None
    assert run(openalex.fetch, server.url + "/openalex", ARXIV_DOI) is None


def test_an_unexpected_status_is_a_fetch_error_naming_the_source_and_doi(
        server: ReplayServer, fixtures_dir: Path) -> None:
    serve_openalex(server, ARXIV_DOI, fixtures_dir / HTML_404, status=403, content_type="text/html")
    with pytest.raises(FetchError, match=r"^OpenAlex answered HTTP 403 for 10\.48550/arxiv\.2312\.07559; retry later$"):
        run(openalex.fetch, server.url + "/openalex", ARXIV_DOI)


def test_an_html_page_is_no_record_from_openalex_but_an_error_from_crossref(
        server: ReplayServer, fixtures_dir: Path) -> None:
    # OpenAlex serves HTML error pages; CrossRef answers JSON or plain-text errors only,
    # so HTML with a 200 from it means something between us and CrossRef went wrong.
    serve_openalex(server, ARXIV_DOI, fixtures_dir / HTML_404, content_type="text/html")
    serve_crossref(server, ARXIV_DOI, fixtures_dir / HTML_404, content_type="text/html")
    assert run(openalex.fetch, server.url + "/openalex", ARXIV_DOI) is None
    with pytest.raises(FetchError, match=r"^CrossRef sent something that is not JSON for 10\.48550"):
        run(crossref.fetch, server.url + "/crossref", ARXIV_DOI)


def test_a_crossref_answer_is_parsed_from_its_message(server: ReplayServer, fixtures_dir: Path) -> None:
    doi = "10.1073/pnas.1414271111"
    serve_crossref(server, doi, fixtures_dir / "crossref/works/10.1073_pnas.1414271111.json")
    work = run(crossref.fetch, server.url + "/crossref", doi)
    assert work is not None and work.doi == doi and work.sources == ["crossref"]


def test_openalex_pdf_urls_skip_closed_locations_and_repeats_of_the_best_one(fixtures_dir: Path) -> None:
    data = json.loads((fixtures_dir / "openalex/works/doi_10.1073_pnas.1414271111.json").read_text())
    urls = ["https://europepmc.org/articles/pmc4234579?pdf=render",
            "https://escholarship.org/content/qt4ws805f2/qt4ws805f2.pdf?t=rt3n16"]
    assert openalex.oa_pdf_urls(data) == urls
    # OpenAlex's best_oa_location is one of the locations: listed first, and only once.
    data["best_oa_location"] = data["locations"][2]
    assert openalex.oa_pdf_urls(data) == urls[::-1]
