"""A table without drawn columns read as a grid from its words' positions (pure).

Its columns are the runs of x the body rows' words cover (a gutter is an x no body word
covers); every word then falls in one column, and a row's words in a column are that
cell. The structure is clear when there are two columns or more and no word of any row,
the header's included, crosses a gutter (a header spanning two columns is not clear); a
word standing in a gutter (a header wider than its column) is the column's on its left.
The header is one row: the rows of words above the first rule drawn across the table
(booktabs' midrule), else those a wider gap sets apart, else the lines that complete the
first row's cells.
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


def word_grid(words: list[Word], rules: list[float] | None = None) -> list[list[str]] | None:
    """The table's cells, row by row, when its columns are clear (module doc); else None.
    ``rules``: the heights of the rules drawn across the table inside it (its top and
    bottom rules left out): the rows above the first are its header (``_header_rows``),
    whose words are placed as phrases (a phrase across two columns spans them: not clear)."""
    rows = _rows([w for w in words if w[4].strip()])
    if len(rows) < 2:
        return None
    bottoms = [r[0][3] for r in rows]
    ruled = _header_rows(bottoms, rules or [])
    cols = _columns(rows[ruled:] if ruled else rows[len(rows) // 3:] if len(rows) > 2 else rows[1:])
    if len(cols) < 2:
        return None
    grid: list[list[str]] = []
    stacked: dict[int, list[Word]] = {}  # a header's phrases by column
    for i, row in enumerate(rows):
        head = ruled is not None and ruled > 1 and i < ruled  # a header of several rows
        words = _phrases(row) if head else row
        at = _place(words, cols, gutters=not head)
        if at is None:
            return None
        cells: list[list[str]] = [[] for _ in cols]
        for w, j in zip(words, at, strict=True):
            cells[j].append(w[4])
            if head:
                stacked.setdefault(j, []).append(w)
        grid.append([" ".join(c) for c in cells])
    if not all(_aligned(ws) for ws in stacked.values()):
        return None  # a phrase over several columns (a group's header) set in one of them
    lines = _header_lines(bottoms) if ruled is None else ruled
    if lines > 1:
        header = [" ".join(filter(None, col)) for col in zip(*grid[:lines], strict=True)]
        return [header, *grid[lines:]]
    return grid if ruled is not None else _header_joined(grid)


def _place(row: list[Word], cols: list[tuple[float, float]], gutters: bool = True) -> list[int] | None:
    """The column of each of a row's words: a word in a gutter (a header wider than its
    column) is the column's on its left (``gutters``; else it makes the row unclear: a
    header phrase between two columns spans them); None when a word crosses a gutter or
    stands left of every column."""
    out: list[int] = []
    for w in row:
        at = [j for j, (x0, x1) in enumerate(cols) if w[0] < x1 + MIN_GUTTER / 2 and w[2] > x0 - MIN_GUTTER / 2]
        if not at and gutters:
            at = [j for j, (x0, _) in enumerate(cols) if x0 <= w[0]][-1:]
        if len(at) != 1:
            return None
        out.append(at[0])
    return out


#: Two lines of one cell are set flush (left, centre or right) to this many points.
ALIGN_SLACK = 2.0


def _flush(a: Word, b: Word) -> bool:
    """Two lines set flush on the left, the centre or the right."""
    return (abs(a[0] - b[0]) <= ALIGN_SLACK or abs(a[2] - b[2]) <= ALIGN_SLACK
            or abs(a[0] + a[2] - b[0] - b[2]) <= 2 * ALIGN_SLACK)


def _aligned(phrases: list[Word]) -> bool:
    """Whether each line of a column's header is flush with another line of it, as one
    cell's lines are (a cell under a group's header spanning it is a cell of its own:
    AAS's ``Flux (10−17 erg s−1 cm−2)`` over ``Lyα`` and ``(5)``)."""
    return len(phrases) < 2 or all(any(_flush(a, b) for b in phrases if b is not a) for a in phrases)


def _phrases(row: list[Word]) -> list[Word]:
    """A header row's words joined into phrases where less than a gutter parts them
    (``b. Social`` centred over its column: its ``b.`` alone would stand in the gutter)."""
    out: list[Word] = []
    for w in row:
        if out and w[0] - out[-1][2] < MIN_GUTTER:
            last = out[-1]
            out[-1] = (last[0], min(last[1], w[1]), w[2], max(last[3], w[3]), f"{last[4]} {w[4]}",
                       last[5], last[6], last[7])
        else:
            out.append(w)
    return out


#: Most rows of words a header over a rule may take (a header cell's lines, or cells of
#: two and three lines set vertically centred, interleave: S2ORC's Table 1 takes five).
HEADER_ROWS = 6


def _header_rows(bottoms: list[float], rules: list[float]) -> int | None:
    """How many rows of words stand above the first rule drawn across the table, with a
    row under it: the header, however its cells' lines interleave. None without such a
    rule, with more than ``HEADER_ROWS`` rows over it (a rule under a group of rows), or
    when more than ``HEADER_RULES`` rules are drawn inside (rules between rows or bands of
    rows, as Wiley draws every second row's, tell no header)."""
    if len(rules) > HEADER_RULES:
        return None
    for rule in sorted(rules):
        above = sum(1 for b in bottoms if b < rule)
        if 0 < above < len(bottoms):
            return above if above <= HEADER_ROWS else None
    return None


#: Most rules drawn inside a table whose first tells its header: the header's own and a
#: group's (booktabs' ``midrule`` under the header and one between groups of rows).
HEADER_RULES = 2


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
