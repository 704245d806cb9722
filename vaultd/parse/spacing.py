"""How a document sets its paragraphs, measured over all its pages once: the usual gap
between a body line and the next (``line_gap``), whether it is a double-spaced manuscript
set ragged right whose paragraphs only an indent tells apart (``ragged_indented``), and
whether it indents its paragraphs' first lines (``indents_paragraphs``). The paragraph
rules (``vaultd.parse.continuation``) take these as their document's settings.
"""

from __future__ import annotations

import itertools

from vaultd.parse.continuation import FULL_LINE_EMS, INDENT_EMS
from vaultd.parse.paras import Line
from vaultd.parse.sentence_ends import ITEM_RE


def line_gap(pages: list[list[Line]], body: float) -> float:
    """The document's usual gap between one body-size line and the next below it in its
    column (points; the most common, to half a point): about 0.2 em single-spaced, 1 em in
    a double-spaced manuscript, whose one-line paragraph pieces ``_pitch_gap`` cannot
    measure."""
    gaps: dict[float, int] = {}
    em = max(body, 1.0)
    for lines in pages:
        for a, b in itertools.pairwise(lines):
            gap = b.bbox[1] - a.bbox[3]
            if abs(a.size - body) <= 0.5 and abs(b.size - body) <= 0.5 and 0.0 < gap < 1.5 * em \
                    and abs(a.bbox[0] - b.bbox[0]) < 4 * em:
                key = round(gap * 2) / 2
                gaps[key] = gaps.get(key, 0) + 1
    if not gaps:
        return 0.0
    gap, count = max(gaps.items(), key=lambda kv: (kv[1], -kv[0]))
    return gap if count >= LINE_GAP_EVIDENCE else 0.0  # too few lines to tell a pitch


#: Fewest pairs of lines at one gap for it to be the document's ``line_gap``.
LINE_GAP_EVIDENCE = 8


#: Full lines one under the other end an em apart in a ragged-right text at least once for
#: this many times they end together (justified double-spaced texts: 0.11–0.15 of it; APA's
#: sample 2.3, a medRxiv Word manuscript 1.0).
RAGGED_SHARE = 2


def ragged_indented(pages: list[list[Line]], body: float, gap: float) -> bool:
    """Whether the document is a double-spaced manuscript set ragged right with indented
    paragraphs (APA's): its ``line_gap`` 0.8 em or more; of its body-size lines, pairs of
    full lines one under the other end over an em apart at least half as often as within
    half an em (``RAGGED_SHARE``; a justified column's all end at its edge); and three
    lines or more set in by a paragraph's indent against the line above. (Without the
    double spacing, ragged manuals, PLOS's pages and lists of contributions pass the other
    two tests.)"""
    em = max(body, 1.0)
    if gap < DOUBLE_SPACED_EMS * em:
        return False
    apart = together = indents = 0
    for lines in pages:
        for a, b in itertools.pairwise(ln for ln in lines if abs(ln.size - body) <= 0.5):
            if not (0.0 <= b.bbox[1] - a.bbox[3] <= 1.5 * em and abs(b.bbox[0] - a.bbox[0]) <= 5 * em):
                continue  # not the next line down in the same column
            if INDENT_EMS * em <= b.bbox[0] - a.bbox[0] <= 4 * em:
                indents += 1
            if min(a.bbox[2] - a.bbox[0], b.bbox[2] - b.bbox[0]) >= FULL_LINE_EMS * em \
                    and abs(a.bbox[0] - b.bbox[0]) <= 0.2 * em:
                apart += abs(a.bbox[2] - b.bbox[2]) > em
                together += abs(a.bbox[2] - b.bbox[2]) <= 0.5 * em
    return indents >= 3 and RAGGED_SHARE * apart >= together


def indents_paragraphs(pages: list[list[Line]], body: float) -> bool:
    """Whether the document sets its paragraphs' first lines in: of its text blocks of
    three body-size lines or more, ``INDENTED_SHARE`` or more open with a line set in by
    an indent (``INDENT_EMS`` to 4 ems) against the next two (a section's first paragraph
    is set flush in such documents; in one that parts its paragraphs by space none is set
    in)."""
    return paragraph_indents(pages, body)[0]


