"""The notes a table or figure has under its caption (its sources, its abbreviations, a
figure's note set small), told from the body text a float broke: which float a para is the
note of (``note_of``), and the open paragraph a new para may go on (``merge_target``)."""

from __future__ import annotations

import re

from vaultd.parse.paras import LOWER_WORD_RE, SENT_END, Line, Para
from vaultd.parse.sentence_ends import closed_sentence


def merge_target(paras: list[Para]) -> Para | None:
    """The open paragraph a new one may continue: the last one, skipping floating captions."""
    for para in reversed(paras):
        if para.type in ("figure", "table", "front", "code") or para.floating:
            continue
        return para
    return None


def note_of(paras: list[Para], lines: list[Line], body: float) -> str | None:
    """The type of the float (``table``, ``figure``) whose note ``lines`` are: small print
    right after it on its page (after its caption, or after other such notes), such as
    BMC's ``Multivariate models were adjusted for: …`` or SciELO's ``Fuentes: …`` under a
    table; in the body's size, a note opening with its mark or ``Note:`` right under a
    table. A paragraph broken by the float never goes on into it; a short line set over the
    float (its unit) may come between them in reading order. None when not a note."""
    if max(ln.size for ln in lines) >= body * 0.9:
        # in the body's size, only a note opening with its mark right after a table
        found = float_before(paras, lines[0].page, floating=False)
        if found is None or found[0].type != "table" or not _TABLE_NOTE_RE.match(lines[0].text.lstrip()):
            return None
    else:
        found = float_before(paras, lines[0].page, floating=True)
        if found is None or (found[0].type == "figure" and LOWER_WORD_RE.match(lines[0].text)
                             and (open_para := merge_target(paras)) is not None
                             and open_para.type == "paragraph" and not closed_sentence(open_para.text)):
            return None  # (a paragraph set small going on under the figure that broke it)
    float_, units = found
    first, cap = lines[0], float_.lines
    if _body_between(paras, float_, first, body):
        return None  # under text read before the float's notes came (a paragraph gone on past it)
    if float_.type == "figure" and (first.bbox[1] < cap[-1].bbox[3] - 1.0 or not any(
            ln.bbox[0] < first.bbox[2] and first.bbox[0] < ln.bbox[2] for ln in cap)):
        # a figure's note stands under its caption, in its columns (IUCr's footnote at the
        # right column's foot is no note of the figure captioned at the left one's)
        return None
    prev = paras[-1]
    # (a figure's, not a table's, whose cells are read as notes; the float found may be a
    # note of it: its notes float, its caption does not)
    after_note = float_.type == "figure" and (
        prev.floating if prev is float_ else prev.type == float_.type or len(prev.lines) > 1)
    if after_note and prev.lines[-1].page == first.page \
            and first.bbox[1] - prev.lines[-1].bbox[3] > NOTE_GAP_LINES * (first.bbox[3] - first.bbox[1]):
        # a float's notes stand together: small print well under its last note, or under
        # a paragraph read after it, is no note of it (UNCTAD's footnotes at the foot of a
        # page whose figure's ``Source:`` and ``Note:`` lines stand under its chart)
        return None
    for para in units:  # the table's unit line: the table's, no body text
        para.type, para.floating = float_.type, True
    return float_.type


def _body_between(paras: list[Para], float_: Para, first: Line, body: float) -> bool:
    """Whether a body-size line of a paragraph read before ``float_`` stands between it and
    ``first`` in ``first``'s column: the sentence the float broke, gone on under it
    (*Veterinary World*'s ``… purchased from the local market. …`` under Table 1 and its
    note, over the bold head ``Blood collection and analysis`` set in the table's face).
    (The float's own cells, read after it, are not asked.)"""
    at = next((i for i in range(len(paras) - 1, -1, -1) if paras[i] is float_), 0)
    bottom = float_.lines[-1].bbox[3]
    return any(ln.page == first.page and bottom - 1.0 <= ln.bbox[1] and ln.bbox[3] <= first.bbox[1] + 1.0
               and ln.bbox[0] < first.bbox[2] and first.bbox[0] < ln.bbox[2] and ln.size >= 0.9 * body
               for para in paras[max(0, at - RECENT_PARAS):at] if para.type == "paragraph"
               for ln in para.lines[-RECENT_LINES:])


#: How many paragraphs back, and how many of their last lines, ``_body_between`` looks.
RECENT_PARAS, RECENT_LINES = 8, 40


#: Most lines' heights (its own) a float's next note stands under the note before it.
NOTE_GAP_LINES = 1.5


def float_before(paras: list[Para], page: int, floating: bool) -> tuple[Para, list[Para]] | None:
    """The table or figure last read on ``page``, when only floating paragraphs
    (``floating``) come after it, or short lines: a table's (its unit, ``In Millions of
    Dollars`` under a report's table caption; its cells are not paragraphs yet) or set
    over a figure. With it, those short lines."""
    over: list[Para] = []
    for para in reversed(paras):
        if para.lines[-1].page != page:
            return None
        if para.type in ("table", "figure"):
            top = para.lines[0].bbox[1]
            fits = para.type == "table" or all(p.lines[-1].bbox[3] <= top + 1.0 for p in over)
            return (para, over) if fits else None
        if para.floating:
            if floating:
                continue
            return None
        if len(para.lines) > 1 or len(para.text.split()) > UNIT_LINE_WORDS or para.text.rstrip().endswith(SENT_END):
            return None
        over.append(para)
    return None


#: Most words of a short line a float's note may be read after, when it stands over the
#: float (a report's ``In Millions of Dollars`` under its table's caption).
UNIT_LINE_WORDS = 6


#: A table's note in the body's size: its mark (``* 2.2e-16 is the smallest …``) or label.
_TABLE_NOTE_RE = re.compile(r"(?:[*∗†‡§¶]\s*\S|(?i:notes?|sources?|abbreviations?)\s*[:.]\s)")
#: A float's note by its label (a report's ``Sources: CRS, using …`` under a chart).
FLOAT_NOTE_RE = re.compile(r"(?i:notes?|sources?|data\s+sources?|abbreviations?)\s*:\s")
