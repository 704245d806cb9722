"""A source block's lines in paragraphs (``split_group``): where the size, the weight or
the indent changes, at a wider gap, after a sentence ended on a short line, at a list's
mark, a listing's start or end, a part's centred mark.
"""

from __future__ import annotations

import itertools
import re

from vaultd.parse.classify import CAPTION_RE, LIST_RE, all_caps, is_formula_line
from vaultd.parse.code import code_runs
from vaultd.parse.continuation import SIZE_STEP
from vaultd.parse.fontnames import is_mono_font
from vaultd.parse.front import opens_front
from vaultd.parse.headings import font_lead
from vaultd.parse.paras import SENT_END, Line, first_word_width
from vaultd.parse.plain_heads import plain_lead
from vaultd.parse.sentence_ends import ENUM_HANG_EMS
from vaultd.parse.textlayer import prose_words

#: An enumerated item's mark and the item's first word: ``4. Version``, ``(b) the``, ``iv) If``.
_ENUM_RE = re.compile(r"\s*\(?(?:\d{1,2}|[a-z]|[ivx]{1,4})[.)]\s+\w")
_NUMBERED_NOTE_RE = re.compile(r"\(?\d{1,2}\)\s+\S")
SUBSECTION_RE = re.compile(r"\d{1,2}(?:\.\d{1,2})+(?:\.?\s+[^\W\d_]|\.(?=[A-Z][a-z]))")
#: A section head's number, one deep (``2. Materials and Methods``).
_SECTION_NUMBER_RE = re.compile(r"\d{1,2}\.?\s+\S")
#: A part's bare mark: a roman numeral, a capital or a number (``II``, ``B``, ``3.``).
_PART_MARK_RE = re.compile(r"(?:[IVXL]{1,5}|[A-Z]|\d{1,2})\.?")


#: How much larger (points) a bold head is set than its text for its last line to end it
#: wherever it ends.
HEAD_STEP = 0.4
#: Fewest words of a dateline set flush right over the text (``split_group``).
DATELINE_WORDS = 2


