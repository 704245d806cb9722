"""A draft's page locator against the pages a quote is on (pure; ``vaultd.verify.draft``).

A chunk is on one or more PDF pages (its first page and those of its ``regions``). Its
printed page is the note's ``page_label``: *confirmed* or *inferred* labels are the pages a
reader sees on the paper, and a locator must name them; a citation of the PDF's page index
instead is wrong, and ``--fix`` writes the printed page. A chunk with no label is cited by
its PDF page, and is said to be one ("p. 2 of the PDF"). A label of a note written before
labels were reconciled (no ``page_label_status``) came from ``/PageLabels`` unchecked: the
printed label and the PDF page both count there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from vaultd.models import Chunk, Provenance
from vaultd.notes.pages import printed_page

#: Statuses of a printed label a reader can trust (``Provenance.page_label_status``).
TRUSTED = ("confirmed", "inferred")
_NUMBER = re.compile(r"(?<![\w.])\d+(?!\w)")


def pdf_pages(prov: Provenance) -> list[int]:
    """The PDF pages a chunk is on, in order."""
    last = max((int(r[0]) for r in prov.regions or []), default=prov.page)
    return list(range(prov.page, last + 1))


def trusted(prov: Provenance) -> bool:
    """True when the chunk's printed label was confirmed or inferred."""
    return prov.page_label is not None and prov.page_label_status in TRUSTED


def _numeric(label: str) -> bool:
    return label.isascii() and label.isdigit()


def label_of(prov: Provenance, page: int) -> str | None:
    """The printed label of PDF page ``page`` as the chunk knows it: its label on its own
    page, counted on from a numeric label on the pages after; None when it knows none."""
    label = prov.page_label
    if label is None or not (page == prov.page or _numeric(label)):
        return None
    return printed_page(prov, page)


def where(prov: Provenance) -> str:
    """``p. 4970``, ``pp. 4970–4971``, or ``p. 2 of the PDF`` when no printed page is
    known: how a finding names the page of a chunk."""
    pages = pdf_pages(prov)
    labels = [label_of(prov, p) for p in pages]
    if all(labels):
        shown = str(labels[0]) if len(set(labels)) == 1 else f"{labels[0]}–{labels[-1]}"
        suffix = ""
    else:
        shown = str(pages[0]) if len(pages) == 1 else f"{pages[0]}–{pages[-1]}"
        suffix = " of the PDF"
    return f"{'pp' if '–' in shown else 'p'}. {shown}{suffix}"


def wanted(locator: str) -> set[str]:
    """The pages a locator names, lower case: "4-6" is 4, 5 and 6; "4f", "4ff." is 4."""
    out: set[str] = set()
    for piece in re.split(r"\s*[,;&]\s*|\s+and\s+", locator.strip()):
        m = re.fullmatch(r"(\d+)\s*[-–—]+\s*(\d+)", piece)
        if m and int(m.group(2)) - int(m.group(1)) < 200:
            out |= {str(n) for n in range(int(m.group(1)), int(m.group(2)) + 1)}
        elif piece:
            out.add(piece.lower().rstrip("f").rstrip("."))  # "4f", "4ff."
    return out


def on_page(locator: str, chunks: Sequence[Chunk]) -> bool:
    """True when the locator names a page one of the chunks is on, as a reader finds it:
    the printed page where one is known, the PDF page where none is."""
    pages = wanted(locator)
    for c in chunks:
        prov = c.provenance
        for p in pdf_pages(prov):
            label = label_of(prov, p)
            names = {label.lower()} if label is not None else set()
            if label is None or not trusted(prov):
                names.add(str(p))  # no printed page, or an unchecked one: the PDF's counts
            if pages & names:
                return True
    return False


@dataclass(frozen=True)
class PdfIndex:
    """A locator that names PDF page indexes where printed pages are known."""

    locator: str  # as the draft gives it ("2", "2-3")
    printed: str  # the same with each page as printed ("4970", "4970-4971")
    labels: tuple[str, ...]  # the printed page of each number of the locator, in order

    def message(self) -> str:
        """``p. 2 is the PDF page; the printed page is 4970``."""
        if len(self.labels) > 1:
            return f"pp. {self.locator} are the PDF pages; the printed pages are {self.printed}"
        return f"p. {self.locator} is the PDF page; the printed page is {self.printed}"

    def cited(self) -> str:
        """The printed pages as a locator: ``p. 4970``, ``pp. 4970-4971``."""
        return f"{'pp' if len(self.labels) > 1 else 'p'}. {self.printed}"


def pdf_index(locator: str, chunks: Sequence[Chunk]) -> PdfIndex | None:
    """The locator read as PDF page indexes, when it names a PDF page of a chunk with a
    trusted printed label and every number in it has a printed page; else None."""
    pages = wanted(locator)
    for c in chunks:
        prov = c.provenance
        if not trusted(prov) or not pages & {str(p) for p in pdf_pages(prov)}:
            continue
        numbers = _NUMBER.findall(locator)
        labels = [label_of(prov, int(n)) for n in numbers]
        if numbers and all(labels):
            printed = tuple(str(x) for x in labels)
            return PdfIndex(locator, _numbers_replaced(locator, printed), printed)
    return None


def _numbers_replaced(text: str, new: Sequence[str], masked: str | None = None) -> str:
    """``text`` with its page numbers (``_NUMBER`` in ``masked``, ``text`` itself or the
    same text with parts masked), in order, replaced by ``new``."""
    out, at = [], 0
    for m, value in zip(_NUMBER.finditer(masked or text), new, strict=True):
        out += [text[at:m.start()], value]
        at = m.end()
    return "".join([*out, text[at:]])


def rewrite_pages(raw: str, keys: Sequence[str], pdf: PdfIndex) -> str | None:
    """``raw`` (a citation as written: ``\\cite[p.~2]{key}``, ``[@key, p. 2]``) with the
    locator's PDF pages replaced by the printed ones; None when its numbers (the keys'
    digits aside) are not exactly the locator's, so the place to change is unclear."""
    masked = raw
    for key in sorted(keys, key=len, reverse=True):
        masked = masked.replace(key, "#" * len(key))
    found = list(_NUMBER.finditer(masked))
    numbers = _NUMBER.findall(pdf.locator)
    if [m[0] for m in found] != numbers:
        return None
    return _numbers_replaced(raw, pdf.labels, masked)
