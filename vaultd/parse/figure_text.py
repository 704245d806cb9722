"""Text drawn inside a figure: labels, axis ticks, legends and diagram boxes, which belong
to the picture and not to the paragraphs (``figure_text``), found from the figure's region
(``vaultd.parse.figures.figure_region``) above or beside its caption, or under it and the
note it titles (``caption_extent``: a report's charts under a paragraph saying what they
show).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from vaultd.parse.algorithms import is_algorithm_caption
from vaultd.parse.base import Box
from vaultd.parse.classify import CAPTION_CACHE_LINES, CAPTION_RE, is_figure_caption
from vaultd.parse.figures import CHAIN_GAP_PT, figure_region, graphics_rects
from vaultd.parse.paras import SENT_END

#: An image covering this share of the page is the page itself (a scan), not a figure.
PAGE_IMAGE_SHARE = 0.5
#: A panel's letter: ``(b)``, ``b)``, ``B``.
_PANEL_RE = re.compile(r"\(?[a-zA-Z]\)?")
#: A row of a diagram's node names: a few short symbols (``w1 w2 w3``, ``A B C``).
_NODE_NAMES_RE = re.compile(r"[^\W\d_]{1,2}[\d′'*]{0,2}(?:\s+[^\W\d_]{1,2}[\d′'*]{0,2}){0,5}")
#: How far over a figure's region (ems) a row of its node names stands.
NODE_REACH_EMS = 2.0
#: How far over or left of a figure's region (ems) a panel's letter is its.
PANEL_REACH_EMS = 2.5
#: A line of prose inside a figure's region: at least this many words at body size (kept:
#: text wrapped round a figure is not the figure's own).
PROSE_WORDS = 10
#: A line of body text, where a figure set under its caption ends: this many words at body
#: size (a three-column page's lines hold four or five; a figure's labels are set smaller).
BODY_LINE_WORDS = 3


def figure_text(page: Any, lines: list[Any], captions: list[Any], body: float,
                rects: list[Box] | None = None) -> set[int]:
    """Indexes of the ``lines`` drawn inside the figure above each caption: labels, axis
    ticks, legends and diagram boxes, which belong to the picture, not to the text.

    The figure is found as for its crop (``figure_region``), from the page's graphics, but
    without images that cover most of the page and its caption (a scanned page is one
    image). A line is
    inside when its centre is, or when it overlaps the figure's top by half its height (a
    label set on the drawing's top edge); lines of prose at body size are kept. Lines set tiny (under
    ``TINY_TEXT`` of the body size) right above the caption, in its column, are the
    figure's too, with or without graphics. ``rects``: the page's
    ``graphics_rects``, when the caller already has them."""
    area = page.rect.width * page.rect.height
    every = graphics_rects(page) if rects is None else rects
    out: set[int] = set()
    titled = _panel_titles(lines)
    for cap in captions:
        # (a scanned page is one image, over its caption too; a figure filling a page of
        # its own stands over its caption: eLife's full-page figures)
        cx, cy = (cap.bbox[0] + cap.bbox[2]) / 2, (cap.bbox[1] + cap.bbox[3]) / 2
        rects = [r for r in every if (r[2] - r[0]) * (r[3] - r[1]) < PAGE_IMAGE_SHARE * area
                 or not (r[0] <= cx <= r[2] and r[1] <= cy <= r[3])]
        out |= _tiny_text_above(lines, cap, body)
        out |= _small_text_figure(lines, cap, body, rects)
        others = [ln.bbox for ln in lines if ln is not cap and CAPTION_RE.match(ln.text)]
        own = _caption_lines(cap, lines)
        prose = [ln.bbox for ln in lines if ln.size >= body - 0.5 and _words(ln.text) >= BODY_LINE_WORDS
                 and not _boxed_label(ln, rects) and id(ln) not in titled and id(ln) not in own]
        # (a plot's labels set small; or, in the body's size, a row of tick values and an
        # axis title of a word or three under its frame: OpenIntro's dot plot)
        labels = [ln.bbox for ln in lines if ln is not cap and not CAPTION_RE.match(ln.text) and (
            (ln.size < body - 0.5 and _words(ln.text) < PROSE_WORDS)
            or (ln.size <= body + 0.5 and not ln.bold and _axis_label(ln.text)))]
        region = figure_region(page, cap.bbox, None, rects, others, prose, labels)
        top = region[1] if region is not None else 0.0
        if region is None and (extent := caption_extent(cap, lines, body)) != cap.bbox:
            # a figure under its caption's note: its panels' titles over its first row too
            region = figure_region(page, extent, None, rects, others, prose, labels)
            if region is None or region[1] < extent[3] - 1.0:
                continue
            top = max(extent[3], region[1] - CHAIN_GAP_PT)
        if region is None:
            continue
        # A caption set in two languages: the second one's figure ends at the first.
        bottom = min([region[3]] + [c.bbox[1] for c in captions
                                    if region[1] < c.bbox[1] < region[3]
                                    and c.bbox[0] < region[2] and region[0] < c.bbox[2]])
        if region[1] >= cap.bbox[3] - 1.0:  # under its caption: the labels under its last row too
            bottom = _labels_under(lines, region, bottom, body)
        elif region[2] <= cap.bbox[0] + 2.0 or region[0] >= cap.bbox[2] - 2.0:
            # beside its caption: its tick labels and axis title under the frame, set small
            bottom = _labels_under(lines, region, bottom, body, small=True)
        region = (region[0], top, region[2], bottom)
        out |= _labels_beside(lines, region)
        if region[3] <= cap.bbox[1] + 2.0:
            out |= _labels_over_caption(lines, region, cap)
        for i, ln in enumerate(lines):
            if ln is cap:
                continue
            cx, cy = (ln.bbox[0] + ln.bbox[2]) / 2, (ln.bbox[1] + ln.bbox[3]) / 2
            half = (ln.bbox[3] - ln.bbox[1]) / 2  # a label set on the drawing's top edge
            # (a panel's letter by its corner: the Royal Society's "(b)" a line over its plot,
            # "(a)" left of the axis' labels)
            reach = PANEL_REACH_EMS * ln.size if _PANEL_RE.fullmatch(ln.text.strip()) else 0.0
            # (a graph's node names over its top row: ``w1 w2 w3`` over Theoretical
            # Economics' bipartite graphs, a line's height over the drawing)
            over = NODE_REACH_EMS * ln.size if _NODE_NAMES_RE.fullmatch(ln.text.strip()) else 0.0
            if not (region[0] - reach <= cx <= region[2] and region[1] - max(reach, half, over) <= cy < region[3]):
                continue
            if _words(ln.text) >= PROSE_WORDS and ln.size >= body - 0.5 and id(ln) not in titled \
                    and not _short_block_inside(ln, lines, region):
                continue
            if ln.bbox[1] < region[1] and any(o.block == ln.block and o.bbox[3] <= ln.bbox[1] + 1.0
                                              for o in lines if o is not ln):
                continue  # the last line of the text over the figure ("in Figure 7c."), no label
            out.add(i)
    return out


def _caption_lines(cap: Any, lines: list[Any]) -> set[int]:
    """The ids of the caption's next lines (``CAPTION_LINES`` at most): under it in its
    block, one after the other, in its size and weight (UNESCO's ``FIGURE 1: THE
    RELATIONSHIP BETWEEN …`` | ``MACHINE LEARNING, NEURAL NETWORKS AND DEEP LEARNING.``
    over the diagram it titles): no body text, where a figure under its caption ends."""
    own: set[int] = set()
    last = cap
    for ln in sorted((o for o in lines if o.block == cap.block and o.bbox[1] > cap.bbox[1]), key=lambda o: o.bbox[1]):
        if ln.bold != cap.bold or abs(ln.size - cap.size) > 0.3 or ln.bbox[1] - last.bbox[3] > 0.5 * (ln.bbox[3] - ln.bbox[1]) \
                or len(own) >= CAPTION_LINES:
            break
        own.add(id(ln))
        last = ln
    return own


#: Most lines of a caption's title after its first (``_caption_lines``).
CAPTION_LINES = 3
#: A caption's note under its title line stands at most this many of its lines' heights
#: under the line over it.
NOTE_PITCH = 1.6
#: Each line of a caption's note but its last holds this many words at least (a plot's
#: legend or axis title under its caption holds fewer).
NOTE_WORDS = 6


def caption_extent(cap: Any, lines: list[Any], body: float) -> Box:
    """The box of ``cap`` and of the note set under it: a report's figure titled over a
    paragraph that says what it shows (the World Bank's ``FIGURE 1 Recent developments…``
    over eight italic lines, the charts under them). The note is one paragraph, in one
    face smaller than the body's, under the caption: each line within ``NOTE_PITCH`` of its
    height under the one over it, starting within an em of the caption's left edge, and
    each but the last of ``NOTE_WORDS`` words."""
    x0, y0, x1, y1 = cap.bbox
    cap_bottom = y1
    under = sorted((ln for ln in lines if ln is not cap and ln.page == cap.page and ln.bbox[1] >= y1 - 1.0
                    and abs(ln.bbox[0] - x0) <= ln.size),
                   key=lambda ln: ln.bbox[1])
    note: list[Any] = []
    for ln in under:
        if ln.bbox[1] - y1 > NOTE_PITCH * (ln.bbox[3] - ln.bbox[1]) or ln.size >= body - 0.5 \
                or (note and (ln.font, round(ln.size, 1)) != (note[0].font, round(note[0].size, 1))) \
                or (note and _words(note[-1].text) < NOTE_WORDS) or CAPTION_RE.match(ln.text):
            break
        note.append(ln)
        y1 = ln.bbox[3]
    if len(note) == 1 and _words(note[0].text) < NOTE_WORDS:
        return (x0, y0, x1, cap_bottom)
    return (x0, y0, max([x1, *(ln.bbox[2] for ln in note)]), y1)


#: A line of text at the body's size under a figure: this many words at least (a narrow
#: column's line holds five or six; a label under a figure's structures, one or two).
LINE_WORDS = 5
#: Labels under a figure's last row of drawings stand within this many points of it.
LABEL_GAP_PT = 12.0


def _labels_beside(lines: list[Any], region: Box) -> set[int]:
    """Indexes of the labels set right beside ``region``, level with it: a plot's tick
    labels, right-aligned against its frame's left edge (ApJ's ``100.0``/``10.0``), or a
    legend against its right edge, and labels beside those. A label is a line of fewer
    than ``BODY_LINE_WORDS`` words within ``LABEL_GAP_PT`` of the edge; no caption."""
    x0, y0, x1, y1 = region
    out: set[int] = set()
    # the lines level with the region that may be labels (it grows only sideways)
    short = [i for i, ln in enumerate(lines) if ln.bbox[3] > y0 and ln.bbox[1] < y1
             and _words(ln.text) < BODY_LINE_WORDS and not CAPTION_RE.match(ln.text)
             and not _ends_prose(ln, lines)]
    grew = True
    while grew:
        grew = False
        for i in short:
            left, _, right, _ = lines[i].bbox
            if i in out:
                continue
            if left < region[0] and x0 - LABEL_GAP_PT <= right < region[2]:
                out.add(i)
                x0, grew = min(x0, left), True
            elif right > region[2] and region[0] < left <= x1 + LABEL_GAP_PT:
                out.add(i)
                x1, grew = max(x1, right), True
    return out


def _labels_over_caption(lines: list[Any], region: Box, cap: Any) -> set[int]:
    """Indexes of the labels level with a figure drawn over its caption and within the
    caption's width though outside the drawings found (a volcano plot's axis title beside
    the heatmap that the figure's region holds, under one caption): lines of fewer than
    ``PROSE_WORDS`` words whose block holds no longer line, no caption, no prose's end."""
    x0, x1 = cap.bbox[0], cap.bbox[2]
    long_blocks = {(ln.page, ln.block) for ln in lines if _words(ln.text) >= PROSE_WORDS}
    out: set[int] = set()
    for i, ln in enumerate(lines):
        cx, cy = (ln.bbox[0] + ln.bbox[2]) / 2, (ln.bbox[1] + ln.bbox[3]) / 2
        if (x0 <= ln.bbox[0] and ln.bbox[2] <= x1 and region[1] <= cy <= region[3]
                and not region[0] <= cx <= region[2] and _words(ln.text) < PROSE_WORDS
                and (ln.page, ln.block) not in long_blocks and not CAPTION_RE.match(ln.text)
                and not _ends_prose(ln, lines)):
            out.add(i)
    return out


