"""The parser contract: every tier turns a PDF into the same typed blocks.

Coordinates: ``bbox`` is ``(x0, y0, x1, y1)`` in PDF points, origin at the top-left of
the page's CropBox, y growing downward (PyMuPDF's convention). ``pdf_rect`` is the same
box in PDF user space ``(left, bottom, right, top)``, the form PDF++ links read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from vaultd.models import ChunkType
from vaultd.parse.folios import BandLine, Evidence

#: ``progress(done_pages, total_pages)``
ProgressFn = Callable[[int, int], None]

Box = tuple[float, float, float, float]


@dataclass
class Block:
    """One typed piece of a document, in reading order."""

    type: ChunkType
    text: str
    page: int  # 1-based PDF page index
    page_label: str | None = None
    bbox: Box | None = None
    pdf_rect: Box | None = None
    section: str | None = None  # heading text this block sits under
    section_token: str = "0"  # the s{...} part of chunk ids
    markdown: str | None = None
    figure_region: Box | None = None  # where the figure itself is drawn (above its caption)
    pieces: list[tuple[int, str]] = field(default_factory=list)  # contiguous (page, text) runs
    refs: list[str] = field(default_factory=list)
    ocr: bool = False
    ocr_confidence: float | None = None
    page_end: int | None = None  # last page when a paragraph runs across a page break
    #: ``(page, bbox, pdf_rect)`` of every place the block is set, in reading order: one
    #: per column or page it runs across (``bbox``/``pdf_rect`` above are the first).
    regions: list[tuple[int, Box, Box]] = field(default_factory=list)
    text_layer: str | None = None  # "unreliable": glyphs mapped to no or wrong text


@dataclass
class ParsedDocument:
    parser: str
    parser_version: str
    pages: int
    blocks: list[Block]
    warnings: list[str] = field(default_factory=list)
    textless_pages: list[int] = field(default_factory=list)  # 1-based, no text layer
    repaired: bool = False  # MuPDF rebuilt the xref: a textless page may be lost fonts, not a scan
    #: ``graphics_rects`` of the pages whose graphics the parse read (figure pages), by
    #: 1-based page: the figure crops reuse them instead of reading the drawings again.
    graphics: dict[int, list[Box]] = field(default_factory=dict)
    #: Each page's head, foot and margin lines and what the document says of its pages
    #: (``/PageLabels``, the range page one prints): the printed page labels are decided
    #: from them (``vaultd.parse.folios``) once the record's own first page is known.
    #: None from a tier that does not read them (the labels are then read apart).
    folio_pages: list[list[BandLine]] | None = None
    folio_evidence: Evidence | None = None
    ocr_pages: list[int] = field(default_factory=list)  # 1-based: textless pages tesseract read text on
    ocr_unread: bool = False  # textless pages were left unread: no OCR reader (tesseract absent, OCR off)


#: Reads a page without a text layer by OCR: a PyMuPDF page → its lines
#: (``vaultd.parse.ocr.read_page``'s ``OcrLine``s), None when it cannot (no tesseract).
OcrReader = Callable[[Any], "list[Any] | None"]


class Parser(Protocol):
    name: str

    @property
    def version(self) -> str: ...

    def parse(self, pdf: Path, progress: ProgressFn | None = None) -> ParsedDocument: ...


def user_rect(bbox: Box, to_user: tuple[float, ...]) -> Box:
    """Top-left page box → PDF user space ``(left, bottom, right, top)``.

    ``to_user`` is the inverse of PyMuPDF's ``page.transformation_matrix`` as
    ``(a, b, c, d, e, f)``; it carries the CropBox offset and the y flip.
    """
    a, b, c, d, e, f = to_user
    x0, y0, x1, y1 = bbox
    ux0, uy0 = a * x0 + c * y0 + e, b * x0 + d * y0 + f
    ux1, uy1 = a * x1 + c * y1 + e, b * x1 + d * y1 + f
    return (round(min(ux0, ux1), 2), round(min(uy0, uy1), 2), round(max(ux0, ux1), 2), round(max(uy0, uy1), 2))
