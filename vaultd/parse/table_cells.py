"""A table's cells as text: the verbatim run a table chunk quotes, and the Markdown it is
shown as when its rows and columns are clear. Pure."""

from __future__ import annotations

import re

from vaultd.parse.layout import join_two
from vaultd.parse.paras import Line, Para

#: Largest share of empty cells a table may have and still be rendered as Markdown.
MAX_EMPTY = 1 / 3


def table_text(rows: list[list[str]]) -> str:
    """The cells' text in reading order (row by row, left to right): a table chunk's quote."""
    return " ".join(c for row in rows for c in row if c)


def is_clear(rows: list[list[str]]) -> bool:
    """Rows and columns clear enough for a Markdown table: two rows and two columns at
    least, every row as wide, a complete header row, at most ``MAX_EMPTY`` cells empty."""
    if len(rows) < 2 or min(len(r) for r in rows) < 2 or len({len(r) for r in rows}) != 1:
        return False
    if not all(rows[0]):
        return False
    cells = [c for r in rows for c in r]
    return sum(1 for c in cells if not c) <= MAX_EMPTY * len(cells)


def _md_cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|")


def to_markdown(rows: list[list[str]]) -> str:
    """A GitHub-flavoured Markdown table, first row as the header."""
    out = ["| " + " | ".join(_md_cell(c) for c in rows[0]) + " |",
           "|" + "---|" * len(rows[0])]
    out += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows[1:]]
    return "\n".join(out)


def as_lines(rows: list[list[str]]) -> str:
    """Rows whose columns are not clear, one row a line: a Markdown table of one column
    with an empty header, so the note shows the rows apart, never as one run-on line."""
    body = [" ".join(c for c in row if c) for row in rows]
    return "\n".join(["| |", "|---|", *("| " + _md_cell(line) + " |" for line in body if line)])


def rows_markdown(rows: list[list[str]], columns: bool) -> str | None:
    """The Markdown a table's cells are shown as: a table when ``columns`` (ruled, or set
    in aligned columns) and ``is_clear``; else one row a line; None without cells."""
    if not table_text(rows):
        return None
    return to_markdown(rows) if columns and is_clear(rows) else as_lines(rows)


#: A table's value: a number (``132.2``, ``-0.2``, ``1,234``, ``(12)``, ``3.0%``, a
#: footnote's mark after it) or a dash for none.
_VALUE_RE = re.compile(r"[(\[]?[-+−–]?(?:\d[\d,.]*|\.\d+)%?[)\]]?[*†‡]?|[-–—]")
#: Share of a row's words that are values, fewest words, fewest cells a line.
ROW_VALUES = 0.6
ROW_WORDS = 4
ROW_CELLS = 3
#: A row's label has a word of two letters (a matrix's ``0 0 z̄ 0`` has none).
_LABEL_RE = re.compile(r"[^\W\d_]{2}")


def is_number_row(lines: list[Line], text: str) -> bool:
    """Whether a para is a table's row (or rows) of figures, whatever found no table round
    it: each line in ``ROW_CELLS`` cells or more standing an em apart, ``ROW_VALUES`` of
    its words values (ONS's ``2024 Apr 132.2 3.0 0.5 133.5 2.3 0.3 124.6 6.6`` under
    column heads wrapped over it, which no table finder read), and a word among them (the
    row's label: a chart's axis, ``0 20 40 60``, is figures alone, a matrix's row a
    formula's letters). No sentence is set so."""
    words = text.split()
    if len(words) < ROW_WORDS or not all(ln.cells >= ROW_CELLS for ln in lines):
        return False
    values = sum(1 for w in words if _VALUE_RE.fullmatch(w))
    return values >= ROW_VALUES * len(words) and any(_LABEL_RE.search(w) for w in words)


#: Largest gap between two rows of figures read as one table, in line heights.
ROW_GAP = 1.5


def row_goes_on(para: Para, lines: list[Line], text: str) -> bool:
    """Whether rows of figures (``is_number_row``) are the next rows of the table para
    ``para`` right over them on their page, and if so, join them to it (in place: one
    region, a line a row). Only rows join rows: a caption over them is its own chunk."""
    last, first = para.lines[-1], lines[0]
    height = max(last.bbox[3] - last.bbox[1], 1.0)
    if para.type != "table" or last.page != first.page or not 0.0 <= first.bbox[1] - last.bbox[3] <= ROW_GAP * height \
            or not is_number_row(para.lines, para.text):
        return False
    para.text = join_two(para.text, text)
    para.lines.extend(lines)
    page, piece = para.pieces[-1]
    para.pieces[-1] = (page, join_two(piece, text))
    para.spans[-1] += len(lines)
    return True


def rows_of(para: Para) -> str | None:
    """The Markdown of a table para of rows of figures: a row a line (``as_lines``); None
    for any other para."""
    if para.type != "table" or not is_number_row(para.lines, para.text):
        return None
    return as_lines([[ln.text] for ln in para.lines])


#: How far (line heights) a column's head may stand out past the rows of figures under it.
HEAD_OVERHANG = 2.0
#: Most words a line of a table's column head holds (a head wraps in its narrow column).
HEAD_LINE_WORDS = 3


def heads_over(paras: list[Para], lines: list[Line]) -> None:
    """Retype, in place, the paras right over the first row of figures ``lines`` of a table
    whose heads wrap in narrow columns (ONS's ``CPIH`` | ``Index`` | ``(UK,`` |
    ``2015=100)``, read as paragraphs): on its page, within ``ROW_GAP`` line heights over
    the row, inside its width (but ``HEAD_OVERHANG`` line heights: a head is set wider than
    the figures under it), every line of ``HEAD_LINE_WORDS`` words at most."""
    top, left, right = lines[0].bbox[1], min(ln.bbox[0] for ln in lines), max(ln.bbox[2] for ln in lines)
    height = max(lines[0].bbox[3] - lines[0].bbox[1], 1.0)
    slack = HEAD_OVERHANG * height
    for para in reversed(paras):
        if para.type != "paragraph" or para.lines[-1].page != lines[0].page \
                or not 0.0 <= top - max(ln.bbox[3] for ln in para.lines) <= ROW_GAP * height \
                or not all(left - slack <= ln.bbox[0] and ln.bbox[2] <= right + slack
                           and len(ln.text.split()) <= HEAD_LINE_WORDS for ln in para.lines):
            return
        para.type = "table"
        para.floating = True
