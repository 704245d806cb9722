"""Pieces of one sentence that the paragraph joins (``vaultd.parse.continuation``) do not
see as one: a one-line heading that is a sentence's start, its rest in lowercase right
under it (``sentence_start``), and a printed line's rest split off at a baseline shift
(``rest_of_line``). Pure: paragraphs in, a yes or no out.
"""

from __future__ import annotations

from vaultd.parse.bylines import SECTION_NAME_RE
from vaultd.parse.fontnames import font_family, is_mono_font
from vaultd.parse.paras import Para
from vaultd.parse.sentence_ends import OPEN_WORDS


def sentence_start(prev: Para, cur: Para) -> bool:
    """Whether ``prev``, a one-line unnumbered heading that is no title and does not end in
    a sentence's punctuation (a bracket or comma may: ``… (currently organized by
    transcript)`` | ``into groups by gene id.``), is the start of a sentence ``cur`` goes on
    with in lowercase right under it: no heading runs on into its text (ACM's list items ``C1 We present an approach
    for linking`` in bold, ``software architecture models and code.`` under it)."""
    if prev.type != "heading" or prev.title or prev.number is not None or len(prev.lines) != 1 \
            or cur.type != "paragraph" or not cur.text[:1].islower():
        return False
    last, first = prev.lines[0], cur.lines[0]
    tail = prev.text.rstrip()
    if SECTION_NAME_RE.fullmatch(tail) and cur.text.split()[0].lower() not in OPEN_WORDS:
        return False  # "Introduction" | "nroff and troff are …": a section's name heads it
    open_end = bool(tail) and (tail[-1].isalnum() or tail[-1] in "),]"
                               or (tail[-1] == "-" and tail[-2:-1].isalpha()))
    if last.bold and not (first.mono or is_mono_font(first.font)) and font_family(last.font) != font_family(first.font):
        return False  # a bold sans head over serif text (F1000's ``Data sources and package
        # details`` | ``taxize uses …``): a sentence's bold start is in its text's face
    return (last.page == first.page and open_end
            and 0 <= first.bbox[1] - last.bbox[3] <= 0.5 * max(last.size, 1.0))




def rest_of_line(prev: Para, cur: Para) -> bool:
    """Whether ``cur`` starts with the rest of ``prev``'s last printed line, split off at a
    baseline shift (``… (fx, fy)ext`` | ``T are external forces.``): same page, the two
    lines overlapping by half the lower one's height, ``cur``'s starting at most one em
    after ``prev``'s ends, which is short of its para's right edge (a column's gutter is
    wider, and a full line has no rest)."""
    if prev.type != "paragraph" or cur.type != "paragraph":
        return False
    last, first = prev.lines[-1], cur.lines[0]
    if last.page != first.page or len(prev.lines) < 2:
        return False
    overlap = min(last.bbox[3], first.bbox[3]) - max(last.bbox[1], first.bbox[1])
    height = min(last.bbox[3] - last.bbox[1], first.bbox[3] - first.bbox[1])
    em = max(last.size, 1.0)
    right = max(ln.bbox[2] for ln in prev.lines)
    return (overlap >= 0.5 * height and -0.5 * em <= first.bbox[0] - last.bbox[2] <= em
            and last.bbox[2] < right - 2 * em)
