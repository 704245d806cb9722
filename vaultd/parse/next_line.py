"""Whether a block is the next printed line of the paragraph before it (``next_line``): a
paragraph set one line a block (Wiley, elsarticle, JAMA, word processors), its lines
under each other at the line pitch, from the same left edge, the line before full or as
full as it could be; and when a new sentence on that next line still goes on with the
paragraph (``_flush_sentence``). Pure: paragraphs in, a yes or no out.
"""

from __future__ import annotations

import itertools
import re

from vaultd.parse.classify import is_theorem_label
from vaultd.parse.continuation import (
    FULL_LINE_EMS,
    INDENT_EMS,
    abbreviation_goes_on,
    last_column,
)
from vaultd.parse.enumerators import inline_enumeration
from vaultd.parse.paras import SENT_END, Line, Para, first_word_width
from vaultd.parse.sentence_ends import ITEM_RE, NOTE_END_RE
from vaultd.parse.textlayer import prose_words

#: Largest gap between a paragraph's lines, in its font size (a paragraph break is wider).
NEXT_LINE_GAP = 0.45


def next_line(prev: Para, cur: Para, gap: float = 0.0, ragged: bool = False, flush: bool = False,
              indenting: bool = False) -> bool:
    """Whether ``cur`` is the next printed line of ``prev``'s paragraph, set as a text block
    of its own (Wiley sets each line of some justified paragraphs as one): right under
    ``prev``'s last line at the line pitch (a gap under ``NEXT_LINE_GAP`` of its size), in
    the same size, starting at its left edge (or up to two ems left of it, under a first
    line's indent), and ``prev``'s last line a full one (ending within one em of the wider
    right edge, ``FULL_LINE_EMS`` wide at least) that ends no sentence, both in the same
    weight. A new paragraph is set apart by its indent or a wider gap, and a full line
    never ends one. After a ``:``, or when ``cur`` was typed a formula (``+0.81ºC ± 0.28
    SD; …``), ``cur``'s line must be a full one too: a display formula is not. ``gap``:
    the document's ``line_gap`` (a double-spaced manuscript's lines stand an em apart);
    ``flush``: the document is known to set its paragraphs flush (``_flush_sentence``);
    ``indenting``: to indent their first lines. A list
    item of two lines or more goes on the same way, at the left edge of its lines after
    the first (a German item's ``… bietet mir wichtige`` | ``Informationen. An ihm …``,
    whose next line opens with a noun's capital)."""
    if prev.lead and len(prev.pieces) == 1 and prev.lines[-1].block == cur.lines[0].block:
        # a first line split off for its face (Maney's ``Over the counter, prescription and
        # herbal agents`` over its text): ``headings.font_headings`` decides, and puts it
        # back when it is no heading
        return False
    item = prev.type == "list"  # a list item's lines hang under its text, not its mark
    if not (prev.type == "paragraph" or (item and len(prev.lines) >= 2)) \
            or cur.type not in ("paragraph", "equation"):
        return False
    tail = prev.text.rstrip()
    colon = tail.endswith(":")
    # (a sentence's end with a note's mark after it, ``evolvability.3``, ends it as a stop does)
    ends = (tail.endswith(SENT_END) or bool(NOTE_END_RE.search(tail))) and not abbreviation_goes_on(tail, cur.text)
    stops = ends and (item or ((cur.type == "equation" or not colon)
                               and not _flush_sentence(prev, cur, ragged, flush, indenting)))
    if stops or (ITEM_RE.match(cur.text) and not _INITIAL_RE.match(cur.text) and not inline_enumeration(cur.text)) \
            or cur.text[:1] in _BULLETS \
            or _LEADERS_RE.search(tail) or _LEADERS_RE.search(cur.lines[0].text):
        return False  # a list's next item; a table of contents' entries
    full_next = cur.type == "equation" or colon  # (a display formula is no full line)
    last, first = prev.lines[-1], cur.lines[0]
    em = max(last.size, 1.0)
    if ends and (pitch := _pitch(prev)) is not None \
            and min(first.bbox[1] - last.bbox[1], first.bbox[3] - last.bbox[3]) > pitch + SPACED_EMS * em:
        # set off by space past the paragraph's own pitch (its boxes' tops and feet both:
        # a formula's glyphs stretch one), after its sentence's end: a new paragraph,
        # however its lines' boxes stand (*Diabetologia*'s STIX text, boxed taller than
        # its pitch, ``… (GraphPad, USA).`` | a blank line | ``Surface expression`` run in)
        return False
    # (a first line alone may be indented; an item's first line starts with its mark, and
    # a reference's hangs out left of its others); past a column break, its last column's
    column = last_column(prev)
    # the measure's right edge: that of the paragraph's lines in its last line's column,
    # on whatever page, not of those in another column (a page's first line alone in its
    # column: Wiley's ``… Fuente, 2021).`` atop p. 2's left column, the paragraph's lines
    # before it in p. 1's right one; the lines under a full-width figure atop the next
    # page's left column: *Hydrological Processes*' ``… in the Upper`` | ``Pipestem Creek
    # basin; …``; a book's facing pages, their margins a little apart, are one column)
    right = max(max(ln.bbox[2] for ln in prev.lines if ln.bbox[0] < last.bbox[2] and ln.bbox[2] > last.bbox[0]),
                max(ln.bbox[2] for ln in cur.lines))
    lines = prev.lines if column[0] is prev.lines[0] else column
    hangs = len(lines) >= 2 and lines[0].bbox[0] < min(ln.bbox[0] for ln in lines[1:]) - INDENT_EMS * em
    left = min(ln.bbox[0] for ln in (lines[1:] if (item or hangs) and lines is prev.lines else lines))
    return (last.page == first.page and abs(last.size - first.size) <= 0.5 and last.bold == first.bold
            # (under a one-line piece, its first line's indent: APA's half inch is 3 ems)
            and left - (2.0 if item or hangs else (4.0 if len(prev.lines) == 1 else 2.0) * em)
            # (under a full first line that ends no sentence, a reference's hanging indent)
            <= first.bbox[0] <= left + (HANG_EMS * em if len(prev.lines) == 1 and not (ends or colon) else 2.0)
            # (a line's box may reach into the next one's: a typewriter span set in it)
            and (-OVERLAP_EMS * em <= first.bbox[1] - last.bbox[3]
                 <= max(NEXT_LINE_GAP * em, _pitch_gap(prev) + 0.1 * em, gap + 0.1 * em)
                 or (not ends and _at_pitch(prev, first, em)))
            and (last.bbox[2] >= right - em or ragged or _no_room(prev, first, right, ends or colon))
            and (last.bbox[2] - last.bbox[0] >= FULL_LINE_EMS * em or _narrow_measure(lines, em)
                 or _narrow_first_line(lines, cur.lines, em))
            and (not full_next or first.bbox[2] - first.bbox[0] >= FULL_LINE_EMS * em))


