"""Read what each PDF page prints in its head, foot and side margins, with PyMuPDF, and
hand it to ``vaultd.parse.folios`` to decide the printed page of every PDF page.

The PyMuPDF-facing half of page labels: one text extraction a page (``get_text("blocks")``;
the interpreter run costs the same clipped or not, so one unclipped run gives all four
bands at once), plus ``/PageLabels``.
``labels_for`` is the entry point; a parser that already holds each page's lines hands
them to ``band_lines`` instead and pays no second extraction.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from vaultd.errors import ParseError
from vaultd.parse.base import ParsedDocument
from vaultd.parse.folio_bands import (
    band_lines,
    block_lines,
    dict_lines,
    document_evidence,
    labels_from_rules,
    page_labels,
)
from vaultd.parse.folios import (
    BandLine,
    Evidence,
    PageLabel,
    decide_labels,
)
from vaultd.parse.mupdf import load_pymupdf, mupdf_text
from vaultd.parse.pymupdf import open_pdf

__all__ = [
    "band_lines",
    "block_lines",
    "dict_lines",
    "document_evidence",
    "document_labels",
    "labels_for",
    "labels_from",
    "labels_from_rules",
    "page_band_lines",
    "page_labels",
    "read_document",
    "record_first_page",
]

def page_band_lines(page: Any) -> list[BandLine]:
    """What one PyMuPDF page prints in its head, foot and side margins.

    The page is read whole, as text blocks: the content stream is run whole clipped or
    not, and blocks cost a third of words or dict to hand over to Python. Rotated pages
    are read in their own, rotated, coordinates.
    """
    pymupdf = load_pymupdf()
    blocks = page.get_text("blocks", flags=pymupdf.TEXT_MEDIABOX_CLIP)
    rect = page.rect
    return band_lines(block_lines(blocks), rect.width, rect.height)


def read_document(doc: Any) -> tuple[list[list[BandLine]], Evidence]:
    """Every page's band lines and the document's evidence from an open PyMuPDF document."""
    with mupdf_text():
        pages = [page_band_lines(page) for page in doc]
    return pages, document_evidence(doc, pages[0] if pages else [])


def labels_for(pdf_path: Path | str, record_first_page: str | None = None) -> list[PageLabel]:
    """The printed page of every page of ``pdf_path`` (one ``PageLabel`` per PDF page).

    ``record_first_page``: the article's first page as CrossRef, OpenAlex or a ``.bib``
    give it, a second source that can confirm a label the PDF alone cannot. Raises
    ``ParseError`` for a PDF that cannot be opened.
    """
    doc = open_pdf(Path(pdf_path))
    try:
        pages, evidence = read_document(doc)
    finally:
        doc.close()
    return labels_from(pages, evidence, record_first_page)


def record_first_page(page: str | None) -> str | None:
    """The first page of a record's page range ("4969-4983" → "4969"; "e0123456" stays)."""
    if not page:
        return None
    first = re.split(r"\s*[-\u2010-\u2015]+\s*", page.strip(), maxsplit=1)[0]
    return first or None


def document_labels(doc: ParsedDocument, pdf: Path, record_page: str | None) -> list[PageLabel]:
    """The printed page of every page of a parsed PDF, decided with the record's own first
    page (``record_page``: the record's page range). A tier that read the page bands hands
    them over; for one that did not, the PDF is read for them."""
    first = record_first_page(record_page)
    if doc.folio_pages is not None and doc.folio_evidence is not None:
        return labels_from(doc.folio_pages, doc.folio_evidence, first)
    try:
        return labels_for(pdf, first)
    except ParseError:
        return []  # no page can be read for its folio: every page is cited as the PDF's


def labels_from(pages: Sequence[Sequence[BandLine]], evidence: Evidence,
                record_first_page: str | None = None) -> list[PageLabel]:
    """``labels_for`` on band lines already read (the parser's own lines, a test's)."""
    record = record_first_page.strip() if record_first_page else None
    ev = Evidence(evidence.page_labels, evidence.first_page_range, record or None)
    return decide_labels(pages, ev)
