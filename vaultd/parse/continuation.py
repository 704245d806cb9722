"""Whether a piece of text goes on with the paragraph before it: across a column or page
break, a stacked fraction, a superscript set as a block of its own; and the formula scraps
that go on with nothing. (A heading-like line that is a sentence's start, and a line's rest
split off at a baseline shift: ``vaultd.parse.sentence_pieces``.)
"""

from __future__ import annotations

import re

from vaultd.parse.classify import cjk_letters, is_prose, lower_words, opens_item
from vaultd.parse.enumerators import next_inline_mark
from vaultd.parse.front import EMAIL_RE
from vaultd.parse.paras import LOWER_WORD_RE, SENT_END, Line, Para, first_word_width
from vaultd.parse.sentence_ends import (
    ACRONYM_RE,
    ARTICLES,
    ENUM_HANG_EMS,
    INDEX_LEAD_RE,
    ITEM_RE,
    NOTE_END_RE,
    NOTE_MARKS,
    OPEN_WORDS,
    QUANTITY_RE,
    RUNNING_HEAD_RE,
    closed_sentence,
    two_heads,
)
from vaultd.parse.sentence_pieces import capital_goes_on

#: A change of size (pt) between two lines that ends a paragraph inside a block
#: (``block_paras.split_group``), and keeps an acronym from continuing one.
SIZE_STEP = 0.8
#: A paragraph's sentence goes on in its own size: not into print this much smaller.
SMALLER_PRINT = 0.88


def _dash_goes_on(prev: Para, cur: Para) -> bool:
    """Whether a line opened by a dash, read as a list's item, goes on the sentence of the
    paragraph's full last line right over it, flush with it (a Brazilian law journal's ``…
    redução das emissões de GEE`` | ``– compliance ambiental.``, MuPDF's block of its own)."""
    if prev.type != "paragraph" or cur.type != "list" or not cur.text.lstrip().startswith(("–", "—")):
        return False
    last, first = prev.lines[-1], cur.lines[0]
    right = max(ln.bbox[2] for ln in prev.lines if ln.page == last.page)
    left = min(ln.bbox[0] for ln in prev.lines if ln.page == last.page)
    return first.page == last.page and not last.text.rstrip().endswith((*SENT_END, ":", ";")) \
        and last.bbox[2] >= right - DASH_FULL * (right - left) and abs(first.bbox[0] - left) <= max(first.size, 1.0) \
        and 0.0 <= first.bbox[1] - last.bbox[3] <= 2.0 * max(last.bbox[3] - last.bbox[1], 1.0)


#: A paragraph's line is full when it ends this share of its width from its right edge.
DASH_FULL = 0.05


