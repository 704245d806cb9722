"""The verbatim check: is each paragraph found in an independent extraction of its page?

The reference is poppler's ``pdftotext`` (reading-order, ``-raw`` and ``-layout`` modes),
each page's lines joined by the same layout repairs (vaultd.parse.layout) and then
canonicalised (vaultd.canonical). A paragraph counts as verbatim when its canonical text
is a substring of one mode's text of its page (or its page and the next, for paragraphs
that run over a page break), or when each contiguous piece of it is (paragraphs joined
across a column break with a caption or footnote between the pieces).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from vaultd.canonical import canonical_text
from vaultd.parse.base import Block
from vaultd.parse.layout import join_lines
from vaultd.parse.pdftotext import run_pdftotext

MODES = ((), ("-raw",), ("-layout",))


@dataclass
class VerbatimReport:
    checked: int = 0
    found: int = 0
    misses: list[tuple[int, str]] = field(default_factory=list)  # (page, text)

    @property
    def share(self) -> float:
        return self.found / self.checked if self.checked else 1.0


def reference_pages(pdf: Path) -> list[list[str]]:
    """For each mode, the canonical text of every page (index 0 = page 1)."""
    out: list[list[str]] = []
    for mode in MODES:
        pages = run_pdftotext(pdf, *mode).split("\f")
        out.append([canonical_text(join_lines(p.splitlines())) for p in pages])
    return out


def _in_pages(text: str, refs: list[list[str]], first: int, last: int) -> bool:
    for pages in refs:
        hay = " ".join(pages[first - 1 : last])
        if text in hay:
            return True
    return False


def check_blocks(pdf: Path, blocks: list[Block], kinds: tuple[str, ...] = ("paragraph",)) -> VerbatimReport:
    refs = reference_pages(pdf)
    report = VerbatimReport()
    for block in blocks:
        if block.type not in kinds:
            continue
        text = canonical_text(block.text)
        if not text:
            continue
        report.checked += 1
        last = block.page_end or block.page
        ok = _in_pages(text, refs, block.page, min(last + 1, len(refs[0])))
        if not ok and len(block.pieces) > 1:
            ok = all(
                _in_pages(canonical_text(piece), refs, page, page) for page, piece in block.pieces
            )
        if ok:
            report.found += 1
        else:
            report.misses.append((block.page, text))
    return report