def paragraph_indents(pages: list[list[Line]], body: float, gap: float = 0.0) -> tuple[bool, bool]:
    """Whether the document indents its paragraphs (``indents_paragraphs``), and whether it
    is known to set them all flush: ``MIN_INDENT_BLOCKS`` text blocks or more to tell from,
    fewer than ``INDENTED_SHARE`` of them indented (a document too short to tell is
    neither). ``gap``: its ``line_gap`` (a double-spaced manuscript's lines are blocks of
    their own, their runs at its pitch)."""
    blocks, indented = _indented_blocks(pages, body)
    runs, indenting = _line_runs(pages, body, gap)
    # a document set one line a block (Asciidoctor, word processors, a double-spaced
    # preprint): its runs of lines at the line pitch tell it, where one of them indents a
    # line inside it
    if (blocks < MIN_INDENT_BLOCKS or runs >= 2 * blocks) and runs >= MIN_INDENT_BLOCKS:
        return indenting >= INDENTED_SHARE * runs, indenting < INDENTED_SHARE * runs
    enough = blocks >= MIN_INDENT_BLOCKS
    return enough and indented >= INDENTED_SHARE * blocks, enough and indented < INDENTED_SHARE * blocks


def _line_runs(pages: list[list[Line]], body: float, gap: float = 0.0) -> tuple[int, int]:
    """Runs of three body-size lines or more, each a block of its own, one under the other
    at the line pitch (a gap under half an em past the document's ``line_gap``) from one
    left edge (a first line indented up to 4 ems): how many, and how many of them set a
    line in by a paragraph's indent."""
    em = max(body, 1.0)
    pitch = gap + 0.5 * em
    runs = indenting = 0
    for lines in pages:
        run: list[Line] = []
        for ln in [*lines, None]:
            if ln is not None and run and ln.block != run[-1].block and abs(ln.size - body) <= 0.5 \
                    and 0.0 <= ln.bbox[1] - run[-1].bbox[3] <= pitch \
                    and -4 * em <= ln.bbox[0] - run[-1].bbox[0] <= 4 * em:
                run.append(ln)
                continue
            if len(run) >= 3:
                runs += 1
                indenting += _run_indents(run, em)
            run = [ln] if ln is not None and abs(ln.size - body) <= 0.5 else []
    return runs, indenting


def _run_indents(run: list[Line], em: float) -> bool:
    """Whether a run of lines sets a paragraph's first line in: a line set in by an indent
    with a line at the run's left edge under it that opens no list item (a bulleted
    item's lines hanging under its text are no indent: an InDesign report's)."""
    left = min(r.bbox[0] for r in run)
    return any(INDENT_EMS * em <= a.bbox[0] - left <= 4 * em and b.bbox[0] < left + INDENT_EMS * em
               and not ITEM_RE.match(b.text.lstrip()) for a, b in itertools.pairwise(run))


def _indented_blocks(pages: list[list[Line]], body: float) -> tuple[int, int]:
    """The document's text blocks of three body-size lines or more, and how many of them
    open with an indented line."""
    em = max(body, 1.0)
    blocks = indented = 0
    for lines in pages:
        for _, group in itertools.groupby(lines, key=lambda ln: ln.block):
            head = list(itertools.islice(group, 3))
            if len(head) < 3 or any(abs(ln.size - body) > 0.5 for ln in head) \
                    or abs(head[1].bbox[0] - head[2].bbox[0]) > 0.2 * em:
                continue
            blocks += 1
            indented += INDENT_EMS * em <= head[0].bbox[0] - head[1].bbox[0] <= 4 * em
    return blocks, indented


#: Share of a document's text blocks opening with an indent for it to indent paragraphs (a
#: section's or column's first block is set flush: PLOS, which indents, shows 0.19).
INDENTED_SHARE = 0.2
#: Fewest text blocks to tell it from.
MIN_INDENT_BLOCKS = 5


#: Least ``line_gap`` (ems) of a double-spaced manuscript.
DOUBLE_SPACED_EMS = 0.8