def continues(prev: Para, cur: Para, ragged: bool = False, indenting: bool = False, top: bool = False) -> bool:
    """Whether ``cur`` goes on with the paragraph or list item ``prev`` (CHI's bullet item
    ``… If I were to write`` | ``a literature review, it would be …`` in the next column).
    ``ragged``: the document is a double-spaced manuscript set ragged right, its
    paragraphs told apart by their indent alone (``ragged_indented``): a flush line at the
    next column's or page's top goes on with the paragraph before, whatever it opens with.
    ``indenting``: the document indents its paragraphs' first lines (``indents_paragraphs``),
    so a flush line at a column's top goes on with a paragraph that shows no indent of its
    own (a section's first). ``top``: ``cur`` is the first text of its column
    (``resume.column_top``)."""
    if _dash_goes_on(prev, cur):
        return True
    if prev.type not in ("paragraph", "list") or not (cur.type == "paragraph" or _bracketed_rest(prev, cur)):
        return False
    if _closes_bracket(prev, cur):
        return True
    if cur.lines[0].lead_mark:
        return False  # a note opened by its raised mark (a table's ``ᵃ The given strain …``)
    if _next_letter_item(prev, cur):
        return False  # ``b. country: …`` after the item ``a. country: … 9ED79705-…``: the list's next item
    if _item_goes_on(prev, cur):
        return True
    if prev.text.rstrip().endswith(SENT_END) or _MARKED_END_RE.search(prev.text.rstrip()):
        # (a sentence's stop with a note's mark after it ends it too: a Word paper's
        # ``… during the interwar period.2``, over the next paragraph's indented line)
        if not abbreviation_goes_on(prev.text, cur.text):
            if _colon_line_goes_on(prev, cur) or _bracket_goes_on(prev, cur) or _colon_goes_on_over(prev, cur):
                return True
            return prev.type == "paragraph" and _unindented_column_top(prev, cur, ragged, indenting,
                                                                      top=top)
        if prev.text.rstrip().endswith(" et al.") or _INITIALS_RE.search(prev.text.rstrip()):
            # a citation broken after its ``et al.`` (``(Fuchs et al.`` | ``1995, Tek …``),
            # a name's initials before its verb; after ``e.g.`` the sentence goes on as
            # after any open word (below)
            return not opens_item(cur.text)
    if prev.type == "paragraph" and not closed_sentence(prev.text) and not two_heads(prev, cur) \
            and _unindented_column_top(prev, cur, ragged, indenting, open_sentence=True) \
            and not opens_item(cur.text):
        # a sentence left open on a full last line, going on flush at the next column's or
        # page's top, whatever its first word (CEUR's ``… recognition and other`` | a
        # full-width table | ``NLP tasks. Results show …``; a NASA report's block
        # paragraphs, indented or not), but not a list's item
        return True
    if ("@" in prev.text and lower_words(prev.text.split()) == 0) or EMAIL_RE.fullmatch(cur.text.strip()):
        # an author's address, an e-mail among words none in lowercase ("NUST, Pakistan
        # shouzib@yahoo.com"): no sentence to go on; nor one going on into
        # an author's e-mail address alone (CVPR's ``identi-`` | ``pande@stanford.edu``)
        return False
    first = cur.text[:1]
    tail = _NOTE_MARK_RE.sub("", prev.text.rstrip())  # "… like arXiv,2" goes on as "… arXiv,"
    if tail.endswith("-") and len(tail) > 1 and tail[-2].isalpha() and first.isalpha() \
            and not cjk_letters(first) and cur.lines[0].size >= SMALLER_PRINT * prev.lines[-1].size:
        # a word split at the column or page break: SCI- / ENCEPARSE (in its own size: not
        # CIDR's ``Fig-`` | a 7 pt listing atop the next column, over ``ure 2 defines …``)
        return True
    last_word = tail.rsplit(None, 1)[-1]
    if last_word in OPEN_WORDS and ACRONYM_RE.match(cur.text) \
            and abs(cur.lines[0].size - prev.lines[-1].size) <= SIZE_STEP:
        # "… method 1 for" | "LC-DAD-TOF was used": no sentence ends on "for"; but an
        # author's address in another size ("how to" | "NUST, Pakistan") is no sentence's
        return True
    if first.isdigit() and not ITEM_RE.match(cur.text) and (
            (last_word in ARTICLES and is_prose(prev.text) and not RUNNING_HEAD_RE.match(cur.text))
            or (last_word in OPEN_WORDS and QUANTITY_RE.match(cur.text))):
        # "Each isolate was grown in" | "100 ml of MGYP medium"; "as highlighted in a" |
        # "2013 WHO Director-General's report" (in prose an article never ends a sentence;
        # "ds a" | "1" is a formula's variable, "the" | "318 IEEE TRANSACTIONS" a page's head)
        return True
    if capital_goes_on(prev, cur, tail):
        return True
    if cjk_letters(tail[-1:]) and cjk_letters(first) and _at_next_top(prev, cur) and is_prose(prev.text):
        return True  # Chinese broken anywhere, even inside a word, at a page's foot: 编 | 译论文
    if _next_item(prev, cur):
        return True
    if cur.lines[0].size < SMALLER_PRINT * prev.lines[-1].size and cur.lines[0].page > prev.lines[-1].page \
            and not cur.lines[0].mono:  # (inline code is often set smaller)
        return False  # small print in lowercase atop the next page: a caption's rest (PLOS)
    if len(cur.lines) >= 2 and all(ln.mono for ln in cur.lines[:3]) and not prev.lines[-1].mono \
            and cur.lines[0].size < SMALLER_PRINT * prev.lines[-1].size:
        return False  # a listing set smaller (CIDR's ``module DeliveryProtocol`` atop the next column)
    if prev.text[:1] in NOTE_MARKS and all(ln.size < SMALLER_PRINT * cur.lines[0].size for ln in prev.lines):
        return False  # the text under a float's note, set small and opened by its sign
        # (Veterinary World's table note ``*Feed additives … BIS (2007)`` over ``purchased
        # from the local market.``)
    # a word in quotation marks goes on as the word would (``These are called`` | a
    # full-width figure | ``“small multiples” by Tufte.``)
    quoted = cur.text.lstrip(_OPENING_QUOTES)[:1] if first in _OPENING_QUOTES else ""
    return first.islower() or quoted.islower() or (first in ",;)" and first != "") \
        or bool(INDEX_LEAD_RE.match(cur.text)) or next_inline_mark(prev.text, cur.text)


