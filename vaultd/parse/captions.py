"""A float's own text around its caption: the rest of a caption set under it (its next
panel's part, its sentence going on past a name's abbreviation, a hanging caption's next
paragraph at its hang) or beside it in the other
column, or atop the next page under its ``continued`` label, a legend's rest at the next
page's foot, sub-figure labels stacked right above it, and a figure set as text over it at
a column's top.
"""

from __future__ import annotations

import re

from vaultd.parse.paras import LABEL_WORDS, SENT_END, Line, Para, pop_piece
from vaultd.parse.sentence_ends import OPEN_WORDS

#: A line that is only a DOI: ``doi: 10.1111/ecog.05776``, ``https://doi.org/10.…``.
DOI_LINE_RE = re.compile(r"(?i:doi:\s*|https?://(?:dx\.)?doi\.org/)?10\.\d{4,9}/\S+")
#: A line that is only an identifier: a figure's DOI under its caption (PLOS), a bare URL.
IDENTIFIER_LINE_RE = re.compile(DOI_LINE_RE.pattern + r"|(?i:https?://)\S+")

#: A figure's own identifier: PLOS's ``10.1371/journal.ppat.1013990.g002``, PeerJ's
#: ``10.7717/peerj-cs.213/fig-1``.
FIGURE_ID_RE = re.compile(r"10\.\d{4,9}/\S+?(?:\.g\d{3,4}|/fig-\d{1,3})$")

#: Most words of a short note opening with a float's identifier, under its caption.
IDENTIFIER_NOTE_WORDS = 20
#: A caption's label over its rest atop the next page (eLife's ``Figure 1 continued``).
_CONTINUED_RE = re.compile(r"(?i:figure|fig\.|table)\s+(\d+)\s+continued")
#: A caption that is its label alone (``Table 1``, ``Figure 3.``): its text is the next para.
_BARE_LABEL_RE = re.compile(r"\S+(?: \S)*\s*(?:\d+|[ivxIVX]+)\s*[.:]?")


def continued_caption(paras: list[Para], label: str) -> Para | None:
    """The caption a bare ``Figure 1 continued`` label atop a page goes on (eLife sets one
    over a caption's rest on the page after its figure): the last caption of the page
    before, of that label's float and number, its sentence left open. None when not so (a
    label over a caption whose start the excerpt left out is a caption of its own)."""
    match = _CONTINUED_RE.fullmatch(label.strip())
    if match is None:
        return None
    kind = "table" if label.strip()[:1] in "Tt" else "figure"
    number = match.group(1)
    for para in reversed(paras[-CONTINUED_REACH:]):
        if para.type == kind and re.match(rf"\S+\s*{number}\b", para.text) \
                and not para.text.rstrip().endswith(SENT_END):
            return para
    return None


#: How many paras back the caption a ``continued`` label goes on is looked for.
CONTINUED_REACH = 12


def caption_rest_overleaf(paras: list[Para], lines: list[Line], text: str, body: float) -> Para | None:
    """The caption whose rest ``lines`` are, under its bare ``continued`` label atop the
    next page (the last para, made front matter by the caller): in the caption's size,
    opening in lowercase or with a figure, as ``caption_goes_on`` asks of a caption's
    sentence going on atop the next page. None when not so."""
    if not paras or paras[-1].type != "front":
        return None
    caption = continued_caption(paras[:-1], paras[-1].text)
    if caption is None:
        return None
    last, line = caption.lines[-1], lines[0]
    if line.page == last.page + 1 and abs(line.size - last.size) <= 0.25 and line.size < body - 0.25 \
            and (text[:1].islower() or text[:1].isdigit()):
        return caption
    return None