def _narrow_first_line(lines: list[Line], after: list[Line], em: float) -> bool:
    """Whether ``lines`` are a narrow column's one indented first line, ending where the
    justified lines under it end, ``NARROW_EMS`` wide at least (*Science*'s third column,
    18 ems: ``Next, we investigated whether KIR+CD8+`` | ``T cells were also present …``)."""
    return len(lines) == 1 and len(after) >= 2 and abs(lines[0].bbox[2] - after[0].bbox[2]) <= 0.5 * em \
        and abs(after[0].bbox[2] - after[1].bbox[2]) <= 0.5 * em and after[0].bbox[2] - after[0].bbox[0] >= NARROW_EMS * em


def _narrow_measure(lines: list[Line], em: float) -> bool:
    """Whether ``lines`` (two or more) are a narrow column's justified lines, under the
    ``FULL_LINE_EMS`` a full line has, all starting and ending at one edge, each
    ``NARROW_EMS`` wide at least (*Advanced Science*'s column beside its abstract box, 19
    ems wide)."""
    if len(lines) >= 3 and lines[0].bbox[0] > lines[1].bbox[0] + 0.5 * em:
        lines = lines[1:]  # (past a first line's indent: *Science*'s third column)
    return len(lines) >= 2 and all(ln.bbox[2] - ln.bbox[0] >= NARROW_EMS * em for ln in lines) \
        and max(ln.bbox[0] for ln in lines) - min(ln.bbox[0] for ln in lines) <= 0.5 * em \
        and max(ln.bbox[2] for ln in lines) - min(ln.bbox[2] for ln in lines) <= em