def _short_block_inside(ln: Any, lines: list[Any], region: Box) -> bool:
    """Whether ``ln``'s block is a line or two standing wholly inside the figure's region:
    a flowchart's step set in the body's size (a USGS manual's ``Perturb this parameter
    and recreate the input files for the process``), not text wrapped round the figure,
    whose block runs on beside or past it, nor a statement framed across the figure's whole
    width over its drawing (Erickson's ``Kruskal: Scan all edges by increasing weight; …``)."""
    block = [o for o in lines if o.block == ln.block and o.page == ln.page]
    width = max(o.bbox[2] for o in block) - min(o.bbox[0] for o in block)
    return len(block) <= LABEL_BLOCK_LINES and width < LABEL_WIDTH_SHARE * (region[2] - region[0]) and all(
        region[0] <= o.bbox[0] and o.bbox[2] <= region[2] and region[1] <= o.bbox[1] and o.bbox[3] <= region[3]
        for o in block)


#: Most lines of a label's block inside a figure, and most of the figure's width it spans.
LABEL_BLOCK_LINES = 2
LABEL_WIDTH_SHARE = 0.9


def _panel_titles(lines: list[Any]) -> set[int]:
    """The ids of the lines set right after a panel's letter on its baseline: a figure's
    panel titles (eNeuro's ``A`` | ``Step 1: build encoding model`` in 11 pt over a 9.5 pt
    body), which read as prose by their words and size but are the figure's. The letter
    is a line of its own, bold or bracketed (``A``, ``(b)``), within ``PANEL_REACH_EMS`` of
    the title's left edge."""
    letters = [ln for ln in lines if _PANEL_RE.fullmatch(t := ln.text.strip()) and (ln.bold or t[0] == "(")]
    if not letters:
        return set()
    out: set[int] = set()
    for ln in lines:
        x0, y0, _, y1 = ln.bbox
        for mark in letters:
            if mark is not ln and 0 <= x0 - mark.bbox[2] <= PANEL_REACH_EMS * mark.size \
                    and min(y1, mark.bbox[3]) - max(y0, mark.bbox[1]) >= 0.5 * (y1 - y0):
                out.add(id(ln))
                break
    return out


