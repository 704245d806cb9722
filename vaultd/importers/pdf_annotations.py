"""Highlights the user made in the PDF file itself, and the words the PDF prints under them
(PyMuPDF's public API: ``page.annots()``, ``annot.vertices``, ``page.get_text("words")``).

A ``/Highlight`` or ``/Underline`` annotation marks one quadrilateral per line
(``QuadPoints``); PyMuPDF gives their corners in its page space (origin top-left of the
CropBox, y down), turned here into PDF user space, ``(left, bottom, right, top)``, the
convention of Zotero's positions and of ``Provenance.pdf_rect``. Its ``/Contents`` is the
comment the reader typed; the marked text is not stored in the annotation: it is read from
the page under it. Reading only; a PDF that cannot be read gives nothing.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from vaultd.importers.model import Annotation, AnnotationKind, Rect

#: A word on a page: (left, bottom, right, top) in PDF user space, and its text.
WordBox = tuple[float, float, float, float, str]

_KINDS: dict[str, AnnotationKind] = {"Highlight": "highlight", "Underline": "underline"}
_UNREADABLE = (RuntimeError, ValueError, OSError)  # what MuPDF raises for a broken file


def _open(pdf: Path) -> Any:
    # Loaded on first use (0.13 s): only the compile stage, which has loaded it, asks.
    pymupdf: Any = importlib.import_module("pymupdf")
    pymupdf.TOOLS.mupdf_display_errors(False)  # a broken file gives nothing, not noise
    return pymupdf.open(pdf, filetype="pdf")


def _to_user(page: Any) -> tuple[float, float, float, float, float, float]:
    inv = ~page.transformation_matrix
    return (inv.a, inv.b, inv.c, inv.d, inv.e, inv.f)


def _user_rect(points: Iterable[tuple[float, float]],
               m: tuple[float, float, float, float, float, float]) -> Rect:
    a, b, c, d, e, f = m
    xs, ys = [], []
    for x, y in points:
        xs.append(a * x + c * y + e)
        ys.append(b * x + d * y + f)
    return (round(min(xs), 2), round(min(ys), 2), round(max(xs), 2), round(max(ys), 2))


def _hex(rgb: Any) -> str | None:
    if not rgb or len(rgb) < 3:
        return None
    return "#" + "".join(f"{round(max(0.0, min(1.0, float(v))) * 255):02x}" for v in rgb[:3])


def read_pdf_highlights(pdf: Path) -> list[Annotation]:
    """The highlight and underline annotations embedded in ``pdf``, page by page; [] when
    it has none or cannot be read."""
    try:
        doc = _open(pdf)
    except _UNREADABLE:
        return []
    out: list[Annotation] = []
    try:
        if not doc.has_annots():
            return []
        for page in doc:
            m = _to_user(page)
            for n, annot in enumerate(page.annots() or ()):
                kind = _KINDS.get(annot.type[1])
                points = [(float(x), float(y)) for x, y in (annot.vertices or [])]
                if kind is None or len(points) < 4:
                    continue
                rects = tuple(_user_rect(points[i:i + 4], m) for i in range(0, len(points) - 3, 4))
                info = annot.info or {}
                out.append(Annotation(
                    key=str(info.get("id") or f"p{page.number + 1}a{n + 1}"), kind=kind,
                    text=None, comment=(info.get("content") or None),
                    color=_hex((annot.colors or {}).get("stroke")),
                    page_label=page.get_label() or None, page_index=page.number,
                    rects=rects, author=info.get("title") or None, external=True))
    except _UNREADABLE:
        return out
    finally:
        doc.close()
    return out


def page_words(pdf: Path, pages: Iterable[int]) -> dict[int, list[WordBox]]:
    """The words of each of ``pages`` (1-based) in the order the page's text gives them,
    each in PDF user space; a page that cannot be read has none."""
    wanted = sorted(set(pages))
    if not wanted:
        return {}
    try:
        doc = _open(pdf)
    except _UNREADABLE:
        return {}
    out: dict[int, list[WordBox]] = {}
    try:
        for number in wanted:
            if not 1 <= number <= doc.page_count:
                continue
            try:
                page = doc[number - 1]
                m = _to_user(page)
                out[number] = [(*_user_rect(((w[0], w[1]), (w[2], w[3])), m), str(w[4]))
                               for w in page.get_text("words")]
            except _UNREADABLE:
                out[number] = []
    finally:
        doc.close()
    return out
