"""The verbatim check: is each paragraph found in an independent extraction of its page?

The reference is poppler's ``pdftotext`` (reading-order, ``-raw`` and ``-layout`` modes),
each page's lines joined by the same layout repairs (vaultd.parse.layout) and then
canonicalised (vaultd.canonical). A paragraph counts as verbatim when its canonical text
is a substring of one mode's text of its page (or its page and the next, for paragraphs
that run over a page break), or when each contiguous piece of it is (paragraphs joined
across a column break with a caption or footnote between the pieces).

Word spaces are not characters of most PDF text layers: every extractor infers them from
glyph gaps. vaultd decides them at font, size and baseline changes with the rule of
poppler's raw-order mode (vaultd.parse.spans.space_between), so they agree with
``-raw``; plain ``pdftotext`` spaces such marks more eagerly (``dataset16 ,``), and MuPDF's
own spaces inside a run can still differ. So the report also gives the share found when
spaces are ignored; the exact share is the one that counts.

A glyph the font maps to no Unicode has no text to compare: the quote shows it as U+FFFD
(layout rule 5), while poppler drops a NUL code, leaves a space where the glyph was, or
passes another control code through. In the comparison each U+FFFD of a quote therefore
stands for one of exactly those (``occurs_in``); every other character must match. A glyph
that poppler maps to a *letter* (its raw code, e.g. ``k`` for ``∥`` in a TeX symbol font)
still counts as a miss.

A control code that takes no room on the page (InDesign's *Indent to Here* mark, U+0007)
is left out of a quote (``vaultd.parse.glyphs.drop_markers``) while poppler passes it
through: the comparison lets the reference's control codes be missing from the quote.

A piece of a paragraph that ends in a line-end hyphen is looked up without that hyphen,
since the join with the next piece decides whether it stays (layout rule 2).
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from vaultd.canonical import canonical_text
from vaultd.parse.base import Block
from vaultd.parse.hyphens import hyphen_evidence
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
    """For each mode, the canonical text of every page (index 0 = page 1). The three
    pdftotext processes run at once (each a thread waiting on its process)."""
    out: list[list[str]] = []
    with ThreadPoolExecutor(len(MODES)) as pool:
        texts = list(pool.map(lambda mode: run_pdftotext(pdf, *mode), MODES))
    for text in texts:
        with hyphen_evidence(text.splitlines()):  # the same rule 2 as the quotes got
            out.append([canonical_text(join_lines(p.splitlines())) for p in text.split("\f")])
    return out


_UNMAPPED_RE = re.compile("[\ufffd\x00-\x1f\x7f-\x9f]")


def _loose(text: str) -> str:
    """No spaces, no unmapped-glyph stand-ins (PyMuPDF writes U+FFFD, poppler a control
    character, for a glyph whose font maps it to no Unicode)."""
    return _UNMAPPED_RE.sub("", "".join(text.split()))


#: What an extractor may write for a glyph that has no Unicode: nothing (poppler drops a
#: NUL code), a space (the gap the dropped glyph leaves), or its own stand-in.
_UNMAPPED_ALT = "(?:[ \ufffd\x00-\x1f\x7f-\x9f])?"


#: The same for a glyph standing alone between two spaces: dropped, its two spaces are one
#: after canonicalisation (``x � y`` vs ``x y``).
_UNMAPPED_WORD_ALT = "(?:[\ufffd\x00-\x1f\x7f-\x9f] )?"


def _pattern(text: str) -> re.Pattern[str] | None:
    """For a text with unmapped glyphs (U+FFFD): a pattern in which each of them stands
    for ``_UNMAPPED_ALT`` (``_UNMAPPED_WORD_ALT`` between spaces); every other character
    must match exactly. None without any, or without a single mapped character to match."""
    parts = text.split("\ufffd")
    if len(parts) == 1 or not "".join("".join(parts).split()):
        return None
    out = [re.escape(parts[0])]
    for part in parts[1:]:
        if out[-1].endswith(" ") and part.startswith(" "):
            out += [_UNMAPPED_WORD_ALT, re.escape(part[1:])]
        else:
            out += [_UNMAPPED_ALT, re.escape(part)]
    return re.compile("".join(out))


def occurs_in(quote: str, reference: str) -> bool:
    """Whether a canonical quote occurs in a canonical reference text, character for
    character, except that each unmapped glyph (U+FFFD) of the quote may be written as
    nothing, a space or a stand-in there (``_UNMAPPED_ALT``), and that a control code of
    the reference (U+FFFD once canonical) may be missing from the quote: a mark that takes
    no room, which the quote leaves out (``glyphs.drop_markers``: InDesign's ``\x07``)."""
    if quote in reference:
        return True
    pattern = _pattern(quote)
    if pattern is not None and pattern.search(reference) is not None:
        return True
    if "\ufffd" not in reference:
        return False
    bare = reference.replace("\ufffd", "")
    return quote in bare or (pattern is not None and pattern.search(bare) is not None)


def _in_pages(text: str, refs: list[list[str]], first: int, last: int, spaces: bool = True) -> bool:
    for pages in refs:
        hay = " ".join(pages[first - 1 : last])
        if spaces:
            if occurs_in(text, hay):
                return True
        elif _loose(text) in _loose(hay):
            return True
    return False


def _found(block: Block, refs: list[list[str]], spaces: bool) -> bool:
    text = canonical_text(block.text)
    last = block.page_end or block.page
    if _in_pages(text, refs, block.page, min(last + 1, len(refs[0])), spaces) \
            or _past_drop_cap(text, refs, block.page, min(last + 1, len(refs[0])), spaces):
        return True
    # A piece that ends in a line-end hyphen is checked without it: the join with the next
    # piece decides whether the hyphen stays (vaultd.parse.layout, rule 2).
    return len(block.pieces) > 1 and all(
        (found := canonical_text(piece).removesuffix("-")) and (
            _in_pages(found, refs, page, page, spaces) or (k == 0 and _past_drop_cap(found, refs, page, page, spaces)))
        for k, (page, piece) in enumerate(block.pieces)
    )


def _past_drop_cap(text: str, refs: list[list[str]], first: int, last: int, spaces: bool) -> bool:
    """Whether a text opening with a dropped capital (``I`` set three lines high before
    ``n Western democracies, …``: ``vaultd.parse.dropcaps`` puts it back in front of its
    word) is the page's text: pdftotext reads the capital as a word of its own, apart, and
    the word's rest in its place. The rest must be found; the capital, alone on the page."""
    if len(text) < 2 or not text[0].isupper() or not text[1].isalpha() \
            or not _in_pages(text[1:], refs, first, last, spaces):
        return False
    alone = re.compile(rf"(?:^| ){re.escape(text[0])}(?: |$)")
    return any(alone.search(" ".join(pages[first - 1 : last])) for pages in refs)


#: The chunk types whose quotes are checked: the prose of the page, footnotes included.
PROSE_TYPES = ("paragraph", "footnote")


def check_blocks(pdf: Path, blocks: list[Block], kinds: tuple[str, ...] = PROSE_TYPES) -> VerbatimReport:
    """The share of ``blocks`` of these ``kinds`` found verbatim (module doc). Blocks
    tesseract read (``ocr``) are not checked: their page has no text layer to hold them to
    (or one that maps its letters to symbols), and they are marked lower-trust instead."""
    refs = reference_pages(pdf)
    report = VerbatimReport()
    for block in blocks:
        if block.type not in kinds or block.ocr:
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
