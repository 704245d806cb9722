"""The user's highlights on a compiled note's chunks: those the record keeps (Zotero's,
brought in by `vaultd import`) and those embedded in the PDF itself, placed by position
and text (``notes.highlight_match``) as the compile stage writes the note.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from vaultd.importers import Annotation, page_words, read_pdf_highlights
from vaultd.models import Chunk, Highlight, HighlightSource, MetaFile
from vaultd.notes.highlight_match import place, same_mark


def as_highlight(a: Annotation, source: HighlightSource) -> Highlight | None:
    """A highlight or underline of a PDF page as the record keeps it; None for other
    annotations (notes, ink, images) and for one without a page."""
    if a.kind not in ("highlight", "underline") or a.page is None:
        return None
    return Highlight(source=source, key=a.key or None, kind=a.kind, color=a.color,
                     comment=a.comment, page=a.page, page_label=a.page_label,
                     rects=[list(r) for r in a.rects], text=a.text, author=a.author)


def highlights_of(annotations: Iterable[Annotation], source: HighlightSource
                  ) -> list[Highlight]:
    return [h for h in (as_highlight(a, source) for a in annotations) if h is not None]


def attach_highlights(pdf: Path, meta: MetaFile, chunks: Sequence[Chunk]) -> list[str]:
    """Set each chunk's ``highlights``: the record's, then the PDF's own that are not the
    same marks (Zotero also lists the PDF's as its own). Returns a warning for each
    highlight that lies in no passage of the note."""
    stored = list(meta.highlights)
    embedded = [h for h in highlights_of(read_pdf_highlights(pdf), "pdf")
                if not any(same_mark(h, s) for s in stored)]
    every = stored + embedded
    if not every:
        return []
    placed = place(every, chunks, page_words(pdf, {h.page for h in every}))
    for chunk in chunks:
        chunk.highlights = placed.by_chunk.get(chunk.id, [])
    return [f"highlight on PDF page {h.page}"
            + (f" ({h.text[:40]!r})" if h.text else "")
            + " lies in no passage of the note (a running head, a figure or an empty page);"
            " it is not shown" for h in placed.unplaced]
