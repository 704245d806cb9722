"""Footnotes and other small print in a page's lower part: they float, so the sentence
they interrupt goes on past them, and they never go on into it."""

from __future__ import annotations

import re
from operator import itemgetter

from vaultd.parse.fontnames import font_family
from vaultd.parse.paras import SENT_END, Line, PageInfo, Para, most_size, size_counts, small_print


def is_footnote(lines: list[Line], body: float, info: PageInfo, face: str, page: list[Line]) -> bool:
    """A footnote in the lower part of its page: set smaller than the body, a numbered web
    address at the foot of its column, a point smaller than the body opening with its mark
    there, or (a first page's affiliation note, Scientific
    Reports' ``Department of …`` in 8.5 pt Corbel under a 9 pt Minion body) a few lines a
    little smaller in another face at the foot of its column."""
    size = max(ln.size for ln in lines)
    if lines[0].bbox[1] <= info.height * NOTES_TOP:
        return False
    if lines[0].bbox[1] <= info.height * 0.6:
        # notes filling half a page (a congressional report's): smaller, opening with
        # their number, called in the text above, no text in the body's size under them
        # (or a note's tail carried over from the page before, over the next note)
        return size < body * 0.9 and (_called_above(lines, page, body) or note_tail(lines, page, body)) \
            and not _body_text_below(lines, page, body)
    if size < body * 0.9 or (small_print(size, body) and _at_column_foot(lines, page)):
        return True  # (9 pt notes under a 10 pt body: at the column's foot)
    if _URL_NOTES_RE.fullmatch(lines[0].text.strip()) and _at_column_foot(lines, page):
        return True  # "4 http://trec.nist.gov/data/docs_eng.html", its address in the body's size
    if lines[0].lead_mark and size <= body + 0.5 and _at_column_foot(lines, page):
        return True  # opening with its mark set small and raised, in the body's size (CIDR's "¹ Formally, …")
    if size <= body - NOTE_STEP and opens_note(lines, lines[0].text) \
            and _at_column_foot(lines, page):
        return True  # a point smaller and opening with its mark (a Word report's 10 pt notes, 11 pt body)
    return size <= body - 0.4 and len(lines) <= NOTE_LINES and all(font_family(ln.font) != face for ln in lines) \
        and _at_column_foot(lines, page)


#: Highest a footnote starts, as a share of the page's height from its top (notes start
#: under 0.6 of it, or under this when they fill more than the page's lower part).
NOTES_TOP = 0.35
#: How much smaller (points) than the body a note opening with its mark is set, at least.
NOTE_STEP = 0.9
#: A note in another face is this many lines at most: more is a passage set in another
#: face, ending at the column's foot (PLOS's abstract, 9.5 pt Helvetica under a 10 pt
#: Minion body, 12 lines at the first page's foot going on at the next page's top).
NOTE_LINES = 8


#: A footnote's mark and its first word: ``1 In principle``, ``(2) OJ L 201, …`` (the
#: Official Journal's), ``2These days``, ``∗ I would
#: like``, ``¹Université``, ``b)Also at``, ``1. Tuned for``, ``ii. Les anciennes``, ``iii The estimated`` (a
#: Word report's roman marks, no stop), ``1 “Practitioners`` (a
#: quotation); not ``0.0 0.2 0.4``, a plot's ticks, nor ``[1] TRUE``, a program's output.
_NOTE_MARK_RE = re.compile(
    r"(?:\(\d{1,3}\)|\d{1,3}[.)]?|[*∗†‡§¶⋆‖]{1,3}|[a-z]\)|[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3}|x{0,2}(?:ix|iv|v?i{1,3}|v)(?:\.(?=\s)|\s+(?=[A-Z])))"
    r"\s*\ufffd?[“‘«\"'(]?(?:https?://|[^\W\d_])")  # (a tab the text layer gives as U+FFFD)


#: A note's number and its first word, without a stop after the number (``7 The Senate``,
#: ``12This``): not a reference list's ``33. Kaufmann``.
_NOTE_NUMBER_RE = re.compile(r"(\d{1,3})\s*[“‘\"(]?[^\W\d_]")


