"""The chunks of eval/quotes' real pages, parsed once a test session, and the lookups the
layout tests make in them (``tests/test_parse_layout24.py``, ``…25.py``)."""

from __future__ import annotations

import functools
from pathlib import Path

from vaultd.models import Chunk
from vaultd.parse.chunker import chunk_blocks
from vaultd.parse.pymupdf import PyMuPDFParser

QUOTES = Path(__file__).resolve().parents[1] / "eval" / "quotes" / "pdfs"


@functools.cache
def chunks_of(name: str) -> list[Chunk]:
    """The chunks of ``eval/quotes/pdfs/<name>``."""
    return chunk_blocks(PyMuPDFParser().parse(QUOTES / name).blocks, "pymupdf")


def holding(chunks: list[Chunk], words: str) -> Chunk:
    """The first chunk whose text holds ``words``."""
    return next(c for c in chunks if words in c.text)


def chunk_type(chunk: Chunk) -> str:
    return chunk.provenance.chunk_type


def pages_of(chunk: Chunk) -> list[int]:
    """The PDF pages of a chunk's regions, in order (one a piece)."""
    return [int(r[0]) for r in chunk.provenance.regions or []]


def paragraphs_of(name: str) -> list[str]:
    """The texts of ``eval/quotes/pdfs/<name>``'s paragraph chunks."""
    return [c.text for c in chunks_of(name) if chunk_type(c) == "paragraph"]
