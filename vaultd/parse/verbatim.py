"""The verbatim check: is each paragraph found in an independent extraction of its page?

The reference is poppler's ``pdftotext`` (reading-order, ``-raw`` and ``-layout`` modes),
each page's lines joined by the same layout repairs (vaultd.parse.layout) and then
canonicalised (vaultd.canonical). A paragraph counts as verbatim when its canonical text
is a substring of one mode's text of its page (or its page and the next, for paragraphs
that run over a page break), or when each contiguous piece of it is (paragraphs joined
across a column break with a caption or footnote between the pieces).

Word spaces are not characters of most PDF text layers: every extractor infers them from
glyph gaps. vaultd decides them at font, size and baseline changes with the rule of
poppler's raw-order mode (vaultd.parse.pymupdf.space_between), so they agree with
``-raw``; plain ``pdftotext`` spaces such marks more eagerly (``dataset16 ,``), and MuPDF's
own spaces inside a run can still differ. A glyph the font maps to no Unicode comes out as
U+FFFD from one extractor and a control character from the other. So the report also gives
the share found when spaces and those stand-ins are ignored; the exact share is the one
that counts.
"""

from __future__ import annotations

import re
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
    found_ignoring_spaces: int = 0  # also found when every space is ignored
    misses: list[tuple[int, str]] = field(default_factory=list)  # (page, text)

    @property
    def share(self) -> float:
        return self.found / self.checked if self.checked else 1.0

    @property
    def share_ignoring_spaces(self) -> float:
        return self.found_ignoring_spaces / self.checked if self.checked else 1.0


def reference_pages(pdf: Path) -> list[list[str]]:
    """For each mode, the canonical text of every page (index 0 = page 1)."""
    out: list[list[str]] = []
    for mode in MODES:
        pages = run_pdftotext(pdf, *mode).split("\f")
        out.append([canonical_text(join_lines(p.splitlines())) for p in pages])
    return out


_UNMAPPED_RE = re.compile("[\ufffd\x00-\x1f\x7f-\x9f]")


def _loose(text: str) -> str:
    """No spaces, no unmapped-glyph stand-ins (PyMuPDF writes U+FFFD, poppler a control
    character, for a glyph whose font maps it to no Unicode)."""
    return _UNMAPPED_RE.sub("", "".join(text.split()))


def _in_pages(text: str, refs: list[list[str]], first: int, last: int, spaces: bool = True) -> bool:
    for pages in refs:
        hay = " ".join(pages[first - 1 : last])
        if not spaces:
            hay, text = _loose(hay), _loose(text)
        if text in hay:
            return True
    return False


def _found(block: Block, refs: list[list[str]], spaces: bool) -> bool:
    text = canonical_text(block.text)
    last = block.page_end or block.page
    if _in_pages(text, refs, block.page, min(last + 1, len(refs[0])), spaces):
        return True
    return len(block.pieces) > 1 and all(
        _in_pages(canonical_text(piece), refs, page, page, spaces) for page, piece in block.pieces
    )


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
        if _found(block, refs, spaces=True):
            report.found += 1
            report.found_ignoring_spaces += 1
            continue
        if _found(block, refs, spaces=False):
            report.found_ignoring_spaces += 1
        report.misses.append((block.page, text))
    return report
