"""One entry point for compile and verify: pick the tier, parse, OCR textless pages."""

from __future__ import annotations

from pathlib import Path

from vaultd.errors import ParseError
from vaultd.gcpause import gc_paused
from vaultd.parse.base import ParsedDocument, ProgressFn
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
        doc = tier.parse(pdf, progress)
    if doc.parser != "pymupdf" or not doc.textless_pages:
        if not doc.blocks:
            raise ParseError(f"{pdf}: no text extracted; try --parser pymupdf")
        return doc
    if doc.repaired and (lost := _lost_pages(pdf, doc.textless_pages)):
        # Pages of a repaired file that show no text and no image lost their fonts or
        # content streams (a cut-off download), they are not scans: OCR would turn a real
        # text layer into lower-trust quotes, so the file is refused instead. (An old
        # scanner's file is often repaired too; its pages, a blank one included, are images.)
        pages = ", ".join(map(str, lost))
        raise ParseError(
            f"{pdf}: PDF is damaged (pages {pages} lost their text when it was repaired; "
            "truncated download?); download it again"
        )
    # lazy: vaultd.parse.ocr costs 10 ms at import (pulls in subprocess)
    from vaultd.parse.ocr import ocr_page, tesseract_available, tesseract_version

    if not (ocr and tesseract_available()):
        if len(doc.textless_pages) == doc.pages or not doc.blocks:
            raise ParseError(
                f"{pdf}: no text layer (scanned?); install tesseract-ocr and enable parse.ocr to OCR it"
            )
        doc.warnings.append(
            f"pages {', '.join(map(str, doc.textless_pages))} have no text layer and were not OCRed"
        )
        return doc
    # lazy: vaultd.parse.pymupdf costs 44 ms at import (pulls in difflib)
    from vaultd.parse.pymupdf import open_pdf

    pdoc = open_pdf(pdf)
    try:
        ocr_blocks = [b for n in doc.textless_pages for b in ocr_page(pdoc[n - 1], ocr_language)]
    finally:
        pdoc.close()
    merged = sorted(doc.blocks + ocr_blocks, key=lambda b: b.page)  # stable: keeps reading order
    doc.blocks = merged
    read = sorted({b.page for b in ocr_blocks})  # (a blank page gives none, tesseract unasked)
    if read:
        doc.parser_version = f"{doc.parser_version}+tesseract-{tesseract_version()}"
        doc.warnings.append(f"OCR (lower-trust quotes) on pages {', '.join(map(str, read))}")
    if not doc.blocks:
        raise ParseError(f"{pdf}: OCR found no text; check the scan or the OCR language")
    return doc


def _lost_pages(pdf: Path, textless: list[int]) -> list[int]:
    """Those of the ``textless`` pages (1-based) that draw no image either: nothing on
    them a scanner made, so their content was lost."""
    # lazy: vaultd.parse.pymupdf costs 44 ms at import (pulls in difflib)
    from vaultd.parse.pymupdf import open_pdf

    pdoc = open_pdf(pdf)
    try:
        return [n for n in textless if not pdoc[n - 1].get_images()]
    finally:
        pdoc.close()