#: Narrowest justified measure (ems) whose full lines a paragraph goes on past.
NARROW_EMS = 12.0


def _no_room(prev: Para, first: Line, right: float, ends: bool) -> bool:
    """Whether ``prev``'s last line, short of ``right`` in a text set ragged right, left no
    room for ``first``'s first word, so that the line is as full as it could be (JAMA's
    ``… consistent model versions.`` | ``Throughout the process, …``, where a new paragraph
    would be indented; ``… in Supplement 1. Both`` | ``LLM 1 and LLM 2 …``; ``… the rules:
    https:`` | ``//github.com/…``). A line left open must be prose, no listing's or
    formula's; none under a list item's hanging lines: a paragraph after the list starts at
    its mark. ``ends``: the line ends a sentence or a clause (``:``)."""
    lead, last = prev.lines[0], prev.lines[-1]
    if any(ln.bbox[0] > lead.bbox[0] + 0.5 * max(lead.size, 1.0) for ln in prev.lines[1:]):
        return False  # a list item's hanging lines
    if not ends and (last.mono or first.mono or prose_words(last.text) < 3):
        return False  # an open line of a listing or a formula (``normalise : (t : Tm Γ) → …``)
    return last.bbox[2] + first_word_width(first) > right


#: How far (ems) a reference's lines after its first may hang in under it.
HANG_EMS = 3.0
#: How far (ems) a line's box may reach down into the next line's (a NASA report's line
#: holding a Courier span is boxed 19 pt tall for its 12 pt text).
OVERLAP_EMS = 0.25
#: A capital with a stop opening a line: a name's initial or a variable ending a clause
#: (``… decreasing`` | ``L. These mechanisms …``) as often as a list's mark, so under a
#: full line that ends no sentence (``next_line``'s test) it goes on.
_INITIAL_RE = re.compile(r"[A-Z]\.\s")
#: A table of contents' dot leaders, and list marks ``ITEM_RE`` leaves out.
_LEADERS_RE = re.compile(r"(?:\. ?){4,}")
_BULLETS = "▶►▸■□✓➢➤◆◇★"


def _at_pitch(para: Para, first: Line, em: float) -> bool:
    """Whether ``first`` stands under ``para``'s last line at the median pitch of its lines
    on that page, baseline to baseline (to ``PITCH_SLACK_EMS``), whatever their boxes say:
    a line's box grows over a superscript and under a glyph MuPDF boxes tall (Frontiers'
    ``… the target is 10−3-10−4`` | ``S cm−1 at ambient temperature …``, the boxes a
    quarter em into each other)."""
    pitch = _pitch(para)
    return pitch is not None and abs(first.bbox[3] - para.lines[-1].bbox[3] - pitch) <= PITCH_SLACK_EMS * em


