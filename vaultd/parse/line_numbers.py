"""Line numbers: the numbers a manuscript, a review copy or a proof sets beside (or over)
its lines, removed before a line's pieces are joined and blocks are built.

A margin's column of bare numbers counting up from the top down, wholly left or right of
the text (``drop_line_numbers``), set small beside prose (``drop_margin_line_numbers``),
between a sidebar and the text, or drawn over the text as a review copy's ruler; a page
with too few to tell loses those set as other pages' dropped ones
(``drop_document_line_numbers``). A listing's numbered lines keep their numbers.
"""

from __future__ import annotations

import itertools

from vaultd.parse.fontnames import font_family
from vaultd.parse.paras import Line

#: Fewest numbered lines a page's margin column of line numbers has.
LINE_NUMBERS_MIN = 8
#: Fewest a column numbering every n-th line has (Copernicus's and ``lineno``'s every fifth).
STEPPED_MIN = 5


def drop_line_numbers(lines: list[Line]) -> list[Line]:
    """The page without its line numbers: bare numbers stacked in a margin beside the
    text (AASTeX's and many journals' review manuscripts), at least ``LINE_NUMBERS_MIN``
    of them, wholly left of the page's other lines or wholly right of them, counting up
    from the top down. Body text never stands so."""
    numbers = [ln for ln in lines if _bare_number(ln)]
    if len(numbers) < LINE_NUMBERS_MIN:
        return lines
    others = [ln for ln in lines if not _bare_number(ln)]
    drop = _numbered_sides(numbers, others)
    return [ln for ln in lines if id(ln) not in drop] if drop else lines


