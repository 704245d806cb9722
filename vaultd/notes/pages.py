"""What a chunk's provenance says to a reader: the pages it is on, printed as the paper
prints them, its links into the PDF, and the warnings its quote carries. Pure: the note
(``vaultd.notes.markdown``) and ``quote`` (``vaultd.lookup``) both show these."""

from __future__ import annotations

import math

from vaultd.citekey import key_to_filename
from vaultd.models import Chunk, Provenance
from vaultd.video.info import timestamp, watch_link


def _numeric(label: str | None) -> bool:
    # "²".isdigit() is true too, but it is no page number
    return label is not None and label.isascii() and label.isdigit()


def printed_page(prov: Provenance, page: int) -> str:
    """PDF page ``page`` of the chunk as printed: the chunk's page label counted on when it
    is a number, the label itself on the chunk's own page, else the PDF page number."""
    if page == prov.page:
        return prov.page_label or str(page)
    if _numeric(prov.page_label):
        return str(int(prov.page_label or 0) + page - prov.page)
    return str(page)


def pdf_page_only(prov: Provenance) -> bool:
    """True when no printed page was confirmed for the chunk: its page is the PDF's."""
    return prov.page_label is None and prov.page_label_source == "pdf"


def page_locator(prov: Provenance) -> str:
    """The page a chunk is on, as printed (``12``), or its range when it runs onto later
    pages (``12–13``: the printed label counted on, else PDF page numbers); a page no
    printed label was confirmed for is named as the PDF's (``2 of the PDF``)."""
    last = max((int(r[0]) for r in prov.regions or []), default=prov.page)
    suffix = " of the PDF" if pdf_page_only(prov) else ""
    if last == prov.page:
        return (prov.page_label or str(prov.page)) + suffix
    if prov.page_label is None or _numeric(prov.page_label):
        return f"{printed_page(prov, prov.page)}–{printed_page(prov, last)}{suffix}"
    return f"{prov.page}–{last} of the PDF"


def page_shown(prov: Provenance, page: int) -> str:
    """How a page link reads: ``p. 4970``, or ``p. 2 of the PDF`` when no printed page was
    confirmed."""
    return f"p. {printed_page(prov, page)}" + (" of the PDF" if pdf_page_only(prov) else "")


def chunk_warnings(prov: Provenance) -> list[tuple[str, str]]:
    """``(label, sentence)`` of each thing a quote's reader must know about its text: OCR'd,
    or from an unreliable text layer. ``quote`` gives the labels, the note the sentences."""
    out: list[tuple[str, str]] = []
    if prov.ocr:
        conf = "" if prov.ocr_confidence is None else f", confidence {prov.ocr_confidence:.2f}"
        out.append((f"OCR TEXT{conf}: check the quote against the PDF page",
                    f"OCR text{conf}: lower-trust quote, check it against the PDF page."))
    if prov.text_layer == "unreliable":
        out.append(("UNRELIABLE TEXT LAYER: some glyphs map to no text (�) or to the wrong "
                    "characters; check the quote against the PDF page",
                    "Unreliable text layer (glyphs mapped to no or wrong text): check the PDF page."))
    return out


def chunk_link(cite_key: str, chunk: Chunk) -> str:
    """Obsidian deep link to the chunk's page; with ``pdf_rect`` the PDF++ region form,
    one link per region (`` · ``-separated) when the chunk runs across columns or pages.

    Each rect is widened to whole points (floor left/bottom, ceil right/top) so the linked
    region always contains its piece of the chunk.
    """
    return page_links(cite_key, chunk, labels=False)


def page_links(cite_key: str, chunk: Chunk, *, labels: bool = True,
               video_id: str | None = None) -> str:
    """``chunk_link`` with each link shown as its printed page (``[[…|p. 103]]``) when
    ``labels``; a video chunk links to its time (``[3:15–4:20](https://youtu.be/…?t=195)``)."""
    prov = chunk.provenance
    if prov.start is not None and video_id:
        return time_link(video_id, prov.start, prov.end)
    regions = prov.regions or [[prov.page, *(prov.pdf_rect or [])]]
    return " · ".join(
        _page_link(cite_key, int(r[0]), r[1:], page_shown(prov, int(r[0])) if labels else None)
        for r in regions)


def outward(rect: list[float] | list[int | float]) -> list[int | float]:
    """``[left, bottom, right, top]`` widened to whole points (floor left/bottom, ceil
    right/top), so it still contains its piece of the page; non-finite values unchanged."""
    if len(rect) != 4 or not all(math.isfinite(v) for v in rect):
        return list(rect)
    x0, y0, x1, y1 = rect
    return [math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1)]


def _page_link(cite_key: str, page: int, rect: list[float] | list[int | float],
               shown: str | None = None) -> str:
    link = f"raw/{key_to_filename(cite_key)}.pdf#page={page}"
    if len(rect) == 4 and all(math.isfinite(v) for v in rect):
        link += "&rect=" + ",".join(str(p) for p in outward(rect))
    return f"[[{link}|{shown}]]" if shown else f"[[{link}]]"


def time_locator(start: float, end: float | None = None) -> str:
    """``3:15`` or ``3:15–4:20``: where a video passage is, as a viewer reads it."""
    if end is None or int(end) <= int(start):
        return timestamp(start)
    return f"{timestamp(start)}–{timestamp(end)}"


def time_link(video_id: str, start: float, end: float | None = None) -> str:
    """A Markdown link that opens the video at the passage."""
    return f"[{time_locator(start, end)}]({watch_link(video_id, start)})"


def ref_link(ref: str) -> str:
    """A ``doi:``/``arxiv:`` id as a Markdown link to its landing page."""
    kind, _, value = ref.partition(":")
    if kind == "doi":
        return f"[{ref}](https://doi.org/{value.replace(')', '%29').replace(' ', '%20')})"
    if kind == "arxiv":
        return f"[{ref}](https://arxiv.org/abs/{value})"
    return ref