def _pitch(para: Para) -> float | None:
    """The median pitch of ``para``'s lines on its last page, baseline to baseline (its
    lines' boxes' feet), or None under ``PITCH_LINES`` lines."""
    lines = [ln for ln in para.lines if ln.page == para.lines[-1].page]
    pitches = sorted(b.bbox[3] - a.bbox[3] for a, b in itertools.pairwise(lines) if b.bbox[1] > a.bbox[1])
    return pitches[len(pitches) // 2] if len(pitches) >= PITCH_LINES - 1 else None


#: Fewest lines of a piece whose pitch is measured, and how far (ems) a next line's
#: baseline may stand off it.
PITCH_LINES = 3
PITCH_SLACK_EMS = 0.1
#: Space (ems) past a paragraph's pitch that sets the next line off as a new paragraph's.
SPACED_EMS = 0.5


def _pitch_gap(para: Para) -> float:
    """The gap between the lines of ``para``'s last piece (the least of them: a line may
    stand further off under a formula), or 0 with one line: a double-spaced preprint's
    lines stand 0.8 ems apart, and its next line does so too."""
    lines = [ln for ln in para.lines if ln.page == para.lines[-1].page]
    gaps = [b.bbox[1] - a.bbox[3] for a, b in itertools.pairwise(lines) if b.bbox[1] > a.bbox[1]]
    return max(0.0, min(gaps)) if gaps else 0.0


def _flush_sentence(prev: Para, cur: Para, ragged: bool = False, flush: bool = False,
                    indenting: bool = False) -> bool:
    """A new sentence on the next line of a paragraph set one line a block (elsarticle, a
    thesis): ``prev``'s last piece has two lines or more, the last as full as the widest
    (or, set ragged right with its first line indented, as short as it likes),
    and ``cur``, a paragraph, starts no further in than they do (a new paragraph's first
    line is indented, or follows a short line), as a block's lines are told apart
    (``block_paras.split_group``); ``next_line`` asks the rest (under it at the line pitch)."""
    if cur.type != "paragraph" or ITEM_RE.match(cur.text):
        return False
    last = prev.lines[-1]
    piece = last_column(prev)
    em = max(last.size, 1.0)
    first = cur.lines[0]
    if len(prev.lines) == 1 and first.bbox[0] <= last.bbox[0] - INDENT_EMS * em \
            and min(last.bbox[2] - last.bbox[0], first.bbox[2] - first.bbox[0]) >= FULL_LINE_EMS * em \
            and last.bbox[2] >= max(ln.bbox[2] for ln in cur.lines) - em:
        return True  # a paragraph's indented first line, full, its sentence ended at the margin
    # (in a document that indents its paragraphs, under a line as full, the next line set
    # flush with its own lines after it: a new paragraph's first line would stand in)
    # (no statement's run-in label: LNCS's ``Definition 1.`` is set flush under the text)
    indented = indenting and len(cur.lines) >= 2 and not first.lead and not is_theorem_label(cur.text) \
        and first.bbox[0] <= min(ln.bbox[0] for ln in cur.lines[1:3]) + 0.5 * em
    if (flush or indented) and len(prev.lines) == 1 and abs(first.bbox[0] - last.bbox[0]) <= 1.0 \
            and not (last.mono or first.mono) and prev.text.rstrip().endswith(SENT_END) \
            and min(last.bbox[2] - last.bbox[0], first.bbox[2] - first.bbox[0]) >= (
                FULL_LINE_EMS if flush else NARROW_EMS) * em \
            and last.bbox[2] >= max(ln.bbox[2] for ln in cur.lines) - em:
        # a document known to set its paragraphs flush, apart by space, or to indent them
        # (``spacing.paragraph_indents``): a full first line with a flush line under it at
        # the pitch goes on (Asciidoctor's ``… scenarios.`` | ``With …``; an ACL paper's
        # ``We evaluate our algorithm on two different setups.`` | ``On the first …``, the
        # first line under a head, which LaTeX does not indent)
        return True
    if len(piece) == 1 and len(prev.lines) >= 2:
        # a page's or column's first line: the measure is that of the paragraph's lines
        # before, wherever they stand (in another column, Wiley's)
        right = last.bbox[0] + max(ln.bbox[2] - ln.bbox[0] for ln in prev.lines)
        piece = [last, last]
    else:
        right = max(ln.bbox[2] for ln in piece)
    # (set ragged right, a line is as full as it can be when the next word would not have
    # fitted on it: JAMA's ``… consistent model versions.`` | ``Throughout the process, …``)
    # (a first line hanging out left of the others is an entry's, a reference's: the next
    # line goes on at the others' edge, and one hanging out too is the next entry)
    lefts = [ln.bbox[0] for ln in piece]
    edge = min(lefts[1:]) if len(lefts) >= 2 else lefts[0]
    hangs = lefts[0] < edge - INDENT_EMS * em
    return (len(piece) >= 2 or ragged) \
        and (last.bbox[2] >= right - em or ragged or last.bbox[2] + first_word_width(first) > right) \
        and (edge - INDENT_EMS * em if hangs else -1.0) <= first.bbox[0] <= min(lefts[hangs:]) + INDENT_EMS * em
