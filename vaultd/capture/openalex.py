"""OpenAlex ``/works/doi:<doi>`` (or the arXiv DOI form) provider → partial Work.

``id``/``doi`` are full URLs; ``abstract_inverted_index`` is often null; a 404 is HTML.
The OA locations feed the PDF search (``oa_pdf_urls``).
"""

from __future__ import annotations

import re
from typing import Any

from vaultd.capture.http import Fetcher
from vaultd.capture.jsonapi import api_url, get_json, orcid_id, pdf_urls
from vaultd.capture.names import clean_text, date_parts, make_author, make_work, split_name
from vaultd.models import Author, CSLType, Work

SOURCE = "openalex"

_TYPES: dict[str, CSLType] = {
    "article": "article-journal",
    "book-chapter": "chapter",
    "book": "book",
    "dissertation": "thesis",
    "preprint": "article",
    "dataset": "dataset",
    "report": "report",
}


def works_url(base: str, doi: str, email: str | None = None) -> str:
    return api_url(base, "works/doi:", doi, email)


def arxiv_doi(arxiv_id: str) -> str:
    """The DataCite DOI arXiv mints for every paper (OpenAlex indexes it)."""
    return f"10.48550/arxiv.{arxiv_id}".lower()


def _abstract(index: Any) -> str | None:
    if not isinstance(index, dict) or not index:
        return None
    slots: dict[int, str] = {}
    for word, positions in index.items():
        for pos in positions or []:
            slots[int(pos)] = word
    return " ".join(slots[i] for i in sorted(slots)) or None


def _author(a: dict[str, Any]) -> Author:
    name = (a.get("author") or {}).get("display_name") or a.get("raw_author_name") or ""
    author = split_name(name) if name else make_author(literal="Anonymous")
    orcid = orcid_id((a.get("author") or {}).get("orcid"))
    if orcid is not None:
        author.orcid = orcid
    return author


def oa_pdf_urls(data: dict[str, Any]) -> list[str]:
    """PDF URLs of the OA locations, best first."""
    return pdf_urls([data.get("best_oa_location"), *(data.get("locations") or [])], "pdf_url")


def parse_work(data: dict[str, Any]) -> Work:
    doi_url = data.get("doi")
    doi = str(doi_url).split("doi.org/", 1)[-1].lower() if doi_url else None
    source = ((data.get("primary_location") or {}).get("source") or {})
    biblio = data.get("biblio") or {}
    first, last = biblio.get("first_page"), biblio.get("last_page")
    title = data.get("title") if data.get("title") is not None else data.get("display_name")
    pdfs = oa_pdf_urls(data)
    work = make_work(
        type=_TYPES.get(str(data.get("type", "")), "article-journal"),
        title=clean_text(title) if isinstance(title, str) else None,
        authors=[_author(a) for a in data.get("authorships") or []],
        issued=date_parts(data.get("publication_date"))
        or ([int(data["publication_year"])] if data.get("publication_year") else None),
        container_title=clean_text(source.get("display_name")),
        volume=biblio.get("volume"),
        issue=biblio.get("issue"),
        page=f"{first}-{last}" if first and last and first != last else first,
        doi=doi,
        abstract=_abstract(data.get("abstract_inverted_index")),
        pdf_url=pdfs[0] if pdfs else None,
        sources=[SOURCE],
    )
    if doi and doi.startswith("10.48550/arxiv."):
        work.arxiv_id = doi.removeprefix("10.48550/arxiv.")
        work.doi = None
    elif doi and (arxiv_id := _arxiv_location(data)):
        # The published record lists its arXiv preprint among its locations.
        work.arxiv_id = arxiv_id
        work.doi_preprint = f"10.48550/arxiv.{arxiv_id}"
        work.doi_published = doi
    return work


def _arxiv_location(data: dict[str, Any]) -> str | None:
    for loc in data.get("locations") or []:
        url = (loc or {}).get("landing_page_url") or ""
        m = re.search(r"arxiv\.org/abs/([^\s?#]+?)(?:v\d+)?$", str(url))
        if m:
            return m.group(1)
    return None


async def fetch_json(fetcher: Fetcher, base: str, doi: str) -> dict[str, Any] | None:
    # OpenAlex serves HTML error pages for some failures: not JSON means no record.
    return await get_json(fetcher, works_url(base, doi, fetcher.email), source=SOURCE,
                          label="OpenAlex", doi=doi, not_json_is_error=False)


async def fetch(fetcher: Fetcher, base: str, doi: str) -> Work | None:
    data = await fetch_json(fetcher, base, doi)
    return parse_work(data) if data is not None else None


async def fetch_with_pdfs(fetcher: Fetcher, base: str, doi: str) -> tuple[Work | None, list[str]]:
    """The Work and every OA PDF location OpenAlex lists, best first."""
    data = await fetch_json(fetcher, base, doi)
    if data is None:
        return None, []
    return parse_work(data), oa_pdf_urls(data)
