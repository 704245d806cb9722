"""A paragraph broken by a displayed formula: its sentence goes on under the display
(``… dal sottospazio del rumore:`` | the formula | ``dove eH è il vettore di steering …``).
The display keeps its own chunks; the paragraph's text goes on past them, one region a
piece.
"""

from __future__ import annotations

import re

from vaultd.parse.paras import LOWER_WORD_RE, Para
from vaultd.parse.sentence_ends import closed_sentence
from vaultd.parse.textlayer import prose_words

#: Most paras a display is read in (its lines, a tall brace's pieces, a sum's limits),
#: and most lines of one of them (a brace drawn in five pieces).
DISPLAY_PARAS = 5
DISPLAY_LINES = 6
#: Most prose words of a para read as part of a display.
DISPLAY_WORDS = 3
#: Least indent (ems of the paragraph's size) of a display's lines from the paragraph's
#: left edge: a formula is set apart, centred or indented.
DISPLAY_INDENT_EMS = 2.0
#: How far (ems) the sentence's rest may stand from the paragraph's left edge.
FLUSH_EMS = 1.0
#: Widest indent (ems) of a paragraph's first line.
INDENT_EMS = 3.0
#: What a formula is made of: operators, relations, Greek, mathematical letters.
_MATH_RE = re.compile("[=<>≤≥≈≠∑∏∫√±×·∈∉⊂⊆∪∩→←⇒∞∂∇⎧⎨⎩⎫⎬⎭\u0370-\u03ff\U0001d400-\U0001d7ff]")


#: A sentence's end and the next one's start: prose, no display (APS's ``X = 0 with
#: certainty. And``, a line's end set beside a formula).
_SENTENCE_RE = re.compile(r"[a-z]{2}\.\s+[A-Z]")
#: A display's number: alone, the formula itself drawn as an image (De Gruyter's
#: ``(1)``); closing its line, the display is set apart however flush its formula
#: (Springer's ``ζ = α + βI = |ζ| eIϕζ , (115)``, set flush left).
_NUMBER_RE = re.compile(r"\(\d{1,3}[a-z]?\)")
#: An enumerated item's mark after its opening bracket (``ii)``, ``b)``).
_ITEM_MARK_RE = re.compile(r"[a-z]{1,4}\)")
#: A formula's legend under it (``where PU is …``, ``Where δWs and δWi …``): the
#: paragraph goes on, though its sentence closed over the display (``… in Eq. (1).``).
_LEGEND_RE = re.compile(r"[Ww]here\b")


def past_display(paras: list[Para], cur: Para) -> Para | None:
    """The paragraph ``cur`` goes on, past the displayed formula read right before it:
    ``cur`` opens with a lowercase word, flush with that paragraph's left edge on its page;
    between them stand only a display's paras (a few lines of a formula, indented from the
    paragraph's edge or closed by its number, no prose; or its number alone, the formula an
    image) and the paragraph was left open by its last line (a colon, a comma, no
    sentence's end), or ``cur`` is the formula's legend (``where …``). The display's paras
    float then, in place: the paragraph's next lines go on with it past them. None when
    not so."""
    legend = _LEGEND_RE.match(cur.text) is not None
    # (or a bracket opening before it: JHEP's ``… are given by`` | (2.1) | ``(with the
    # cyclic identification s0 = sr+1), the …``; not an item's ``(ii) If H is …``)
    opening = cur.text.lstrip("([")
    if cur.type != "paragraph" or not (legend or (LOWER_WORD_RE.match(opening) and not _ITEM_MARK_RE.match(opening))):
        return None
    first = cur.lines[0]
    display: list[Para] = []
    for para in reversed(paras):
        if len(display) == DISPLAY_PARAS or not _display(para, first.page):
            break
        display.append(para)
    if not display or len(display) == len(paras):
        return None
    target = paras[-len(display) - 1]
    if target.type != "paragraph":
        return None
    last = target.lines[-1]
    em = max(last.size, 1.0)
    left = min(ln.bbox[0] for ln in target.lines if ln.page == last.page)
    tail = target.text.rstrip()
    # (a display the paragraph already went past, among its lines: not between)
    top = min(ln.bbox[1] for ln in target.lines if ln.page == last.page)
    display = [p for p in display if not (top <= p.lines[0].bbox[1] and p.lines[-1].bbox[3] <= last.bbox[1])]
    # (a paragraph of one line shows its indent only: the text's edge may stand left of it)
    indent = INDENT_EMS * em if len([ln for ln in target.lines if ln.page == last.page]) == 1 else 0.0
    if last.page != first.page or not -FLUSH_EMS * em - indent <= first.bbox[0] - left <= FLUSH_EMS * em \
            or not display \
            or not (legend or tail.endswith((":", ",")) or not closed_sentence(tail)) \
            or any((ln.bbox[0] < left + DISPLAY_INDENT_EMS * em and not _numbered(p.text))
                   or ln.bbox[1] < last.bbox[1] or ln.bbox[3] > first.bbox[1] + 1.0
                   for p in display for ln in p.lines):
        return None
    for para in display:
        para.floating = True  # the paragraph's next lines go on with it, not into the display
    return target


def _display(para: Para, page: int) -> bool:
    """Whether ``para`` may be a piece of a displayed formula on ``page``."""
    return para.type in ("equation", "paragraph") and len(para.pieces) == 1 and len(para.lines) <= DISPLAY_LINES \
        and all(ln.page == page for ln in para.lines) and prose_words(para.text) <= DISPLAY_WORDS \
        and (_MATH_RE.search(para.text) is not None or _NUMBER_RE.fullmatch(para.text.strip()) is not None) \
        and _SENTENCE_RE.search(para.text) is None


def _numbered(text: str) -> bool:
    """Whether a display's text closes with its number (``_NUMBER_RE``)."""
    words = text.split()
    return bool(words) and _NUMBER_RE.fullmatch(words[-1]) is not None
