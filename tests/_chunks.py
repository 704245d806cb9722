"""Chunks as compile writes them (page 1, hashed, pymupdf), for tests that need a few."""

from __future__ import annotations

from vaultd.canonical import text_sha256
from vaultd.models import Chunk, ChunkType, Provenance


def make_chunk(cid: str, text: str, kind: ChunkType = "paragraph", *,
               section: str = "1 Introduction") -> Chunk:
    return Chunk(
        id=cid,
        text=text,
        provenance=Provenance(
            page=1,
            section=section,
            text_sha256=text_sha256(text),
            char_range=[0, len(text)],
            chunk_type=kind,
            parser="pymupdf",
        ),
    )
