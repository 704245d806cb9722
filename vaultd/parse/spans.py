"""A printed line from PyMuPDF's spans: its text, with word spaces decided at span
boundaries by poppler's rule, and what its spans say of its type (size, font, weight,
slant, typewriter face). Pure functions of the ``dict`` spans; ``vaultd.parse.pymupdf``
reads the pages.
"""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple

from vaultd.parse.fontnames import face_name, is_bold_font, is_italic_font, is_mono_font
from vaultd.parse.glyphs import MAX_INTRA_LINE_DELTA, MIN_WORD_SPACING
from vaultd.parse.layout import SPACING_ACCENTS

_LETTER_RE = re.compile(r"[^\W\d_]")


class LineStyle(NamedTuple):
    """What a line's spans say of its type: its size and font (those of its longest
    span, the size rounded to 0.1 pt) and whether most of it is bold, italic or set in a
    typewriter face, and whether its letters come in more than one font."""

    size: float
    font: str
    bold: bool
    italic: bool
    mono: bool
    mixed: bool
    lead: str = ""  # its first words in a bold or italic face of their own (``run_in_lead``)
    face_lead: str = ""  # its first words in a font of their own closed by a stop (``font_lead``)
    lead_font: str = ""  # that font
    small_caps: bool = False  # capitals drawn in two sizes, small capitals made so (``drawn_small_caps``)


@functools.lru_cache(maxsize=4096)
def span_face(font: str, flags: int) -> tuple[bool, bool, bool]:
    """Whether a span of ``font`` with MuPDF's ``flags`` is bold, italic, typewriter."""
    return (bool(flags & 16) or is_bold_font(font), bool(flags & 2) or is_italic_font(font),
            is_mono_font(font))


#: Chinese, Japanese and Korean letters (kana, ideographs, hangul: written without spaces
#: between words); with their punctuation and full-width forms, their text.
CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_CJK_TEXT_RE = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
_CJK_FIRST = "\u3000"


def line_style(spans: list[dict[str, Any]]) -> LineStyle:
    """``LineStyle`` of one line, in one pass over its spans (it runs for every line).

    * bold: more than half of all its characters are in a bold font (or flagged bold);
    * italic: more than half of its letters (each span's text stripped) are slanted;
    * mono: at least 60 % of its visible characters are in a typewriter face (code).
    """
    if len(spans) == 1:  # most lines: the one span decides, no counting needed
        sp = spans[0]
        font, text = sp["font"], sp["text"]
        bold, italic, mono = span_face(font, sp["flags"])
        blank = text.isspace()
        return LineStyle(round(sp["size"], 1), font, bold, italic and not blank, mono and not blank, False)
    size, font, best = 0.0, "", -1
    cjk = 0.0  # the size of its Chinese, Japanese or Korean text, if any
    total = bold_n = letters = slanted = 0
    any_mono = False
    faces: set[str] = set()
    style_of, letter = span_face, _LETTER_RE.search
    for sp in spans:
        text, face = sp["text"], sp["font"]
        n = len(text)
        total += n
        if n > best or (n == best and sp["size"] > size):  # the longest span stands for the line
            size, font, best = sp["size"], face, n  # (of two as long, the larger: ``UTF`` ``-8.``)
        if n and max(text) >= _CJK_FIRST and _CJK_TEXT_RE.search(text):
            cjk = max(cjk, sp["size"])
        bold, italic, mono = style_of(face, sp["flags"])
        if bold:
            bold_n += n
        stripped = len(text.strip())
        letters += stripped
        if italic:
            slanted += stripped
        if mono:
            any_mono = True
        if face not in faces and letter(text):
            faces.add(face)
    # (CJK text sets its Latin words in a smaller face scaled to match: a line of package
    # names with a Chinese stop is in the Chinese text's size, no small print)
    if len(faces) < 2:
        caps = drawn_small_caps(spans)
        return LineStyle(round(cjk or caps or size, 1), font, bold_n * 2 > total, slanted * 2 > letters,
                         any_mono and _mostly_mono(spans), False, small_caps=bool(caps))
    lead = run_in_lead(spans)
    face, lead_font = ("", "") if lead else font_lead(spans)
    return LineStyle(round(cjk or size, 1), font, bold_n * 2 > total, slanted * 2 > letters,
                     any_mono and _mostly_mono(spans), True, lead, face, lead_font)


