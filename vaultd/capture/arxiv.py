"""arXiv API (Atom) provider: id → partial Work.

Both Atom flavours in the wild are accepted (hard-wrapped older titles, 2026 one-line).
An invalid id answers 400 with a feed whose entry is titled "Error"; an unknown id
answers 200 with no entry: both mean "not found" (None).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from urllib.parse import quote

from vaultd.capture.detect import split_arxiv_version
from vaultd.capture.http import Fetcher
from vaultd.capture.names import clean_text, date_parts, make_work, split_name
from vaultd.errors import FetchError
from vaultd.models import Work

NS = {"a": "http://www.w3.org/2005/Atom", "arxiv": "http://arxiv.org/schemas/atom"}
SOURCE = "arxiv"
LIMITER = "arxiv"


def api_url(base: str, arxiv_id: str) -> str:
    return f"{base.rstrip('/')}?id_list={quote(arxiv_id, safe='')}"


def pdf_url(base: str, arxiv_id: str, version: int | None = None) -> str:
    return f"{base.rstrip('/')}/{arxiv_id}" + (f"v{version}" if version else "")


def parse_feed(xml_text: str, arxiv_id: str) -> Work | None:
    """The entry for ``arxiv_id`` (without version) in an API feed, or None."""
    try:
        root = ET.fromstring(xml_text)
    except ET.ParseError:
        return None
    for entry in root.findall("a:entry", NS):
        entry_id = (entry.findtext("a:id", "", NS) or "").strip()
        tail = entry_id.split("/abs/")[-1]
        base, version = split_arxiv_version(tail)
        if base != arxiv_id:
            continue
        title_el = entry.find("a:title", NS)
        if title_el is None:
            continue
        authors = [n.strip() for n in
                   (a.findtext("a:name", "", NS) for a in entry.findall("a:author", NS))]
        title = clean_text(title_el.text or "")
        if title == "Error" and authors == ["arXiv api core"]:
            return None
        primary = entry.find("arxiv:primary_category", NS)
        doi = entry.findtext("arxiv:doi", None, NS)
        journal_ref = entry.findtext("arxiv:journal_ref", None, NS)
        return make_work(
            type="article",
            title=title,
            authors=[split_name(n) for n in authors if n],
            issued=date_parts(entry.findtext("a:published", None, NS)),
            abstract=clean_text(entry.findtext("a:summary", None, NS)),
            arxiv_id=base,
            arxiv_version=version,
            arxiv_primary_class=primary.get("term") if primary is not None else None,
            doi_published=doi.strip().lower() if doi else None,
            journal_ref=clean_text(journal_ref),
            number=f"arXiv:{base}",
            publisher="arXiv",
            url=f"https://arxiv.org/abs/{base}",
            sources=[SOURCE],
        )
    return None


async def fetch(fetcher: Fetcher, api_base: str, arxiv_id: str) -> Work | None:
    """arXiv's record for ``arxiv_id``; None when arXiv does not know it."""
    url = api_url(api_base, arxiv_id)
    resp = await fetcher.get(url, source=SOURCE, limiter=LIMITER)
    if resp.status not in (200, 400):
        raise FetchError(f"arXiv answered HTTP {resp.status} for {arxiv_id}; retry later")
    return parse_feed(resp.text, arxiv_id)