def split_group(group: list[Line], plain: bool = False, flush: bool = False,
                indenting: bool = False) -> list[list[Line]]:
    """A block's lines in paragraphs (``plain``: the text layer has no fonts to go by;
    ``flush``: the document is known to set its paragraphs flush, parting them by space;
    ``indenting``: it sets their first lines in). A sentence ended on a short line ends
    its paragraph, unless the next line's first word would not have fitted on that line
    and the next line opens no paragraph as the document sets them: in one set flush (an
    EPA fact sheet's ragged sidebar: ``enhance public health.`` | ``Decision-makers and
    analysts …``, one paragraph), or in one that indents them, set flush (the Federal
    Register's ragged columns: ``… is listed above.`` | ``Comments will be …``)."""
    left, right, width = block_extent(group)
    hanging = {id(ln) for ln, after in itertools.pairwise(group)
               if ln.bbox[0] < after.bbox[0] - 0.6 * max(ln.size, 1.0) and _ENUM_RE.match(ln.text)}
    if hanging:
        # an enumerated list's marks hang out left of its text: the text's edge is the left
        left = min(ln.bbox[0] for ln in group if id(ln) not in hanging)
    if len(group) > 1 and group[0].mixed \
            and group[0].bbox[0] < min(ln.bbox[0] for ln in group[1:]) - 2.0 * max(group[0].size, 1.0):
        # a label set out in a column of its own on the first line (PracTeX's ``Abstract``
        # left of its text): the text's lines start further in, and are not indented
        left = min(ln.bbox[0] for ln in group[1:])
    code = code_runs(group)
    paras: list[list[Line]] = [[group[0]]]
    for k, (prev, cur) in enumerate(itertools.pairwise(group)):
        height = max(prev.bbox[3] - prev.bbox[1], 1.0)
        ends = prev.text.rstrip().endswith(SENT_END)
        new = (
            (abs(cur.size - prev.size) > SIZE_STEP and not (_inline_code(prev) or _inline_code(cur))
             and (ends or not _inline_caps(prev, cur)))
            # (a line mostly bold that opens in the text's face in lowercase is a sentence
            # going on through a bold run: the Federal Register's ``in the FOR FURTHER …``;
            # not a bold head's second line, under its first: MBoC's ``DIFFRAC identifies …``
            # | ``in IFT-A-null`` *Tetrahymena*, bold and bold oblique)
            or (prev.bold and not cur.bold and prev.bbox[2] < right - 0.2 * width
                and not (prev.mixed and prev.text[:1].islower()
                         and not (len(paras[-1]) >= 2 and paras[-1][-2].bold and not paras[-1][-2].mixed)))
            # a bold head's last line, set a little larger, over its text in a capital
            # however far it runs (MBoC's ``Detection of proteins … altered in`` *Ift122*
            # ``mutants`` in 9 pt over ``To identify …`` in 8.5 pt)
            or (prev.bold and not cur.bold and not ends and prev.size >= cur.size + HEAD_STEP
                and cur.text[:1].isupper())
            # an italic numbered subsection head on a line of its own (``4.1 Formatting
            # your paper``, Philosophers' Imprint), the text under it upright
            or (prev.italic and not cur.italic and prev.bbox[2] < right - 0.2 * width
                and bool(SUBSECTION_RE.match(prev.text)))
            # a dateline set flush right in italics over the text (Eurostat's ``Data extracted:
            # 4 August 2023`` | ``Planned article update: …`` | the lead paragraph)
            or (prev.italic and not cur.italic and prev.bbox[0] > left + 0.3 * width
                and prev.bbox[2] >= right - 0.02 * width and cur.bbox[0] <= left + 0.5 * max(cur.size, 1.0)
                and prose_words(prev.text) >= DATELINE_WORDS and not is_formula_line(prev.text))
            # a bold subsection head numbered under the bold section head over it, in one
            # block (acmart's ``2 Background and Related Work`` | ``2.1 Mobile Malware …``)
            or (prev.bold and cur.bold and bool(SUBSECTION_RE.match(cur.text)))
            # (MDPI's italic subsection head under its bold section head: ``2. Materials and
            # Methods`` | ``2.1. Study Design``)
            or (prev.bold and cur.italic and not cur.bold and bool(_SECTION_NUMBER_RE.match(prev.text))
                and bool(SUBSECTION_RE.match(cur.text)))
            # a bold head in capitals over a bold head in upper and lower case, in one block
            # (BMJ's ``METHODS`` | ``Study design and participants``): a section and its first
            # subsection
            or (prev.bold and cur.bold and len(paras[-1]) == 1 and prev.bbox[2] < right - 0.2 * width
                and all_caps(prev.text) and cur.text[:1].isupper() and not all_caps(cur.text))
            or cur.bbox[1] - prev.bbox[3] > 0.9 * height
            or cur.bbox[1] < prev.bbox[1] - height  # jumped back up: a new column
            # up a little, into a column left of the line before, a gutter apart (ONS's
            # ``Release date:`` left of ``Next release:`` | ``18 June 2025``, one block)
            or (cur.bbox[1] < prev.bbox[1] - 0.5 * height and cur.bbox[2] < prev.bbox[0] - max(cur.size, 1.0))
            or (ends and cur.bbox[0] > left + 0.6 * max(cur.size, 1.0) and not _item_hang(paras[-1], cur))
            # (a line cut short because the next line's first word would not fit on it: in
            # a document set flush, after a sentence's end; anywhere after a field's colon
            # when that word is an identifier or an address, Pensoft's ``occurrenceID:`` |
            # ``9ED79705-3492-5687-…``)
            or (ends and prev.bbox[2] < (edge := _measure_right(paras[-1], right)) - 0.12 * width
                and not ((((flush or (indenting and cur.bbox[0] <= left + 0.6 * max(cur.size, 1.0)
                                       and _ragged_prose(paras[-1], cur)))
                           and prev.text.rstrip().endswith((".", "!", "?")))
                          or (prev.text.rstrip().endswith(":") and len(cur.text.split(None, 1)[0]) >= LONG_TOKEN))
                         and prev.bbox[2] + first_word_width(cur) > edge))
            or (bool(LIST_RE.match(cur.text.lstrip())) and not _dash_in_prose(paras[-1], cur, right, width))
            # an enumerated item hanging out left of the line before, after a sentence's end
            # (pandoc's ``4. Version control …`` under item 3's last line)
            or (ends and cur.bbox[0] < prev.bbox[0] - 0.6 * max(cur.size, 1.0) and bool(_ENUM_RE.match(cur.text)))
            # or, whatever the line before ends on, at the mark of the item it goes on, or
            # out left of every line of the para before (Pensoft's ``b.`` under item a.'s
            # occurrence ID, or under item a.'s rest atop the page)
            or (cur.bbox[0] < prev.bbox[0] - 0.6 * max(cur.size, 1.0) and _enumerated(cur.text)
                and ((_enumerated(paras[-1][0].text) and abs(cur.bbox[0] - paras[-1][0].bbox[0]) <= 1.0)
                     or (len(paras[-1]) >= 2
                         and cur.bbox[0] < min(ln.bbox[0] for ln in paras[-1]) - 0.6 * max(cur.size, 1.0))))
            # a note or item numbered "2)" after a line that stops short: the one before
            # ended, whether or not its script ends sentences with a full stop (Korean)
            or (prev.bbox[2] < right - 0.12 * width and bool(_NUMBERED_NOTE_RE.match(cur.text.lstrip())))
            or (len(paras[-1]) == 1 and font_lead(prev, cur))
            or (len(paras[-1]) == 2 and two_line_lead(paras[-1], cur))
            # a part's mark centred over its text (a court opinion's ``A`` | ``The Red …``)
            or (len(paras[-1]) == 1 and part_mark(prev, cur, left, right))
            or (plain and len(paras[-1]) == 1 and plain_lead(prev, cur, right, width))
            or code[k] != code[k + 1]  # a program's listing starts or ends
            # a front-matter label in a face of its own after a line that stops short
            # (eLife's ``Competing interests:`` and ``Published`` under the author's note)
            # (or after a sentence's end: a thesis's ``Palavras-chave:`` under its abstract)
            or (cur.mixed and (prev.bbox[2] < right - 0.12 * width or ends) and opens_front(cur.text))
            # a caption's lines start where its first does or further in (centred, hanging):
            # after its sentence, a line further out is the column's text under a centred
            # full-width caption, which MuPDF put in the caption's block (CEUR)
            or (ends and cur.bbox[0] < paras[-1][0].bbox[0] - 0.6 * max(cur.size, 1.0)
                and bool(CAPTION_RE.match(paras[-1][0].text)))
        )
        if new:
            paras.append([cur])
        else:
            paras[-1].append(cur)
    return paras