def _called_above(lines: list[Line], page: list[Line], body: float) -> bool:
    """Whether ``lines`` open with a note's number that a line of body text above them on
    their page calls, set against the word or stop it follows (``… agreed to.7``)."""
    m = _NOTE_NUMBER_RE.match(lines[0].text.lstrip())
    if m is None:
        return False
    call = re.compile(rf"[^\s\d]{m.group(1)}(?!\d)")
    top = lines[0].bbox[1]
    return any(ln.bbox[3] <= top and abs(ln.size - body) < 0.5 and call.search(ln.text) for ln in page)


def _body_text_below(lines: list[Line], page: list[Line], body: float) -> bool:
    """Whether a line in the body's size stands under ``lines`` in their column."""
    x0, x1 = min(ln.bbox[0] for ln in lines), max(ln.bbox[2] for ln in lines)
    bottom = max(ln.bbox[3] for ln in lines)
    return any(ln.bbox[1] > bottom and ln.bbox[0] < x1 and ln.bbox[2] > x0 and ln.size >= body - 0.5
               for ln in page)


def opens_note(lines: list[Line], text: str) -> bool:
    """Whether small print at a page's foot (``is_footnote``) opens with a footnote's
    mark, and is no program's text: a footnote, which its chunk is typed as. (Small print
    without a mark floats all the same, but may be a plot's labels or a listing's output.)"""
    return _NOTE_MARK_RE.match(text.lstrip()) is not None and (
        not all(ln.mono for ln in lines) or _URL_NOTES_RE.fullmatch(text.strip()) is not None)
    # (a web address alone after its number is a note in whatever face: ACL's ``1 https://…``)


def note_tail(lines: list[Line], page: list[Line], body: float) -> bool:
    """Whether small print at a page's foot, opening with no mark, stands right over a
    note in its own size that does: the end of a note begun on the page before, at the
    top of this page's notes (a book's ``transformation.`` over its note 7)."""
    size, last = max(ln.size for ln in lines), lines[-1]
    if size >= body * 0.9 or not last.text.rstrip().endswith(SENT_END):
        return False  # (a note's sentence ends with it; a formula's pieces end on no stop)
    pitch = 1.5 * max(last.bbox[3] - last.bbox[1], 1.0)
    # (the end of a note's text runs out to the column's edge, no further in than the
    # next note's mark: a formula's pieces are centred, a reference's lines hang in)
    # (or as far in as the note's text after its mark: a law review's note 50 carried over,
    # its lines set in from the marks hanging in the margin, ``J. Reid, Jr., …`` over ``51``)
    return any(0.0 <= ln.bbox[1] - last.bbox[1] <= pitch and abs(ln.size - size) <= 0.5
               and lines[0].bbox[0] <= ln.bbox[0] + MARK_HANG_EMS * size and ln.bbox[0] < last.bbox[2]
               and opens_note([ln], ln.text) for ln in page if ln is not last)


#: How far (ems) a note's text may stand in from the marks hanging in the margin.
MARK_HANG_EMS = 1.5


#: Footnotes that are a web address after their number, one or more after the other, an
#: address broken over lines (ACL's ``7http://rtw.ml.cmu.edu/rtw/ 8https://github.com/allenai/
#: openie-standalone``, set in a typewriter face).
_URL_NOTES_RE = re.compile(r"(?:(?:\d{1,2}|[*†‡§¶])\s*(?:https?://|www\.)\S+(?:\s+[^\s\d]\S*)*\s*)+")


def body_face(pages: list[list[Line]]) -> str:
    """The family of the font most of the document's characters are set in."""
    faces: dict[str, int] = {}  # (a dict: Counter's ``+=`` costs a call a line)
    for lines in pages:
        for ln in lines:
            key = font_family(ln.font)
            faces[key] = faces.get(key, 0) + len(ln.text)
    # the first of the most common, as Counter.most_common(1) picks it
    return max(faces.items(), key=itemgetter(1))[0] if faces else ""


