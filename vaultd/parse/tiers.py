"""One entry point for compile and verify: pick the tier, parse, OCR textless pages."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from vaultd.errors import ParseError
from vaultd.gcpause import gc_paused
from vaultd.parse.base import OcrReader, ParsedDocument, ProgressFn
from vaultd.parse.chunker import select_parser


def parse_pdf(
    pdf: Path,
    parser: str = "auto",
    *,
    ocr: bool = True,
    ocr_language: str = "eng",
    progress: ProgressFn | None = None,
) -> ParsedDocument:
    """Parse ``pdf`` with the chosen tier; pages without a text layer go to tesseract.

    Raises ParseError when nothing readable comes out (e.g. a scan without tesseract).
    """
    tier = select_parser(parser)
    with gc_paused():
        if tier.name == "pymupdf":  # (the other tiers read no scan)
            doc = tier.parse(pdf, progress, ocr=_reader(ocr_language) if ocr else None)  # type: ignore[call-arg]
        else:
            doc = tier.parse(pdf, progress)
    if doc.ocr_unread:
        if len(doc.textless_pages) == doc.pages or not doc.blocks:
            raise ParseError(
                f"{pdf}: no text layer (scanned?); install tesseract-ocr and enable parse.ocr to OCR it"
            )
        doc.warnings.append(
            f"pages {', '.join(map(str, doc.textless_pages))} have no text layer and were not OCRed"
        )
    if doc.ocr_pages:
        # lazy: vaultd.parse.ocr costs 10 ms at import (pulls in subprocess)
        from vaultd.parse.ocr import tesseract_version

        doc.parser_version = f"{doc.parser_version}+tesseract-{tesseract_version()}"
        doc.warnings.append(f"OCR (lower-trust quotes) on pages {', '.join(map(str, doc.ocr_pages))}")
    if not doc.blocks:
        if doc.textless_pages and not doc.ocr_unread:
            raise ParseError(f"{pdf}: OCR found no text; check the scan or the OCR language")
        raise ParseError(f"{pdf}: no text extracted; try --parser pymupdf")
    return doc


def _reader(language: str) -> OcrReader:
    """Reads a page by tesseract, in ``language``: its lines, or None when tesseract is not
    installed (the pages are then left unread, with a warning). Nothing is imported or
    looked up until a page needs it."""
    return functools.partial(_read, language=language)


def _read(page: Any, language: str) -> list[Any] | None:
    # read_page is looked up at each call, so that tests can stand in for tesseract
    # lazy: vaultd.parse.ocr costs 10 ms at import (pulls in subprocess)
    from vaultd.parse import ocr

    return ocr.read_page(page, language) if ocr.tesseract_available() else None
