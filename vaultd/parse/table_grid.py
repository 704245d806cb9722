"""A table without drawn columns read as a grid from its words' positions (pure).

Its columns are the runs of x the body rows' words cover (a gutter is an x no body word
covers); every word then falls in one column, and a row's words in a column are that
cell. The structure is clear when there are two columns or more and no word of any row,
the header's included, crosses a gutter (a header spanning two columns is not clear); a
word standing in a gutter (a header wider than its column) is the column's on its left.
"""

from __future__ import annotations

import itertools

#: A word as ``page.get_text("words")`` gives it: x0, y0, x1, y1, text, block, line, word.
Word = tuple[float, float, float, float, str, int, int, int]

#: Words whose bottoms are this close (points) stand in one row.
ROW_TOLERANCE = 2.0
#: Narrowest gutter between two columns (points): one word space is less.
MIN_GUTTER = 4.0


def _rows(words: list[Word]) -> list[list[Word]]:
    rows: list[list[Word]] = []
    for w in sorted(words, key=lambda w: (w[3], w[0])):
        if rows and abs(w[3] - rows[-1][0][3]) <= ROW_TOLERANCE:
            rows[-1].append(w)
        else:
            rows.append([w])
    return [sorted(r, key=lambda w: w[0]) for r in rows]


def _columns(rows: list[list[Word]]) -> list[tuple[float, float]]:
    spans = sorted((w[0], w[2]) for row in rows for w in row)
    cols: list[tuple[float, float]] = []
    for x0, x1 in spans:
        if cols and x0 < cols[-1][1] + MIN_GUTTER:
            cols[-1] = (cols[-1][0], max(cols[-1][1], x1))
        else:
            cols.append((x0, x1))
    return cols


def word_grid(words: list[Word]) -> list[list[str]] | None:
    """The table's cells, row by row, when its columns are clear (module doc); else None."""
    rows = _rows([w for w in words if w[4].strip()])
    if len(rows) < 2:
        return None
    cols = _columns(rows[len(rows) // 3:] if len(rows) > 2 else rows[1:])
    if len(cols) < 2:
        return None
    grid: list[list[str]] = []
    for row in rows:
        cells: list[list[str]] = [[] for _ in cols]
        for w in row:
            at = [j for j, (x0, x1) in enumerate(cols) if w[0] < x1 + MIN_GUTTER / 2 and w[2] > x0 - MIN_GUTTER / 2]
            if not at:  # in a gutter (a header wider than its column): the column on its left
                at = [j for j, (x0, _) in enumerate(cols) if x0 <= w[0]][-1:]
            if len(at) != 1:
                return None  # a word across a gutter, or left of every column
            cells[at[0]].append(w[4])
        grid.append([" ".join(c) for c in cells])
    lines = _header_lines([r[0][3] for r in rows])
    if lines > 1:
        head = [" ".join(filter(None, col)) for col in zip(*grid[:lines], strict=True)]
        return [head, *grid[lines:]]
    return _header_joined(grid)


#: A gap between rows this many times the usual one sets a header apart (booktabs' rule).
HEADER_GAP = 1.3


def _header_lines(bottoms: list[float]) -> int:
    """How many rows a header set apart by a wider gap takes (0: none is)."""
    gaps = [b - a for a, b in itertools.pairwise(bottoms)]
    if len(gaps) < 3:
        return 0
    usual = sorted(gaps)[len(gaps) // 2]
    return next((k + 1 for k, g in enumerate(gaps[:HEADER_LINES]) if g > HEADER_GAP * usual), 0)


#: Most lines a header cell is set in.
HEADER_LINES = 4


def _header_joined(grid: list[list[str]]) -> list[list[str]]:
    """A header set in several lines as one row: the rows under the first are joined to
    it while it has an empty cell they fill, or while they fill a third of the cells or
    fewer (``S2ORC-`` | ``SCIBERT``), at most ``HEADER_LINES`` lines in all."""
    head, rest = grid[0], grid[1:]
    lines = 1
    while rest and lines < HEADER_LINES:
        row = rest[0]
        filled = sum(1 for c in row if c)
        fills_gap = all(not h for h, c in zip(head, row, strict=True) if c) and not all(head)
        if not (fills_gap or (filled * 3 <= len(row) and len(rest) > 1)):
            break
        head = [" ".join(filter(None, (h, c))) for h, c in zip(head, row, strict=True)]
        rest, lines = rest[1:], lines + 1
    return [head, *rest]
