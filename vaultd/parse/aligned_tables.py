"""Tables with no rule at all: found from their rows of cells set apart, under or over
their caption.

A ``tabular`` without ``\\hline`` or booktabs (PMLR's ``Table 2: An Example Table``: a
header row and four rows of two cells, no stroke drawn) gives the rule-based finders
(``vaultd.parse.tables``, ``vaultd.parse.open_tables``) nothing to start from. Its rows
still show: starting right at the caption and going away from it, a run of rows

1. each within ``ROW_GAP`` line heights of the one before, no caption among them,
2. none of them a line of running text (``PROSE_LINE_WORDS`` words, most in lowercase),
3. each of two cells or more — words standing ``CELL_GAP`` ems apart (a sentence's words
   stand a space apart),
4. with a first column whose cells start, end or centre on one line in every row,

is a table when it holds ``MIN_ROWS`` rows or more. Its lines are then the table's cells,
read as an open table's (``cell_rows``; its columns from its words' positions).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from vaultd.parse.base import Box
from vaultd.parse.open_tables import is_prose_line
from vaultd.parse.paras import Line
from vaultd.parse.table_geometry import ROW_TOLERANCE, line_rows

#: Fewest rows (a header and two rows of values).
MIN_ROWS = 3
#: Smallest gap between two cells of a row, in ems of the row's size.
CELL_GAP = 1.0
#: Largest gap between two rows, and between the caption and the first row, in line heights.
ROW_GAP = 1.5
#: How far (points) the first column's cells' left edges may stand apart.
COLUMN_SLACK = 2.0


#: A word as ``page.get_text("words")`` gives it: x0, y0, x1, y1, text, block, line, number.
Word = tuple[float, float, float, float, str, int, int, int]


def _run(caption: Line, rows: list[list[Line]], stops: set[int], downward: bool) -> list[list[Line]]:
    """The rows stacked from the caption away from it (nearest first), each within ``ROW_GAP`` line heights
    of the last, across some of the caption's width, none a caption or running text."""
    cap = caption.bbox
    height = max(cap[3] - cap[1], 1.0)
    ahead = [r for r in rows if (r[0].bbox[1] >= cap[3] - 1.0 if downward else r[0].bbox[3] <= cap[1] + 1.0)]
    if not downward:
        ahead.reverse()
    run: list[list[Line]] = []
    edge = cap[3] if downward else cap[1]
    for row in ahead:
        top, bottom = min(ln.bbox[1] for ln in row), max(ln.bbox[3] for ln in row)
        if (top - edge if downward else edge - bottom) > ROW_GAP * height \
                or any(id(ln) in stops or (is_prose_line(ln) and not _valued(ln)) for ln in row) \
                or not (row[0].bbox[0] < cap[2] and row[-1].bbox[2] > cap[0]):
            break
        run.append(row)
        edge = bottom if downward else top
    return run


def _valued(ln: Line) -> bool:
    """Whether a line of words is a row's label with its values after it, set apart
    (``Leeper et al. (2012) expected taxes from one to five years forward -0.33 0.79``):
    pieces an em apart, numbers at its end."""
    return ln.cells >= 2 and bool(_VALUES_END_RE.search(ln.text))


#: Values ending a row: numbers, signed, in brackets or with a percent sign.
_VALUES_END_RE = re.compile(r"(?:\s+[-−–]?\(?\d[\d.,]*\)?%?)+$")


def _cells(words: list[Word], em: float) -> list[tuple[float, float]]:
    """A row's words (left to right) → its cells' extents: words ``CELL_GAP`` ems apart
    part cells."""
    cells: list[tuple[float, float]] = []
    for w in words:
        if cells and w[0] - cells[-1][1] < CELL_GAP * em:
            cells[-1] = (cells[-1][0], w[2])
        else:
            cells.append((w[0], w[2]))
    return cells


def _aligned(firsts: list[tuple[float, float]]) -> bool:
    """The first cells start, end or centre on one line (a column set left, right or centred)."""
    for xs in ([c[0] for c in firsts], [c[1] for c in firsts], [(c[0] + c[1]) / 2 for c in firsts]):
        if max(xs) - min(xs) <= COLUMN_SLACK:
            return True
    return False


def aligned_table(caption: Line, lines: list[Line], stops: list[Line],
                  words_in: Callable[[Box], list[Word]]) -> Box | None:
    """The box of the rows of cells right under ``caption`` (else right over it), or None
    (module doc). ``lines``: the page's lines; ``stops``: the page's caption lines;
    ``words_in``: the page's words in a box (read only for a run of rows)."""
    cap = caption.bbox
    half = (cap[2] - cap[0]) / 2
    # lines wholly within half the caption's width either side of it (a short caption is
    # centred over a wider table; the other column is out of reach)
    near = [ln for ln in lines if ln is not caption and ln.page == caption.page
            and ln.bbox[0] >= cap[0] - half and ln.bbox[2] <= cap[2] + half]
    rows = line_rows(near)
    stop_ids = {id(s) for s in stops}
    for downward in (True, False):
        run = _run(caption, rows, stop_ids, downward)
        if len(run) < MIN_ROWS:
            continue
        found = words_in(_box([ln.bbox for row in run for ln in row]))
        em = max(ln.size for row in run for ln in row)
        cells_of = []
        for row in run:  # from the caption on, while the rows keep their cells
            y = max(ln.bbox[3] for ln in row)
            cells = _cells(sorted((w for w in found if abs(w[3] - y) <= ROW_TOLERANCE + 1.0),
                                  key=lambda w: w[0]), em)
            if len(cells) < 2:
                break
            cells_of.append(cells)
        count = max(_first_column_rows(cells_of), _labelled_rows(cells_of))
        if count >= MIN_ROWS:
            return _box([ln.bbox for row in run[:count] for ln in row])
    return None


def _first_column_rows(cells_of: list[list[tuple[float, float]]]) -> int:
    """How many rows from the caption on keep one first column."""
    firsts: list[tuple[float, float]] = []
    for cells in cells_of:
        if not _aligned([*firsts, cells[0]]):
            break
        firsts.append(cells[0])
    return len(firsts)


def _labelled_rows(cells_of: list[list[tuple[float, float]]]) -> int:
    """How many rows from the caption on are rows of a table whose entries take two lines,
    a label's and its values' (a working paper's estimates, their standard errors in
    brackets under them: ``Romer and Romer (2004) -0.56 0.80`` | ``(0.68) (0.49)``): a row
    whose first cell lines up with the labels' column, or one with no label, its first cell
    right of every label's end; two labels at least."""
    if len(cells_of) < MIN_ROWS:
        return 0
    left = min(cells[0][0] for cells in cells_of)
    labels = [cells[0] for cells in cells_of if cells[0][0] - left <= COLUMN_SLACK]
    if len(labels) < 2 or not _aligned(labels):
        return 0
    end = max(label[1] for label in labels)
    count = 0
    for cells in cells_of:
        if not (cells[0][0] - left <= COLUMN_SLACK or cells[0][0] > end):
            break
        count += 1
    return count


def _box(boxes: list[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