def _boxed_label(ln: Any, rects: list[Box]) -> bool:
    """Whether a line is a diagram's label, not prose, though set at the body's size: inside
    a drawing, fewer than ``PROSE_WORDS`` words and no sentence's end (an ECDC report's
    flowchart under its ``Figure 1.``: ``Output adjusted data for analysis or`` |
    ``estimations outside the tool`` in a box). A panel drawn under text holds a sentence's
    end somewhere, which keeps it a panel."""
    if _words(ln.text) >= PROSE_WORDS or ln.text.rstrip().endswith(SENT_END):
        return False
    x0, y0, x1, y1 = ln.bbox
    return any(r[0] <= x0 and r[1] <= y0 and x1 <= r[2] and y1 <= r[3] for r in rects)


def _ends_prose(ln: Any, lines: list[Any]) -> bool:
    """Whether ``ln`` is the last line of a paragraph of prose: right under a line of
    ``BODY_LINE_WORDS`` words or more set in its size, from the same left edge (AGU's
    ``it.`` at the top of the column beside a figure, under ``… so you notice``)."""
    left, top, _, bottom = ln.bbox
    height = max(bottom - top, 1.0)
    return any(abs(up.bbox[0] - left) <= 2.0 and -0.25 * height <= top - up.bbox[3] <= 0.8 * height
               and abs(up.size - ln.size) <= 0.5 and _words(up.text) >= BODY_LINE_WORDS
               for up in lines if up is not ln)


