"""Unpaywall ``/v2/{doi}?email=…`` provider → partial Work with the best OA PDF URL.

``best_oa_location`` is null when closed; ``url_for_pdf`` can be null even for gold OA;
``z_authors`` can be null. Without an email Unpaywall is skipped (its terms require one).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from vaultd.capture.http import Fetcher
from vaultd.capture.jsonapi import get_json, pdf_urls
from vaultd.capture.names import clean_text, date_parts, make_author, make_work, split_name
from vaultd.models import Author, Work

SOURCE = "unpaywall"


def v2_url(base: str, doi: str, email: str) -> str:
    return f"{base.rstrip('/')}/v2/{quote(doi, safe='/:;()<>')}?email={quote(email)}"


def oa_pdf_urls(data: dict[str, Any]) -> list[str]:
    return pdf_urls([data.get("best_oa_location"), *(data.get("oa_locations") or [])],
                    "url_for_pdf")


def _author(a: dict[str, Any]) -> Author:
    # Older records carry CrossRef-style family/given; newer ones only raw_author_name.
    if a.get("family"):
        return make_author(family=clean_text(a.get("family")), given=clean_text(a.get("given")))
    return split_name(str(a["raw_author_name"]))


def parse_work(data: dict[str, Any]) -> Work:
    authors = [_author(a) for a in data.get("z_authors") or []
               if isinstance(a, dict) and (a.get("family") or a.get("raw_author_name"))]
    pdfs = oa_pdf_urls(data)
    issued = date_parts(data.get("published_date")) or (
        [int(data["year"])] if data.get("year") else None)
    doi = data.get("doi")
    return make_work(
        title=clean_text(data.get("title")),
        authors=authors,
        issued=issued,
        container_title=clean_text(data.get("journal_name")),
        publisher=clean_text(data.get("publisher")),
        doi=str(doi).lower() if doi else None,
        pdf_url=pdfs[0] if pdfs else None,
        sources=[SOURCE],
    )


async def fetch_json(fetcher: Fetcher, base: str, doi: str, email: str) -> dict[str, Any] | None:
    # 422: Unpaywall's answer for a string that is not a DOI it can look up.
    return await get_json(fetcher, v2_url(base, doi, email), source=SOURCE, label="Unpaywall",
                          doi=doi, not_json_is_error=False, not_found=(404, 422))


async def fetch(fetcher: Fetcher, base: str, doi: str, email: str) -> Work | None:
    data = await fetch_json(fetcher, base, doi, email)
    return parse_work(data) if data is not None else None