def _bracket_goes_on(prev: Para, cur: Para) -> bool:
    """Whether a paragraph ending on a colon inside a bracket it left open goes on with a
    line opening with a figure or in lowercase, no list's item (``… (risk difference:
    −11%, 95% CI:`` | ``26 to 3.4; …``, its minus lost to the text layer), or ending on an
    abbreviation's stop inside one (``_ABBREVIATION_RE``), with a line in lowercase (a
    court's citation ``Zink v. State, 278 S.W.3d 170, 176 (Mo.`` | ``banc 2009).``): no
    sentence ends inside a bracket."""
    tail = prev.text.rstrip()
    first = cur.text[:1]
    if prev.type != "paragraph" or not (
            (tail.endswith(":") and (first.isdigit() or first.islower()))
            or (tail.endswith(".") and first.islower() and _ABBREVIATION_RE.search(tail))) \
            or ITEM_RE.match(cur.text) or not is_prose(prev.text):
        return False
    last = tail[-OPEN_BRACKET_REACH:]
    return last.count("(") > last.count(")") and not any(c in last for c in _CODE_MARKS)


#: A short word's stop, an abbreviation's (``(Mo.``, ``App.``, ``L.``), not a number's
#: (``see section 13.``).
_ABBREVIATION_RE = re.compile(r"(?:^|[\s(])[^\W\d_]{1,4}\.$")
#: Marks of a formula or a program's line, not of a sentence (an R call's ``~``, ``<-``).
_CODE_MARKS = "~<>=+{}"


#: How far back (characters) a bracket left open is looked for.
OPEN_BRACKET_REACH = 120


def _bracketed_rest(prev: Para, cur: Para) -> bool:
    """Whether ``cur``, typed a formula for its figures, is a sentence's bracketed rest at
    the next column's or page's top: it opens with ``(``, ends the sentence, and the
    paragraph before is left open on a word (MMWR's ``… compared with those during
    2016–2018: Enteritidis`` | ``(IRR = 0.88, 95% CrI = 0.79–0.97) and I 4,[5],12:i:- (IRR
    = 0.69, …).``)."""
    text, tail = cur.text.strip(), prev.text.rstrip()
    return cur.type == "equation" and (_closes_bracket(prev, cur) or (
        text.startswith("(") and text.endswith((".", ".)")) and tail[-1:].isalpha() and len(text.split()) >= 4
        and _at_next_top(prev, cur)))


#: A list item's letter mark opening a text (``b. ``, ``c) ``).
_LETTER_ITEM_RE = re.compile(r"\s*\(?([a-z])[.)]\s")