def two_line_lead(lead: list[Line], cur: Line) -> bool:
    """Whether a block's first two lines are a head wrapped in a face of its own over the
    text (BMC's ``Boosting procedure to enhance the robustness of`` | ``DeepProg`` over
    ``To obtain a more robust model, …``, one block): one face and size, neither line set
    in two, words only (no figure, no caption), opening with a capital, the second line
    shorter than the first, a few words in all. Split off as a one-line lead is
    (``font_lead``); ``font_headings`` decides."""
    first, second = lead
    text = f"{first.text} {second.text}"
    return (first.font == second.font and abs(first.size - second.size) <= 0.1 and not first.mixed
            and first.text[:1].isupper() and not any(c.isdigit() for c in text) and not CAPTION_RE.match(text)
            and second.bbox[2] < first.bbox[2] and len(text.split()) <= LEAD_WORDS and font_lead(second, cur))


#: Most words of a head wrapped over two lines (``two_line_lead``).
LEAD_WORDS = 16


def _item_hang(para: list[Line], cur: Line) -> bool:
    """Whether ``cur`` stands at the hang of the bulleted item ``para`` opens (its text's
    edge, the mark's width in from it: 0.6 to 2.5 ems, as its lines after the first
    stand), opening no item: the item's next sentence (Eurostat's ``• In the upper and
    lower right quadrants … decrease in the growth rate.`` | ``In the first quadrant, …``),
    not a paragraph after the list, which stands at the list's left."""
    first = para[0]
    em = max(first.size, 1.0)
    # (or an enumerated item, its mark at a tab stop up to four ems out: Pensoft's
    # ``a.`` | ``country: Italy; …`` over lines ending on a field's colon, ``day:``)
    bulleted = LIST_RE.match(first.text.lstrip()) is not None
    if not (bulleted or _enumerated(first.text)) or LIST_RE.match(cur.text.lstrip()) or _enumerated(cur.text):
        return False
    hang = cur.bbox[0] - first.bbox[0]
    return 0.6 * em <= hang <= (2.5 if bulleted else ENUM_HANG_EMS) * em \
        and all(abs(ln.bbox[0] - cur.bbox[0]) <= 1.0 for ln in para[1:])


#: Fewest characters of a word no line breaks (an identifier, a web address).
LONG_TOKEN = 16
#: An enumerated item's mark alone on its line (its text a line of its own at a tab stop;
#: a number in brackets alone is a formula's, ``(4)``).
_BARE_ENUM_RE = re.compile(r"(?:\d{1,2}|[a-z]|[ivx]{1,4})[.)]|\((?:[a-z]|[ivx]{1,4})\)")


def _enumerated(text: str) -> bool:
    """Whether a line opens an enumerated item: its mark and text, or its mark alone."""
    return _ENUM_RE.match(text) is not None or _BARE_ENUM_RE.fullmatch(text.strip()) is not None


def _measure_right(para: list[Line], right: float) -> float:
    """The right edge of the measure ``para``'s last line is set to: the block's, or where
    the lines before it end together, narrower, when the text runs round a figure beside
    it (an EPA fact sheet's paragraph beside its map, then under it across the page)."""
    before = para[-MEASURE_LINES - 1:-1]
    if len(before) < MEASURE_LINES:
        return right
    ends = [ln.bbox[2] for ln in before]
    return max(ends) if max(ends) - min(ends) <= 2.0 * max(para[-1].size, 1.0) else right