def caption_goes_on(paras: list[Para], lines: list[Line], text: str, body: float,
                     plain: bool = False) -> bool:
    """Whether a para of ``lines`` is the rest of the caption that is the last para: right
    under it (same page, within two body sizes, overlapping it across, in the caption's
    size, bold when it is), and either a bare identifier (PLOS sets each figure's DOI there), a
    short note opening with one, what a caption ending in a colon announces, or the
    caption's unfinished sentence going on in lowercase; or that sentence going on in the
    caption's size (smaller than the body) as the first text atop the next page.

    In a text layer without fonts (``plain``: a scan's OCR, which sets each printed line
    as a block of its own) a caption's sentences go on over many blocks. There, a para in
    small print (under 0.9 of the body size, as the caption is) going on at the caption's
    line pitch, at most ``SCAN_CAPTION_GAP`` body sizes under its last line or beside it
    on the same printed line, is the caption's too, whatever its first letter."""
    if not paras or paras[-1].type not in ("figure", "table"):
        return False
    caption = paras[-1]
    last, line = caption.lines[-1], lines[0]
    tail = caption.text.rstrip()
    if line.page == last.page + 1 and abs(line.size - last.size) <= 0.25 and line.size < body - 0.25 \
            and not tail.endswith(SENT_END) and (text[:1].islower() or text[:1].isdigit()):
        # the caption's sentence going on atop the next page (eLife): the caption is the last
        # para, so nothing of this page came before it
        return True
    if last.page != line.page or line.bbox[0] >= last.bbox[2] or last.bbox[0] >= line.bbox[2]:
        return False
    gap = line.bbox[1] - last.bbox[3]
    if plain and max(ln.size for ln in (*lines, last)) < 0.9 * body \
            and -(last.bbox[3] - last.bbox[1]) < gap <= SCAN_CAPTION_GAP * body:
        return True
    if -0.5 * body <= gap <= body and abs(line.size - last.size) <= 0.25 * max(last.size, 1.0) \
            and (_BARE_LABEL_RE.fullmatch(caption.text.strip()) or _CONTINUED_RE.fullmatch(caption.text.strip())):
        # the text under a bare "Table 1" in bold (AGU), "TABLE I" (IEEE's small capitals),
        # and under eLife's "Figure 1 continued" atop the page its caption goes on
        return True
    if not -0.5 * body <= gap <= 2 * body \
            or abs(line.size - last.size) > 0.5 \
            or (last.bold and not line.bold):  # body text under a caption is set larger or lighter
        return False
    if IDENTIFIER_LINE_RE.fullmatch(text.strip()):
        return True
    if IDENTIFIER_LINE_RE.match(text.strip()) and len(text.split()) <= IDENTIFIER_NOTE_WORDS:
        return True  # "DOI: 10.7554/eLife.17290.002 The following figure supplement is available …"
    if tail.endswith(":"):
        return True  # what the caption announces (eLife's "Figure supplement 1. …" under it)
    if _hangs_under(caption, lines):
        return True  # a hanging caption's next paragraph, under its text past its label
    if next_panel(caption.text, text):
        return True  # "(B) Effect of …" under "Figure 4. … (A) Effect of …" (PLoS Biology 2006)
    if tail.rsplit(None, 1)[-1].lower() in OPEN_WORDS:
        return True  # "… EXPERIMENTS FOR" | "POINT-CLOUD-BASED METHOD." (IEEE's small capitals)
    # (or a bracket in it: ``… predicted from the PD internal variability`` | ``(dashed arrow). …``)
    return (text[:1].islower() or bool(_BRACKETED_WORD_RE.match(text))) \
        and (not tail.endswith(SENT_END) or bool(_ABBREVIATED_RE.search(tail)))


#: How far (ems) a caption's lines after its first start right of its label's to hang.
HANG_EMS = 2.0
#: How far apart (points) the lines hanging under a caption's text may start.
HANG_SLACK = 1.5


def _hangs_under(caption: Para, lines: list[Line]) -> bool:
    """Whether ``lines`` start where a hanging caption's lines after its first do, well
    right of its label (ABNT's ``Figure 15 – Variables measured …`` | ``standard version,
    …``, and its legend's next paragraph ``BT = Local time of going to bed. …`` under them):
    body text under a caption starts at its column's edge."""
    first = caption.lines[0]
    hung = [ln for ln in caption.lines[1:] if ln.page == first.page]
    if not hung:
        return False
    edge = min(ln.bbox[0] for ln in hung)
    return edge - first.bbox[0] >= HANG_EMS * max(first.size, 1.0) \
        and all(abs(ln.bbox[0] - edge) <= HANG_SLACK for ln in (*hung, *lines))


#: A name's abbreviated first word ending a caption's line, its sentence going on: a
#: genus's ``Ac.`` | ``rubrum`` (PLoS Biology 2006's list of species).
_ABBREVIATED_RE = re.compile(r"(?<![\w.])[A-Z][a-z]?\.$")
#: A lowercase word after an opening bracket (not a panel's mark: ``(a) A B 1 2``).
_BRACKETED_WORD_RE = re.compile(r"[(\[][a-z]{2,}")
#: A panel's mark in brackets opening a caption's part: ``(B) Effect of``.
_PANEL_MARK_RE = re.compile(r"\(([A-Za-z])\)\s")
#: A panel's part of a legend: its capital mark in brackets, opening the text or a sentence
#: of it, before a capitalised word (``… SDs indicated. (G) Mice bearing …``).
_LEGEND_PART_RE = re.compile(r"(?:^|[.!?]\s+)\([A-Z]\)\s+[A-Z]")