def _next_letter_item(prev: Para, cur: Para) -> bool:
    """Whether ``cur`` opens with the letter mark after the one ``prev`` opens with (``b.``
    after ``a.``): the next item of a lettered list, whatever the item before ends on."""
    mark = _LETTER_ITEM_RE.match(cur.text)
    if mark is None or mark.group(1) == "a":
        return False
    before = _LETTER_ITEM_RE.match(prev.text)
    return before is not None and ord(before.group(1)) == ord(mark.group(1)) - 1


#: How far apart (points) an item's hanging lines and its rest atop the next page may start.
HANG_SLACK = 1.5


def _item_goes_on(prev: Para, cur: Para) -> bool:
    """Whether ``cur``, at the next column's or page's top, is the rest of the enumerated
    item ``prev``: it starts where the item's lines after its mark hang, right of the
    mark, and opens no item, whatever the item's last line ended on (Pensoft's material
    citation ``a. … identifiedBy: F.`` | ``Di Giovanni; dateIdentified: …``, ``… day:`` |
    ``17; individualCount: 1; …``)."""
    first, head = prev.lines[0], cur.lines[0]
    # (or an item's lead ending on a colon, its text under it at its hang, on its page too:
    # a CDC guide's ``• To download … version 2:`` | ``Go to the combined … Web page …``)
    last = prev.lines[-1]
    colon = prev.text.rstrip().endswith(":")
    right_under = head.page == last.page and 0.0 <= head.bbox[1] - last.bbox[3] <= last.bbox[3] - last.bbox[1]
    if not (ITEM_RE.match(prev.text) or _LETTER_ITEM_RE.match(prev.text)) or ITEM_RE.match(cur.text) \
            or not ((colon and right_under) or _at_next_top(prev, cur)) or head.page > last.page + 1:
        return False  # (on the next page, not past a page of figures; on its page, right under it)
    em = max(first.size, 1.0)
    hung = [ln.bbox[0] for ln in prev.lines[1:]]
    if not hung:
        # an item of one line, its sentence left open (or announcing its text): its rest
        # stands a mark's width in (a bullet's, up to four ems)
        x = cur.lines[0].bbox[0]
        return (colon or not closed_sentence(prev.text)) and first.bbox[0] + 0.6 * em <= x <= first.bbox[0] + ENUM_HANG_EMS * em \
            and all(abs(ln.bbox[0] - x) <= HANG_SLACK for ln in cur.lines)
    if max(hung) - min(hung) > HANG_SLACK or min(hung) < first.bbox[0] + 0.6 * em:
        return False
    return all(abs(ln.bbox[0] - hung[0]) <= HANG_SLACK for ln in cur.lines)


def _closes_bracket(prev: Para, cur: Para) -> bool:
    """Whether ``cur``, at the next column's or page's top, ends a bracket the paragraph
    before left open, and its sentence with it (``… among the studies (P =`` | ``0.000).``
    atop the next page's left column, under a figure)."""
    text, reach = cur.text.strip(), prev.text.rstrip()[-OPEN_BRACKET_REACH:]
    return reach.count("(") > reach.count(")") and text.count(")") > text.count("(") \
        and text.endswith((").", ");", "),")) and _at_next_top(prev, cur)


_NUMBERED_RE = re.compile(r"(?:^|\s)(\d{1,2})[.)]\s")


def _colon_line_goes_on(prev: Para, cur: Para) -> bool:
    """Whether a line in lowercase right under a list item's line ending in a colon, at its
    left edge, goes on with the item's sentence (an ICML paper's bullet item ``… highly
    model-specific:`` | ``grok-voice loses 38% …``, MuPDF's block cut where a typewriter
    word opens the line). After a paragraph's colon come listings, definitions and
    addresses, which stay apart."""
    if prev.type != "list" or not prev.text.rstrip().endswith((":", "：")) or not cur.text[:1].islower() \
            or opens_item(cur.text):
        return False
    last, first = prev.lines[-1], cur.lines[0]
    height = max(last.bbox[3] - last.bbox[1], 1.0)
    return last.page == first.page and abs(first.bbox[0] - last.bbox[0]) <= 2.0 \
        and -1.0 <= first.bbox[1] - last.bbox[3] <= 0.8 * height and abs(first.size - last.size) <= 0.5


