"""Pieces of one sentence that the paragraph joins (``vaultd.parse.continuation``) do not
see as one: a one-line heading that is a sentence's start, its rest in lowercase right
under it (``sentence_start``), and a printed line's rest split off at a baseline shift
(``rest_of_line``), and a sentence going on with a capital past a break
(``capital_goes_on``), and an address a sentence announces on the line under it
(``address_goes_on``). Pure: paragraphs in, a yes or no out.
"""

from __future__ import annotations

from vaultd.parse.bylines import SECTION_NAME_RE, is_byline
from vaultd.parse.classify import lower_words
from vaultd.parse.fontnames import font_family, is_mono_font
from vaultd.parse.paras import SENT_END, Line, Para, measure
from vaultd.parse.sentence_ends import ITEM_RE, OPEN_WORDS, OPENERS, announces_address, is_scrap


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


def capital_goes_on(prev: Para, cur: Para, tail: str) -> bool:
    """Whether a sentence broken at a column or page break goes on with a capital or a
    bracket (``tail``: ``prev``'s text without a note's mark at its end):
    after a ``,`` or ``;`` (``Glick, 2001b;`` | ``Wessjohann et al., 2003).``), after a word
    no sentence ends on (``between East and`` | ``South Africa``), or into a ``(`` (``0.75``
    | ``(0.61–0.93), and``). Not into a sentence's opener (``The``, ``From``, ``Now`` …), a
    list item, a line in capitals (a box's ``KEY CONCEPT 1``), a formula's scrap, a short
    label (``Team organization``), a line level with its last beside it, nor from or into
    a line of names."""
    words = cur.text.split()
    first = cur.text[:1]
    if not words or not (first.isupper() or first == "(") or ITEM_RE.match(cur.text) \
            or is_scrap(cur.text) or (len(words) < 4 and not cur.text.rstrip().endswith(SENT_END)):
        return False
    opener = words[0].strip("\"'“‘(").lower()
    inside = tail.count("(") > tail.count(")")  # a citation list left open: "(Peci et al., 2017;"
    if first != "(" and not inside and (opener in OPENERS or all(w.isupper() for w in words[:2] if w.isalpha())):
        return False
    if lower_words(prev.lines[-1].text.split()) < 2 or is_byline(cur.lines[0].text):
        return False  # a line of names ("Miles Crawford," | "Doug Downey, …")
    last, line = prev.lines[-1], cur.lines[0]
    if line.page == last.page and line.bbox[0] >= last.bbox[2] and line.bbox[1] < last.bbox[3] \
            and last.bbox[1] < line.bbox[3]:
        # level with its last line, beside it: a sidebar's ``Frontier technologies could
        # erode the`` and a bold item's lead in the text column right of it
        return False
    if measure(cur.lines[:4]) > WIDER * measure(prev.lines) and len(prev.lines) >= 2:
        return False  # a table's note set across the page under it (UNESCO's ``because of`` | ``Almost all …``)
    return tail[-1] in ",;" or tail.rsplit(None, 1)[-1] in OPEN_WORDS or first == "(" or inside


#: How much wider than its paragraph a block may be set and still be its rest going on
#: with a capital (a column's text is one measure; a note across two is wider).
WIDER = 1.25


def address_goes_on(target: Para, lines: list[Line]) -> bool:
    """Whether ``lines``, a bare address or identifier, are the address ``target``'s open
    sentence announces (``More information … is available at`` | ``http://www.cdc.gov/…``
    atop the next page): not when they stand beside the sentence's last line, level with it
    outside the paragraph's column (the RSC's side box ``DOI: 10.1039/…`` left of an
    abstract whose line ends ``… compared to``; an address set apart under the sentence,
    inside the column, is its)."""
    if target.type != "paragraph" or not announces_address(target.text):
        return False
    last = target.lines[-1]
    left = min(ln.bbox[0] for ln in target.lines if ln.page == last.page)
    right = max(ln.bbox[2] for ln in target.lines if ln.page == last.page)
    return not all(ln.page == last.page and (ln.bbox[2] < left or ln.bbox[0] > right)
                   and abs(ln.bbox[1] - last.bbox[3]) <= 2 * max(last.size, 1.0) for ln in lines)
