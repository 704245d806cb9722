"""The user's highlights as a note shows them under their chunk (pure).

Each is an Obsidian callout after the chunk's page link: the words it marks, taken from the
chunk's verbatim text by its span (never from what the reader stored), its colour, printed
page and comment. A highlight whose stored text is not the PDF's text there opens a
warning callout instead ("text differs from the PDF") showing both. The callout is a view:
the highlight itself is kept in the chunk's provenance block (``highlights``) and read
back from there; every callout line starts with ``>``, so nothing the user typed in a
comment can be read as a marker, a fence or the quote.
"""

from __future__ import annotations

from typing import Any

from vaultd.models import Chunk, ChunkHighlight
from vaultd.notes.escape import escape

#: Zotero's annotation colours by name (its reader's palette).
COLOR_NAMES = {"#ffd400": "yellow", "#ff6666": "red", "#5fb236": "green", "#2ea8e5": "blue",
               "#a28ae5": "purple", "#e56eee": "magenta", "#f19837": "orange",
               "#aaaaaa": "grey", "#ffff00": "yellow"}
SOURCE_NAMES = {"zotero": "Zotero", "pdf": "the PDF"}
STORED_BY = {"zotero": "Zotero stored", "pdf": "The annotation stores"}
DIFFERS = "text differs from the PDF"


def color_name(color: str | None) -> str | None:
    """'yellow' for Zotero's '#ffd400'; another colour as it is written."""
    if not color:
        return None
    return COLOR_NAMES.get(color.lower(), color)


def span_text(chunk: Chunk, h: ChunkHighlight) -> str | None:
    """The words the highlight marks, from the chunk's verbatim text."""
    if h.span is None:
        return None
    start, end = h.span
    return chunk.text[start:end] if 0 <= start < end <= len(chunk.text) else None


def page_text(chunk: Chunk, h: ChunkHighlight) -> str:
    """The printed page the reader showed ('p. 217'), else the chunk's printed page on the
    highlight's page, else the PDF page, said as such."""
    prov = chunk.provenance
    if h.page_label:
        return f"p. {h.page_label}"
    if prov.page_label and h.page in (None, prov.page):
        return f"p. {prov.page_label}"
    return f"p. {h.page or prov.page} of the PDF"


def _quoted(text: str) -> list[str]:
    lines = ("“" + escape(text) + "”").split("\n")
    return [f"> {line}" for line in lines]


def highlight_lines(chunk: Chunk) -> list[str]:
    """The callouts of the chunk's highlights (none: []), each followed by a blank line."""
    out: list[str] = []
    for h in chunk.highlights:
        what = "Your underline" if h.kind == "underline" else "Your highlight"
        facts = [f for f in (color_name(h.color), page_text(chunk, h),
                             f"from {SOURCE_NAMES.get(h.source, h.source)}",
                             f"by {h.author}" if h.author else None) if f]
        marked = span_text(chunk, h)
        if h.status == "differs":
            out.append(f"> [!warning] {what} ({', '.join(facts)}): {DIFFERS}")
            if h.text:
                out += [f"> {STORED_BY.get(h.source, h.source)}:", *_quoted(h.text)]
            out += (["> The PDF reads there:", *_quoted(marked)] if marked
                    else ["> The PDF has no text there."])
        else:
            out.append(f"> [!quote] {what} ({', '.join(facts)})")
            out += _quoted(marked) if marked else ["> The PDF has no text there."]
        if h.comment and h.comment.strip():
            comment = escape(h.comment.strip()).split("\n")
            out += [f"> **Comment:** {comment[0]}", *(f"> {line}" for line in comment[1:])]
        out.append("")
    return out


def highlight_json(chunk: Chunk, h: ChunkHighlight) -> dict[str, Any]:
    """A highlight as `quote` gives it: the marked words (``quote``, from the verbatim
    text by ``span``), whether they are what the reader stored, and its facts."""
    return {"quote": span_text(chunk, h), "span": h.span, "status": h.status,
            "verified": h.status == "verified" and h.span is not None,
            "stored_text": h.text, "kind": h.kind, "color": h.color,
            "color_name": color_name(h.color), "comment": h.comment,
            "page": h.page or chunk.provenance.page, "printed_page": page_text(chunk, h),
            "page_label": h.page_label, "source": h.source,
            "key": h.key, "author": h.author}