def legend_rest(paras: list[Para], lines: list[Line], text: str) -> bool:
    """Whether small print at a page's foot, no note, is a figure's legend going on there
    (Cell Press sets a long legend's rest across the foot of the next page): it holds a
    panel's part (``_LEGEND_PART_RE``). When it is, the small print right before it in its
    source block (the part before's end, ``viability was …``) is made the figure's too,
    in place."""
    if not _LEGEND_PART_RE.search(text):
        return False
    last = paras[-1] if paras else None
    if last is not None and last.type == "paragraph" and last.floating and not last.footnote \
            and last.lines[-1].block == lines[0].block:
        last.type = "figure"
    return True


def next_panel(caption: str, text: str) -> bool:
    """Whether ``text`` opens with the mark of the panel after one ``caption`` describes:
    ``(B) …`` under a caption holding ``(A) …``."""
    match = _PANEL_MARK_RE.match(text)
    if match is None or match.group(1) in "aA":
        return False
    before = chr(ord(match.group(1)) - 1)
    return f"({before}) " in caption


def caption_beside(paras: list[Para], line: Line, text: str) -> Para | None:
    """The caption on this page whose first line stands level with ``line`` in the other
    column, in the same size, with its sentence left open, when ``text`` goes on in
    lowercase: a caption set across both columns (Frontiers), whose right half is read
    after the left column's body text."""
    if not text[:1].islower():
        return None
    for para in reversed(paras):
        first = para.lines[0]
        if first.page != line.page:
            return None
        if para.type not in ("figure", "table") or para.text.rstrip().endswith(SENT_END):
            continue
        if abs(first.bbox[1] - line.bbox[1]) <= 2.0 and abs(first.size - line.size) <= 0.3 \
                and line.bbox[0] >= first.bbox[2] - 2.0 \
                and all(ln.bbox[0] < line.bbox[0] for ln in para.lines):
            return para
    return None


#: Sub-figure labels (``(a) SPECTER (b) SciBERT``) sit at most this many body sizes above
#: their caption; body text never does (the figure itself is in between).
LABEL_GAP = 1.5
#: In a scan's OCR layer the next line of a caption starts at most this many body sizes
#: under the last (a caption's own line pitch; the body text after it is set further off).
SCAN_CAPTION_GAP = 0.6


def float_labels(paras: list[Para], caption: Line, body: float) -> None:
    """One-line paragraphs right above a figure caption, in its column, with no text
    right above them, are the figure's own labels: mark them floating, so no body
    paragraph is continued into them (or they into it).

    Text directly under other text is body text running down to a caption set above its
    figure (``… is plotted in`` / ``Figure 3: …``), not a label: labels sit under the
    figure's picture."""
    below = caption
    for i in range(len(paras) - 1, -1, -1):
        para = paras[i]
        line = para.lines[-1]
        if (para.type != "paragraph" or len(para.lines) > 1 or len(para.pieces) > 1
                or len(para.text.split()) > LABEL_WORDS or line.page != caption.page):
            return
        if not 0 <= below.bbox[1] - line.bbox[3] <= LABEL_GAP * body:
            return
        if line.bbox[0] >= caption.bbox[2] or line.bbox[2] <= caption.bbox[0]:
            return  # another column
        if _text_right_above(paras, i, line, LABEL_GAP * body):
            return
        para.floating = True
        below = line


def _text_right_above(paras: list[Para], before: int, line: Line, gap: float) -> bool:
    """Whether a line of ``paras[:before]`` ends within ``gap`` above ``line``, overlapping
    it horizontally, on its page."""
    for j in range(before - 1, -1, -1):  # newest first, until the page before
        para = paras[j]
        for other in para.lines:
            if (other.page == line.page and other.bbox[0] < line.bbox[2]
                    and line.bbox[0] < other.bbox[2]
                    and 0 <= line.bbox[1] - other.bbox[3] <= gap):
                return True
        if para.lines[-1].page < line.page:
            return False
    return False