def _labels_under(lines: list[Any], region: Box, bottom: float, body: float, small: bool = False) -> float:
    """``bottom`` moved down over the lines that are not prose right under ``region``, one
    after the other (the names under a caption-over figure's last row of structures);
    ``small``: only over lines set smaller than the body (a plot's ticks and axis title)."""
    for ln in sorted(lines, key=lambda ln: ln.bbox[1]):
        if ln.bbox[1] < bottom - 1.0 or not (ln.bbox[0] < region[2] and region[0] < ln.bbox[2]):
            continue
        if ln.bbox[1] > bottom + LABEL_GAP_PT or (_words(ln.text) >= LINE_WORDS and ln.size >= body - 0.5) \
                or (small and ln.size >= body - 0.5):
            break  # (a narrow column's line of text holds five words or more: JMIR's under Figure 1)
        bottom = max(bottom, ln.bbox[3] + 1.0)
    return bottom


@functools.lru_cache(maxsize=CAPTION_CACHE_LINES)  # asked of the same lines again and again
def _words(text: str) -> int:
    """Words of two letters or more: a row of tick labels (``2 - 0 1 - 1 0 - 2``) has none."""
    return sum(1 for w in text.split() if sum(map(str.isalpha, w)) >= 2)


#: Text set below this share of the body size, right above a figure's caption, is the
#: figure's own (a diagram or table made of text, drawn small: ACM's 3.7 pt "figure").
TINY_TEXT = 0.6