def _colon_goes_on_over(prev: Para, cur: Para) -> bool:
    """Whether a paragraph's sentence ending its column in a colon goes on in lowercase at
    the next column's or page's top, in its size (F1000's ``… two common tasks provided by
    the data sources:`` | ``name search and name resolution.``), not as a list's item, its
    colon ending a full line."""
    if prev.type != "paragraph" or not prev.text.rstrip().endswith((":", "：")) or not cur.text[:1].islower() \
            or opens_item(cur.text) or EMAIL_RE.match(cur.text) or not _at_next_top(prev, cur) \
            or abs(cur.lines[0].size - prev.lines[-1].size) > 0.5:
        return False
    piece = last_column(prev)
    last = prev.lines[-1]
    # (its colon ends a full line, the column's end, not a line of its own: what a colon
    # ending a paragraph announces, a list or definitions, stands apart)
    return len(piece) >= 2 and last.bbox[2] >= max(ln.bbox[2] for ln in piece) - FULL_SLACK_EMS * max(last.size, 1.0)


def _at_next_top(prev: Para, cur: Para) -> bool:
    """Whether ``cur`` starts on a later page than ``prev`` ends, or higher on its page (the
    next column's top)."""
    last, head = prev.lines[-1], cur.lines[0]
    return head.page > last.page or head.bbox[1] < last.bbox[1]


def _next_item(prev: Para, cur: Para) -> bool:
    """A numbered enumeration run on in one paragraph going on at the next column's or
    page's top with its next number (Elsevier's ``… 3. fleqn.clo for left aligned
    equations;`` | ``4. graphicx.sty for graphics inclusion; …``, footnotes between)."""
    if not _at_next_top(prev, cur):
        return False
    numbers = _NUMBERED_RE.findall(prev.text)
    start = _NUMBERED_RE.match(cur.text)
    return len(numbers) >= 2 and start is not None and int(start.group(1)) == int(numbers[-1]) + 1


def last_column(para: Para) -> list[Line]:
    """The lines of ``para``'s last piece: on its last page, in its last line's column."""
    last = para.lines[-1]
    return [ln for ln in para.lines if ln.page == last.page and ln.bbox[0] < last.bbox[2] and last.bbox[0] < ln.bbox[2]]


#: A word's stop with a note's mark after it (``period.2``; not a number's ``3.2``).
_MARKED_END_RE = re.compile(r"[^\W\d_][)\]”\"’]?[.!?][)\]”\"’]?(?:\d{1,3}|[*†‡§¶])$")
#: Opening quotation marks a sentence's next word may start with.
_OPENING_QUOTES = "“‘«„\"'"


#: Abbreviations that end no sentence before what follows them: ``et al.`` before a year,
#: a bracket, a comma or a lowercase word (``Ell et al.`` | ``(1998); Snoke (2002).``),
#: and the Latin ones that introduce something (``e.g.``, ``i.e.``, ``cf.``) before anything.
_LATIN = (" e.g.", " i.e.", " cf.", " viz.", "(e.g.", "(i.e.", "(cf.")


def abbreviation_goes_on(text: str, after: str) -> bool:
    """Whether ``text`` ends on an abbreviation whose sentence goes on in ``after``."""
    tail = text.rstrip()
    if not tail.endswith("."):
        return False
    first = after.lstrip()[:1]
    if tail.endswith(_LATIN):
        return bool(first) and not ITEM_RE.match(after.lstrip())
    if _INITIALS_RE.search(tail):
        # a name's initials, ``D.B.`` | ``was funded by …``: a sentence's subject
        return LOWER_WORD_RE.match(after.lstrip()) is not None
    return tail.endswith(" et al.") and (first in ("(", ",", ";") or first.isdigit() or first.islower())