#: Small capitals drawn as capitals scaled down: their size over the capitals' (GPO's
#: New Century Schoolbook heads, 7.8 pt beside 10 pt; 0.7-0.8 is usual).
SMALL_CAPS_SCALE = (0.6, 0.9)


def drawn_small_caps(spans: list[dict[str, Any]]) -> float:
    """The size of a line of small capitals drawn in one font at two sizes, each word's
    first letter at the larger (GPO's ``PURPOSE OF THE BILL``: ``P`` at 10 pt, ``URPOSE OF
    THE`` at 7.8 pt); 0.0 for any other line. The longest span is a small one, so the line
    would otherwise read as small print; it is set at its capitals' size."""
    first = spans[0]["size"]
    if all(sp["size"] == first for sp in spans) or any(sp["text"].upper() != sp["text"] for sp in spans):
        return 0.0  # (most lines: one size, or a lowercase letter; asked first, cheaply)
    sizes = {round(sp["size"], 1) for sp in spans if _LETTER_RE.search(sp["text"])}
    if len(sizes) != 2:
        return 0.0
    small, large = sorted(sizes)
    if not SMALL_CAPS_SCALE[0] <= small / large <= SMALL_CAPS_SCALE[1]:
        return 0.0
    lowered = False
    for k, sp in enumerate(spans):
        text = sp["text"]
        if round(sp["size"], 1) == large:
            if any(len(w) > 1 for w in _CAPITALS_RE.findall(text)) and not (k == 0 and _ROMAN_NUMBER_RE.fullmatch(text)):
                # a word at the larger size: capitals, not small capitals (but a head's
                # number: IEEE's ``IV.`` before ``T``\ ``AXONOMIES OF …``)
                return 0.0
        elif _CAPITALS_RE.search(text):
            lowered = True
    return large if lowered else 0.0


#: A head's number in roman numerals, opening its line (``IV.``).
_ROMAN_NUMBER_RE = re.compile(r"\s*[IVXLC]{1,6}\.\s*")
#: A run of letters (a word's, in a line of capitals).
_CAPITALS_RE = re.compile(r"[^\W\d_]+")


def run_in_lead(spans: list[dict[str, Any]]) -> str:
    """The line's first words when they are set bold or italic and the words after them
    are not (``**Signature development.** To develop …``: a run-in heading), else "". In a
    line set bold, words in italic go on with it unless a stop closes them (IEEE's bold
    abstract after its *Abstract*—): ``**In-silico identification of …**``, bold to its
    end, has no run-in words of its own (``run_in``: it may be a heading whole)."""
    head = span_face(spans[0]["font"], spans[0]["flags"])[:2]
    # (its first span may be its number alone: Annual Reviews' bold ``2.1.2.`` | ``Primary …``)
    if not any(head) or not (_LETTER_RE.search(spans[0]["text"]) or _LEAD_NUMBER_RE.fullmatch(spans[0]["text"].strip())):
        return ""
    for k, sp in enumerate(spans):
        face = span_face(sp["font"], sp["flags"])[:2]
        # (a bold head's words set bold italic go on with it: ``2.1.1.`` ***MIRNA*** ``transcription.``)
        if _LETTER_RE.search(sp["text"]) and face != head and not (head == (True, False) and face[0]):
            lead = join_spans(spans[:k]).strip()
            if head[0] and lead[-1:] not in _LEAD_STOPS and sp["text"].lstrip()[:1] not in _LEAD_STOPS \
                    and all(span_face(s["font"], s["flags"])[0] for s in spans[k:] if _LETTER_RE.search(s["text"])):
                return ""
            return lead
    return ""


#: Marks that close a run-in heading's words.
_LEAD_STOPS = ".:—–"
#: A run-in heading's number set as a span of its own (``2.1.2.``, ``3``).
_LEAD_NUMBER_RE = re.compile(r"\d{1,2}(?:\.\d{1,2})*\.?")


