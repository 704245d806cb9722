"""The units ``vaultd.parse.structure`` builds blocks from: positioned lines of a page and
the paragraphs (paras) formed from them, with the few operations both it and
``vaultd.parse.headings`` apply to them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from operator import itemgetter

from vaultd.models import ChunkType
from vaultd.parse.base import Box
from vaultd.parse.layout import join_two


@dataclass(slots=True)  # some 20,000 a paper, each read many times over
class Line:
    text: str
    bbox: Box
    size: float
    bold: bool
    block: int
    page: int
    italic: bool = False  # most of its characters italic
    font: str = ""  # font of its longest span, without the subset prefix (``ABCDEF+``)
    mixed: bool = False  # its words are set in more than one font (a run-in bold lead)
    mono: bool = False  # most of its characters set in a typewriter face (a program's line)
    margin: bool = False  # a note in the page margin beside the text block (``parse.margins``)
    conf: float = -1.0  # tesseract's mean word confidence (0–100) of a line it read; -1: a text layer's
    lead: str = ""  # its first words set bold or italic apart from the rest (a run-in heading's)
    cells: int = 1  # pieces on its baseline standing an em or more apart (a table's row)
    face_lead: str = ""  # its first words in an unflagged font of their own, closed by a stop
    lead_font: str = ""  # that font (``spans.font_lead``)
    small_caps: bool = False  # small capitals drawn as smaller capitals (``spans.drawn_small_caps``)
    note_mark: str = ""  # a note's mark set small and raised at its end (``spans.note_mark``)
    lead_mark: str = ""  # a note's mark set small and raised at its start (``spans.lead_mark``)
    lead_bold: bool = False  # its ``lead`` set bold (not italic alone)


@dataclass
class PageInfo:
    number: int
    label: str | None
    width: float
    height: float
    to_user: tuple[float, ...]
    has_images: bool = False


@dataclass
class Para:
    type: ChunkType
    lines: list[Line]
    text: str
    pieces: list[tuple[int, str]] = field(default_factory=list)
    number: str | None = None
    spans: list[int] = field(default_factory=list)  # lines in each piece, in order
    title: bool = False  # the document's title (first page, well above the body size)
    lead: bool = False  # a first line split off for its font (``_font_lead``)
    floating: bool = False  # footnotes and other small print: never a paragraph's continuation
    footnote: bool = False  # a footnote (``parse.footnotes.is_footnote``): its chunk's type
    plain: bool = False  # a heading told by its line's shape in a font-less layer (``plain_lead``)
    runin: str | None = None  # the run-in heading it opens with (``run_in.run_in_heads``)


REFS_RE = re.compile(
    r"^(?:[■□▪●◆]\s*)?((\d+|[IVX]+)\.?\s*)?(references(?: and notes| cited)?|notes and references|bibliography"
    r"|literature cited|works cited|reference list"
    r"|referências(?: bibliográficas)?|literatura citada|referencias(?: bibliográficas)?"
    r"|bibliografía|bibliografia|literaturverzeichnis|literatur|références|bibliographie)\s*$",
    re.I,
)
SENT_END = (".", "!", "?", ":", ".”", ".\"", ".)", "?”", "。", "！", "？", "：")
#: A lowercase word opening a line, a sentence's next words (not a note's mark or an item's
#: letter: ``a Percentages …``).
LOWER_WORD_RE = re.compile(r"[a-z]{2,}\b")
#: Longest sub-figure label line, in words (a line of body text has more).
LABEL_WORDS = 8


def small_print(size: float, body: float) -> bool:
    """Set as small print: at most nine tenths of the body's size (9 pt notes under a
    10 pt body; sizes are read to the tenth of a point)."""
    return size <= body * 0.9 + 0.05


def union(lines: list[Line]) -> Box:
    if len(lines) == 1:  # a one-line group (headings, captions, short blocks): its own box
        return lines[0].bbox
    x0s, y0s, x1s, y1s = zip(*(ln.bbox for ln in lines), strict=True)
    return (min(x0s), min(y0s), max(x1s), max(y1s))


def measure(lines: list[Line]) -> float:
    """The width the lines are set to: their leftmost start to their rightmost end."""
    return max(ln.bbox[2] for ln in lines) - min(ln.bbox[0] for ln in lines)


def first_word_width(line: Line) -> float:
    """About how wide ``line``'s first word and the space before it are set: a line
    ragged right is full when that word would not have fitted on it (a Word report's
    ``… considered 16 amendments to`` | ``S.Con.Res. 33, one of which …``)."""
    text = line.text.strip()
    if not text:
        return 0.0
    word = text.split(None, 1)[0]
    return (line.bbox[2] - line.bbox[0]) * (len(word) + 1) / len(text)


def append_piece(para: Para, lines: list[Line], text: str) -> None:
    """Continue ``para`` with a piece set elsewhere (the next column or page)."""
    para.text = join_two(para.text, text)
    para.lines.extend(lines)
    para.pieces.append((lines[0].page, text))
    para.spans.append(len(lines))


def pop_piece(para: Para) -> Para:
    """Take ``para``'s last piece off it (in place) and give it back as a para of its own,
    of ``para``'s type: a piece joined to it that turns out to be another text's."""
    count = para.spans.pop()
    page, text = para.pieces.pop()
    lines = para.lines[-count:]
    del para.lines[-count:]
    joined = para.pieces[0][1]
    for _page, piece in para.pieces[1:]:
        joined = join_two(joined, piece)
    para.text = joined
    return Para(para.type, lines, text, [(page, text)], None, [count])


def join_para(para: Para, after: Para) -> None:
    """Continue ``para`` with all of ``after``, its pieces (and their regions) kept."""
    para.text = join_two(para.text, after.text)
    para.lines.extend(after.lines)
    para.pieces.extend(after.pieces)
    para.spans.extend(after.spans)


def body_size(pages: list[list[Line]]) -> float:
    """The size most characters are set in, the body's."""
    per_page = [size_counts(lines) for lines in pages]
    sizes: dict[float, int] = {}
    for counts in per_page:
        for key, count in counts.items():
            sizes[key] = sizes.get(key, 0) + count
    if not sizes:
        return 10.0
    most = most_size(sizes)
    larger = [(count, size) for size, count in sizes.items() if size > most]
    if larger:
        count, size = max(larger)
        if count >= NOTES_SHARE * sizes[most] and (_notes_under(pages, most, size) or _leads(per_page, size)):
            return float(size)
    return float(most)


