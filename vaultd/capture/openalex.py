"""OpenAlex ``/works/doi:<doi>`` (or the arXiv DOI form) provider → partial Work.

``id``/``doi`` are full URLs; ``abstract_inverted_index`` is often null; a 404 is HTML.
The OA locations feed the PDF search (``oa_pdf_urls``). The CSL type comes from
``type_crossref`` through CrossRef's table when OpenAlex gives it (so both sources agree),
else from OpenAlex's own ``type``. ``is_retracted`` becomes ``retracted`` and a notice.
"""

from __future__ import annotations

import re
from typing import Any

from vaultd.capture import crossref
from vaultd.capture.http import Fetcher
from vaultd.capture.jsonapi import api_url, get_json, orcid_id, pdf_urls
from vaultd.capture.names import date_parts, make_work, split_name
from vaultd.formats import markup
from vaultd.models import Author, CSLType, Notice, Work

SOURCE = "openalex"

# OpenAlex work type (https://api.openalex.org/works?group_by=type) → CSL item type, used
# only when the record has no ``type_crossref``. Journal content of every kind (review,
# editorial, letter, erratum, retraction) is an article-journal.
TYPES: dict[str, CSLType] = {
    "article": "article-journal",
    "review": "article-journal",
    "editorial": "article-journal",
    "letter": "article-journal",
    "erratum": "article-journal",
    "retraction": "article-journal",
    "book-chapter": "chapter",
    "book": "book",
    "dissertation": "thesis",
    "preprint": "article",
    "dataset": "dataset",
    "report": "report",
    "standard": "standard",
    "peer-review": "review",
    "reference-entry": "entry-encyclopedia",
    "libguides": "webpage",
    "paratext": "document",
    "supplementary-materials": "document",
    "grant": "document",
    "other": "document",
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


def csl_type(data: dict[str, Any]) -> CSLType:
    crossref_type = data.get("type_crossref")
    if isinstance(crossref_type, str) and crossref_type.strip():
        return crossref.csl_type(crossref_type)
    return TYPES.get(str(data.get("type") or "").strip().lower(), crossref.UNKNOWN_TYPE)


def _author(a: Any) -> Author | None:
    """One authorship as a CSL name; None when it names nobody (never invented)."""
    if not isinstance(a, dict):
        # A shape the parser does not know: the capture names the source and goes on.
        raise TypeError(f"an authorship is a {type(a).__name__}, not an object")
    person: dict[str, Any] = a["author"] if isinstance(a.get("author"), dict) else {}
    name = " ".join(str(person.get("display_name") or a.get("raw_author_name") or "").split())
    if not name:
        return None
    author = split_name(name)
    orcid = orcid_id(person.get("orcid"))
    if orcid is not None:
        author.orcid = orcid
    return author


def _text(value: Any) -> tuple[str | None, str | None]:
    """(plain, rich) of a title-like field that may carry HTML markup."""
    if not isinstance(value, str) or not value.strip():
        return None, None
    plain, rich = markup.parse(value)
    return plain or None, rich


def oa_pdf_urls(data: dict[str, Any]) -> list[str]:
    """PDF URLs of the OA locations, best first."""
    return pdf_urls([data.get("best_oa_location"), *(data.get("locations") or [])], "pdf_url")


def parse_work(data: dict[str, Any]) -> Work:
    doi_url = data.get("doi")
    doi = str(doi_url).split("doi.org/", 1)[-1].lower() if doi_url else None
    source = ((data.get("primary_location") or {}).get("source") or {})
    biblio = data.get("biblio") or {}
    first, last = biblio.get("first_page"), biblio.get("last_page")
    title, title_rich = _text(data.get("title") if data.get("title") is not None
                              else data.get("display_name"))
    pdfs = oa_pdf_urls(data)
    retracted = data.get("is_retracted") is True
    authors = (_author(a) for a in data.get("authorships") or [])
    work = make_work(
        type=csl_type(data),
        title=title,
        title_rich=title_rich,
        authors=[a for a in authors if a is not None],
        issued=date_parts(data.get("publication_date"))
        or ([int(data["publication_year"])] if data.get("publication_year") else None),
        container_title=_text(source.get("display_name"))[0],
        volume=biblio.get("volume"),
        issue=biblio.get("issue"),
        page=f"{first}-{last}" if first and last and first != last else first,
        doi=doi,
        abstract=_abstract(data.get("abstract_inverted_index")),
        language=data.get("language") if isinstance(data.get("language"), str) else None,
        pdf_url=pdfs[0] if pdfs else None,
        retracted=retracted,
        notices=[Notice(kind="retraction", source=SOURCE, label="is_retracted")]
        if retracted else [],
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