#: A name's initials ending a text (``… grant RGP34/2018. D.B.``, ``(J.R.R.``).
_INITIALS_RE = re.compile(r"(?:^|[\s(])(?:[A-Z]\.){2,4}$")


#: A footnote's mark after a word's comma or semicolon, ending a column's last line
#: (``Digital archives like arXiv,2`` | ``PubMed Central,3 CiteSeerX …``).
_NOTE_MARK_RE = re.compile(r"(?<=[^\W\d_][,;])(?:\d{1,2}|[*†‡§¶])$")


#: How far (in ems) a paragraph's first line is set in from its others to count as indented.
INDENT_EMS = 0.6


def _unindented_column_top(prev: Para, cur: Para, ragged: bool = False, indenting: bool = False,
                           open_sentence: bool = False, top: bool = False) -> bool:
    """A paragraph whose last sentence ended with its column's last line, full to the
    right edge, going on at the next column's top with a line set flush, in a document
    that indents its paragraphs' first lines (the paragraph before shows it): ApJ's
    ``… listed in Table 1.`` | ``An azimuthal average was calculated …``.
    ``open_sentence``: the paragraph's last sentence is left open, so the flush line goes
    on with it in a document that sets its paragraphs flush too. ``top``: ``cur`` is its
    column's first text, the paragraph ended its column justified (below)."""
    if not _at_next_top(prev, cur):
        return False  # not at the top of the next column or page
    last, head = prev.lines[-1], cur.lines[0]
    piece = last_column(prev)
    if abs(head.size - last.size) > SIZE_STEP:
        return False
    if len(piece) < 2:
        # a sentence left open on a paragraph's one line at a page's foot, its first line
        # (indented), full to the measure of the text atop the next page, set flush there
        # (a working paper's ``A further concern is … the empirical evidence`` | a figure |
        # ``I use to discipline …``)
        em = max(last.size, 1.0)
        under = [ln for ln in cur.lines[1:3] if ln.page == head.page]
        return open_sentence and abs(last.bbox[2] - head.bbox[2]) <= FULL_SLACK_EMS * em \
            and last.bbox[0] >= head.bbox[0] + INDENT_EMS * em \
            and head.bbox[2] - head.bbox[0] >= FULL_LINE_EMS * em \
            and (not under or head.bbox[0] <= min(ln.bbox[0] for ln in under) + 0.2 * em)
    em = max(last.size, 1.0)
    right = max(ln.bbox[2] for ln in piece)
    left = min(ln.bbox[0] for ln in prev.lines[1:] if ln.page == prev.lines[0].page) \
        if len(prev.lines) > 1 and prev.lines[1].page == prev.lines[0].page else None
    indents = indenting or (left is not None and prev.lines[0].bbox[0] >= left + INDENT_EMS * em)
    # set ragged right, a line is full when the next word would not have fitted on it: a
    # sentence ended there goes on where paragraphs show their indent (PeerJ's ``… in the
    # Selectome database.`` | a table's pages | ``However, the results …`` set flush)
    full = last.bbox[2] >= right - FULL_SLACK_EMS * em or (
        (open_sentence or indents) and _ragged_full(piece, cur, right, closed=not open_sentence))
    # justified, a line full to the edge ends a paragraph seldom (its last line is most
    # often short): a sentence ended there at a column's foot goes on at the next top in a
    # document that sets its paragraphs flush and apart too (LIBREAS's ``… Selbst-
    # Präsentationen auf.`` | footnotes | ``Dies war auch möglich, …``), not into an item
    # (the piece is two lines or more, above: set ragged, lines end apart)
    justified = top and all(ln.bbox[2] >= right - FULL_SLACK_EMS * em for ln in piece) and not opens_item(cur.text)
    if len(cur.lines) >= 2:
        flush = head.bbox[0] <= min(ln.bbox[0] for ln in cur.lines[1:3]) + 0.2 * em
    else:  # a line set as a block of its own (elsarticle): flush with the column before's lines
        # (or, in the next column over, after a sentence left open: an InDesign report's
        # ``… aiming to update the previous`` | ``2012 policy with …``, each line a block)
        # (a full line of that column's measure, no reference's or item's)
        beside = (head.bbox[0] >= right or head.bbox[2] <= min(ln.bbox[0] for ln in piece)) \
            and head.bbox[2] - head.bbox[0] >= max(FULL_LINE_EMS * em, (1 - MEASURE_SHARE) * max(
                ln.bbox[2] - ln.bbox[0] for ln in piece)) \
            and not (cur.text.lstrip().startswith("[") or ITEM_RE.match(cur.text))
        # (justified, a line as wide as the column's full lines is set flush: an indent
        # would have made it an indent narrower; Wiley's ``… Figure S7 and S8).`` | Figure 1
        # | ``The increasing frequency of heatwaves …`` atop the next column)
        measure = right - min(ln.bbox[0] for ln in piece)
        flush = ((open_sentence or (justified and abs(head.bbox[2] - head.bbox[0] - measure) <= 0.2 * em))
                 and beside and head.page == last.page) or (
            left is not None and abs(head.bbox[0] - min(ln.bbox[0] for ln in piece)) <= 0.2 * em)
    return (full or ragged) and (indents or ragged or open_sentence or justified) and flush