def size_counts(lines: list[Line]) -> dict[float, int]:
    """Characters set in each size, to the half point: whole points would call PLOS's
    11.5 pt body 12 pt, and its 13 pt section headings would no longer stand out from it.
    (A dict: Counter's ``+=`` costs a call a line.)"""
    counts: dict[float, int] = {}
    for ln in lines:
        key = round(ln.size * 2) / 2
        counts[key] = counts.get(key, 0) + len(ln.text)
    return counts


def most_size(counts: dict[float, int]) -> float:
    """The size with the most characters (the first of the most common, as
    ``Counter.most_common(1)`` picks it)."""
    return max(counts.items(), key=itemgetter(1))[0]


def _leads(per_page: list[dict[float, int]], size: float) -> bool:
    """Whether ``size`` is the size most characters of each page are set in (``per_page``:
    each page's ``size_counts``) from the first page on, over more than half the pages
    (pages without text passed over): the text's, though back matter set smaller
    outweighs it (Nature Communications' Methods and references in 7.5 pt after its
    9.5 pt text)."""
    pages = [counts for counts in per_page if counts]
    run = next((k for k, counts in enumerate(pages) if most_size(counts) != size), len(pages))
    return bool(pages) and 2 * run > len(pages)


#: Footnotes may outweigh the text they annotate (a congressional report's notes, a law
#: review's): a larger size with this share of the most common size's characters is the
#: body's when the smaller print sits under it (``_notes_under``).
NOTES_SHARE = 0.25
#: ... on this many pages at least, and this share of the smaller print's characters.
NOTES_PAGES = 3
NOTES_UNDER = 0.8


def _notes_under(pages: list[list[Line]], small: float, body: float) -> bool:
    """Whether the characters set in ``small`` stand, mostly and on several pages, under
    the lines set in ``body`` on their page and in their column: footnotes, not a body
    with larger headings and abstract over it."""
    under = total = 0
    on_pages = 0
    for lines in pages:
        big = [ln.bbox for ln in lines if round(ln.size * 2) / 2 == body]
        found = False
        for ln in lines:
            if round(ln.size * 2) / 2 != small:
                continue
            total += len(ln.text)
            x0, y0, x1, _ = ln.bbox
            above = [b for b in big if b[0] < x1 and x0 < b[2]]
            if above and all(b[3] <= y0 + 1 for b in above):
                under += len(ln.text)
                found = True
        on_pages += found
    return on_pages >= NOTES_PAGES and under >= NOTES_UNDER * total


def style_key(line: Line) -> tuple[str, float]:
    """A line's style as heads are told by it: its font at its size, to the half point."""
    return line.font, round(line.size * 2) / 2
