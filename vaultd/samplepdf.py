"""A generated two-column sample paper whose exact text and boxes are known.

Used by tests (precise assertions on reading order, headings, joins, boxes, links) and
by `vaultd demo`. Built with PyMuPDF's base-14 Helvetica, no network, deterministic:
the same call writes the same bytes.

Layout (US Letter, 612 × 792 pt): title and authors span the page; below them two
columns (x 54–300 and 312–558). A running header and a page number sit in the margins
of both pages. Section 2's first paragraph runs from the bottom of the left column into
the right column; one word is hyphenated at a line end (``represen-`` / ``tation``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vaultd.vault import atomic_write_bytes

PAGE_W, PAGE_H = 612.0, 792.0
COLUMNS = ((54.0, 300.0), (312.0, 558.0))
TOP, BOTTOM = 150.0, 420.0  # body area: columns break at BOTTOM (page 2 starts at TOP2)
TOP2 = 72.0
BODY_SIZE, LEADING = 10.0, 12.5
TITLE = "Verbatim Quotes from Two-Column Papers"
AUTHORS = ("Ada Lovelace", "Charles Babbage")
HEADER = "Sample Paper for vaultd · © 2024 the authors"
CREATION_DATE = "D:20240115120000Z"
DOI = "10.1234/vaultd.sample.2024"
ARXIV = "1706.03762"

Box = tuple[float, float, float, float]

# (kind, text). "|" inside a word forces a line break there with a hyphen.
CONTENT: list[tuple[str, str]] = [
    ("heading2", "Abstract"),
    ("para", "We describe a small generated paper that tests every step of the compile "
             "pipeline. Its text is known exactly, so a test can check each quote, each "
             "heading and each box without guessing."),
    ("heading", "1 Introduction"),
    ("para", "Research notes are only as good as their quotes. A quote that cannot be found "
             "in the source is worse than no quote at all, because it looks like evidence."),
    ("para", "This paper has two columns, a figure drawn with vector shapes, and a short list "
             "of references. The reader should see every paragraph once and in order."),
    ("heading", "2 Method"),
    ("para", "The method reads the text layer of the page and keeps the characters as they "
             "are. It learns a represen|tation of the layout from the positions of lines, "
             "the size of the fonts and their weight, and then it joins the lines of each "
             "paragraph with a single space. When a paragraph reaches the bottom of the "
             "left column it continues at the top of the right column and the join must be "
             "invisible to the reader of the note, who sees one paragraph with one quote "
             "and one hash that can be checked again at any later time against the source "
             "file that was captured on the first day of the project."),
    ("heading", "2.1 Scaled Dot-Product Attention"),
    ("para", "Headings are recognised from their size, their weight and their numbering, "
             "so this subsection is found as a heading of its own with the number two "
             "point one."),
    ("figure", "Figure 1: A box and a circle drawn with vector shapes."),
    ("para", "The figure above has no text inside it, only shapes, so its caption is the "
             "only text that describes it."),
    ("heading", "3 Results"),
    ("para", "Every paragraph of this paper was found verbatim in the note, and every box "
             "pointed at the right region of the page."),
    ("heading", "References"),
    ("ref", f"Lovelace, A. and Babbage, C. (2024). Quotes that can be checked. Journal of "
            f"Careful Notes, 1(1):1-10. doi:{DOI}"),
    ("ref", f"Vaswani, A. et al. (2017). Attention is all you need. arXiv:{ARXIV}"),
]


@dataclass
class SampleBlock:
    kind: str  # heading, paragraph, figure, reference
    text: str  # the text a reader sees, with line-break hyphens repaired
    page: int
    bbox: Box  # first column piece, top-left origin, PDF points
    column: int
    pieces: tuple[tuple[int, Box], ...] = ()  # (page, box) of every column piece


@dataclass
class SamplePaper:
    path: Path
    title: str = TITLE
    authors: tuple[str, ...] = AUTHORS
    creation_date: str = CREATION_DATE
    doi: str = DOI
    arxiv_id: str = ARXIV
    pages: int = 2
    blocks: list[SampleBlock] = field(default_factory=list)
    figure_box: Box = (0.0, 0.0, 0.0, 0.0)

    def of_kind(self, kind: str) -> list[SampleBlock]:
        return [b for b in self.blocks if b.kind == kind]


class _Writer:
    def __init__(self, fitz: Any, doc: Any) -> None:
        self.fitz, self.doc = fitz, doc
        self.page: Any = None
        self.page_no = 0
        self.col = 0
        self.y = 0.0
        self.new_page()

    def new_page(self) -> None:
        self.page = self.doc.new_page(width=PAGE_W, height=PAGE_H)
        self.page_no += 1
        self.col = 0
        self.y = TOP if self.page_no == 1 else TOP2
        self.page.insert_text((54, 40), HEADER, fontname="helv", fontsize=8)
        self.page.insert_text((302, 770), str(self.page_no), fontname="helv", fontsize=9)

    def advance_column(self) -> None:
        if self.col == 0:
            self.col = 1
            self.y = TOP if self.page_no == 1 else TOP2
        else:
            self.new_page()

    def width(self, text: str, font: str, size: float) -> float:
        return float(self.fitz.get_text_length(text, fontname=font, fontsize=size))

    def lines(self, text: str, font: str, size: float) -> list[str]:
        x0, x1 = COLUMNS[self.col]
        out: list[str] = []
        cur = ""
        for word in text.split(" "):
            if "|" in word:
                a, b = word.split("|")
                out.append((cur + " " + a if cur else a) + "-")
                cur = b
                continue
            trial = f"{cur} {word}" if cur else word
            if self.width(trial, font, size) <= x1 - x0 or not cur:
                cur = trial
            else:
                out.append(cur)
                cur = word
        if cur:
            out.append(cur)
        return out

    def write(self, text: str, font: str, size: float, gap_before: float) -> list[tuple[int, int, Box]]:
        """Write a paragraph; returns one (page, column, box) per column piece."""
        self.y += gap_before
        if self.y + size > BOTTOM:
            self.advance_column()
        pieces: list[tuple[int, int, Box]] = []
        start_y = self.y
        widest = 0.0
        for line in self.lines(text, font, size):
            if self.y + size > BOTTOM:
                x0 = COLUMNS[self.col][0]
                pieces.append((self.page_no, self.col, (x0, start_y, x0 + widest, self.y)))
                self.advance_column()
                start_y, widest = self.y, 0.0
            x0 = COLUMNS[self.col][0]
            self.page.insert_text((x0, self.y + size * 0.8), line, fontname=font, fontsize=size)
            widest = max(widest, self.width(line, font, size))
            self.y += size * LEADING / BODY_SIZE
        x0 = COLUMNS[self.col][0]
        pieces.append((self.page_no, self.col, (x0, start_y, x0 + widest, self.y)))
        return pieces


def _build(fitz: Any, path: Path) -> SamplePaper:
    doc = fitz.open()
    w = _Writer(fitz, doc)
    paper = SamplePaper(path=path)
    title_w = w.width(TITLE, "hebo", 18)
    w.page.insert_text(((PAGE_W - title_w) / 2, 90), TITLE, fontname="hebo", fontsize=18)
    authors = ", ".join(AUTHORS)
    aw = w.width(authors, "helv", 11)
    w.page.insert_text(((PAGE_W - aw) / 2, 115), authors, fontname="helv", fontsize=11)
    # line box = baseline - ascender .. baseline + descender (Helvetica: 1.075 / 0.299 em)
    title_box = ((PAGE_W - title_w) / 2, 90 - 18 * 1.075, (PAGE_W + title_w) / 2, 90 + 18 * 0.299)
    paper.blocks.append(SampleBlock("heading", TITLE, 1, title_box, -1))
    for kind, text in CONTENT:
        if kind == "pagebreak":
            w.new_page()
            continue
        if kind in ("heading", "heading2"):
            size = 12.0 if kind == "heading" else 11.0
            (page, col, box), *_ = w.write(text, "hebo", size, 8.0)
            paper.blocks.append(SampleBlock("heading", text, page, box, col))
            continue
        if kind == "figure":
            x0, x1 = COLUMNS[w.col]
            w.y += 6
            fig = (x0 + 20, w.y, x1 - 20, w.y + 90)
            w.page.draw_rect(fitz.Rect(fig[0], fig[1], fig[0] + 90, fig[3]), color=(0, 0, 0.6), fill=(0.7, 0.8, 1), width=1.2)
            w.page.draw_circle(fitz.Point(fig[2] - 50, fig[1] + 45), 40, color=(0.6, 0, 0), fill=(1, 0.8, 0.7))
            paper.figure_box = (fig[0], fig[1], fig[2] - 10, fig[3])  # rect left, circle right
            w.y += 96
            (page, col, box), *_ = w.write(text, "helv", 9.0, 0.0)
            paper.blocks.append(SampleBlock("figure", text, page, box, col))
            continue
        pieces = w.write(text, "helv", BODY_SIZE, 6.0)
        page, col, box = pieces[0]
        paper.blocks.append(SampleBlock(
            "reference" if kind == "ref" else "paragraph", text.replace("|", ""), page, box, col,
            tuple((p, b) for p, _, b in pieces)))
    doc.set_metadata({
        "title": TITLE,
        "author": "; ".join(AUTHORS),
        "creationDate": CREATION_DATE,
        "modDate": CREATION_DATE,
        "producer": "vaultd samplepdf",
        "creator": "vaultd samplepdf",
    })
    paper.pages = doc.page_count
    data = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    atomic_write_bytes(path, data)
    return paper


def write_sample_paper(path: Path) -> SamplePaper:
    """Write the sample paper to ``path`` and describe exactly what it contains."""
    return _build(importlib.import_module("pymupdf"), path)
