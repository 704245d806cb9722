"""CrossRef ``/works/{doi}`` provider: DOI → partial Work.

Real shapes handled: ``issued`` of ``[[null]]``, year-only or full dates; titles as
arrays with embedded newlines; no ``author`` at all; JATS abstracts; a plain-text 404
("Resource not found.") and a JSON 400; arXiv DOIs (DataCite) answering 404.
"""

from __future__ import annotations

import re
from typing import Any

from vaultd.capture.http import Fetcher
from vaultd.capture.jsonapi import api_url, get_json, orcid_id
from vaultd.capture.names import clean_text, make_author, make_work
from vaultd.models import Author, CSLType, Work

SOURCE = "crossref"

_TYPES: dict[str, CSLType] = {
    "journal-article": "article-journal",
    "proceedings-article": "paper-conference",
    "book-chapter": "chapter",
    "book": "book",
    "monograph": "book",
    "edited-book": "book",
    "dissertation": "thesis",
    "report": "report",
    "posted-content": "article",
    "dataset": "dataset",
}


def works_url(base: str, doi: str, email: str | None = None) -> str:
    return api_url(base, "works/", doi, email)


def _first(value: Any) -> str | None:
    if isinstance(value, list):
        value = value[0] if value else None
    return clean_text(value) if isinstance(value, str) else None


def _date(obj: Any) -> list[int] | None:
    parts = (obj or {}).get("date-parts") if isinstance(obj, dict) else None
    if not parts or not parts[0] or parts[0][0] is None:
        return None
    return [int(p) for p in parts[0] if p is not None]


def _author(a: dict[str, Any]) -> Author:
    orcid = orcid_id(a.get("ORCID"))
    if a.get("family"):
        return make_author(family=clean_text(a["family"]), given=clean_text(a.get("given")),
                      suffix=a.get("suffix"), orcid=orcid)
    return make_author(literal=clean_text(a.get("name")) or "Anonymous", orcid=orcid)


def strip_jats(text: str | None) -> str | None:
    if not text:
        return None
    return clean_text(re.sub(r"<[^>]+>", " ", text)) or None


def _relation_doi(rel: dict[str, Any], name: str) -> str | None:
    for item in rel.get(name) or []:
        if isinstance(item, dict) and item.get("id-type") == "doi" and item.get("id"):
            return str(item["id"]).lower()
    return None


def parse_work(message: dict[str, Any]) -> Work:
    doi = str(message.get("DOI", "")).lower() or None
    rel = message.get("relation") or {}
    ctype = str(message.get("type", ""))
    issued = _date(message.get("issued")) or _date(message.get("published-print")) \
        or _date(message.get("published-online"))
    isbn = message.get("ISBN")
    issn = message.get("ISSN")
    work = make_work(
        type=_TYPES.get(ctype, "article-journal"),
        title=_first(message.get("title")),
        authors=[_author(a) for a in message.get("author") or []],
        editors=[_author(a) for a in message.get("editor") or []],
        issued=issued,
        container_title=_first(message.get("container-title")),
        volume=message.get("volume"),
        issue=message.get("issue"),
        page=message.get("page"),
        number=message.get("article-number"),
        publisher=clean_text(message.get("publisher")),
        doi=doi,
        isbn=isbn[0] if isinstance(isbn, list) and isbn else None,
        issn=issn[0] if isinstance(issn, list) and issn else None,
        url=f"https://doi.org/{doi}" if doi else None,
        abstract=strip_jats(message.get("abstract")),
        sources=[SOURCE],
    )
    published = _relation_doi(rel, "is-preprint-of")
    preprint = _relation_doi(rel, "has-preprint")
    if published or ctype == "posted-content":
        work.doi_preprint = doi
        work.doi_published = published
    if preprint:
        work.doi_preprint = preprint
        work.doi_published = doi
    return work


async def fetch(fetcher: Fetcher, base: str, doi: str) -> Work | None:
    """CrossRef's record for ``doi``; None on 404/400 (unknown or not a CrossRef DOI)."""
    data = await get_json(fetcher, works_url(base, doi, fetcher.email), source=SOURCE,
                          label="CrossRef", doi=doi, not_json_is_error=True)
    message = data.get("message") if data is not None else None
    return parse_work(message) if isinstance(message, dict) else None
