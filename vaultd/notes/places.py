"""Where a chunk is, as a note (format 3) stores it: the page, rect and regions its page
links carry, the ``char_range`` that follows from the chunk before, rects in whole points.
Pure; ``vaultd.notes.markdown`` writes and reads notes with these."""

from __future__ import annotations

import re
from typing import Any

from vaultd.canonical import canonical_text
from vaultd.models import Note, Provenance
from vaultd.notes.pages import outward

#: One PDF page link as ``page_links`` writes it: page, optional whole-point rect, label.
_PAGE_LINK = r"\[\[raw/[^\]#|]+\.pdf#page=(\d+)(?:&rect=(-?\d+),(-?\d+),(-?\d+),(-?\d+))?\|[^\]|]+\]\]"
_PAGE_LINK_RE = re.compile(_PAGE_LINK)
#: A chunk's page links line (several, `` · ``-separated, for a chunk set in pieces).
PAGE_LINKS_RE = re.compile(f"{_PAGE_LINK}(?: · {_PAGE_LINK})*")


def next_range(text: str, prev: Provenance | None) -> list[int]:
    """The ``char_range`` a chunk of ``text`` has right after ``prev`` in its note: the
    document text is the chunks' canonical texts joined by one newline."""
    start = prev.char_range[1] + 1 if prev is not None and len(prev.char_range) == 2 else 0
    return [start, start + len(canonical_text(text))]


def as_stored(note: Note) -> Note:
    """``note`` as the current format stores it, so as ``parse_note(render_note(note))``
    reads it back: rects (``pdf_rect``, ``regions``) in whole points widened as the page
    links are, and no top-left ``bbox`` (a reader of a note uses the PDF-space rects)."""
    chunks = []
    for chunk in note.chunks:
        prov = chunk.provenance
        stored = prov.model_copy(update={
            "bbox": None,
            "pdf_rect": outward(prov.pdf_rect) if prov.pdf_rect else prov.pdf_rect,
            "regions": [[int(r[0]), *outward(r[1:])] for r in prov.regions] if prov.regions
            else prov.regions,
        })
        chunks.append(chunk.model_copy(update={"provenance": stored}))
    return note.model_copy(update={"chunks": chunks})


def linked_place(block: list[str]) -> dict[str, Any]:
    """``page``, ``pdf_rect`` and (for several) ``regions`` from a chunk's page links line;
    nothing when it has none (the provenance then lacks its page, and says so)."""
    line = next((ln for ln in block
                 if ln.startswith("[[raw/") and PAGE_LINKS_RE.fullmatch(ln)), None)
    if line is None:
        return {}
    pieces = [(int(m.group(1)), [int(v) for v in m.groups()[1:]] if m.group(2) else None)
              for m in _PAGE_LINK_RE.finditer(line)]
    page, rect = pieces[0]
    place: dict[str, Any] = {"page": page, "pdf_rect": rect}
    if len(pieces) > 1:
        place["regions"] = [[p, *(r or [])] for p, r in pieces]
    return place


def stored_place(prov: Provenance) -> dict[str, Any]:
    """``page``, ``pdf_rect`` and ``regions`` as the note stores them, in the form
    ``_linked_place`` reads them from page links: equal only when the links say it all."""
    place: dict[str, Any] = {"page": prov.page,
                             "pdf_rect": outward(prov.pdf_rect) if prov.pdf_rect else None}
    if prov.regions:
        place["regions"] = [[int(r[0]), *outward(r[1:])] for r in prov.regions]
    return place
