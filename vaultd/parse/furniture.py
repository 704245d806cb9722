"""Page furniture: running headers and footers and page numbers, removed before blocks are built.

Tier-agnostic: works on the positioned lines of every page (``vaultd.parse.paras.Line``).
"""

from __future__ import annotations

import difflib
import re
from collections import Counter

from vaultd.parse.classify import CAPTION_RE
from vaultd.parse.line_numbers import drop_line_numbers
from vaultd.parse.lone_folios import (
    FOLIO_END_RE,
    FOLIO_FIRST_RE,
    FOLIO_LAST_RE,
    count_folio,
    drop_lone_numbers,
    roman,
)
from vaultd.parse.paras import Line, body_size
from vaultd.parse.running_lines import (
    SAME_TOP,
    SPELT_MIN_LETTERS,
    extends_repeated,
    inside_text,
    letters,
    outermost,
    placed_again,
    running_lines,
    shared_sides,
    shares_running_end,
    spelt_again,
)

#: Top and bottom bands (fraction of page height) where running headers/footers live.
MARGIN_FRACTION = 0.085
#: How far in a line repeated at the same height on several pages still counts as furniture.
WIDE_MARGIN_FRACTION = 0.12
#: ... and how far a line set ``SMALL_PT`` smaller than the body may stand (the Annals of
#: Mathematics sets its 8 pt running heads 12.6 % down the page, over a 10.9 pt body; a
#: body-size line that deep may be a repeated table header or sample text), or a line in
#: the body's size that is its page's topmost, set a line's height or more above the text
#: (LaTeX's book class on letter paper, as bookdown sets it, has its running heads 13 % down).
DEEP_MARGIN_FRACTION = 0.14
SMALL_PT = 1.0
#: How much larger than the body a line in a page's band may be set and still be a
#: running line standing elsewhere at another height (a title is set larger).
ECHO_SIZE_OVER = 1.5
#: How much larger than the body a line at a slide's top is set to be its title
#: (``_slide_title``; running heads are set no larger than the body).
TITLE_SCALE = 1.6
#: A bare page number: ``12``, ``xii``, ``Page 3 of 9``, ``3/9``, and between dashes
#: (``- 9 -``, ``— 12 —``: German and Italian theses, many report classes), or beside a
#: rule (Wiley's ``| 5`` by its logo).
_PAGE_NUMBER_RE = re.compile(
    r"^(?:[-–—|]\s*)?(page\s+)?(\d{1,4}|[ivxlcdm]{1,6})(\s*(of|/)\s*\d+)?(?:\s*[-–—|])?$", re.I)
#: A footer that ends with the page's number of the document's (``… Preprint submitted to
#: Elsevier Page 1 of 3``): furniture on a page of its own too, where nothing repeats.
_PAGE_OF_RE = re.compile(r"\bpage\s+\d{1,4}\s+of\s+\d{1,4}$", re.I)
#: Elsevier's running head, the article's citation after its authors' names (``2 M.E.
#: Rose and J.R. Kitchin / SoftwareX 10 (2019) 100263``): furniture on a page of its own
#: too, where a two-page excerpt repeats nothing.
_CITATION_HEAD_RE = re.compile(
    r"^(?:\d{1,4}\s+)?[^/]{3,120}\s/\s[A-Z][^/\d]{1,80}\s\d{1,4}\s\(\d{4}\)\s\d{1,7}(?:\s*[–-]\s*\d{1,7})?(?:\s+\d{1,4})?$")
#: How much larger than the body a running head opening with its page number may be set
#: (its number often a size up: OUP's 10.5 pt ``2`` over a 9 pt body; a head numbered so is
#: set larger still).
FOLIO_HEAD_SCALE = 1.2
#: A word processor's file stamp at a page's edge, the file's name and a date or two
#: (an FDA guidance's cover: ``17065dft.doc 11/14/17``; ``G:\\GUIDANCE\\draft.docx``).
_FILE_STAMP_RE = re.compile(r"^\S*\.(?:docx?|rtf|wpd|odt|indd|qxd)(?:\s+[\d/.:-]+){0,3}$", re.I)
#: ... and its date, set beside or under it as a line of its own (``11/14/17``).
_STAMP_DATE_RE = re.compile(r"[\d/.:-]+(?:\s+[\d/.:-]+){0,2}")
#: A float's note that it goes on overleaf (eLife's ``Figure 1 continued on next page``,
#: Cell Press's ``(legend continued on next page)``), wherever on the page it stands; and
#: Word's notice under a footnote that goes on overleaf, a line of its own
#: (``(continued...)``).
_CONTINUED_RE = re.compile(
    r"^\(?(?:(?:figure|fig\.|table)\s+\d+\s+)?(?:legend\s+)?continued\s+on\s+(?:the\s+)?next\s+page\)?$"
    r"|^\(continued\s*(?:\.{2,3}|…)?\)$"
    r"|^\(?continued\s+(?:from|on)\s+(?:page|p\.)\s*\d{1,4}\)?$",  # a newsletter's jump line
    re.I)



