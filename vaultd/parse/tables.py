"""Tables: a ``Table N`` caption's table as its cells' text, rendered as Markdown when clear.

Only pages whose lines carry a ``Table N`` caption *and* whose vector drawings include a
vertical rule are searched (``page.find_tables()`` costs 90–400 ms a page under load, far
more than the page's text extraction). PyMuPDF's default ``lines`` strategy builds cells
only from drawn rules, so a page without any vertical stroke (booktabs tables, which have
only horizontal rules, or tables with no rules at all) cannot yield a table; the check
reads the page's drawings with ``page.get_cdrawings()`` (≈1 ms) and counts a vertical rule
as a line, or the side of a rectangle or filled shape, at least ``MIN_RULE`` points tall.
One such rule must also be a *column* rule, crossed by a horizontal rule that runs on past
it on both sides: zebra-striped tables (filled row boxes, no column rules) only have sides
at their outer edges, where no cell can be split off, and searching them cost 20–30 ms a
page for nothing (two PeerJ pages of the fixtures).
The search is clipped to the page's rules near the caption (``rule_region``: the
connected group of rules that starts from those within ``SEED_GAP`` above or below a
caption and sharing horizontal extent with it), so PyMuPDF builds its per-character list
for that region only, not the whole page. Those rules are handed to ``find_tables`` as
``add_lines`` with ``paths=[]``: PyMuPDF then builds cells from exactly the rules vaultd
found, without reading the page's drawings a second time (and without its own check that
a group of drawings holds text, which in PyMuPDF 1.28 compares a page-space clip with
unflipped character coordinates and so misses tables in a clipped search). A table
found there is attached to the nearest table caption on its page, and its lines are
taken out of the page before paragraphs are built, so its cells never come out as
paragraphs; ``vaultd.parse.table_blocks`` puts its cells in a chunk after its caption's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from vaultd.parse.algorithms import BARE_RE, algorithm_box, with_title
from vaultd.parse.aligned_tables import Word, aligned_table
from vaultd.parse.bare_tables import bare_tables
from vaultd.parse.base import Box
from vaultd.parse.captions import is_si_entry
from vaultd.parse.classify import CAPTION_RE, is_table_caption
from vaultd.parse.mupdf import load_pymupdf, mupdf_text
from vaultd.parse.open_tables import along_columns, rows_past_rules, rule_stacks, side_stack
from vaultd.parse.paras import Line
from vaultd.parse.rules import (
    CLIP_MARGIN,
    Edge,
    dotted_rules,
    drawn_rules,
    has_column_rule,
    image_rules,
    joined,
    path_edges,
    rule_edges,
)
from vaultd.parse.sentence_ends import OPEN_WORDS
from vaultd.parse.table_cells import is_clear, table_text
from vaultd.parse.table_geometry import cell_rows, centre_in, claims, inside, v_gap
from vaultd.parse.table_grid import word_grid

#: Largest vertical gap (points, about four lines) between a caption line and a rule of
#: its table: captions sit right above or below their table.
SEED_GAP = 48.0


@dataclass
class FoundTable:
    page: int
    bbox: Box
    rows: list[list[str]]
    caption: Line | None  # the caption line the table belongs to (None: ``vaultd.parse.bare_tables``)
    ruled: bool = True  # columns drawn: the cells' structure is known
    grid: list[list[str]] | None = None  # cells by their words' columns (no columns drawn)


def cell_text(cell: str | None) -> str:
    return " ".join((cell or "").split())


def _distance(a: Box, b: Box) -> float:
    """Vertical gap between two boxes (0 when they overlap), plus a penalty when they do
    not overlap horizontally (a table in the other column)."""
    apart = min(a[2], b[2]) <= max(a[0], b[0])
    return v_gap(a, b) + (1e4 if apart else 0.0)


def near(a: Box, b: Box, tol: float) -> bool:
    return a[0] - tol <= b[2] and b[0] - tol <= a[2] and a[1] - tol <= b[3] and b[1] - tol <= a[3]


def _beside(rule: Box, caption: Box) -> bool:
    """A rule shares horizontal extent with the caption line and is within ``SEED_GAP``."""
    across = min(rule[2], caption[2]) >= max(rule[0], caption[0])
    return across and v_gap(rule, caption) <= SEED_GAP


def rule_region(page: Any, captions: list[Line],
                rules: list[tuple[Box, dict[str, Any]]] | None = None) -> Box | None:
    """Where a ruled table of these captions can be, or None when no upright rule is there.

    Rules are drawings at least ``MIN_RULE`` long in one direction (glyph-sized shapes such
    as logos and dotted-line dots are ignored). Starting from the rules that share some
    horizontal extent with a caption line and lie within ``SEED_GAP`` above or below it,
    rules within ``CLIP_MARGIN`` of the group are added until none is left, for each
    caption on its own (``_caption_region``); the box of the groups that have a column
    rule, widened by ``CLIP_MARGIN``, is the search clip.
    ``rules``: the page's ``drawn_rules``, when the caller already has them.
    """
    if rules is None:
        rules = drawn_rules(page)
    regions = [box for c in captions if (box := _caption_region(c, rules)) is not None]
    if not regions:
        return None
    m = CLIP_MARGIN
    box = _box_of(regions)
    return (box[0] - m, box[1] - m, box[2] + m, box[3] + m)


def _caption_region(caption: Line, rules: list[tuple[Box, dict[str, Any]]]) -> Box | None:
    """The box of one caption's rule group (``rule_region``), or None without a column
    rule. Each caption grows its own group: grown together, two tables' seeds would span
    everything between them (a figure's plot grid, say)."""
    group = [r for r in rules if _beside(r[0], caption.bbox)]
    rest = [r for r in rules if not _beside(r[0], caption.bbox)]
    if not group:
        return None
    box = _box_of([g[0] for g in group])
    grew = True
    while grew:
        grew = False
        for r in list(rest):
            if near(r[0], box, CLIP_MARGIN):
                group.append(r)
                rest.remove(r)
                box = _box_of([box, r[0]])
                grew = True
    return box if has_column_rule(group) else None


def _rule_lines(rules: list[tuple[Box, dict[str, Any]]], region: Box
                ) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The rules inside ``region`` as line segments, for ``find_tables(add_lines=…)``."""
    out: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for box, path in rules:
        if not near(box, region, 0.0):
            continue
        vs, hs = path_edges(path)
        out += [((x, top), (x, bottom)) for x, top, bottom in vs]
        out += [((left, y), (right, y)) for y, left, right in hs]
    return out


def _box_of(boxes: list[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def find_page_tables(page: Any, lines: list[Line],
                     drawings: list[dict[str, Any]] | None = None) -> list[FoundTable]:
    """Tables on one page, each paired with its nearest ``Table N`` caption line."""
    captions = [ln for ln in lines if is_table_caption(ln.text) and can_open_caption(ln, lines)]
    if not captions:
        return []
    rules = drawn_rules(page, drawings)
    whole = {id(c): _whole_caption(c, lines) for c in captions}  # each caption's full box
    region = rule_region(page, list(whole.values()), rules)
    found: list[FoundTable] = []
    free = list(captions)
    extracted: list[tuple[Any, list[list[str | None]]]] = []
    if region is not None:
        # PyMuPDF prints an advert for its layout add-on on the first find_tables call.
        getattr(load_pymupdf(), "no_recommend_layout", lambda: None)()
        with mupdf_text():  # find_tables flips a process-wide MuPDF switch while it runs
            finder = page.find_tables(clip=region, paths=[], add_lines=_rule_lines(rules, region))
            extracted = [(tab.bbox, tab.extract()) for tab in (finder.tables if finder else [])]
    others = [ln for ln in lines if CAPTION_RE.match(ln.text) and id(ln) not in whole]
    edges = rule_edges(rules)  # read once for the page's ruled and open tables
    for tab_bbox, cells in extracted:
        rows = [[cell_text(c) for c in row] for row in cells]
        if len(rows) < 2 or not table_text(rows) or not free:
            continue  # one row between two rules is a table's header band, not the table
        x0, y0, x1, y1 = (float(v) for v in tab_bbox)
        bbox: Box = (x0, y0, x1, y1)
        if any(centre_in(ln.bbox, bbox) for ln in others):
            continue  # a caption inside: the grids of a figure's plots, not a table
        cap = min(free, key=lambda ln: _distance(whole[id(ln)].bbox, bbox))
        if _distance(whole[id(cap)].bbox, bbox) > SEED_GAP:
            continue  # no caption right above or below it: a figure's grid, not a table
        if _stack_beyond(edges[1], lines, whole[id(cap)], bbox):
            continue  # the header band of a table whose row rules go on: the open table is it
        free.remove(cap)
        found.append(FoundTable(page.number + 1, bbox, rows, cap))
    if free:
        if drawn_as_images := image_rules(page):
            edges = (edges[0], joined(edges[1] + drawn_as_images))
        if set_as_dots := dotted_rules(lines):
            edges = (edges[0], joined(edges[1] + set_as_dots))
        found += _open_tables(edges, lines, [(c, whole[id(c)]) for c in free], page.number + 1, found)
        found += _unruled_tables(page, lines, [c for c in free if not any(t.caption is c for t in found)],
                                 whole, found)
    for tab in found:
        if not (tab.ruled and is_clear(tab.rows)):
            tab.grid = _grid(page, tab.bbox, edges[1])
    return found


def _grid(page: Any, box: Box, across: list[Edge]) -> list[list[str]] | None:
    """The cells of an open table by its words' columns (``vaultd.parse.table_grid``);
    ``across``: the page's horizontal rules (those across the table inside it tell its
    header)."""
    with mupdf_text() as mod:
        words = page.get_text("words", clip=box, flags=mod.TEXT_MEDIABOX_CLIP)
    width = box[2] - box[0]
    inner = [y for y, x0, x1 in across if box[1] + RULE_INSIDE < y < box[3] - RULE_INSIDE
             and min(x1, box[2]) - max(x0, box[0]) >= RULE_ACROSS * width]
    return word_grid([tuple(w) for w in words], inner)


#: A rule this far (points) inside a table's box is no top or bottom rule of it.
RULE_INSIDE = 2.0
#: Share of a table's width a rule must run across to part its header from its body (a
#: ``cmidrule`` under a spanning header runs across some columns only).
RULE_ACROSS = 0.9


def _stack_beyond(across: list[Edge], lines: list[Line], caption: Line, bbox: Box) -> bool:
    """Whether the caption's stack of rules (``vaultd.parse.open_tables``) holds the grid
    ``bbox`` PyMuPDF found and goes on a row or more past it (SciELO shades every other row
    under a ruled header band: the finder returns the band, the rules run on to the end)."""
    stops = [ln for ln in lines if CAPTION_RE.match(ln.text) and ln.bbox != caption.bbox]
    return any(box[1] <= bbox[1] + 3.0 and box[3] >= bbox[3] + ROW_BEYOND
               and box[0] <= bbox[0] + 3.0 and box[2] >= bbox[2] - 3.0
               for box in rule_stacks(across, caption, stops, SEED_GAP, lines))


#: How far past a found grid a caption's stack of rules must go to be the table instead.
ROW_BEYOND = 20.0


def find_bare_tables(page: Any, lines: list[Line], drawings: list[dict[str, Any]] | None,
                     found: list[FoundTable]) -> list[FoundTable]:
    """The page's ruled tables without a caption (``vaultd.parse.bare_tables``), none
    touching the tables ``found`` on it already."""
    across = rule_edges(drawn_rules(page, drawings))[1]
    out: list[FoundTable] = []
    for box in bare_tables(across, lines, [t.bbox for t in found]):
        rows = cell_rows([ln for ln in lines if inside(ln, box)])
        if rows:
            tab = FoundTable(page.number + 1, box, rows, None, ruled=False)
            tab.grid = _grid(page, box, across)
            out.append(tab)
    return out


def find_page_algorithms(page: Any, captions: list[Line], lines: list[Line],
                         drawings: list[dict[str, Any]] | None = None) -> list[FoundTable]:
    """The ruled algorithm floats of these ``Algorithm N`` caption lines
    (``vaultd.parse.algorithms``), each with its pseudocode lines as rows."""
    if not captions:
        return []
    across = rule_edges(drawn_rules(page, drawings))[1]
    out: list[FoundTable] = []
    for cap in captions:
        box = algorithm_box(across, cap.bbox)
        if box is None and BARE_RE.fullmatch(cap.text.strip()):
            # (the label alone on its line, its title's line between it and the rule)
            box = algorithm_box(across, with_title(cap.bbox, cap.bbox[3] - cap.bbox[1],
                                                   [ln.bbox for ln in lines if ln is not cap]))
        if box is None:
            continue
        rows = cell_rows([ln for ln in lines if ln is not cap and inside(ln, box)])
        if rows:
            out.append(FoundTable(page.number + 1, box, rows, cap, ruled=False))
    return out


def _whole_caption(cap: Line, lines: list[Line]) -> Line:
    """``cap`` with the box of its whole caption: the lines under it in its source block,
    in its size (MDPI sets a five-line caption and a table note over the table's first
    rule, which is then 66 pt under the caption's first line but right under its last).
    A line starting left of the caption's first line is no line of it: a caption's lines
    start where its first does, or further in (centred, hanging), and MuPDF puts the
    column's text under a centred full-width caption in the caption's block (CEUR)."""
    below = [ln for ln in lines if ln.block == cap.block and ln.page == cap.page
             and ln.bbox[1] >= cap.bbox[1] and abs(ln.size - cap.size) <= 0.5
             and ln.bbox[0] >= cap.bbox[0] - CAPTION_SLACK]
    return replace(cap, bbox=_box_of([cap.bbox, *(ln.bbox for ln in below)]))


#: How far (points) left of a caption's first line its next lines may start.
CAPTION_SLACK = 2.0


def _open_tables(edges: tuple[list[Edge], list[Edge]], lines: list[Line],
                 captions: list[tuple[Line, Line]], page: int, found: list[FoundTable]) -> list[FoundTable]:
    """Tables of captions no ruled table matched, found from their horizontal rules
    (``vaultd.parse.open_tables``). ``captions``: each caption line with its whole caption;
    ``edges``: the page's ``rule_edges``."""
    vs, across = edges
    stops = [ln for ln in lines if CAPTION_RE.match(ln.text)]
    nearest = {id(cap): rule_stacks(across, whole, [ln for ln in stops if ln is not cap], SEED_GAP, lines)
               for cap, whole in captions}
    out: list[FoundTable] = []
    for cap, whole in captions:
        others = [ln for ln in stops if ln is not cap]
        boxes = nearest[id(cap)]
        rivals = [v_gap(nearest[id(c)][0], w.bbox) for c, w in captions if c is not cap and nearest[id(c)]
                  and claims(nearest[id(c)], boxes) and claims(boxes, nearest[id(c)])]
        if boxes and rivals and v_gap(boxes[0], whole.bbox) >= min(rivals):
            # Two captions reach for one table (ACL's caption under its table, 36 pt over
            # the next table): the farther one takes the table on its other side, if it
            # has one (CEUR's full-width caption under its table reached down to the
            # next column's table right under that table's own caption).
            down = boxes[0][1] >= whole.bbox[3] - 2.0
            other_side = rule_stacks(across, whole, others, SEED_GAP, lines, downward=not down)
            if other_side:
                boxes = other_side
        if not boxes and (side := side_stack(across, whole, others, lines)) is not None:
            boxes = [side]  # a table set beside its caption
        for stacked in boxes:
            box = rows_past_rules(along_columns(stacked, vs, whole.bbox), lines, stops, whole.bbox)
            if any(near(box, t.bbox, 0.0) for t in (*found, *out)):
                continue
            cells = [ln for ln in lines if ln is not cap and inside(ln, box)]
            rows = cell_rows(cells)
            if rows:
                out.append(FoundTable(page, box, rows, cap, ruled=False))
    return out


def _unruled_tables(page: Any, lines: list[Line], captions: list[Line], whole: dict[int, Line],
                    found: list[FoundTable]) -> list[FoundTable]:
    """Tables of captions no ruled or open table matched, found from their rows of cells
    set apart (``vaultd.parse.aligned_tables``)."""
    stops = [ln for ln in lines if CAPTION_RE.match(ln.text)]
    out: list[FoundTable] = []

    def words_in(box: Box) -> list[Word]:
        with mupdf_text() as mod:
            return [tuple(w) for w in page.get_text("words", clip=box, flags=mod.TEXT_MEDIABOX_CLIP)]

    for cap in captions:
        box = aligned_table(whole[id(cap)], lines, stops, words_in)
        if box is None or any(near(box, t.bbox, 0.0) for t in (*found, *out)):
            continue
        rows = cell_rows([ln for ln in lines if ln is not cap and inside(ln, box)])
        if rows:
            out.append(FoundTable(page.number + 1, box, rows, cap, ruled=False))
    return out


def can_open_caption(line: Line, lines: list[Line]) -> bool:
    """Whether ``line`` can open a caption: not when the line right above it in its block
    leaves a sentence open on a word no sentence ends on (``… are shown in`` | ``Table 4.
    AI-driven lists were …``: a body line that merely wraps to begin with the label), nor
    when it is a supporting-information entry (``is_si_entry``)."""
    height = max(line.bbox[3] - line.bbox[1], 1.0)
    if is_si_entry(line, lines):
        return False
    return not any(ln.block == line.block and ln.page == line.page
                   and 0.0 <= line.bbox[1] - ln.bbox[3] + 1.0 <= 1.5 * height
                   and ln.bbox[0] < line.bbox[2] and line.bbox[0] < ln.bbox[2]
                   and ln.text.rstrip().rsplit(None, 1)[-1:] and ln.text.rstrip().rsplit(None, 1)[-1] in OPEN_WORDS
                   for ln in lines if ln is not line)

