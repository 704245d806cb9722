"""Typed blocks → ``Chunk``s with ids, hashes and character ranges; tier selection.

* ids are ``p{page}s{section}c{n}``: ``section`` is the heading number without dots
  (``3.2`` → ``32``) or ``0`` + the heading's ordinal for unnumbered headings, and ``n``
  counts from 1 within each (page, section). Unique within a note by construction, and
  stable because the parse is deterministic.
* ``text`` is the canonical text (vaultd.canonical) of the block; ``text_sha256`` its hash.
* ``char_range`` is ``[start, end)`` into the document text: every chunk's canonical text
  in note order, joined by one ``"\\n"``.
"""

from __future__ import annotations

import importlib.util
import shutil
from collections import Counter
from collections.abc import Sequence

from vaultd.canonical import canonical_sha256, canonical_text
from vaultd.errors import InputError
from vaultd.models import Chunk, Provenance
from vaultd.parse.base import Block, Parser
from vaultd.parse.folios import PageLabel

PARSERS = ("auto", "pymupdf", "marker", "pdftotext")


def document_text(chunks: list[Chunk]) -> str:
    """The text ``char_range`` indexes into."""
    return "\n".join(c.text for c in chunks)


def regions_of(block: Block) -> list[list[int | float]] | None:
    """``Provenance.regions`` of a block: its pieces' user-space rects, when several."""
    if len(block.regions) < 2:
        return None
    return [[page, *rect] for page, _, rect in block.regions]


def with_page_labels(chunks: list[Chunk], labels: Sequence[PageLabel]) -> list[Chunk]:
    """The chunks with the printed page of their (first) PDF page: the label when it is
    confirmed or inferred, else none, and where it came from (``pdf``: cite the PDF page).
    ``labels`` holds one ``PageLabel`` per PDF page."""
    out = []
    for chunk in chunks:
        prov = chunk.provenance
        if prov.start is not None:  # a video: its locator is a time
            out.append(chunk)
            continue
        label = labels[prov.page - 1] if 0 < prov.page <= len(labels) else None
        confirmed = label is not None and label.status != "pdf" and label.label is not None
        update = {"page_label": label.label if label and confirmed else None,
                  "page_label_source": label.source if label and confirmed else "pdf",
                  "page_label_status": label.status if label and confirmed else None}
        out.append(chunk.model_copy(update={"provenance": prov.model_copy(update=update)}))
    return out


def chunk_blocks(blocks: list[Block], parser: str) -> list[Chunk]:
    chunks: list[Chunk] = []
    counters: Counter[tuple[int, str]] = Counter()
    offset = 0
    for block in blocks:
        text = canonical_text(block.text)
        if not text:
            continue
        key = (block.page, block.section_token)
        counters[key] += 1
        start = offset
        offset += len(text) + 1
        chunks.append(
            Chunk(
                id=f"p{block.page}s{block.section_token}c{counters[key]}",
                text=text,
                markdown=block.markdown,
                figure=None,
                key_sentence=None,
                refs=list(block.refs),
                provenance=Provenance(
                    page=block.page,
                    page_label=block.page_label,
                    section=block.section,
                    bbox=list(block.bbox) if block.bbox else None,
                    pdf_rect=list(block.pdf_rect) if block.pdf_rect else None,
                    regions=regions_of(block),
                    text_sha256=canonical_sha256(text),
                    char_range=[start, start + len(text)],
                    chunk_type=block.type,
                    parser=parser,
                    ocr=block.ocr,
                    ocr_confidence=block.ocr_confidence,
                    text_layer=block.text_layer,
                ),
            )
        )
    return chunks


def marker_available() -> bool:
    try:
        return importlib.util.find_spec("marker") is not None
    except (ImportError, ValueError):
        return False


def select_parser(name: str) -> Parser:
    """The parser for ``name``; ``auto`` picks Marker when ``marker-pdf`` is installed
    (falling back to PyMuPDF, with a warning, when its models cannot be loaded), else PyMuPDF."""
    if name not in PARSERS:
        raise InputError(f"unknown parser {name!r}; use one of {', '.join(PARSERS)}")
    if name == "pdftotext":
        # lazy: vaultd.parse.pdftotext costs 14 ms at import (pulls in subprocess)
        from vaultd.parse.pdftotext import PdftotextParser

        if shutil.which("pdftotext") is None:
            raise InputError("pdftotext is not installed; install poppler-utils or use --parser pymupdf")
        return PdftotextParser()
    # lazy: vaultd.parse.pymupdf costs 80 ms at import (pulls in difflib)
    from vaultd.parse.pymupdf import PyMuPDFParser

    if name == "marker":
        if not marker_available():
            raise InputError("the marker tier needs marker-pdf (pip install marker-pdf); "
                             "use --parser pymupdf")
        # lazy: vaultd.parse.marker costs 31 ms at import
        from vaultd.parse.marker import MarkerParser

        return MarkerParser()
    if name == "auto" and marker_available():
        # lazy: vaultd.parse.marker costs 31 ms at import
        from vaultd.parse.marker import MarkerParser

        return MarkerParser(fallback=PyMuPDFParser())
    return PyMuPDFParser()