def _norm_furniture(text: str) -> str:
    return re.sub(r"\d+", "#", " ".join(text.lower().split()))


def drop_furniture(pages: list[list[Line]], heights: list[float], widths: list[float] | None = None) -> None:
    """Remove running headers/footers and page numbers, in place (``widths``: the pages'
    widths, when known: on a landscape page, a slide, a title repeated is no furniture).

    A line in the top or bottom band is furniture when it is a bare page number, when
    its digit-masked text repeats in the bands of at least two pages, or when its letters
    nearly repeat (``NEAR_RATIO``) in the band of a page up to two before or after it (OCR
    text layers; odd and even pages may carry different headers). A little further in
    (the centre within ``WIDE_MARGIN_FRACTION`` of the edge: a second header line, a
    header set lower than usual) a line is furniture only when the same digit-masked text
    stands at about the same height (``SAME_HEIGHT``) on another page — body text never
    repeats like that (a record's field line inside a run of text, repeating with its
    digits, ``running_lines.inside_text``, is kept);
    a bare number there must also be the page's outermost line (a page number set well
    inside a wide margin, as theses do, not a table's last figure). A running line's text
    (standing at one height on two other pages) is furniture in the wide band at any
    height too, set no larger than a head (PMC's running foot repeated in page 1's banner).

    A float's ``… continued on next page`` note is furniture wherever it stands, and so is
    an icon font's glyph alone on its line (``_ICON_RE``). A caption is never furniture:
    a table run over several pages repeats its caption at the same height on each
    (SciELO's ``Tabla 1 – …`` over ``2 de 3``), and without it the rows under it would be
    read as body text.
    """
    for i, lines in enumerate(pages):
        pages[i] = drop_line_numbers(lines)
    seen: Counter[str] = Counter()
    placed: dict[str, list[tuple[int, float]]] = {}  # wide-band text → (page, top)
    spelt: dict[str, list[tuple[int, float]]] = {}  # the same by its letters alone (``spelt_again``)
    # each line's bands and digit-masked text, worked out once: (in band, in wide band, key)
    where: list[list[tuple[bool, bool, str]]] = []
    small = body_size(pages) - SMALL_PT  # a line set this small may stand deeper in
    title = (small + SMALL_PT) * TITLE_SCALE  # a line set this large at a page's top heads it
    for i, (lines, h) in enumerate(zip(pages, heights, strict=True)):
        marks = []
        for ln in lines:
            band = _in_band(ln, h)
            wide = _in_wide_band(ln, h, DEEP_MARGIN_FRACTION if ln.size <= small else WIDE_MARGIN_FRACTION) \
                or (_in_wide_band(ln, h, DEEP_MARGIN_FRACTION) and outermost(ln, lines, h, SAME_TOP)
                    and _set_apart(ln, lines))
            marks.append((band, wide, _norm_furniture(ln.text) if band or wide else ""))
        where.append(marks)
        seen.update({key for band, _, key in marks if band})
        for ln, (_, wide, key) in zip(lines, marks, strict=True):
            if wide:
                placed.setdefault(key, []).append((i, ln.bbox[1]))
                if len(spelled := letters(ln.text)) >= SPELT_MIN_LETTERS:
                    spelt.setdefault(spelled, []).append((i, ln.bbox[1]))
    multi = len(pages) >= 2
    running = running_lines(placed)
    # a running line's text standing at a page's edge elsewhere, set no larger than a
    # head (a PMC author manuscript's ``Dev Cell. Author manuscript; available in PMC …``,
    # every page's foot, also in page 1's banner)
    repeated = {key for key, _ in running}
    bigger = small + SMALL_PT + ECHO_SIZE_OVER
    # each page's outermost lines set apart from its text, set in two sides an em apart or
    # more, and those sharing a side with another page's at their height (a book's running
    # heads: section | chapter; two pages' first lines that merely end alike are no such)
    edges = [(i, ln, key) for i, (lines, h) in enumerate(zip(pages, heights, strict=True))
             for ln, (_, wide, key) in zip(lines, where[i], strict=True)
             if multi and wide and ln.cells >= 2 and any(c.isalpha() for c in key)
             and outermost(ln, lines, h, SAME_TOP) and _set_apart(ln, lines)]
    sides = {id(edges[k][1]) for k in shared_sides([(i, ln.bbox[1], key) for i, ln, key in edges])}
    banded = [[letters(ln.text) for ln, (band, _, _) in zip(lines, marks, strict=True) if band]
               for lines, marks in zip(pages, where, strict=True)]
    offsets: Counter[int] = Counter()  # printed number − page index of the page numbers dropped
    by_page: dict[int, int] = {}  # the same, by page index
    lone: list[tuple[int, Line]] = []  # bare numbers (or heads ending in one) at a page's edge, in the wide band
    for i, (lines, h) in enumerate(zip(pages, heights, strict=True)):
        keep: list[Line] = []
        # a file stamp's baselines: its date, read as a line of its own beside it, goes too
        stamped = [ln.bbox for ln, (band, _, _) in zip(lines, where[i], strict=True)
                   if band and _FILE_STAMP_RE.match(ln.text.strip())]
        for ln, (band, wide, key) in zip(lines, where[i], strict=True):
            text = ln.text.strip()
            if _CONTINUED_RE.match(text) or (_ICON_RE.fullmatch(text) and _ICON_FONT_RE.search(ln.font)):
                continue
            if CAPTION_RE.match(text) or ((band or wide) and widths and widths[i] > h and _slide_title(ln, h, title)):
                keep.append(ln)
                continue
            number = _PAGE_NUMBER_RE.match(text)
            if band and (
                number or _PAGE_OF_RE.search(text) or _CITATION_HEAD_RE.match(text) or _FILE_STAMP_RE.match(text)
                or (stamped and _STAMP_DATE_RE.fullmatch(text) and _by_stamp(ln, stamped))
                or (multi and seen[key] >= 2)
                or (multi and _repeats_nearly(letters(text), banded, i))
                or (multi and extends_repeated(key, seen))
            ):
                count_folio(offsets, text, i, by_page)
                continue
            if multi and wide and (placed_again(placed, ln, key, i, h) or spelt_again(spelt, ln, i, h)
                                   or (ln.size <= small and shares_running_end(running, ln, key))
                                   or id(ln) in sides or (key in repeated and ln.size <= bigger)) and (
                    any(c.isalpha() for c in text) or (number and outermost(ln, lines, h))) \
                    and not inside_text(ln, lines):
                count_folio(offsets, text, i, by_page)
                continue
            if wide and (text.isdigit() or FOLIO_LAST_RE.search(text)
                         or (FOLIO_FIRST_RE.match(text) and ln.cells >= 2
                             and ln.size <= (small + SMALL_PT) * FOLIO_HEAD_SCALE)) \
                    and (outermost(ln, lines, h, SAME_TOP) or (text.isdigit() and multi and placed_again(
                        placed, ln, key, i, h) and outermost(ln, [o for o in lines if o.text.strip().isdigit()], h))):
                # (a book's running head over one page: ``1.5. WHAT YOU WILL LEARN 11``; a
                # first page's number over its proceedings' imprint, where the others' stand)
                lone.append((i, ln))
            elif wide and number and (value := roman(text)) is not None:
                lone.append((i, ln))  # a front matter's ``ii``: counted with the others
                offsets[value - i] += 1
            keep.append(ln)
        pages[i] = keep
    drop_lone_numbers(pages, lone, offsets, by_page)
    _drop_running_stacks(pages, small + SMALL_PT)
    drop_echoed_headings(pages, heights, small)


