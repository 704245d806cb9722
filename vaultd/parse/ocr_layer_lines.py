"""An OCR text layer laid word by word put back into the page's printed lines.

Some digitisers lay a scan's OCR text invisibly over it one word a line, each word at its
own height and size (an 1899 *Textile America* page: 829 pieces, one word each, in three
columns a few points apart). Read as it is, no two words share a line and no paragraph
forms. The words are put back into lines here: the page's columns found from where no
word stands (a gutter runs down the page), each column's words grouped by the baseline
they share, left to right, and each line set in the size most of the page's lines have
when it is near it (an OCR layer's sizes are its boxes' heights: noise, not type).

Pure: the page's lines (``vaultd.parse.paras.Line``) in, its lines out.
"""

from __future__ import annotations

from dataclasses import replace
from statistics import median

from vaultd.parse.paras import Line

#: Fewest pieces on a page for its layer to be read as laid word by word.
MIN_PIECES = 80
#: ... and the most words a piece holds there, on the median.
PIECE_WORDS = 1.5
#: ... and the fewest words the page holds: a page of running text (a figure's labels,
#: a word apiece, are no lines to put back: an OCR'd tree of 208 names).
MIN_WORDS = 600
#: Share of the pieces covering the page's usual x (the median over the x any piece
#: covers) that a gutter's x may be covered by (a headline set across the columns; a
#: column's text covers each of its x on most of its lines, its word gaps falling apart
#: line to line).
GUTTER_CROSSING = 0.2
#: Narrowest gutter (points) between two columns.
MIN_GUTTER = 2.0
#: Two pieces share a line when they overlap by this share of the lower one's height.
SAME_LINE = 0.5
#: A line's size within this share of the page's usual size is the usual size.
USUAL_SHARE = 0.25
#: How far apart (the usual line height) two lines of one column stand in one block.
BLOCK_GAP = 1.0


def laid_word_by_word(lines: list[Line]) -> bool:
    """Whether a page's text layer is laid a word or so a line (``MIN_PIECES`` pieces or
    more, ``PIECE_WORDS`` words a piece or fewer on the median, ``MIN_WORDS`` in all)."""
    if len(lines) < MIN_PIECES:
        return False
    words = [len(ln.text.split()) for ln in lines]
    return median(words) <= PIECE_WORDS and sum(words) >= MIN_WORDS


def reline(lines: list[Line]) -> list[Line]:
    """The page's words put back into its printed lines, column by column, top to bottom;
    each column's run of lines a block of its own (``vaultd.parse.block_paras`` parts
    them into paragraphs)."""
    if not lines:
        return lines
    columns = _columns(lines)
    height = median(ln.bbox[3] - ln.bbox[1] for ln in lines)
    usual = median(ln.size for ln in lines)
    out: list[Line] = []
    block = 0
    for left, right in columns:
        words = [ln for ln in lines if left <= (ln.bbox[0] + ln.bbox[2]) / 2 <= right]
        rows = _rows(words)
        last_bottom = None
        for row in rows:
            top = min(w.bbox[1] for w in row)
            if last_bottom is None or top - last_bottom > BLOCK_GAP * height:
                block += 1
            last_bottom = max(w.bbox[3] for w in row)
            out.append(_line(row, usual, block))
    return out


def _columns(lines: list[Line]) -> list[tuple[float, float]]:
    """The page's columns, left to right: the spans of x its pieces cover, parted where
    few cross (``GUTTER_CROSSING``: a headline across the columns does)."""
    x0 = min(ln.bbox[0] for ln in lines)
    x1 = max(ln.bbox[2] for ln in lines)
    width = int(x1 - x0) + 1
    cover = [0] * (width + 1)
    for ln in lines:
        for x in range(int(ln.bbox[0] - x0), int(ln.bbox[2] - x0) + 1):
            cover[x] += 1
    most = GUTTER_CROSSING * median(n for n in cover if n)
    columns: list[tuple[float, float]] = []
    start: int | None = None
    gap = 0
    for x, n in enumerate(cover):
        if n > most:
            if start is None:
                start = x
            elif gap >= MIN_GUTTER:
                columns.append((x0 + start, x0 + x - gap - 1))
                start = x
            gap = 0
        elif start is not None:
            gap += 1
    if start is not None:
        columns.append((x0 + start, x0 + width - gap))
    return columns or [(x0, x1)]


def _rows(words: list[Line]) -> list[list[Line]]:
    """A column's pieces grouped by the baseline they share (each overlapping the row's
    last piece by ``SAME_LINE`` of its height), top to bottom, each row left to right."""
    rows: list[list[Line]] = []
    for word in sorted(words, key=lambda w: ((w.bbox[1] + w.bbox[3]) / 2, w.bbox[0])):
        h = max(word.bbox[3] - word.bbox[1], 1.0)
        for row in reversed(rows[-3:]):
            ref = row[-1]
            overlap = min(ref.bbox[3], word.bbox[3]) - max(ref.bbox[1], word.bbox[1])
            if overlap >= SAME_LINE * min(h, max(ref.bbox[3] - ref.bbox[1], 1.0)):
                row.append(word)
                break
        else:
            rows.append([word])
    for row in rows:
        row.sort(key=lambda w: w.bbox[0])
    return rows


def _line(row: list[Line], usual: float, block: int) -> Line:
    """One printed line of a row of pieces: their words a space apart, their box, the
    row's size (the page's usual one when near it), the first piece's face."""
    size = median(w.size for w in row)
    if abs(size - usual) <= USUAL_SHARE * usual:
        size = usual
    box = (min(w.bbox[0] for w in row), min(w.bbox[1] for w in row),
           max(w.bbox[2] for w in row), max(w.bbox[3] for w in row))
    text = " ".join(w.text.strip() for w in row if w.text.strip())
    return replace(row[0], text=text, bbox=box, size=round(size, 1), block=block,
                   bold=all(w.bold for w in row), italic=all(w.italic for w in row))