def font_lead(spans: list[dict[str, Any]]) -> tuple[str, str]:
    """The line's first words and their font, when they are set in a font of their own at
    the line's size, neither flagged nor named bold or italic, and a stop or colon closes
    them in the next font (Nature Communications' Methods: ``Participants`` in a bold
    face its font names nowhere, ``. The study included …``); else ``("", "")``. Whether
    such a font is a document's run-in heads' is for the document to tell
    (``run_in.run_in_heads``: two paragraphs or more open so)."""
    first = spans[0]
    font = first["font"]
    if not _LETTER_RE.search(first["text"]):
        return "", ""
    for k, sp in enumerate(spans):
        if sp["font"] != font:
            rest = join_spans(spans[k:]).lstrip()
            text = next((s for s in spans[k:] if _LETTER_RE.search(s["text"])), None)
            if rest[:1] in (".", ":") and text is not None and abs(text["size"] - first["size"]) <= 1.0:
                return join_spans(spans[:k]).strip(), face_name(font)
            return "", ""
    return "", ""


def _mostly_mono(spans: list[dict[str, Any]]) -> bool:
    """At least 60 % of the spans' visible characters are in a typewriter face."""
    shown = mono = 0
    for sp in spans:
        visible = len("".join(sp["text"].split()))
        shown += visible
        if span_face(sp["font"], sp["flags"])[2]:
            mono += visible
    return mono >= 1 and mono * 10 >= shown * 6


class Piece(NamedTuple):
    """A run of glyphs of one font, size and baseline: its text and horizontal extent.

    (A tuple: one is made per line joined by ``line_pieces.merge_same_baseline``; ``join_spans``
    reads the same fields straight from the span dicts instead of building one per span.)
    """

    text: str
    x0: float
    x1: float
    baseline: float
    size: float


def space_between(left: Piece, right: Piece) -> bool:
    """Whether a word space separates two pieces of one printed line: poppler's rule.

    poppler (``TextPage::dump``, raw order) writes a space between two words when the
    gap between their boxes exceeds ``minWordSpacing`` = 0.15 of the left word's font
    size, and a line break (read as a space) when the baseline jumps by at least
    ``maxIntraLineDelta`` = 0.5 of it. vaultd applies the same two tests, in the left
    piece's size ``em``:

    * baseline jump ≥ 0.5 em: separate words (``1 Department`` after an affiliation mark
      set half its own size higher);
    * else a space only when ``right.x0 - left.x1`` > 0.15 em. A narrower gap is
      kerning or an italic correction, not a word space: ``dataset16,``, ``a−1,``,
      ``eV,`` (italic then roman), ``SPECTER`` (small caps drawn in two sizes).
      Overlapping pieces (a negative gap) are never separated; poppler's raw dump also
      breaks the line where the right piece starts more than 0.2 em left of the left
      one's end, which vaultd does not adopt (stacked glyphs are one word; no fixture
      paragraph changes either way).

    poppler's reading-order mode (plain ``pdftotext``) instead writes a space for any
    gap ≥ 0.03 em between words it split at a size or baseline change
    (``maxCharSpacing``), which reads ``S PECTER`` and ``dataset16 ,``; the raw-order
    rule is the better reading of these marks, so vaultd follows it.
    """
    return _word_gap(left.x1, left.baseline, left.size, right.x0, right.baseline)


def _word_gap(left_x1: float, left_base: float, left_size: float, right_x0: float,
              right_base: float) -> bool:
    """``space_between`` on plain numbers (``join_spans`` reads them straight from the
    span dicts rather than building a ``Piece`` per span)."""
    em = max(left_size, 1.0)
    if abs(right_base - left_base) >= MAX_INTRA_LINE_DELTA * em:
        return True
    return right_x0 - left_x1 > MIN_WORD_SPACING * em


def needs_space(left: Piece, right: Piece) -> bool:
    """Whether to insert a space between two pieces: never when either side already has
    whitespace at the join, else ``space_between``."""
    if not left.text or not right.text or left.text[-1].isspace() or right.text[0].isspace():
        return False
    return space_between(left, right)