def _by_stamp(ln: Line, stamps: list[tuple[float, float, float, float]]) -> bool:
    """Whether ``ln`` stands beside a file stamp, on its baseline, or right under it from
    its left edge (the stamp's date set as a line of its own)."""
    x0, y0, _, y1 = ln.bbox
    return any(abs(y1 - b[3]) <= SAME_TOP or (abs(x0 - b[0]) <= SAME_TOP and -SAME_TOP <= y0 - b[3] <= b[3] - b[1])
               for b in stamps)


def _slide_title(ln: Line, height: float, least: float) -> bool:
    """Whether a line in a landscape page's top band is its title, never a running head,
    however often it repeats: set ``least`` large or larger (``TITLE_SCALE``), in its
    upper half, with no digit in it (a slide deck's ``Quality Checks: Raw Data`` at 40 pt
    over five slides of 18 pt text; a frame's ``Case 2`` or a page's ``Introduction 1``
    is numbered as running heads are)."""
    return ln.size >= least and ln.bbox[1] < height / 2 and not any(c.isdigit() for c in ln.text)


def _drop_running_stacks(pages: list[list[Line]], body: float) -> None:
    """Remove, in place, the running lines stacked at a page's top or foot however deep in
    they stand: each line, from the page's edge in, while its digit-masked text stands at
    the same height (``SAME_TOP``) on ``STACK_PAGES`` pages or more, set no larger than the
    body, no caption, the stack ``STACK_APART`` of a line's height apart from the text or
    more. A slip opinion of the US Supreme Court sets a small book page on letter paper:
    ``2 TARRANT REGIONAL WATER DIST. v. HERRMANN`` over ``Opinion of the Court`` stand 14
    to 17 % down each page, past every band. A heading stands at one height on a few pages
    only when set larger (a chapter's ``Chapter 2``); body text never repeats so on three
    pages."""
    if len(pages) < STACK_PAGES:
        return
    # each page's lines nearest its edges, the only ones a stack may hold, and their keys
    edges = [(sorted(lines, key=lambda ln: ln.bbox[1])[:STACK_LINES + 1],
              sorted(lines, key=lambda ln: -ln.bbox[3])[:STACK_LINES + 1]) for lines in pages]
    keys = {id(ln): _norm_furniture(ln.text) for heads, feet in edges for ln in (*heads, *feet)}
    heights: dict[str, list[float]] = {}
    for heads, feet in edges:
        for ln in {id(ln): ln for ln in (*heads, *feet)}.values():
            if ln.size <= body + 0.5:
                heights.setdefault(keys[id(ln)], []).append(ln.bbox[1])

    def running(ln: Line) -> bool:
        tops = heights.get(keys[id(ln)], [])
        return ln.size <= body + 0.5 and not CAPTION_RE.match(ln.text.strip()) \
            and sum(abs(top - ln.bbox[1]) <= SAME_TOP for top in tops) >= STACK_PAGES

    for i, (lines, (heads, feet)) in enumerate(zip(pages, edges, strict=True)):
        drop: set[int] = set()
        for top, edge in ((True, heads), (False, feet)):
            stack: list[Line] = []
            for ln in edge:
                if not running(ln):
                    # the stack stands apart from the text, as a running head does (a
                    # listing's header line at three pages' tops, ``Aa Bb Cc``, does not)
                    if stack and (ln.bbox[1] - stack[-1].bbox[3] if top else stack[-1].bbox[1] - ln.bbox[3]) \
                            >= STACK_APART * (stack[-1].bbox[3] - stack[-1].bbox[1]):
                        drop.update(id(r) for r in stack)
                    break
                stack.append(ln)
                if len(stack) > STACK_LINES:
                    break  # no running head is so tall
        if drop:
            pages[i] = [ln for ln in lines if id(ln) not in drop]


