"""A draft's quote and the user's highlights (pure): whether the quote reproduces the words
a highlight marks in the chunk's verbatim text (its span: verified, since the quote was
found there), and whether it is instead the text a reader stored for a highlight that the
PDF does not print (``differs``): such text is never a verified quote."""

from __future__ import annotations

from collections.abc import Sequence

from vaultd.models import Chunk, ChunkHighlight
from vaultd.notes.highlights import color_name, page_text, span_text
from vaultd.verify.match import match_form

STORED_BY = {"zotero": "Zotero", "pdf": "the PDF's annotation"}


def _within(parts: Sequence[str], text: str) -> bool:
    form = match_form(text)
    low = form.casefold()
    return bool(parts) and all(p in form or p.casefold() in low for p in parts)


def marking(chunks: Sequence[Chunk], parts: Sequence[str]) -> tuple[Chunk, ChunkHighlight] | None:
    """The chunk and its verified highlight whose marked words hold every part of the quote
    (in match form), or None."""
    for chunk in chunks:
        for h in chunk.highlights:
            marked = span_text(chunk, h)
            if h.status == "verified" and marked and _within(parts, marked):
                return chunk, h
    return None


def stored_only(chunks: Sequence[Chunk], parts: Sequence[str]
                ) -> tuple[Chunk, ChunkHighlight] | None:
    """The chunk and its highlight whose *stored* text, which differs from the PDF's, holds
    the quote or is held by it: the quote copies the reader's text, not the source's."""
    quoted = " ".join(parts).casefold()
    for chunk in chunks:
        for h in chunk.highlights:
            if h.status == "differs" and h.text and (
                    _within(parts, h.text) or match_form(h.text).casefold() in quoted):
                return chunk, h
    return None


def described(chunk: Chunk, h: ChunkHighlight) -> str:
    """'your highlight (yellow, p. 12, from Zotero)'."""
    what = "your underline" if h.kind == "underline" else "your highlight"
    facts = [f for f in (color_name(h.color), page_text(chunk, h),
                         f"from {STORED_BY.get(h.source, h.source)}") if f]
    return f"{what} ({', '.join(facts)})"