def join_spans(spans: list[dict[str, Any]]) -> str:
    """Text of one line from its spans, with word spaces decided at span boundaries.

    Inside a span MuPDF has already placed spaces; at a boundary (font, size or baseline
    change, where math and superscripts live) ``space_between`` decides from the boxes of
    the visible pieces on either side:

    * a span that is only whitespace is MuPDF's guess of a space: it stays only when the
      visible text around it is ``space_between`` apart (so the blank before a caron
      that TeX then moved back over its letter does not split ``(Řehůřek``);
    * a run of spacing accents belongs to the letter after it: the gap is measured to
      that letter, and a space goes before the accents, never between accent and letter.

    Spaces MuPDF put inside a span (also at its start or end) are kept as they are.
    """
    if len(spans) < 2:  # most lines: nothing to decide
        return str(spans[0]["text"]) if spans else ""
    texts: list[str] = [sp["text"] for sp in spans]
    out: list[str] = []
    # most lines: visible spans only, none opening with a spacing accent (``_span_kind`` 2)
    if all((core := t.lstrip()) and core[0] not in SPACING_ACCENTS for t in texts):
        left = spans[0]
        before = texts[0]
        out.append(before)
        for i in range(1, len(texts)):
            right = spans[i]
            text = texts[i]
            if not before[-1].isspace() and not text[0].isspace():
                # ``_spans_spaced``, inline
                em = max(left["size"], 1.0)
                if abs(right["origin"][1] - left["origin"][1]) >= MAX_INTRA_LINE_DELTA * em \
                        or right["bbox"][0] - left["bbox"][2] > MIN_WORD_SPACING * em:
                    out.append(" ")
            out.append(text)
            left, before = right, text
        return "".join(out)
    # kind per span: 0 blank, 1 spacing accents, 2 visible text; and, for each position,
    # the index of the first visible span at or after it (-1: none; one backward pass)
    kinds = [_span_kind(t) for t in texts]
    if min(kinds) == 2:  # visible spans only
        out.append(texts[0])
        for i in range(1, len(texts)):
            text = texts[i]
            if not out[-1][-1].isspace() and not text[0].isspace() and _spans_spaced(spans[i - 1], spans[i]):
                out.append(" ")
            out.append(text)
        return "".join(out)
    ahead = [-1] * (len(texts) + 1)
    for i in range(len(texts) - 1, -1, -1):
        ahead[i] = i if kinds[i] == 2 else ahead[i + 1]
    prev = -1  # index of the last visible span written
    mark = 0  # where a space before the next visible span (and its accents) goes
    for i, text in enumerate(texts):
        kind = kinds[i]
        if kind == 0:
            after = ahead[i + 1]
            if prev < 0 or after < 0 or _spans_spaced(spans[prev], spans[after]) \
                    or _ligature_space(spans[prev], spans[i], spans[after]):
                out.append(text)
                mark = len(out)
            continue
        if kind == 1:
            out.append(text)
            continue
        if (prev >= 0 and not out[mark - 1][-1].isspace() and not text[0].isspace()
                and _spans_spaced(spans[prev], spans[i])):
            out.insert(mark, " ")
        out.append(text)
        prev, mark = i, len(out)
    return "".join(out)


#: The letters an f-ligature glyph (U+FB00–FB04) is expanded into, at a word's end.
_F_LIGATURE_ENDS = ("ff", "fi", "fl")


def _ligature_space(left: dict[str, Any], blank: dict[str, Any], right: dict[str, Any]) -> bool:
    """Whether MuPDF's space (``blank``) after a word ending in an expanded f-ligature is a
    word space: MuPDF boxes the ligature's last letter past the glyph, over the space
    (AASTeX's ``spill oﬀ the``: ``off`` to 509.7, the space from 506.7 to 510.1, ``the``
    from 510.1), so ``space_between`` sees no gap. The gap is then measured from where
    the space starts, by the same rule."""
    if not left["text"].endswith(_F_LIGATURE_ENDS) or left["bbox"][2] <= blank["bbox"][0] + 0.5:
        return False
    return _word_gap(blank["bbox"][0], left["origin"][1], left["size"], right["bbox"][0], right["origin"][1])