#: Lines that end together before a paragraph's line show the measure it is set to.
MEASURE_LINES = 3


def _dash_in_prose(para: list[Line], cur: Line, right: float, width: float) -> bool:
    """Whether ``cur`` opens with a dash that goes on the sentence of the full line above it
    (GAO's ``… deal with the real problem`` | ``– poor performance, …``): that line runs
    to the block's right edge and ends neither a sentence nor a lead-in (``:``), and the
    lines above it are no list's (none opens with a mark)."""
    prev = para[-1]
    return cur.text.lstrip().startswith("–") and prev.bbox[2] >= right - 0.12 * width \
        and not prev.text.rstrip().endswith((*SENT_END, ":")) \
        and not any(LIST_RE.match(ln.text.lstrip()) for ln in para)


def part_mark(mark: Line, text: Line, left: float, right: float) -> bool:
    """Whether ``mark`` is a part's bare mark (a roman numeral, a capital, a number)
    centred on a line of its own between ``left`` and ``right`` over the line of prose
    ``text``, in its face: a court opinion's ``I`` | ``A`` | ``The Red River …`` (a
    matrix's bracket pieces, a fraction's numerator are none)."""
    return bool(_PART_MARK_RE.fullmatch(mark.text.strip())) and mark.font == text.font \
        and abs(mark.bbox[0] + mark.bbox[2] - left - right) <= 4.0 * max(mark.size, 1.0) \
        and prose_words(text.text) >= 3


def _inline_caps(prev: Line, cur: Line) -> bool:
    """Whether a change of size after a line that ends no sentence is a run of capitals in
    another face inside the sentence (the Federal Register's ``… the person identified`` |
    ``in the FOR FURTHER INFORMATION`` | ``CONTACT section. Any …``, its small capitals in
    7.3 pt Helvetica among 9 pt Melior): the line after it, set in two faces, goes on in
    lowercase, set smaller (its longest run the capitals'), or opens with the run's next word
    in capitals after a line set in two faces, set larger again. (A line's size is its
    longest run's; a title under a label it is not: it would not go on in lowercase.)"""
    first = cur.text.split(None, 1)[0] if cur.text.strip() else ""
    return cur.mixed and prose_words(cur.text) >= 2 and (
        (first[:1].islower() and cur.size < prev.size and prose_words(prev.text) >= 3)
        or (prev.mixed and cur.size > prev.size and first.isalpha() and first.isupper() and len(first) >= 2
            and prose_words(prev.text) >= 2))


def _ragged_prose(para: list[Line], cur: Line) -> bool:
    """Whether ``para``, its last line ending a sentence, is prose set ragged right and
    ``cur`` a sentence of it: two lines or more over the last, ending over an em apart (a
    justified column's lines end together), the last line's sentence ending on a word and
    the next one opening in a capital and going on in lowercase words (the Federal
    Register's ``… Docket Operations is listed above.`` | ``Comments will be available in
    the AD``; not a footnote's, a glossary's or a list's next entry: no run-in label, not
    hanging out left of the lines over it)."""
    if len(para) < 3 or not _WORD_STOP_RE.search(para[-1].text.rstrip()) or cur.lead \
            or cur.bbox[0] < min(ln.bbox[0] for ln in para[1:]) - 0.5 * max(cur.size, 1.0):
        return False
    ends = [ln.bbox[2] for ln in para[:-1]]
    return max(ends) - min(ends) > max(cur.size, 1.0) and cur.text[:1].isupper() \
        and prose_words(cur.text) >= 3


#: A sentence's end on a word in lowercase letters (not an address's, an initial's or a
#: formula's).
_WORD_STOP_RE = re.compile(r"[^\W\d_]{3}[.!?]$")


def _inline_code(line: Line) -> bool:
    """A prose line whose longest run is a URL, a path or an address set in a smaller
    typewriter face (Elsevier's ``at Elsevier (http://www.elsevier.com/locate/latex).
    The``): its size is that run's, not the text's, so a change of size ends no paragraph
    there. (A macro's name in a manual's margin, ``\acmConference``, is no such run.)"""
    return line.mixed and is_mono_font(line.font) and ("/" in line.text or "@" in line.text)


def block_extent(group: list[Line]) -> tuple[float, float, float]:
    """A block's left and right edges and its width."""
    left = min(ln.bbox[0] for ln in group)
    right = max(ln.bbox[2] for ln in group)
    return left, right, max(right - left, 1.0)