def _tiny_text_above(lines: list[Any], cap: Any, body: float) -> set[int]:
    """Indexes of the lines set tiny right above ``cap`` in its column, up to the first line
    of ordinary size."""
    above = sorted(((i, ln) for i, ln in enumerate(lines)
                    if ln is not cap and ln.page == cap.page and ln.bbox[3] <= cap.bbox[1] + 1.0
                    and ln.bbox[0] < cap.bbox[2] and cap.bbox[0] < ln.bbox[2]),
                   key=lambda t: -t[1].bbox[3])
    out: set[int] = set()
    for i, ln in above:
        if ln.size >= TINY_TEXT * body:
            break
        out.add(i)
    return out


def _small_text_figure(lines: list[Any], cap: Any, body: float, rects: list[Box]) -> set[int]:
    """Indexes of the lines of a figure made mostly of text (ACL's worked examples: a
    small table drawn with rules, questions and answers set under it), right above
    ``cap`` in its column: between the caption and the nearest line of body text (or
    caption) above it, with some drawing among them, the lines set smaller than the body
    and the marks among them.
    None when that caption above is a table's (its cells are the table's)."""
    col = [(i, ln) for i, ln in enumerate(lines)
           if ln is not cap and ln.page == cap.page and ln.bbox[3] <= cap.bbox[1] + 1.0
           and cap.bbox[0] - 2.0 <= (ln.bbox[0] + ln.bbox[2]) / 2 <= cap.bbox[2] + 2.0]
    caption_blocks = {ln.block for ln in lines if ln.page == cap.page and (
        CAPTION_RE.match(ln.text) or is_algorithm_caption(ln.text))}
    nearest = max((ln for _, ln in col if ln.block in caption_blocks or (
        ln.size >= body - 0.5 and _words(ln.text) >= BODY_LINE_WORDS)), key=lambda ln: ln.bbox[3], default=None)
    top = nearest.bbox[3] if nearest is not None else 0.0
    if nearest is not None and nearest.block in caption_blocks and not any(
            is_figure_caption(ln.text) for ln in lines if ln.page == cap.page and ln.block == nearest.block):
        return set()  # under a table's or an algorithm's caption: its cells, its steps
    if not any(r[1] >= top - 1.0 and r[3] <= cap.bbox[1] + 1.0 and r[0] < cap.bbox[2] and cap.bbox[0] < r[2]
               for r in rects):
        return set()
    inside = [(i, ln) for i, ln in col if ln.bbox[1] >= top - 1.0]
    # (and its marks: a scheme's ``+`` between reactants, set in the body's size)
    small = {i for i, ln in inside if ln.size < body - 0.5 or not any(c.isalnum() for c in ln.text)}
    return small if len(small) * 2 > len(inside) else set()


def _axis_label(text: str) -> bool:
    """A row of values (no letter in it) or an axis title of three words at most, ending
    no sentence."""
    words = text.split()
    return bool(words) and (not any(c.isalpha() for c in text)
                            or (len(words) <= 3 and not text.rstrip().endswith(SENT_END)))
