"""Rows of figures no table finder took in: a para whose lines stand in cells and whose
words are figures with a label among them is a table's row (ONS's ``2024 Apr 132.2 3.0
0.5 …`` under column heads wrapped in narrow columns, each row read as a paragraph, one
as a section's heading); the rows under it join it, a row a line, and its wrapped heads
over it are the table's. Used by ``vaultd.parse.structure`` as it builds a page's paras
and by ``vaultd.parse.blocks`` for the rows' Markdown. Pure.
"""

from __future__ import annotations

import re

from vaultd.parse.classify import figure_count
from vaultd.parse.layout import join_two
from vaultd.parse.paras import Line, Para
from vaultd.parse.table_cells import as_lines

#: A table's empty cell: a dash for none.
_DASHES = ("-", "–", "—")
#: Share of a row's words that are values (figures, ``classify.figure_count``, or dashes),
#: fewest words, fewest cells a line.
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
    values = figure_count(words) + sum(1 for w in words if w in _DASHES)
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
