"""Tables ruled only across (booktabs): found from their horizontal rules and caption.

A table set with ``\\toprule``/``\\midrule``/``\\bottomrule`` (ACL, most LaTeX papers) or
with row rules only has no vertical rule, so PyMuPDF's ``lines`` strategy cannot build
its cells (``vaultd.parse.tables``). Its extent is still drawn: the stack of horizontal
rules of the same width right above or below its ``Table N`` caption. So:

1. The page's horizontal rules (at least ``MIN_RULE`` long; pieces of one rule joined).
2. The seed is the rule nearest the caption, above or below it within ``SEED_GAP``,
   sharing horizontal extent with it (the next nearest, when one stacks no second rule:
   a word's underline in the table). Tables set side by side under one caption each
   have a seed of their own, level with that one (``SIDE_BY_SIDE``).
3. Going away from the caption, rules whose horizontal extent matches the seed's
   (``SAME_EXTENT`` of the wider one) join the stack while the gap to the last one is at
   most ``MAX_GAP`` and no caption over the rules' width, nor a line running past both
   their ends (body text), stands in between.
4. With at least two rules, every line whose centre lies between the top and bottom
   rules, inside their horizontal extent, is a cell line of the table: it is taken out of
   the page's text (so it never joins a paragraph) and its text, row by row, becomes the
   table's cells chunk (``vaultd.parse.table_blocks``). Its columns are not drawn: they
   are read from its words' positions (``vaultd.parse.table_grid``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from vaultd.parse.base import Box
from vaultd.parse.classify import lower_words
from vaultd.parse.paras import Line
from vaultd.parse.sentence_ends import NOTE_MARKS
from vaultd.parse.table_geometry import (
    ACROSS,
    Rule,
    between,
    line_rows,
    overlap,
    runs_across,
    v_gap,
)

#: Largest gap between two rules of one table (points): a long table body between its
#: mid and bottom rules. A longer one (PAHO's page-long table of values: 425 pt between
#: its header's rule and its bottom rule) when no line of prose stands in it.
MAX_GAP = 320.0
#: Words of a line of running text (see ``_prose_between``).
PROSE_LINE_WORDS = 6
#: Two rules belong to one table when they overlap over this share of the wider one.
SAME_EXTENT = 0.8
#: Tables side by side under one caption start within this many points of the same
#: distance from it (their top rules are level, give or take a header row).
SIDE_BY_SIDE = 12.0


def _prose_between(lines: Iterable[Line], top: float, bottom: float, rule: Rule) -> bool:
    """Whether a line of running text stands between two rules, over some of the rule's
    width: six words or more, most of them in lowercase letters (a row's label, ``Tiempo
    de residencia (años):``, or a row of values is none)."""
    return any(is_prose_line(ln) for ln in between(lines, top, bottom, rule))


def is_prose_line(ln: Line) -> bool:
    """A line of running text: ``PROSE_LINE_WORDS`` words or more, most in lowercase."""
    words = ln.text.split()
    return len(words) >= PROSE_LINE_WORDS and lower_words(words) * 5 >= len(words) * 3


def rule_stacks(rules: list[Rule], caption: Line, stops: list[Line], seed_gap: float,
                lines: Iterable[Line] = (), downward: bool | None = None) -> list[Box]:
    """The boxes between the top and bottom rules of the caption's table: one, or one per
    table set side by side under one caption (a seed level with the nearest one, within
    ``SIDE_BY_SIDE`` points of its gap, sharing no horizontal extent with it).
    ``downward``: look only under the caption (True) or only above it (False)."""
    cap = caption.bbox
    seeds = []
    for rule in rules:
        y, left, right = rule
        if min(right, cap[2]) <= max(left, cap[0]):
            continue
        gap = cap[1] - y if y <= cap[1] else y - cap[3]
        if -2.0 <= gap <= seed_gap and (downward is None or (y > cap[3] - 2.0) == downward):
            seeds.append((gap, rule))
    seeds.sort()
    text = list(lines)
    # the nearest seed first; one that stacks nothing (a word's underline in the table
    # over the caption, ELMo) gives way to the next
    for k, (best_gap, best) in enumerate(seeds):
        downward = best[0] > cap[3] - 2.0
        chosen = [best]
        for gap, rule in seeds[k + 1:]:
            if (gap - best_gap <= SIDE_BY_SIDE and (rule[0] > cap[3] - 2.0) == downward
                    and all(min(rule[2], c[2]) <= max(rule[1], c[1]) for c in chosen)):
                chosen.append(rule)
        boxes = [box for seed in chosen if (box := _stack(seed, rules, stops, downward, text)) is not None]
        if boxes:
            return boxes
    return []


def side_stack(rules: list[Rule], caption: Line, stops: list[Line], lines: Iterable[Line] = ()) -> Box | None:
    """The box of the rules stacked down from the top rule of a table set beside its
    caption (Wiley GCB: the caption in a narrow column at the table's right, their tops
    level): the seed is the rule wholly on one side of the caption nearest its top, within
    ``SIDE_SEED`` points of it."""
    cap = caption.bbox
    level = [r for r in rules if abs(r[0] - cap[1]) <= SIDE_SEED
             and (r[2] <= cap[0] + 2.0 or r[1] >= cap[2] - 2.0)]
    if not level:
        return None
    seed = min(level, key=lambda r: abs(r[0] - cap[1]))
    return _stack(seed, rules, stops, True, list(lines))


#: How far from a side caption's top the top rule of its table stands (points).
SIDE_SEED = 12.0


def _stack(seed: Rule, rules: list[Rule], stops: list[Line], downward: bool,
           lines: list[Line]) -> Box | None:
    """The box of the rules stacked from ``seed`` away from its caption (module doc, 3)."""
    ahead = sorted((r for r in rules if (r[0] > seed[0] if downward else r[0] < seed[0])),
                   key=lambda r: r[0] if downward else -r[0])
    stack = [seed]
    first = seed[0]  # (the spanning head's short rule, when the seed gives way to the header's)
    for rule in ahead:
        last = stack[-1]
        top, bottom = sorted((last[0], rule[0]))
        if downward and len(stack) == 1 and bottom - top <= HEADER_GAP and rule[1] <= seed[1] + 2.0 \
                and rule[2] >= seed[2] - 2.0 \
                and overlap(rule, seed) < SAME_EXTENT and not runs_across(lines, top, bottom, rule):
            # a spanning head's short rule over the header's rule across a table under its
            # caption (above its caption, a short rule nearest it is a word's underline)
            seed = rule
            stack = [rule]
            continue
        if bottom - top > MAX_GAP and _prose_between(lines, top, bottom, seed):
            # a long body of rows holds no sentence (a page-long table of values does
            # not); the rows up to the first one, when the rule ends the table's notes
            # (Clinical Science rules off its table under the notes), are the table's
            end = _rows_end(lines, top, bottom, seed, downward)
            if end is not None:
                stack.append((end, seed[1], seed[2]))
            break
        if overlap(rule, seed) < SAME_EXTENT:
            continue
        if between(stops, top, bottom, seed) or runs_across(lines, top, bottom, seed) \
                or _text_past_rows(lines, stack, top, bottom, seed):
            break
        stack.append(rule)
    if len(stack) < 2 and downward and (end := _rows_to_note(lines, seed)) is not None:
        stack.append((end, seed[1], seed[2]))  # one rule under the header: the rows end at the notes
    elif len(stack) == 2 and downward \
            and len(line_rows(between(lines, stack[0][0], stack[1][0], seed))) <= HEAD_ROWS \
            and (end := _rows_to_note(lines, stack[-1])) is not None:
        # ruled over and under its head only, none at its foot (the RSC's Table 1): its rows
        # run on under the head's rule to its notes
        stack.append((end, seed[1], seed[2]))
    if len(stack) < 2:
        return None
    ys = [r[0] for r in stack] + [first]
    return (min(r[1] for r in stack), min(ys), max(r[2] for r in stack), max(ys))


#: Most printed rows between a table's two rules for them to rule its head alone.
HEAD_ROWS = 5


def _text_past_rows(lines: list[Line], stack: list[Rule], top: float, bottom: float, seed: Rule) -> bool:
    """Whether the gap between two rules holds running text set larger than the rows the
    stack holds so far (``TEXT_LINES`` lines of prose ``NOTE_SMALLER`` points or more over
    their size): the page's text in columns between a table's top rule and a rule across
    the page's head (*The Lancet*'s two columns over its Table 1, whose stack had reached
    the running head's rule)."""
    if len(stack) < 2:
        return False
    ys = [r[0] for r in stack]
    rows = between(lines, min(ys), max(ys), seed)
    if not rows:
        return False
    size = sorted(ln.size for ln in rows)[len(rows) // 2]
    gap = between(lines, top, bottom, seed)
    if sum(is_prose_line(ln) and ln.size >= size + NOTE_SMALLER for ln in gap) >= TEXT_LINES:
        return True
    # or a head of the page's, set well over the rows (a JRC report's ``3 Saving energy at
    # work`` between Table 1's foot rule and the shaded box under it, whose edges had
    # stacked on: a table holds no section's head)
    if any(ln.size >= size + HEAD_OVER_ROWS and _words(ln.text) >= 2 for ln in gap):
        return True  # (of words: a displayed formula's large signs are none)
    # or past the table's notes: its rows, stacked down, end in a note right over the last
    # rule, and running text set over the rows' size stands beyond it (the RSC's ``a Average
    # of three separate determinations.`` over Table 2's foot rule, the column's text under
    # that, over the rule ruling Table 3 off from it)
    last = max(rows, key=lambda ln: ln.bbox[3])
    if stack[-1][0] == top > stack[0][0] and _opens_note(last, seed[2] - seed[1]) \
            and any(is_prose_line(ln) and ln.size >= size + NOTE_SMALLER for ln in gap):
        return True
    # or in the rows' size, up to a rule with no text of the page beyond it (the rule over
    # its running foot or under its head), under a table ruled over, under its head and at
    # its foot, whose rows hold next to no prose: a gap of more lines than a row holds, a
    # third of them prose (Wiley's Table 2 in the body's 9 pt, the page's columns of text
    # under it, over the rule at the page's foot)
    if len(stack) < 3 or len(line_rows(gap)) < GAP_ROWS:
        return False
    edge = top if stack[-1][0] == bottom else bottom
    if any(ln.bbox[1] >= edge for ln in lines) if edge == bottom else any(ln.bbox[3] <= edge for ln in lines):
        return False
    prose = sum(map(is_prose_line, gap))
    return prose >= TEXT_LINES and 3 * prose >= len(gap) and PROSE_ROWS * sum(map(is_prose_line, rows)) <= len(rows)


#: A table's rows hold at most one line of prose in this many; fewest printed lines between
#: a table's foot rule and a rule further on for the text between to be the page's.
PROSE_ROWS, GAP_ROWS = 5, 6


def _words(text: str) -> int:
    """How many words of three letters or more ``text`` holds."""
    return sum(1 for w in text.split() if sum(map(str.isalpha, w)) >= 3)


#: Lines of running text in a gap that end a table's stack of rules.
TEXT_LINES = 3
#: How much larger (points) than a table's rows a head between two rules is set.
HEAD_OVER_ROWS = 2.5

#: A table's note by its label (``Note.``, ``Notes:``, ``Source:``).
_NOTE_RE = re.compile(r"(?:Notes?|Sources?|Abbreviations?)\s*[.:]")
#: A note led by a lowercase letter, its mark, and the share of the table's width its
#: first line runs at least.
_LETTER_MARK_RE = re.compile(r"[a-z]\s+\S")
LETTER_NOTE_SPAN = 0.6


def letter_note(ln: Line, width: float) -> bool:
    """Whether ``ln`` opens a table's note led by a letter, its mark, running as a sentence
    across the table (``LETTER_NOTE_SPAN`` of its ``width``): the RSC's ``a n ≥ 3
    independent experiments …``, set in the rows' size."""
    return bool(_LETTER_MARK_RE.match(ln.text.lstrip())) and ln.cells == 1 \
        and ln.bbox[2] - ln.bbox[0] >= LETTER_NOTE_SPAN * width


def _labelled_note(ln: Line, width: float) -> bool:
    """Whether ``ln`` opens a table's note that may stand in the rows' size: labelled so
    (``Note:``) or led by a letter across the table's ``width`` (``letter_note``)."""
    return bool(_NOTE_RE.match(ln.text.lstrip())) or letter_note(ln, width)


def _opens_note(ln: Line, width: float) -> bool:
    """Whether ``ln`` opens a table's note: led by a note's mark (``∗Rsymm = …``), or
    labelled or led by a letter (``_labelled_note``)."""
    return ln.text.lstrip()[:1] in NOTE_MARKS or _labelled_note(ln, width)


#: How much smaller (points) than its rows a table's notes are set.
NOTE_SMALLER = 0.5
#: Fewest rows before a table's notes for the rows to be a table of their own.
MIN_NOTED_ROWS = 3


def _rows_end(lines: list[Line], top: float, bottom: float, seed: Rule, downward: bool) -> float | None:
    """Where the rows between two rules end, going away from the caption, when a line of
    running text or a note's mark stands further on and everything from there to the rule
    is set smaller than the rows (the table's notes): ``MIN_NOTED_ROWS`` rows or more, none
    running across the rules' width, the first of them right at the last rule."""
    inner = sorted(between(lines, top, bottom, seed), key=lambda ln: ln.bbox[1] if downward else -ln.bbox[3])
    rows: list[Line] = []
    edge = top if downward else bottom
    for ln in inner:
        if is_prose_line(ln) or (rows and ln.text.lstrip()[:1] in NOTE_MARKS):
            break  # the notes (``∗Rsymm = …``, ``†Rcryst …``)
        gap = ln.bbox[1] - edge if downward else edge - ln.bbox[3]
        if gap > 2 * max(ln.bbox[3] - ln.bbox[1], 1.0) or (ln.bbox[0] < seed[1] - ACROSS and ln.bbox[2] > seed[2] + ACROSS):
            return None  # rows far from the rule, or body text: not the table's rows
        rows.append(ln)
        edge = ln.bbox[3] if downward else ln.bbox[1]
    notes = inner[len(rows):]
    if len(line_rows(rows)) < MIN_NOTED_ROWS or not notes:
        return None
    row_size = sorted(ln.size for ln in rows)[len(rows) // 2]
    if any(ln.size > row_size - NOTE_SMALLER for ln in notes):
        return None  # a line of the rows' size past them: running text, no notes
    return edge + 0.5 if downward else edge - 0.5


def _rows_to_note(lines: list[Line], rule: Rule) -> float | None:
    """Where the rows under a table's one rule end: rows set right under it and each as
    close to the last, inside its width, no line of running text, up to a note labelled
    so (``Note: β denotes …``), or led by a note's mark and set smaller than them, or,
    with no note, where they stop, when each is cells an em apart: ``MIN_NOTED_ROWS`` rows
    or more (*Collabra* rules its Table 1 under the header only)."""
    y, left, right = rule
    under = sorted((ln for ln in lines if ln.bbox[1] >= y - 1.0 and left - 2 * ACROSS <= ln.bbox[0] < right),
                   key=lambda ln: ln.bbox[1])
    rows: list[Line] = []
    edge = y
    for ln in under:
        height = max(ln.bbox[3] - ln.bbox[1], 1.0)
        if ln.bbox[1] - edge > 2 * height:
            break  # a gap: the rows end, with no note under them
        text = ln.text.lstrip()
        labelled = _labelled_note(ln, right - left)
        if rows and (labelled or text[:1] in NOTE_MARKS):
            # (a note labelled ``Note:`` may be set in the rows' size; one led by a mark smaller)
            row_size = sorted(r.size for r in rows)[len(rows) // 2]
            if len(line_rows(rows)) >= MIN_NOTED_ROWS and ln.size <= row_size - (0.0 if labelled else NOTE_SMALLER):
                return edge + 0.5
            return None
        if is_prose_line(ln) or ln.bbox[2] > right + ACROSS:
            break  # running text, or a line past the rule's end (the notes run wider)
        rows.append(ln)
        edge = max(edge, ln.bbox[3])
    # no note: rows of cells only, each two or more an em apart (ICLR's and TMLR's sample
    # table: ``Dendrite`` | ``Input terminal`` under ``PART`` | ``DESCRIPTION`` and its rule)
    if len(line_rows(rows)) >= MIN_NOTED_ROWS and all(r.cells >= 2 for r in rows):
        return edge + 0.5
    return None


#: How far under a spanning head's short rule the header's rule across the table stands.
HEADER_GAP = 30.0


def rows_past_rules(box: Box, lines: Iterable[Line], stops: Iterable[Line], caption: Box) -> Box:
    """``box`` grown over the rows set right on its top rule, and under those right under
    its bottom rule, with no rule of their own beyond them (CEUR's tables draw a rule
    under the header and under each row but the last, none on top or at the foot): lines
    standing at most ``TIGHT_GAP`` line heights from the rule, and each next one as close
    to the last, inside the rule's width, none a caption or a line of running text,
    ``MAX_TIGHT_ROWS`` rows at most. ``caption``: the box of the table's caption; a line
    nearer to it than to the table is the caption's (IOP's centred second caption line
    stands right on the top rule, but closer still under the first); over a table under
    its caption only rows of two cells or more are taken (a line alone there is the
    caption's title)."""
    x0, top, x1, bottom = box
    inner = [ln for ln in lines if ln.bbox[0] >= x0 - 3.0 and ln.bbox[2] <= x1 + 3.0
             and v_gap(ln.bbox, caption) >= v_gap(ln.bbox, box)]
    stop_ids = {id(ln) for ln in stops}
    under_caption = caption[3] <= top + 1.0
    sizes = sorted(ln.size for ln in inner if top < (ln.bbox[1] + ln.bbox[3]) / 2 < bottom)
    size = sizes[len(sizes) // 2] if sizes else None
    return (x0, _tight_edge(top, inner, stop_ids, True, (x0, x1) if under_caption else None, None, x1 - x0), x1,
            _tight_edge(bottom, inner, stop_ids, False, None, size, x1 - x0))


def _tight_edge(rule: float, lines: list[Line], stops: set[int], upward: bool,
                cells_only: tuple[float, float] | None, size: float | None, width: float) -> float:
    """How far the rows packed against a rule at ``rule`` reach (``rows_past_rules``).
    ``cells_only``: the table's left and right edges, when only rows of two cells or more
    count (over a table under its caption, a line alone is the caption's title: APA's
    ``Table 1`` | *A Complex Table*, IEEE's centred ``TABLE 5`` | ``OPTIMIZED CF VALUES``),
    or a line set well in from the left edge, off the table's centre, a head spanning the
    data's columns (*Collabra*'s ``Model 1: Only Free Will … Model 2: With Covariates``).
    ``size``: the table's rows' size, under its bottom rule (where its notes stand);
    ``width``: the table's (a note led by a letter runs across it)."""
    beyond = line_rows([ln for ln in lines if (ln.bbox[3] <= rule + 1.0 if upward else ln.bbox[1] >= rule - 1.0)])
    if upward:
        beyond.reverse()
    edge, taken = rule, 0
    for row in beyond:
        top, bottom = min(ln.bbox[1] for ln in row), max(ln.bbox[3] for ln in row)
        if (edge - bottom if upward else top - edge) > TIGHT_GAP * max(bottom - top, 1.0):
            break
        if any(id(ln) in stops or is_prose_line(ln) for ln in row) or (
                cells_only is not None and len(row) < 2 and row[0].cells < 2
                and not _spanning_head(row[0], *cells_only)):
            break
        if size is not None and (max(ln.size for ln in row) < size - NOTE_SMALLER
                                 or _opens_note(row[0], width)):
            break  # the table's notes under it: smaller, or opening with a mark or ``Note``
        if size is not None and min(ln.size for ln in row) >= size + TEXT_LARGER:
            break  # the page's text under it, set larger than its rows (ACS's 10 pt columns under 8 pt rows)
        if taken == MAX_TIGHT_ROWS:
            return rule  # more rows packed against the rule than a table leaves out: text
        edge, taken = (top if upward else bottom), taken + 1
    if not taken:
        return rule
    return edge - 0.5 if upward else edge + 0.5


#: How close to a table's top or bottom rule (line heights) the rows beyond it stand, and
#: each to the next (a ``\\toprule`` header stands 2–3 points over its ``\\midrule``;
#: body text stands at least ``\\intextsep``, a line or more, from a float).
TIGHT_GAP = 0.5
#: How much larger (points) than a table's rows the text under its foot rule is set.
TEXT_LARGER = 1.0
#: Most rows beyond a rule (a three-line ``Top / two / F1`` header).
MAX_TIGHT_ROWS = 4


def _spanning_head(ln: Line, left: float, right: float) -> bool:
    """Whether a lone line over a table is a head spanning its data's columns: set
    ``SPANNING_IN`` ems or more in from its left edge, its centre as far off the table's."""
    em = max(ln.size, 1.0)
    return ln.bbox[0] >= left + SPANNING_IN * em \
        and abs((ln.bbox[0] + ln.bbox[2]) / 2 - (left + right) / 2) >= SPANNING_IN * em


#: How far in from a table's left edge (ems) a lone line over it stands to be a head
#: spanning its columns, not the caption's title (centred, or at the edge).
SPANNING_IN = 3.0


def along_columns(box: Box, vs: list[Rule], caption: Box) -> Box:
    """``box`` stretched up and down along the column rules that run on from it (ACL sets
    tables whose column rules run past their only horizontal rules, the header's: the rows
    above and under are the table's too), never across the caption."""
    x0, top, x1, bottom = box
    grew = True
    while grew:
        grew = False
        for x, v0, v1 in vs:
            if not x0 + 2.0 < x < x1 - 2.0 or v1 < top - 3.0 or v0 > bottom + 3.0:
                continue
            if v0 < top - 0.5 and not (caption[1] < v0 < caption[3] or v0 < caption[3] <= top):
                top, grew = v0, True
            if v1 > bottom + 0.5 and not (caption[1] < v1 < caption[3] or bottom <= caption[1] < v1):
                bottom, grew = v1, True
    return (x0, top, x1, bottom)