#: Fewest pages a running line stacked over the text stands on at one height.
STACK_PAGES = 3
#: Most lines such a stack holds.
STACK_LINES = 3
#: How far (its height) the stack's innermost line stands from the text at least.
STACK_APART = 0.5




#: How much larger than a running head the heading it repeats is set.
ECHO_SIZE = 1.15
#: Fewest letters and digits a running head needs to be matched with a heading.
ECHO_MIN_CHARS = 6
#: Least share of a running head's letters and digits the heading it ends with holds
#: (Beilstein's ``4 THE CLASS FILE 4.2 Title page``: 0.46): a page's last line of text
#: that merely ends on a heading's word (Wiley's ``… urine toxicology results.`` under
#: ``RESULTS``) is no running head.
ECHO_SHARE = 0.35


_NOT_ALNUM_RE = re.compile(r"[\W_]+")
#: A page number at a running head's end, whatever stands before it (``… footers? 30``).
_FOLIO_TAIL_RE = re.compile(r"(?<=\D)\s+\d{1,4}$")
_DIGITS_RE = re.compile(r"\d+")
#: A heading's number or label before its words: ``2.4.``, ``II - A 3:``, ``A.1``.
_HEAD_LABEL_RE = re.compile(r"^(?:[\dIVXLC]+|[A-Z])(?:\s*[-–.]?\s*(?:[\dIVXLC]+|[A-Z])\b){0,3}\s*[:.]?\s+(?=\w)")
#: An icon font's glyph alone on its line, a code point of a Private Use Area (an
#: admonition's ``i`` or flame beside a note, Font Awesome's ``U+F05A``): no text. (A math
#: font's brace pieces mapped there are a formula's: only icon fonts count.)
_ICON_RE = re.compile("[\ue000-\uf8ff]{1,2}")
_ICON_FONT_RE = re.compile(r"awesome|glyphicons|octicons|fontello|icomoon|ionicons|material.?(?:icons|symbols)",
                           re.IGNORECASE)


