"""A paragraph interrupted by what is set inside it goes on past it.

Boxes (Frontiers' ``KEY CONCEPT`` panels), sidebars, pull quotes, floats at a column's
top or foot and footnotes stand between the pieces of a paragraph in the reading order.
The paragraph flow is told by its face (font family and size) and its measure (the
column's width): a paragraph that ends without closing its sentence goes on in the next
paragraph **of the same face** that opens as its rest does (``continues``: in lowercase,
after a comma with a name, a word split at the break …) and without an indent, wherever
that paragraph stands in the reading order, within the next page. What stands between in
other faces (the box, the sidebar, the footnote) is skipped; what belongs to the flow
stops the search: a heading (not a box's own label, ``Box 1``), a display formula, a listing, a reference list, or a
paragraph of the same face (the paragraph before then was ended).

Each piece keeps its own region (``append_piece``), so a quote's page links point at
every place it is set.
"""

from __future__ import annotations

import re
from collections import Counter

from vaultd.parse.classify import is_prose
from vaultd.parse.continuation import INDENT_EMS, MEASURE_SHARE, continues
from vaultd.parse.fontnames import font_family
from vaultd.parse.paras import LOWER_WORD_RE, Line, Para, measure
from vaultd.parse.sentence_ends import closed_sentence

Face = tuple[str, float]

#: Para types a paragraph's flow goes on past: floats and the first page's apparatus.
_FLOATS = ("figure", "table", "front")
#: Para types that are part of the flow: a paragraph before them is not interrupted.
_FLOW = ("heading", "equation", "code", "reference")
#: A box's or panel's label, a heading of the box, not of the flow (``Box 1``, ``Panel 2``).
_BOX_LABEL_RE = re.compile(r"(?:box|panel)\s+\d{1,2}\b", re.IGNORECASE)
#: How many lines of a piece its face and measure are read from.
FACE_LINES = 6


def face_of(lines: list[Line]) -> Face:
    """The face most of these lines' characters are set in: font family and size to the
    half point."""
    head = lines[:FACE_LINES]
    first = head[0]
    if all(ln.font == first.font and ln.size == first.size for ln in head):  # (most paras)
        return font_family(first.font), round(first.size * 2) / 2
    faces: Counter[Face] = Counter()
    for ln in head:
        faces[(font_family(ln.font), round(ln.size * 2) / 2)] += len(ln.text)
    return faces.most_common(1)[0][0]


def _last_piece(para: Para) -> list[Line]:
    count = para.spans[-1] if para.spans else len(para.lines)
    return para.lines[-count:][-FACE_LINES:]


def _same_measure(before: list[Line], after: list[Line]) -> bool:
    """Whether two pieces on one page are set to one measure (a one-line piece may be
    shorter: the last line of its paragraph)."""
    wide, other = measure(before), measure(after)
    if len(before) == 1 and _indented_first(before[0], after):
        return True  # a paragraph's first line, indented, over its next lines
    if len(after) == 1:
        return other <= wide * (1 + MEASURE_SHARE)
    if len(before) == 1:
        return wide <= other * (1 + MEASURE_SHARE)
    return abs(wide - other) <= MEASURE_SHARE * max(wide, other)


def _indented_first(line: Line, under: list[Line]) -> bool:
    """Whether ``line`` is a paragraph's first line set in from the lines under it: ending
    at their right edge (to an em), starting up to ``INDENT_MAX_EMS`` right of their left
    (a word processor's double-spaced thesis sets each line a block, its first line's
    indent making it the narrower piece)."""
    em = max(line.size, 1.0)
    left, right = min(ln.bbox[0] for ln in under), max(ln.bbox[2] for ln in under)
    return abs(line.bbox[2] - right) <= em and 0.0 < line.bbox[0] - left <= INDENT_MAX_EMS * em


#: Widest first-line indent (ems) a one-line piece may have and be its paragraph's start.
INDENT_MAX_EMS = 4.0


def indented(para: Para) -> bool:
    """Whether a paragraph's first line is set in from its next lines."""
    if len(para.lines) < 2 or para.lines[1].page != para.lines[0].page:
        return False
    first = para.lines[0]
    left = min(ln.bbox[0] for ln in para.lines[1:3] if ln.page == first.page)
    return first.bbox[0] >= left + INDENT_EMS * max(first.size, 1.0)


def _led_into(item: list[Line], head: list[Line]) -> bool:
    """Whether a list item's last lines stand right above ``head``'s first line, within its
    column and in its size: a list in the flow (``… for each fiscal year covered by the
    budget resolution,`` | ``• the surplus or deficit;`` … | ``Once both chambers …``),
    whatever face its marks are set in, not a box beside or across the column."""
    last, first = item[-1], head[0]
    return (last.page == first.page and 0 <= first.bbox[1] - last.bbox[3] <= 3 * max(first.size, 1.0)
            and head[0].bbox[0] - 0.5 * first.size <= min(ln.bbox[0] for ln in item)
            and max(ln.bbox[2] for ln in item) <= max(ln.bbox[2] for ln in head) + 0.5 * first.size
            and abs(last.size - first.size) <= 0.5)