def _at_column_foot(lines: list[Line], page: list[Line]) -> bool:
    """No line of the page stands below ``lines`` in their column but the note's own
    (lines in its face and size) and smaller print still (a copyright and licence footer
    under a book review's notes)."""
    x0 = min(ln.bbox[0] for ln in lines)
    x1 = max(ln.bbox[2] for ln in lines)
    bottom = max(ln.bbox[3] for ln in lines)
    face, size = font_family(lines[0].font), lines[0].size
    return not any(ln.bbox[1] > bottom and ln.bbox[0] < x1 and ln.bbox[2] > x0 and ln.size > size - 0.3
                   and (font_family(ln.font) != face or ln.size - size > 0.3) for ln in page)


def section_text(prev: Para | None, lines: list[Line], text: str, small_page: float | None) -> bool:
    """Whether small print is a section's own text set small, no note: on a page set small
    throughout in its size (``small_page``: ``page_set_small``); or, opening with no note's
    mark, right under a section's heading in its column (the British Ecological Society's
    methods, a point under the body: notes never open under a head) or right under a
    paragraph of its own size that is no note (*Advanced Science*'s Experimental Section:
    ``SDS-PAGE: CPMV and CCMV samples …`` under the paragraph before it at the column's
    foot)."""
    first = lines[0]
    if small_page is not None and abs(max(ln.size for ln in lines) - small_page) <= SIZE_SAME:
        return True  # (whatever it opens with: a page set small holds its numbered entries too)
    if prev is None or opens_note(lines, text):
        return False
    above = prev.lines[-1]
    if prev.type == "heading" or _head_to_be(prev, first):
        return _right_under(above, first, 0.0, UNDER_HEAD_EMS)
    return prev.type == "paragraph" and not prev.floating and abs(above.size - first.size) <= SIZE_SAME \
        and _right_under(above, first, -0.5, UNDER_TEXT_EMS)


def _head_to_be(prev: Para, first: Line) -> bool:
    """A short line with no stop at its end, set bold or in a face of its own larger than
    the small print under it, that the face rules (``headings.font_headings``) make a
    heading only once the page is read: SAGE's ``Funding`` (10 pt, a face named
    ``AdvPS8E82``) over its statement set in 9 pt at the column's foot."""
    line = prev.lines[0]
    return prev.type == "paragraph" and not prev.floating and len(prev.lines) == 1 \
        and (line.bold or (line.font != first.font and line.size >= first.size + NOTE_STEP)) \
        and line.text[:1].isupper() and len(line.text.split()) <= HEAD_WORDS \
        and not line.text.rstrip().endswith((*SENT_END, ",", ";"))


#: Most words of a bold line read as a heading to be.
HEAD_WORDS = 6


def _right_under(above: Line, first: Line, least: float, most: float) -> bool:
    """Whether ``first`` stands right under ``above`` on its page, in its column, between
    ``least`` and ``most`` ems of ``first``'s size below it."""
    em = max(first.size, 1.0)
    return above.page == first.page and least * em <= first.bbox[1] - above.bbox[3] <= most * em \
        and above.bbox[0] < first.bbox[2] and first.bbox[0] < above.bbox[2]


#: Most space (ems of the text's size) between a heading and the text it heads, and between
#: two paragraphs of a section; sizes (points) read as one.
UNDER_HEAD_EMS = 3.0
UNDER_TEXT_EMS = 1.5
SIZE_SAME = 0.3


def page_set_small(page: list[Line], body: float) -> float | None:
    """The size a page is set in when it is set smaller than the body throughout, with
    hardly a character in the body's size (the British Ecological Society's methods fill
    a page in 8 pt beside 9 pt elsewhere): in that size the page's text is no note."""
    counts = size_counts(page)
    if not counts:
        return None
    size = most_size(counts)
    in_body = sum(n for key, n in counts.items() if abs(key - body) <= 0.5)
    return size if small_print(size, body) and in_body * SMALL_PAGE_RATIO < counts[size] else None


#: How many times the characters in the body's size a page set small holds in its own.
SMALL_PAGE_RATIO = 10
