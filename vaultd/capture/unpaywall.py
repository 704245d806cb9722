"""Unpaywall ``/v2/{doi}?email=…`` provider → partial Work with the best OA PDF URL.

``best_oa_location`` is null when closed; ``url_for_pdf`` can be null even for gold OA;
``z_authors`` can be null. Without an email Unpaywall is skipped (its terms require one).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from vaultd.capture.http import Fetcher
from vaultd.capture.names import clean_text, date_parts, make_author, make_work, split_name
from vaultd.errors import FetchError
from vaultd.models import Author, Work

SOURCE = "unpaywall"


def v2_url(base: str, doi: str, email: str) -> str:
    return f"{base.rstrip('/')}/v2/{quote(doi, safe='/:;()<>')}?email={quote(email)}"


def oa_pdf_urls(data: dict[str, Any]) -> list[str]:
    urls: list[str] = []
    for loc in [data.get("best_oa_location"), *(data.get("oa_locations") or [])]:
        if isinstance(loc, dict) and loc.get("url_for_pdf") and loc["url_for_pdf"] not in urls:
            urls.append(str(loc["url_for_pdf"]))
    return urls


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
    resp = await fetcher.get(v2_url(base, doi, email), source=SOURCE)
    if resp.status in (404, 422):
        return None
    if resp.status != 200:
        raise FetchError(f"Unpaywall answered HTTP {resp.status} for {doi}; retry later")
    try:
        data = json.loads(resp.body)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


async def fetch(fetcher: Fetcher, base: str, doi: str, email: str) -> Work | None:
    data = await fetch_json(fetcher, base, doi, email)
    return parse_work(data) if data is not None else None
