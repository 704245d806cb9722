"""The default tier: PyMuPDF text blocks → lines → typed blocks in reading order.

``import pymupdf`` happens inside ``parse`` so importing this module stays cheap.
Page furniture (running headers, footers, page numbers) is removed by ``vaultd.parse.furniture``; structure
(headings, paragraphs, references) is built by ``vaultd.parse.structure``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from vaultd.errors import ParseError
from vaultd.parse.base import Box, OcrReader, ParsedDocument, ProgressFn
from vaultd.parse.classify import is_figure_caption
from vaultd.parse.drawings import visible_drawings
from vaultd.parse.dropcaps import join_drop_caps
from vaultd.parse.figure_text import figure_text
from vaultd.parse.figures import graphics_rects
from vaultd.parse.folio_bands import band_lines, dict_lines, document_evidence
from vaultd.parse.folios import BandLine
from vaultd.parse.fontnames import face_name
from vaultd.parse.furniture import drop_furniture
from vaultd.parse.glyphs import TALL_LINE, glyph_extent, repair_glyphs, scan_spans
from vaultd.parse.hidden_text import drawn_as_outlines, white_on_white
from vaultd.parse.hyphens import hyphen_evidence
from vaultd.parse.layout import LAYOUT_VERSION
from vaultd.parse.line_numbers import drop_document_line_numbers
from vaultd.parse.line_pieces import drop_doubles, merge_same_baseline
from vaultd.parse.margins import Edges, mark_margin_notes, page_edges
from vaultd.parse.mupdf import load_pymupdf as load_pymupdf
from vaultd.parse.mupdf import mupdf_text as mupdf_text
from vaultd.parse.ocr_layer_lines import laid_word_by_word, reline
from vaultd.parse.paras import Line, PageInfo, body_size
from vaultd.parse.spans import join_spans, lead_mark, line_style, note_mark, span_face
from vaultd.parse.structure import build_blocks
from vaultd.parse.table_blocks import build_blocks_with_tables
from vaultd.parse.tables import can_open_caption
from vaultd.parse.textlayer import garbled


def open_pdf(pdf: Path) -> Any:
    """Open ``pdf`` with PyMuPDF, mapping every failure to a one-line ParseError."""
    pymupdf = load_pymupdf()

    if not pdf.is_file():
        raise ParseError(f"{pdf}: file not found; capture the source again")
    size = pdf.stat().st_size
    if size == 0:
        raise ParseError(f"{pdf}: file is empty (0 bytes); download the PDF again")
    with pdf.open("rb") as fh:
        head = fh.read(1024)
    if b"%PDF" not in head:
        raise ParseError(f"{pdf}: not a PDF (no %PDF header); replace it with the real PDF")
    try:
        doc = pymupdf.open(pdf, filetype="pdf")
    except Exception as exc:
        raise ParseError(f"{pdf}: damaged or truncated PDF, cannot be opened; download it again") from exc
    if doc.needs_pass:
        doc.close()
        raise ParseError(
            f"{pdf}: PDF is encrypted; save an unencrypted copy (e.g. `qpdf --decrypt`) and capture it"
        )
    if doc.page_count == 0:
        doc.close()
        raise ParseError(f"{pdf}: PDF has zero pages (truncated?); download it again")
    if doc.is_repaired and is_truncated(pdf):
        doc.close()
        raise ParseError(
            f"{pdf}: PDF is truncated (no startxref/%%EOF at its end; MuPDF could only "
            "rebuild part of it); download it again"
        )
    return doc


#: How far from the end a complete PDF keeps its ``startxref``/``%%EOF`` trailer (the
#: spec asks for the last 1024 bytes; some writers append a little junk after it).
TAIL_BYTES = 4096


def is_truncated(pdf: Path) -> bool:
    """Whether ``pdf`` lacks the closing ``startxref … %%EOF`` a complete PDF ends with.

    A download cut short loses it; a PDF that is merely damaged (a wrong xref offset)
    keeps it. Only consulted for files MuPDF had to repair, so a valid PDF is never
    rejected on this test alone.
    """
    size = pdf.stat().st_size
    with pdf.open("rb") as fh:
        fh.seek(max(0, size - TAIL_BYTES))
        tail = fh.read()
    return b"%%EOF" not in tail or b"startxref" not in tail


def page_labels(doc: Any) -> list[str | None]:
    """Each page's printed label by the document's ``/PageLabels`` rules (None: no label),
    as ``Page.get_label`` gives it, but with the rules read once for the whole document
    (``get_label`` reads and parses them all again for every page)."""
    rules = sorted(doc.get_page_labels(), key=lambda r: r["startpage"])
    out: list[str | None] = []
    k = -1
    for pno in range(doc.page_count):
        while k + 1 < len(rules) and rules[k + 1]["startpage"] <= pno:
            k += 1
        if k < 0:
            out.append(None)
            continue
        rule = rules[k]
        style = rule.get("style", "")
        number = pno - rule["startpage"] + rule["firstpagenum"] - (1 if style in ("a", "A") else 0)
        out.append((rule.get("prefix", "") + _label_number(style, number)) or None)
    return out


_ROMAN = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
          (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


def _label_number(style: str, number: int) -> str:
    """A page label's number in its style (PyMuPDF's ``construct_label``): ``D`` decimal,
    ``r``/``R`` roman, ``a``/``A`` letters (0 is ``A``, 26 ``AA``), none for any other."""
    if style == "D":
        return str(number)
    if style in ("r", "R"):
        out = []
        for value, letters in _ROMAN:
            times = number // value
            out.append(letters * times)
            number -= value * times
            if number <= 0:
                break
        roman = "".join(out)
        return roman.lower() if style == "r" else roman
    if style in ("a", "A"):
        width, rest = 1, number
        while 26 ** width <= rest:
            rest -= 26 ** width
            width += 1
        letters = ""
        for j in reversed(range(width)):
            digit, rest = divmod(rest, 26 ** j)
            letters += "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[digit]
        return letters.lower() if style == "a" else letters
    return ""


def text_page(source: Any, flags: int) -> Any:
    """A ``TextPage`` of a page or a display list. (PyMuPDF documents
    ``DisplayList.get_textpage`` as returning one; 1.28 returns MuPDF's own stext page,
    which the ``TextPage`` class wraps.)"""
    pymupdf = load_pymupdf()
    tp = source.get_textpage(flags=flags)
    return tp if isinstance(tp, pymupdf.TextPage) else pymupdf.TextPage(tp)


def display_list(page: Any) -> Any | None:
    """The page's display list, or None for a rotated page (whose display list is in the
    unrotated space, while vaultd reads text in the page's own). Its content only, without
    the annotations laid over it: a reader's or proofreader's notes (``“datasets is
    pooled” should be …`` in a typewriter box over a proof's margin), a form's filled
    fields, are no text of the work's."""
    return None if page.rotation else page.get_displaylist(annots=False)


def _read_page(page: Any, flags: int, dl: Any | None = None,
               bands: list[list[BandLine]] | None = None) -> list[Line]:
    """The page's lines as MuPDF gives them (``_finish_page`` makes them the printed
    lines); ``dl``: its display list (the text is read from it, the content
    stream is not run a second time). ``bands``: gets the page's head, foot and margin
    lines appended (for its printed page label), read from the same data."""
    lines: list[Line] = []
    with mupdf_text():
        textpage = text_page(dl if dl is not None else page, flags)
        data = textpage.extractDICT()
        scan = scan_spans(data)
        repair_glyphs(page, textpage, data, flags, scan)
    if bands is not None:
        rect = page.rect
        page_size = rect.width, rect.height
        bands.append(band_lines(dict_lines(data, page_size), *page_size))
    # Text drawn invisibly on a page that shows most of its text is not what the page shows
    # (PLOS's hidden proof queries inside sentences, a diagram's invisible labels); where
    # most or all of it is invisible, it is a scan's OCR layer, and is read.
    hide = 0 < scan.hidden < scan.shown
    # (an OCR layer's typewriter face, Courier laid invisibly over a scan, sets no code)
    ocr_layer = scan.hidden > 0 and scan.hidden >= scan.shown
    bboxlog = functools.cache(page.get_bboxlog)  # (read once, when either check needs it)
    unseen = white_on_white(bboxlog, data)
    outlines = drawn_as_outlines(bboxlog, data) if hide else set()
    number = page.number + 1
    for bno, block in enumerate(data["blocks"]):
        if block.get("type", 0) != 0:
            continue
        for line in block["lines"]:
            dx, dy = line["dir"]
            if abs(dy) > 0.01 or dx <= 0:
                continue  # rotated text (arXiv stamps, sidebars) is not body text
            spans = line["spans"]
            if len(spans) == 1:  # half the lines: join_spans and line_style's one-span case
                sp = spans[0]
                text = sp["text"]
                if not text.strip() or not (sp["alpha"] or not hide or id(sp) in outlines) or id(sp) in unseen:
                    continue
                font = sp["font"]
                size = round(sp["size"], 1)
                bold, italic, mono = span_face(font, sp["flags"])
                mono = mono and not ocr_layer
                bold = bold or id(sp) in outlines  # (Chromium draws a face it lacks, bold, as outlines)
                mixed, lead, face_lead, lead_font, small_caps, mark, first_mark = False, "", "", "", False, "", ""
                lead_bold = False
            else:
                spans = [s for s in spans if s["text"] and (s["alpha"] or not hide or id(s) in outlines)
                         and id(s) not in unseen]
                if not spans:
                    continue
                text = join_spans(spans)
                if not text.strip():
                    continue
                size, font, bold, italic, mono, mixed, lead, face_lead, lead_font, small_caps = line_style(spans)
                mono = mono and not ocr_layer
                mark, first_mark = note_mark(spans, size), lead_mark(spans, size)
                bold = bold or (bool(outlines) and all(id(s) in outlines for s in spans))
                lead_bold = bool(lead) and span_face(spans[0]["font"], spans[0]["flags"])[0]
            x0, y0, x1, y1 = line["bbox"]
            if y1 - y0 > TALL_LINE * max(size, 1.0):
                y0, y1 = glyph_extent(spans, y0, y1)
            lines.append(Line(text, (x0, y0, x1, y1), size, bold, bno, number, italic,
                              face_name(font), mixed, mono, lead=lead,
                              face_lead=face_lead, lead_font=lead_font, small_caps=small_caps, note_mark=mark,
                              lead_mark=first_mark, lead_bold=lead_bold))
    if ocr_layer and laid_word_by_word(lines):
        lines = reline(lines)  # (an OCR layer laid a word a line: its printed lines put back)
    return lines


def _finish_page(lines: list[Line], edges: Edges) -> list[Line]:
    """A page's lines as read (``_read_page``) → its printed lines: margin notes set
    apart (before one is merged into the line on its baseline), the pieces of a line
    MuPDF split put together, lines drawn twice read once, a dropped capital put back in
    front of its word."""
    lines = join_drop_caps(lines)
    mark_margin_notes(lines, edges)
    return drop_doubles(merge_same_baseline(lines))


def _drop_figure_text(pdf_pages: Sequence[Any], pages: list[list[Line]],
                      drawings: dict[int, list[dict[str, Any]]],
                      lists: dict[int, Any] | None = None) -> dict[int, list[Box]]:
    """Remove the text drawn inside figures (``vaultd.parse.figure_text.figure_text``), in
    place: only pages with a figure caption are looked at (``pdf_pages``: the document's
    loaded pages). Returns those pages' ``graphics_rects`` (1-based page → boxes);
    ``drawings`` keeps their drawings (0-based)."""
    body = body_size(pages)
    graphics: dict[int, list[Box]] = {}
    for i, lines in enumerate(pages):
        # (not a body line that merely wraps to open with a label: PLoS Genetics' ``… is
        # illustrated in`` | ``Figure S2. In the extreme cases …`` under Table 1, whose
        # drawing had become that "figure" and its text dropped with the line under it)
        captions = [ln for ln in lines if is_figure_caption(ln.text) and can_open_caption(ln, lines)]
        if not captions:
            continue
        page = pdf_pages[i]
        drawings[i] = visible_drawings(page)
        dl = (lists or {}).get(i)
        images = None if dl is None else text_page(dl, load_pymupdf().TEXT_PRESERVE_IMAGES).extractIMGINFO()
        graphics[i + 1] = graphics_rects(page, drawings[i], images)
        inside = figure_text(page, lines, captions, body, graphics[i + 1])
        if inside:
            pages[i] = [ln for j, ln in enumerate(lines) if j not in inside]
    return graphics


def _read_textless(pdf: Path, doc: Any, loaded: list[Any], pages: list[list[Line]], textless: list[int],
                   ocr: OcrReader | None) -> list[int] | None:
    """Read the pages without a text layer by OCR, in place (their lines become the
    page's); returns those it found text on, None when they could not be read. A repaired file's textless page that draws no
    image either lost its fonts or content (a cut-off download), it is no scan: OCR would
    turn a real text layer into lower-trust quotes, so the file is refused instead. (An
    old scanner's file is often repaired too; its pages, a blank one included, are images.)"""
    if doc.is_repaired and (lost := [n for n in textless if not loaded[n - 1].get_images()]):
        raise ParseError(
            f"{pdf}: PDF is damaged (pages {', '.join(map(str, lost))} lost their text when it was "
            "repaired; truncated download?); download it again"
        )
    if ocr is None:
        return None
    # lazy: vaultd.parse.ocr costs 10 ms at import (pulls in subprocess)
    from vaultd.parse.ocr import to_lines

    seen = {}
    for n in textless:
        got = ocr(loaded[n - 1])
        if got is None:
            return None  # no tesseract
        seen[n] = got
    has_text = [lines for lines in pages if lines]
    lines = to_lines({n: got for n, got in seen.items() if got}, body_size(has_text) if has_text else None)
    for n, page_lines in lines.items():
        pages[n - 1] = page_lines
    return sorted(lines)


class PyMuPDFParser:
    """PyMuPDF tier: text with boxes, fonts, reading order and structure."""

    name = "pymupdf"

    @property
    def version(self) -> str:
        """PyMuPDF's version and vaultd's layout rules, e.g. ``1.26.3+layout2``."""
        return f"{load_pymupdf().VersionBind}+layout{LAYOUT_VERSION}"

    def parse(self, pdf: Path, progress: ProgressFn | None = None, ocr: OcrReader | None = None) -> ParsedDocument:
        """``ocr``: reads a page without a text layer (``vaultd.parse.ocr.read_page``), or
        None when it cannot; its lines are then that page's text."""
        pymupdf = load_pymupdf()

        doc = open_pdf(pdf)
        try:
            # Ligatures are expanded by MuPDF itself: with TEXT_PRESERVE_LIGATURES the
            # word gap after a ligature glyph is lost ("staﬀthat"). No TEXT_PRESERVE_IMAGES:
            # image bytes make extraction ~3x slower. No TEXT_PRESERVE_WHITESPACE: MuPDF
            # then writes tabs and other horizontal whitespace as plain spaces, which the
            # canonical form does anyway, and extraction takes ~40 % less time (the same
            # blocks, boxes included, on every fixture PDF).
            flags = pymupdf.TEXT_MEDIABOX_CLIP
            labels = page_labels(doc)
            pages: list[list[Line]] = []
            bands: list[list[BandLine]] = []
            infos: list[PageInfo] = []
            n = doc.page_count
            loaded: list[Any] = []  # each page is loaded once (figures and tables look again)
            lists: dict[int, Any] = {}  # display lists of the pages with a figure caption
            for page in doc:
                loaded.append(page)
                try:
                    dl = display_list(page)
                    lines = _read_page(page, flags, dl, bands)
                except Exception as exc:  # MuPDF raises plain RuntimeError on broken streams
                    raise ParseError(
                        f"{pdf}: page {page.number + 1} cannot be read ({exc}); download the PDF again"
                    ) from exc
                pages.append(lines)
                if dl is not None and any(is_figure_caption(ln.text) for ln in lines):
                    lists[page.number] = dl
                inv = ~page.transformation_matrix
                rect = page.rect
                infos.append(
                    PageInfo(
                        number=page.number + 1,
                        label=labels[page.number],
                        width=rect.width,
                        height=rect.height,
                        to_user=(inv.a, inv.b, inv.c, inv.d, inv.e, inv.f),
                        has_images=False,
                    )
                )
                if progress:
                    progress(page.number + 1, n)
            # a margin's line numbers go before a line's pieces are joined: beside a line's
            # baseline, the number would become its first word (LIPIcs' review copies)
            pages = drop_document_line_numbers(pages)
            pages = [_finish_page(lines, edges) for lines, edges in zip(pages, page_edges(pages), strict=True)]
            warnings = []
            if doc.is_repaired:
                warnings.append("the PDF was damaged and repaired while reading; check the note")
            unreadable = [i for i, lines in enumerate(pages) if lines and garbled([ln.text for ln in lines])]
            if unreadable:  # letters mapped to symbols: read as a scan is, its text dropped
                warnings.append(f"pages {', '.join(str(i + 1) for i in unreadable)} map their letters to "
                                "symbols (a broken font map): read as scans")
                for i in unreadable:
                    pages[i] = []
            textless = [i + 1 for i, lines in enumerate(pages) if not lines]
            read = _read_textless(pdf, doc, loaded, pages, textless, ocr) if textless else []
            drop_furniture(pages, [p.height for p in infos], [p.width for p in infos])
            drawings: dict[int, list[dict[str, Any]]] = {}  # get_cdrawings, read once a page
            graphics = _drop_figure_text(loaded, pages, drawings, lists)
            lists.clear()
            with hyphen_evidence(ln.text for lines in pages for ln in lines):
                blocks = build_blocks_with_tables(loaded, pages, infos, self.name, build=build_blocks,
                                                  drawings=drawings)
            return ParsedDocument(
                self.name, self.version, n, blocks, warnings, textless, repaired=doc.is_repaired,
                graphics=graphics, folio_pages=bands,
                folio_evidence=document_evidence(doc, bands[0] if bands else []),
                ocr_pages=read or [], ocr_unread=read is None,
            )
        finally:
            doc.close()

