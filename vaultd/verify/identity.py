"""Whether a PDF is still the work its note records: title, DOI or first author on its
first page. A corrected or re-downloaded copy keeps them; another paper shows none."""

from __future__ import annotations

from pathlib import Path

from vaultd.capture.pdfmeta import read_pdf_meta
from vaultd.capture.reconcile import normalise_title, titles_roughly_match
from vaultd.errors import VaultdError
from vaultd.models import NoteMeta


def _family(author: str) -> str:
    """The family name of a ``"Given Family"`` string, folded like a title."""
    words = normalise_title(author).split()
    return words[-1] if words else ""


def is_other_work(pdf: Path, meta: NoteMeta) -> bool:
    """True when ``pdf``'s first page shows none of the record's title, DOI and first
    author (the record names at least one); False when one shows, or the file cannot be
    read (the parse that follows reports that)."""
    title = normalise_title(meta.title)
    doi = (meta.doi or "").casefold()
    family = _family(meta.authors[0]) if meta.authors else ""
    if not (title or doi or family):
        return False
    try:
        found = read_pdf_meta(pdf)
    except VaultdError:
        return False
    page = f" {normalise_title(found.first_page_text)} "
    if title and (titles_roughly_match(meta.title, found.first_page_title) or f" {title} " in page):
        return False
    if doi and (doi in (d.casefold() for d in found.dois) or doi in found.first_page_text.casefold()):
        return False
    return not (family and f" {family} " in page)
