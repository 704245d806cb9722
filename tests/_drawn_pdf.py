"""Generated PDFs whose contents are known: pages drawn with PyMuPDF, then parsed by
vaultd's PyMuPDF tier (the layout-rule tests' pages)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from vaultd.parse.base import ParsedDocument
from vaultd.parse.pymupdf import PyMuPDFParser, load_pymupdf

A4 = (595.0, 842.0)
LETTER = (612.0, 792.0)


def drawn_pdf(path: Path, *draws: Callable[[Any], None],
              page_size: tuple[float, float] = A4) -> ParsedDocument:
    """One page per ``draw(page)``, saved to ``path`` and parsed by the PyMuPDF tier."""
    doc = load_pymupdf().open()
    for draw in draws:
        draw(doc.new_page(width=page_size[0], height=page_size[1]))
    doc.save(path)
    doc.close()
    return PyMuPDFParser().parse(path)


def draw_lines(page: Any, x: float, y: float, lines: list[str], size: float = 10.0,
               font: str = "helv", leading: float = 13.0) -> float:
    """``lines`` set one under the other from ``(x, y)``; returns the next line's y."""
    for line in lines:
        page.insert_text((x, y), line, fontsize=size, fontname=font)
        y += leading
    return y