#: A supporting-information item's label: ``Table S1``, ``Figure S2``, ``File S1``.
_SI_LABEL_RE = re.compile(r"(?:Table|Fig(?:ure)?\.?|File|Dataset|Data|Video|Movie|Text|Appendix|Protocol)\s+S\d+\b")
#: The file type an entry of a supporting-information list ends with (PLOS: ``(DOC)``).
_FILE_TYPE_RE = re.compile(r"\((?:DOCX?|XLSX?|PDF|TIFF?|EPS|PNG|JPE?G|ZIP|CSV|TXT|MP4|MOV|AVI|PPTX?|HTML?|XML|RAR|GZ)\)")


def is_si_entry(line: Line, lines: list[Line]) -> bool:
    """Whether a caption-like line is an entry of a supporting-information list, no float
    on the page: an ``S``-numbered label, and the entry's file type (``(DOC)``) ending a
    line of it or standing right under it (PLOS's ``Table S1 Candidate genes …`` |
    ``(DOC)``: read as a caption, its unruled table had taken the references and sections
    under it)."""
    if not _SI_LABEL_RE.match(line.text.lstrip()):
        return False
    height = max(line.bbox[3] - line.bbox[1], 1.0)
    return any(ln.page == line.page and -1.0 <= ln.bbox[1] - line.bbox[1] <= SI_REACH * height
               and _FILE_TYPE_RE.fullmatch(ln.text.strip().rsplit(" ", 1)[-1]) for ln in lines)


#: How far under an entry's first line (its heights) the entry's file type stands at most.
SI_REACH = 4.0


def text_figure_over(paras: list[Para], cur: Para) -> Para | None:
    """The paragraph ``cur`` goes on past a figure set as text at a column's top over its
    caption, which the reading order put between them; the figure's paras are typed the
    figure's, in place. TACL's Figure 1, an argument pair in the body's face (``Topic: …`` |
    ``Stance: …`` | ``Crowdsourced labels: …``) over ``Figure 1: Example argument pair …``,
    then ``ever, overwhelm a reader.``, the rest of ``… to reason about controversial
    topics … how-`` ending the column before. ``cur`` opens in lowercase right under a
    figure's caption; over the caption, in ``cur``'s column and on its page, stand only
    paras read after a paragraph left open in another column or on the page before, from
    the column's top down, the first of them no sentence's rest: those are the figure's
    (a piece read as that paragraph's rest among them is taken back, ``pop_piece``). None
    when not so, and nothing changed."""
    if not cur.text[:1].islower() or not paras:
        return None
    first = cur.lines[0]
    cap = paras[-1]
    last = cap.lines[-1]
    if cap.type != "figure" or last.page != first.page or not 0 <= first.bbox[1] - last.bbox[3] <= 3 * (
            last.bbox[3] - last.bbox[1]) or not _across(last, first):
        return None
    def over(piece: list[Line]) -> bool:  # over the caption, in cur's column, on its page
        return piece[-1].page == first.page and all(
            _across(ln, first) and ln.bbox[3] <= cap.lines[0].bbox[1] + 1.0 for ln in piece)

    inside: list[Para] = []
    at = len(paras) - 1
    for para in reversed(paras[:-1]):
        at -= 1
        lines = para.lines
        if over(lines):
            if para.type not in ("paragraph", "heading", "equation", "list") or len(para.pieces) > 1:
                return None
            inside.append(para)
            continue
        if not inside or para.type != "paragraph":
            return None
        # the figure's first block may have been read as the paragraph's rest (``… how-`` |
        # ``Topic: “William Farquhar …”``): the paragraph ends before it
        split = len(para.pieces) > 1 and over(lines[-para.spans[-1]:])
        end = para.pieces[-2][1] if split else para.text
        opening = para.pieces[-1][1] if split else inside[-1].text
        if end.rstrip().endswith(SENT_END) or opening[:1].islower():
            return None  # (the column's first words going on with it: the column's text)
        kept = lines[:-para.spans[-1]] if split else lines
        top = min(ln.bbox[1] for p in inside for ln in p.lines)
        if any(ln.page == first.page and _across(ln, first) and ln.bbox[3] <= top for ln in kept):
            return None  # (text of this column over the figure: no column's top)
        if split:
            piece = pop_piece(para)
            paras.insert(at + 1, piece)
            inside.append(piece)
        for figure in inside:
            figure.type, figure.floating = "figure", True  # the figure's own text
        return para
    return None


def _across(a: Line, b: Line) -> bool:
    """Whether two lines overlap horizontally (stand in one column)."""
    return min(a.bbox[2], b.bbox[2]) > max(a.bbox[0], b.bbox[0])