def _box_label(para: Para) -> bool:
    return para.type == "heading" and bool(_BOX_LABEL_RE.match(para.text))


def resumed(paras: list[Para], cur: Para, target: Para | None = None) -> Para | None:
    """The paragraph ``cur`` goes on with past what interrupts it (module doc), or None;
    None too when that is ``target``, the paragraph ``cur`` follows with nothing between,
    which the caller asks itself (``continues`` and more)."""
    if cur.type != "paragraph" or cur.floating or indented(cur):
        return None
    head = cur.lines[:FACE_LINES]
    face = face_of(head)
    page = cur.lines[0].page
    quoted = False  # passed a block in the body's face set narrower: a quotation, or a box
    for i in range(len(paras) - 1, -1, -1):
        para = paras[i]
        if para.lines[-1].page < page - 1:
            return None
        if _box_label(para) or (para.type == "heading" and i and _box_label(paras[i - 1])):
            continue  # a box's own label (Nature's ``Box 1``) and title under it: the box floats
        if para.type in _FLOW:
            return None
        if para.type in _FLOATS or para.floating or para.type not in ("paragraph", "list"):
            continue
        tail = _last_piece(para)
        if para.type == "list" and _led_into(tail, head):
            return None  # a list the paragraph before led into, right above ``cur``
        if face_of(tail) != face:
            continue  # a box, a sidebar, a pull quote: another face
        if tail[-1].page == page and not _same_measure(tail, head):
            quoted = True
            continue  # a box set in the body's face, narrower than the column
        if para is target:
            return None
        if quoted and cur.text[:1].isupper():
            # a sentence left open before a quotation set in from both sides ends in it
            # (``… showing that`` | the quotation | ``Censorship in facilities is …``)
            return None
        return para if para.type == "paragraph" and continues(para, cur) else None
    return None


def past_page_head(paras: list[Para], cur: Para) -> Para | None:
    """The paragraph ``cur`` goes on with past a line read as a heading atop its page that
    heads nothing: a running head the furniture pass could not tell (a two-page excerpt's
    ``BMJ Global Health``), under which the page's first text goes on, in lowercase, with
    the sentence the page before left open (a section's head is never followed so). The
    head is the page's first para, set no larger than the text under it (a slide's title
    is); None when there is no such paragraph."""
    if len(paras) < 2 or cur.type != "paragraph" or not LOWER_WORD_RE.match(cur.text):
        return None
    head, page = paras[-1], cur.lines[0].page
    if head.type != "heading" or len(head.lines) != 1 or head.lines[0].page != page \
            or head.lines[0].size > cur.lines[0].size + HEAD_OVER_TEXT \
            or head.lines[0].bbox[3] > cur.lines[0].bbox[1] \
            or any(p.lines[0].page == page for p in paras[:-1]):
        return None
    face = face_of(cur.lines[:FACE_LINES])
    for before in reversed(paras[:-1]):
        if before.lines[-1].page < page - 1 or (before.type in _FLOW and before.type != "heading"):
            return None
        if before.type != "paragraph" or before.floating or face_of(_last_piece(before)) != face:
            # past a box in another face, its heads among it, read after the text it stands
            # by (BMJ's ``Key questions``): a sentence left open has no section's head after it
            continue
        if closed_sentence(before.text) or not is_prose(before.text) or not is_prose(cur.text) \
                or not continues(before, cur):
            return None
        return before
    return None


#: How much larger (points) than the text under it a running head may be set (a slide's
#: title over its table is set larger).
HEAD_OVER_TEXT = 1.0


def column_top(paras: list[Para], cur: Para) -> bool:
    """Whether ``cur`` is the first text of its column: no paragraph, heading, list or
    front matter of ``paras`` (a label floating or not) stands over it in its column on
    its page."""
    head = cur.lines[0]
    for para in reversed(paras):
        if para.lines[-1].page < head.page:
            return True
        if para.type in ("paragraph", "heading", "list", "front") and any(
                ln.page == head.page and ln.bbox[3] <= head.bbox[1] + 1.0
                and ln.bbox[0] < head.bbox[2] and head.bbox[0] < ln.bbox[2] for ln in para.lines):
            return False
    return True


def went_over(para: Para) -> bool:
    """Whether ``para``'s last piece opens a new column or page: its first line stands
    above the piece before's last, or on a later page (not a piece right under the one
    before, a side column's blocks read between: Wiley's abstract beside its keywords)."""
    if len(para.spans) < 2:
        return False
    first, before = para.lines[-para.spans[-1]], para.lines[-para.spans[-1] - 1]
    return first.page > before.page or first.bbox[1] < before.bbox[1]