def _unlabelled(text: str) -> str:
    """A heading's words without its number or label (``II - A 3:``, ``2.4.``); a word
    that merely opens it (``A Study of …``) is kept."""
    label = _HEAD_LABEL_RE.match(text)
    if label is None or not (any(c.isdigit() for c in label.group()) or label.group().rstrip().endswith((":", "."))
                             or "-" in label.group()):
        return text
    return text[label.end():]


def _alnum(text: str) -> str:
    return _NOT_ALNUM_RE.sub("", text.casefold())


def _wordy(key: str) -> bool:
    """Mostly letters, as a heading's words are (not an identifier: PeerJ's page-1 ``DOI
    10.7717/peerj-cs.118`` is repeated at the foot of its how-to-cite box)."""
    return len(_DIGITS_RE.sub("", key)) >= 0.6 * len(key)  # (a key is letters and digits)


def drop_echoed_headings(pages: list[list[Line]], heights: list[float], small: float = 0.0) -> None:
    """Remove, in place, running heads that repeat a heading of the document: the
    outermost line of a page's top or bottom band whose letters and digits (a page number
    beside them aside: ``Chapter 3: Importing from other statistical systems 16``) are (or
    end with) those of a line set at least ``ECHO_SIZE`` times larger elsewhere in it
    (a thesis's ``HOOFDSTUK 2. ONDERZOEKSVRAAG`` over heading ``2. Onderzoeksvraag``,
    ``2.1. HET GEBEUREN`` over ``2.1. Het gebeuren``; the heading at least ``ECHO_SHARE``
    of the line). Such a head stands on only the
    pages of one chapter or section — a short one has one or two — so the repetition
    ``drop_furniture`` looks for may not be there. A head over the text set ``small`` or
    smaller may stand deeper in (``DEEP_MARGIN_FRACTION``: Beilstein's 9 pt ``4 THE CLASS
    FILE 4.2 Title page`` 10.7 % down the page, over a 10 pt body) when it stands apart
    from the text under it (``_set_apart``), one in the body's size (no larger) a little further in
    than the band (``WIDE_MARGIN_FRACTION``: a French thesis's ``2.6. Conclusion`` 8 % down
    the page) when set apart so too; not so at the foot, where footnotes end as small as
    that."""
    candidates: list[tuple[Line, str]] = []
    apart: set[int] = set()  # candidates set apart from the text, no larger than it: running-head-like
    for lines, h in zip(pages, heights, strict=True):
        if not lines:
            continue
        top, foot = min(ln.bbox[1] for ln in lines), max(ln.bbox[3] for ln in lines)
        for ln in lines:  # the page's outermost lines, in its top or foot band
            if ((ln.bbox[1] <= top or ln.bbox[3] >= foot) and _in_band(ln, h)) or (
                    ln.bbox[1] <= top and ln.size <= small + SMALL_PT + 0.5 and _set_apart(ln, lines)
                    and _in_wide_band(ln, h, DEEP_MARGIN_FRACTION if ln.size <= small else WIDE_MARGIN_FRACTION)):
                # the page number aside (``Morbi ac orci 5``), and the section's number
                # before it kept (LaTeX's ``headings``: ``16 Dictionary style headers 20``)
                if CAPTION_RE.match(ln.text.strip()):
                    continue  # (a caption is never furniture: a table's atop its page)
                for key in {_alnum(FOLIO_END_RE.sub("", ln.text.strip())),
                            _alnum(_FOLIO_TAIL_RE.sub("", ln.text.strip()))}:
                    if len(key) >= ECHO_MIN_CHARS:
                        candidates.append((ln, key))
                if ln.size <= small + SMALL_PT + 0.5 and _set_apart(ln, lines):
                    apart.add(id(ln))
    if not candidates:
        return
    # a heading a running head repeats is no longer than the head (with room for its
    # punctuation): only such lines are keyed, not every line of the document
    longest = 2 * max(len(ln.text) for ln, _ in candidates)
    least = min(ln.size for ln, _ in candidates) * ECHO_SIZE
    heads = {id(ln) for ln, _ in candidates}
    big: dict[str, float] = {}  # key of each line that may be a heading → its largest size
    bare: dict[str, float] = {}  # the same without the heading's number or label (for ``apart``)
    for lines in pages:
        for ln in lines:
            if ln.size >= least and len(ln.text) <= longest and id(ln) not in heads:
                _keep_largest(big, ln.text, ln.size)
                if apart and (unlabelled := _unlabelled(ln.text)) is not ln.text:
                    _keep_largest(bare, unlabelled, ln.size)
    dropped: set[int] = set()
    for ln, key in candidates:
        need = ln.size * ECHO_SIZE
        last = min(len(key) - ECHO_MIN_CHARS, int(len(key) * (1 - ECHO_SHARE)))
        if any(big.get(key[j:], 0.0) >= need for j in range(last + 1)) or (id(ln) in apart and any(
                max(big.get(key[j:], 0.0), bare.get(key[j:], 0.0)) >= need
                for j in range(len(key) - ECHO_MIN_CHARS + 1))):
            # (a line set apart as running heads are may end with the heading's words
            # alone, or with them short of the heading's number: a thesis's ``II - A 3:
            # Policies and Value Functions`` under ``Theory - … Policies and Value Functions``)
            dropped.add(id(ln))
    if dropped:
        for i, lines in enumerate(pages):
            pages[i] = [ln for ln in lines if id(ln) not in dropped]