def _span_kind(text: str) -> int:
    """0 for a blank span, 1 for a run of spacing accents only (TeX draws ``ˇ`` then moves
    back over its ``R``), 2 for visible text."""
    core = text.strip()
    if not core:
        return 0
    if core[0] in SPACING_ACCENTS and all(ch in SPACING_ACCENTS or ch.isspace() for ch in core):
        return 1
    return 2


def _spans_spaced(left: dict[str, Any], right: dict[str, Any]) -> bool:
    """``space_between`` for two PyMuPDF spans: a span's ``Piece`` is its text, box left
    and right, origin's y (baseline) and size, read here straight from the dicts
    (``_word_gap`` spelled out: it runs for most span boundaries)."""
    em: float = max(left["size"], 1.0)
    if abs(right["origin"][1] - left["origin"][1]) >= MAX_INTRA_LINE_DELTA * em:
        return True
    gap: float = right["bbox"][0] - left["bbox"][2]
    return gap > MIN_WORD_SPACING * em


#: A note's mark: a number or a symbol (``1``, ``*``, ``†``).
_NOTE_MARK_RE = re.compile(r"(?:\d{1,3}|[*∗†‡§¶]{1,3})")
#: Largest share of its line's size a note's mark is set in, and least share of that size
#: its baseline stands over the line's.
NOTE_MARK_SIZE, NOTE_MARK_RISE = 0.8, 0.15


#: A note's mark opening its note: a number, a symbol or a table note's letter (``a``).
_LEAD_MARK_RE = re.compile(r"(?:\d{1,3}|[*∗†‡§¶]{1,3}|[a-z])")


def lead_mark(spans: list[dict[str, Any]], size: float) -> str:
    """The mark of a note set small and raised at a line's start, before a capital (a
    table's note ``ᵃ The given strain number is …``, CIDR's footnote ``¹ Formally, …`` in the
    body's size), or "". A citation's raised number
    never opens a line of prose: it is set close after its word."""
    marks = [sp for sp in spans[:3] if sp["text"].strip()]
    if len(marks) < 2:
        return ""
    mark, rest = marks[0], marks[1]
    text: str = mark["text"].strip()
    if _LEAD_MARK_RE.fullmatch(text) is None or not _raised(mark, rest, size) \
            or _NOTE_WORD_RE.match(rest["text"].lstrip()) is None:
        return ""
    return text


#: A note's first word after its mark: a capital and a letter (``The``, ``Formally``, an
#: acronym's ``ISO/IEC TR 19759``; not an isotope's one-letter symbol after its raised mass
#: number, ``¹H NMR``).
_NOTE_WORD_RE = re.compile(r"[A-Z][A-Za-z]")


def note_mark(spans: list[dict[str, Any]], size: float) -> str:
    """The mark of a note set small and raised at a line's end (WHO's heading ``8.3.2
    Diagnostic accuracy`` and a small raised ``1``), or "": the text is kept as the page gives it, the mark
    read into its last word (``accuracy1``); a section is named without it."""
    last = spans[-1]
    text: str = last["text"].strip()
    if not text or _NOTE_MARK_RE.fullmatch(text) is None:
        return ""
    before = next((sp for sp in reversed(spans[:-1]) if sp["text"].strip()), None)
    return text if before is not None and _raised(last, before, size) else ""


def _raised(mark: dict[str, Any], beside: dict[str, Any], size: float) -> bool:
    """Whether the span ``mark`` is set small and raised over ``beside``, in a line of
    ``size``: a note's mark (``note_mark``, ``lead_mark``)."""
    return bool(mark["size"] <= NOTE_MARK_SIZE * size
                and _baseline(beside) - _baseline(mark) >= NOTE_MARK_RISE * size)


def _baseline(span: dict[str, Any]) -> float:
    """A span's baseline. MuPDF gives a span its first character's origin; a space it puts
    between a raised mark and the next word stands on the mark's baseline (a Word report's
    footnote ``¹`` | `` Such assumption …``, read from the display list), so a span opening
    with a space has its baseline from its box's foot and the font's descender instead."""
    if span["text"][:1].isspace() and "descender" in span:
        return float(span["bbox"][3] + span["descender"] * span["size"])
    return float(span["origin"][1])