def drop_margin_line_numbers(lines: list[Line]) -> list[Line]:
    """The page without line numbers set in its margin beside prose, read before a line's
    pieces are joined (beside a line's baseline, a number would become its first word):
    those wholly left or right of all its text (``drop_line_numbers``: a Word draft's, in
    the text's own size); and those set small: a LIPIcs review copy numbers every line in 5 pt beside a 10 pt text, its running
    head and folio standing further out than the numbers. Only the lines level with the
    numbers count (``drop_line_numbers``' rule), the numbers set at most ``SMALL_NUMBER`` of
    those lines' size, and most of those lines no program's (a listing's numbered lines
    keep their numbers, which ``drop_line_numbers`` judges once they are joined)."""
    numbers = [ln for ln in lines if _bare_number(ln)]
    if len(numbers) < STEPPED_MIN:
        return lines
    # (numbers of any size wholly left or right of all the page's text: a Word draft's
    # line numbers, set in the text's own size and font in its margin)
    kept = drop_line_numbers(lines)
    if len(kept) < len(lines):
        return kept
    top, bottom = min(ln.bbox[1] for ln in numbers), max(ln.bbox[3] for ln in numbers)
    level = [ln for ln in lines if not _bare_number(ln) and top <= (ln.bbox[1] + ln.bbox[3]) / 2 <= bottom]
    if not level or 2 * sum(ln.mono for ln in level) >= len(level):
        return lines
    size = sorted(ln.size for ln in level)[len(level) // 2]
    small = [ln for ln in numbers if ln.size <= SMALL_NUMBER * size]
    drop = _numbered_sides(small, level) or _numbered_column(small, level) or _ruler(small, level)
    return [ln for ln in lines if id(ln) not in drop] if drop else lines


def drop_document_line_numbers(pages: list[list[Line]]) -> list[list[Line]]:
    """Every page without its margin line numbers (``drop_margin_line_numbers``), and a
    page with too few to tell (a first page whose text starts low: PLOS's template numbers
    six lines there) without the numbers set where, and as, other pages' dropped ones
    were: the same font and size, one edge aligned with theirs, two or more counting up."""
    out = [drop_margin_line_numbers(lines) for lines in pages]
    marks: set[tuple[str, float, str, int]] = set()
    for before, after in zip(pages, out, strict=True):
        if len(after) < len(before):
            kept = {id(ln) for ln in after}
            for ln in before:
                if id(ln) not in kept and _bare_number(ln):
                    marks.update(_number_marks(ln))
    if not marks:
        return out
    for i, (before, after) in enumerate(zip(pages, out, strict=True)):
        if len(after) < len(before):
            continue
        numbers = sorted((ln for ln in before if _bare_number(ln) and not marks.isdisjoint(_number_marks(ln))),
                         key=lambda ln: ln.bbox[1])
        values = [int(ln.text.strip()) for ln in numbers]
        if len(numbers) >= 2 and all(b > a for a, b in itertools.pairwise(values)):
            drop = {id(ln) for ln in numbers}
            out[i] = [ln for ln in before if id(ln) not in drop]
    return out


def _number_marks(ln: Line) -> tuple[tuple[str, float, str, int], ...]:
    """How a line number is set: its font and size and the column each of its edges stands
    in (right-aligned in a left margin, left-aligned in a right one: one edge stays put)."""
    font, size = ln.font, round(ln.size, 1)
    return (font, size, "left", round(ln.bbox[0] / COLUMN_STEP)), (font, size, "right", round(ln.bbox[2] / COLUMN_STEP))


def _ruler(numbers: list[Line], others: list[Line]) -> set[int]:
    """The numbers (ids) of a review copy's ruler drawn over the text: a column of
    ``LINE_NUMBERS_MIN`` or more, one edge aligned, counting up by one from the top down,
    in a font family none of the text set level with them uses (an ACL review copy built
    for another paper size stands its rulers inside both columns)."""
    faces = {font_family(o.font) for o in others}
    return {id(ln) for col in _aligned_columns(numbers, (0, 2))
            if not any(font_family(ln.font) in faces for ln in col)
            and all(b == a + 1 for a, b in itertools.pairwise(int(ln.text.strip()) for ln in col))
            for ln in col}


def _aligned_columns(numbers: list[Line], edges: tuple[int, ...]) -> list[list[Line]]:
    """The columns of ``LINE_NUMBERS_MIN`` numbers or more with one edge aligned (by each
    of ``edges`` in turn: 0 their left, 2 their right), each from the top down."""
    out: list[list[Line]] = []
    for edge in edges:
        columns: dict[int, list[Line]] = {}
        for ln in numbers:
            columns.setdefault(round(ln.bbox[edge] / COLUMN_STEP), []).append(ln)
        out += [sorted(col, key=lambda ln: ln.bbox[1]) for col in columns.values() if len(col) >= LINE_NUMBERS_MIN]
    return out


def _numbered_column(numbers: list[Line], others: list[Line]) -> set[int]:
    """The numbers (ids) of a column no line of text runs across level with a number,
    ``LINE_NUMBERS_MIN`` or more counting up from the top down, set right-aligned (a left
    margin's) or left-aligned (a right margin's): between a sidebar and the text (bioRxiv's
    eLife-style manuscript numbers its lines between p. 1's sidebar and the body)."""
    drop: set[int] = set()
    # (a line counts against a column only running across it level with one of its
    # numbers, not ending in it (JOSS's sidebar), and not a watermark set across the page,
    # taller than several lines (JOSS's ``DRAFT``))
    heights = sorted(o.bbox[3] - o.bbox[1] for o in others)
    tall = WATERMARK_LINES * heights[len(heights) // 2] if heights else 0.0
    for col in _aligned_columns(numbers, (2, 0)):
        x0, x1 = min(ln.bbox[0] for ln in col), max(ln.bbox[2] for ln in col)
        top, bottom = col[0].bbox[1], col[-1].bbox[3]
        values = [int(ln.text.strip()) for ln in col]
        beside = [o for o in others if any(abs(o.bbox[3] - ln.bbox[3]) <= ROW_SLACK for ln in col)]
        if 2 * sum(o.mono for o in beside) >= len(beside):
            continue  # a listing's numbered lines keep their numbers (``drop_line_numbers``)
        if all(b > a for a, b in itertools.pairwise(values)) and not any(
                o.bbox[0] < x0 and o.bbox[2] > x1 and top <= (o.bbox[1] + o.bbox[3]) / 2 <= bottom
                and o.bbox[3] - o.bbox[1] <= tall and any(
                    o.bbox[1] < ln.bbox[3] and ln.bbox[1] < o.bbox[3] for ln in col)
                for o in others):
            drop.update(id(ln) for ln in col)
    return drop


#: A line this many times as tall as most is a watermark, no text's.
WATERMARK_LINES = 4
#: Width (points) of the steps a column of line numbers' aligned edge is rounded to.
COLUMN_STEP = 3.0
#: How far apart (points) a line number's baseline and its line's may stand.
ROW_SLACK = 3.0


#: How large a margin's line numbers are set at most, in the size of the text beside them.
SMALL_NUMBER = 0.9


def _bare_number(ln: Line) -> bool:
    text = ln.text.strip()
    return text.isdigit() and len(text) <= 4


def _numbered_sides(numbers: list[Line], others: list[Line]) -> set[int]:
    """The numbers (ids) wholly left or wholly right of ``others``, ``LINE_NUMBERS_MIN`` or
    more on a side, counting up from the top down. Small print above or below the numbers
    does not count: a banner may reach further out (bioRxiv's 8 pt licence lines, at 54 pt
    over a Word draft's 11 pt numbers ending at 54 pt); text as large as that beside them
    does (a listing's numbers, indented, with the body text above it further left)."""
    if not others or not numbers:
        return set()
    top, bottom = min(ln.bbox[1] for ln in numbers), max(ln.bbox[3] for ln in numbers)
    level = sorted(o.size for o in others if top <= (o.bbox[1] + o.bbox[3]) / 2 <= bottom)
    if level:
        size = level[len(level) // 2]
        others = [o for o in others if o.size > SMALL_NUMBER * size or top <= (o.bbox[1] + o.bbox[3]) / 2 <= bottom]
    left = min(ln.bbox[0] for ln in others)
    right = max(ln.bbox[2] for ln in others)
    drop: set[int] = set()
    for side in ([ln for ln in numbers if ln.bbox[2] <= left], [ln for ln in numbers if ln.bbox[0] >= right]):
        side.sort(key=lambda ln: ln.bbox[1])
        if _counts_lines([int(ln.text.strip()) for ln in side]):
            drop.update(id(ln) for ln in side)
    return drop


def _counts_lines(values: list[int]) -> bool:
    """Whether a margin's numbers, from the top down, count its lines: ``LINE_NUMBERS_MIN``
    or more counting up, or ``STEPPED_MIN`` or more numbering every n-th line (each a
    multiple of one step of two or more, none skipped: 15, 20, 25, …)."""
    if len(values) >= LINE_NUMBERS_MIN and all(b > a for a, b in itertools.pairwise(values)):
        return True
    steps = {b - a for a, b in itertools.pairwise(values)}
    if len(values) < STEPPED_MIN or len(steps) != 1:
        return False
    step = steps.pop()
    return step >= 2 and all(v % step == 0 for v in values)