def _keep_largest(keys: dict[str, float], text: str, size: float) -> None:
    """Note ``text``'s key (``ECHO_MIN_CHARS`` or more, mostly letters) at its largest size."""
    key = _alnum(text)
    if len(key) >= ECHO_MIN_CHARS and size > keys.get(key, 0.0) and _wordy(key):
        keys[key] = size


#: Fewest letters a line needs to be matched loosely (shorter lines must repeat exactly).
NEAR_MIN_LETTERS = 12
#: How alike (difflib ratio of the letters) a header must be to one on another page: an
#: OCR text layer reads the same header a little differently on every page
#: (``Odeen et al.`` / ``Odeen et af,`` / ``Odeen.et al:``).
NEAR_RATIO = 0.8


def _repeats_nearly(key: str, pages: list[list[str]], page: int) -> bool:
    """Whether a band line's letters nearly repeat in the band of one of the two pages
    before or after it (``pages``: the letters of each page's band lines)."""
    if len(key) < NEAR_MIN_LETTERS:
        return False
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    matcher.set_seq2(key)  # its index is built once for all the lines it is compared with
    for j in (page - 2, page - 1, page + 1, page + 2):
        for other in pages[j] if 0 <= j < len(pages) else ():
            if len(other) < NEAR_MIN_LETTERS:
                continue
            matcher.set_seq1(other)
            if matcher.real_quick_ratio() >= NEAR_RATIO and matcher.quick_ratio() >= NEAR_RATIO \
                    and matcher.ratio() >= NEAR_RATIO:
                return True
    return False


def _set_apart(ln: Line, lines: list[Line]) -> bool:
    """Whether a page's top line stands a line's height or more above every other line
    under it, as a running head stands over the text (not the first of a page's lines of
    text or code, set one under the other); or a page's bottom line as far below every
    line over it."""
    height = ln.bbox[3] - ln.bbox[1]
    if ln.bbox[1] > max(other.bbox[1] for other in lines) - 0.5 * height:  # (the bottom line)
        return all(ln.bbox[1] - other.bbox[3] >= height for other in lines
                   if other is not ln and other.bbox[3] < ln.bbox[3] - 0.5 * height)
    return all(other.bbox[1] - ln.bbox[3] >= height for other in lines
               if other is not ln and other.bbox[1] > ln.bbox[1] + 0.5 * height)


def _in_band(ln: Line, h: float) -> bool:
    return ln.bbox[3] < h * MARGIN_FRACTION or ln.bbox[1] > h * (1 - MARGIN_FRACTION)


def _in_wide_band(ln: Line, h: float, fraction: float = WIDE_MARGIN_FRACTION) -> bool:
    centre = (ln.bbox[1] + ln.bbox[3]) / 2
    return centre < h * fraction or centre > h * (1 - fraction)