#: How far short (ems) of its column's right edge a justified line may end and be full (a
#: line's box may hold its trailing space: ``… Although the `` ends a space further out).
FULL_SLACK_EMS = 0.4


def _ragged_full(piece: list[Line], cur: Para, right: float, closed: bool = False) -> bool:
    """Whether a prose paragraph's last line ``piece[-1]``, set ragged right, is full: the
    next piece's first word would not have fitted on it (a Word report's ``… considered 16
    amendments to`` | ``S.Con.Res. 33, one of which …``). Only for a line ending on a word
    or a comma, starting at its paragraph's left edge, in a piece as wide as the next
    one's lines on its page (not a gloss's or a listing's), going on into no list item nor run-in head;
    a note's mark after a stop or a colon ends it (``… no longer appears:7``). ``closed``:
    the line ends its sentence (on a stop, not on a note's mark), and the next one starts."""
    last, head = piece[-1], cur.lines[0]
    tail = last.text.rstrip()
    ends = tail.endswith(SENT_END) and not cur.text[:1].islower() if closed \
        else tail[-1:].isalnum() or tail.endswith(",")
    if not ends or NOTE_END_RE.search(tail) or _COLON_NOTE_RE.search(tail) \
            or head.lead or ITEM_RE.match(cur.text):
        return False
    left = min(ln.bbox[0] for ln in piece)
    wide = right - left
    # (on the next page the measure may widen: PLOS's 2025 pages past the side column of
    # its first two, ``… and local intervention measures.`` | ``The results showed …``)
    widens = head.page > last.page and len(piece) >= WIDENING_LINES \
        and wide >= FULL_LINE_EMS * max(last.size, 1.0) and is_prose(" ".join(ln.text for ln in piece))
    if last.bbox[0] > left + 0.5 * max(last.size, 1.0) or (not widens and wide < (
            1 - MEASURE_SHARE) * max(ln.bbox[2] - ln.bbox[0] for ln in cur.lines[:3])):
        return False
    return last.bbox[2] + first_word_width(head) > right


#: Fewest lines of prose a piece has whose measure may widen on the next page.
WIDENING_LINES = 3
#: Widths within this share of each other are one measure.
MEASURE_SHARE = 0.08
#: A colon with a note's mark after it (``… no longer appears:7``).
_COLON_NOTE_RE = re.compile(r"[^\W\d_]:\d{1,2}$")


#: Narrowest full line, in its font size (a column is 24 ems or more; a heading is less).
FULL_LINE_EMS = 20.0
