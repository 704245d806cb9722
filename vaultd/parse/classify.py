"""What kind of block a run of lines is: heading, caption, list item, equation or paragraph.

Pure text and type rules (no layout): ``vaultd.parse.structure`` calls ``classify`` for
each block it forms.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from vaultd.models import ChunkType
from vaultd.parse.bylines import SECTION_NAMES
from vaultd.parse.paras import LABEL_WORDS, SENT_END
from vaultd.parse.spans import CJK_RE
from vaultd.parse.textlayer import prose_words

#: A theorem-like statement's label (``Lemma 2.2.``, ``Remark 1``, ``Proof.``): set bold like
#: a heading, but the statement is the paper's text, under the section it is in.
_THEOREM_RE = re.compile(
    r"(?:Lemma|Theorem|Proposition|Corollary|Definition|Remark|Proof|Example|Claim|Conjecture"
    r"|Assumption|Observation|Hypothesis|Axiom|Property|Fact|Note)\b\s*[\dIVX.:(]")
def is_theorem_label(text: str) -> bool:
    """``Lemma 2.2.``, ``Remark 1``, ``Proof.``: a statement of the paper, never a section."""
    return bool(_THEOREM_RE.match(text))


#: A line of an algorithm or code listing, numbered ``21:``.
_LISTING_LINE_RE = re.compile(r"\d{1,3}:\s")
#: A section number of the arabic (``2``, ``2.1``) or roman (``IV``) kind.
#: Section numbers: ``3``, ``3.1.2``, ``IV`` and REVTeX's ``VIII.3`` (a roman section's
#: arabic subsections).
SECTION_NUMBER_RE = re.compile(r"\d{1,2}(?:\.\d{1,2})*|[IVX]{1,4}(?:\.\d{1,2})*")
_NUM_RE = re.compile(r"^((?:\d{1,2}(?:\.\d{1,2})*)|[IVX]{1,4}(?:\.\d{1,2})+|[A-Z](?:\.\d{1,2})*|[IVX]{1,4})\.?\s+[\"“‘']?[A-Z]")
#: ``Figure 3.``, ``Fig. 2:``, ``Table 1``, and their names in other languages (``Tabela``,
#: ``Tabla``, ``Tabelle``, ``Tableau``, ``Cuadro``, ``Quadro``, ``Figura``, ``Abbildung``,
#: ``Abb.``), a program's ``Listing 2.``, a chemistry paper's ``Scheme 1.``, and Wiley's
#: letter-spaced ``F I G U R E 1`` / ``TA B L E 2``; or the bare label on a line of its own
#: (AGU sets ``Table 1`` in bold over the caption's text); a paper's only table or figure
#: may go unnumbered, its label then followed by a dash (SciELO 2004: ``Tabla - Tendencias…``)
#: or a stop (JAMA's ``Table. Domain-Specific Accuracy and Consistency``); a table's label
#: over its next page's rows (Elsevier's ``Table 1 (continued )``), or over its caption's
#: rest there (eLife's ``Figure 2 continued``; not its ``Figure 2 continued on next page``).
#: An appendix's or supplement's number has a capital before it (``Table B1``, ``Figure S2``).
CAPTION_RE = re.compile(
    r"^(?i:figure|figura|figur|fig\.?|abbildung|abb\.|listing|scheme|table|tabela|tabla|tabelle|tableau|tabella"
    r"|tabell|tab\.|cuadro|quadro|chart|graph|exhibit|map"
    r"|F ?I ?G ?U ?R ?E|T ?A ?B ?L ?E)"
    # (a hyphen may join the label and its number: Veterinary World's ``Table-1: Ingredient …``)
    r"(?:(?:\s*|-)([A-Z]?\d+(?:[.-]\d+)*|[ivxIVX]+)\s*([.:|–—\ufffd\x01-\x08\x0e-\x1f-](?!\d)|\s+[A-Z]|\s*\((?i:cont)"
    r"|\s*\([a-z]\)\s+(?=[A-Z])|\s+continued\b(?!\s+on\s)|$)|\s+[–—-]\s+(?=[A-Z])"
    r"|(?<=[a-zA-Z])\.\s+(?=[A-Z][a-z])"
    r"|(?<=[a-zA-Z]):\s+(?=[A-Z][a-z]))")  # the Lancet's one figure: ``Figure: Trial profile``
#: A rule set as text: a run of dashes, underscores or equals signs and nothing else
#: (Wiley's over its licence, a slip opinion's over its footnotes): no words of the work's.
RULE_TEXT_RE = re.compile(r"[–—‒―_=\-]{4,}")
#: A date opening with its day: ``5 June 2025``, ``12 Dec. 2019``.
_DATE_RE = re.compile(r"\d{1,2}\.?\s+(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{4}\b")
_EQNUM_RE = re.compile(r"\(\d{1,3}[a-z]?\)$")
#: An underscore inside a word (``UCODE_2005``, ``data_exchange``).
_IDENT_UNDERSCORE_RE = re.compile(r"(?<=[^\W_])_(?=[^\W_])")
_MATH_CHARS = set("=+−×∑∫∂≤≥≈∈∀∃→←⇒∞√∝±·∇αβγδεθλμπσφψωΣΠΩ^_")
#: A list item's mark: a bullet or dash, or the private-use code of a bullet in Symbol or
#: Wingdings that the font maps to no character (Word's ``\uf0b7``, ``\uf0a7``, ``\uf0d8``,
#: ``\uf076``, ``\uf0fc``, ``\uf06e``).
LIST_RE = re.compile(r"^[•◦▪‣●∙·–\uf0b7\uf0a7\uf0d8\uf076\uf0fc\uf06e]\s")


#: Most words of an unnumbered heading set in small capitals.
SMALL_CAPS_HEAD_WORDS = 6


#: The caption words of tables: Spanish ``Cuadro`` and Portuguese ``Quadro`` too (PAHO's
#: and SciELO's tables of text), Italian ``Tabella``, Scandinavian ``Tabell`` and the
#: abbreviation ``Tab.`` (``Tab. 1: Text sizes``).
_TABLE_WORD_RE = re.compile(r"(?i:table|tabela|tabla|tabelle|tableau|tabella|tabell|tab\.|cuadro|quadro)"
                            r"|T ?A ?B ?L ?E")


#: Lines whose caption tests are remembered: each stage asks them of every line again.
CAPTION_CACHE_LINES = 1 << 14


@functools.lru_cache(maxsize=CAPTION_CACHE_LINES)
def opens_item(text: str) -> bool:
    """Whether ``text`` opens with a list's mark: a bullet (``•``, ``○``, ``▪``: any
    symbol) or a dash."""
    first = text.lstrip()[:1]
    return bool(first) and (unicodedata.category(first)[0] == "S" or bool(LIST_RE.match(text.lstrip())))


def is_table_caption(text: str) -> bool:
    return bool(CAPTION_RE.match(text)) and bool(_TABLE_WORD_RE.match(text.lstrip()))


@functools.lru_cache(maxsize=CAPTION_CACHE_LINES)
def is_figure_caption(text: str) -> bool:
    """``Figure 3.``, ``Fig. 2:`` and the like (not a table's caption)."""
    return bool(CAPTION_RE.match(text)) and not _TABLE_WORD_RE.match(text.lstrip())


def figure_count(words: list[str]) -> int:
    """How many of ``words`` are figures: a digit and no letter (``132.2``, ``(12)``, ``3.0%``)."""
    return sum(1 for w in words if any(c.isdigit() for c in w) and not any(c.isalpha() for c in w))


def _figures_row(text: str) -> bool:
    """Whether ``text`` is a row of figures: three words or more, most of them numbers."""
    words = text.split()
    return len(words) >= 3 and 2 * figure_count(words) > len(words)


#: A number two levels deep or more with its stop, before a lowercase name (A&A's ``3.2.
#: gammapy.data``: a package's name heads its section).
_LOWER_HEAD_NUM_RE = re.compile(r"^(\d{1,2}(?:\.\d{1,2})+)\.\s+(?=[a-z])")
#: A number two levels deep or more, its stop right against a capitalised word: Word's
#: list numbering, whose separator the text layer drops (an IOP conference paper's italic
#: ``3.2.Evaluation Function Design``, as ``pdftotext`` reads it too).
TIGHT_HEAD_NUM_RE = re.compile(r"^(\d{1,2}(?:\.\d{1,2})+)\.(?=[A-Z][a-z])")


#: A section of a bill, statute or contract by its number, as its analysis heads it:
#: ``Section 2. Sense of Congress.``, ``SEC. 3. DEFINITIONS.``, ``Article 5. Scope.``
_LEGAL_HEAD_RE = re.compile(r"^(?:Section|SECTION|Sec\.|SEC\.|Article|ARTICLE|Art\.)\s+\d{1,3}[A-Za-z]?\.\s+[A-Z]")
#: A number with its stop before a word in small capitals, which the text layer may give
#: as lowercase letters (amsart's ``1. introduction`` in CMCSC10).
_SMALL_CAPS_NUM_RE = re.compile(r"^(\d{1,2}(?:\.\d{1,2})*)\.\s+(?=[a-z])")


def heading_number(text: str) -> str | None:
    m = _NUM_RE.match(text) or _LOWER_HEAD_NUM_RE.match(text) or TIGHT_HEAD_NUM_RE.match(text)
    if not m or _DATE_RE.match(text):
        return None  # (a dateline's day is no section's number: ``5 June 2025 07:00``)
    num = m.group(1)
    if num.isdigit() and int(num) > 30:
        return None
    return num


def is_caps_heading(text: str) -> bool:
    """Two or more words, all their letters capitals (not an acronym or a formula); a
    term spelled in mixed case by its field, opening in lowercase (``miRNAs``, ``mRNA``,
    ``pH``), may stand among them as it is spelled everywhere (Frontiers' ``miRNAs IN
    NEURODEGENERATIVE DISORDERS``)."""
    words = [w for w in text.split() if any(c.isalpha() for c in w)]
    capital = [w for w in words if not _MIXED_TERM_RE.fullmatch(w)]
    letters = [c for w in capital for c in w if c.isalpha()]
    return len(words) >= 2 and len(capital) >= 2 and len(letters) >= 8 and all(c.isupper() for c in letters)


#: A term its field spells in mixed case, opening in lowercase: ``miRNAs``, ``mTORC1``, ``pH``.
_MIXED_TERM_RE = re.compile(r"[(\[]?[a-z]{1,3}[A-Z][A-Za-z0-9-]*[)\],.:;]?")


def all_caps(text: str, least: int = 0) -> bool:
    """``least`` letters or more (``CAPS_LETTERS`` by default: not an acronym's, ``CPIH``),
    all of them capitals."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= (least or CAPS_LETTERS) and all(c.isupper() for c in letters)


#: A paper's usual section name, the whole of a line.
_PAPER_HEAD_RE = re.compile(r"(?:abstract|" + SECTION_NAMES + r")[.:]?", re.IGNORECASE)

#: Fewest letters of a head read as set in capitals.
CAPS_LETTERS = 6


def _caps_word(text: str) -> bool:
    """One word in capitals (``METHODS``, ``RESULTS``; set bold, a head; in bold italics,
    F1000's ``REVISED`` badge is none)."""
    word = text.strip()
    return " " not in word and all_caps(word)


def _is_caps_title(text: str) -> bool:
    """A heading's words after its number, all in capitals (``INTRODUCTION``, ``RELATED
    WORK``): at least four letters, every one a capital."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 4 and all(c.isupper() for c in letters)


def alpha_count(text: str) -> int:
    return sum(map(str.isalpha, text))


def alpha_ratio(text: str) -> float:
    chars = "".join(text.split())  # str.split drops exactly the str.isspace characters
    return sum(map(str.isalpha, chars)) / max(len(chars), 1)


#: Longest text (non-space characters) taken as a display-formula fragment.
FRAGMENT_MAX = 16


def is_glyph_fragment(text: str) -> bool:
    """A short piece of a display formula: a glyph with no Unicode mapping (U+FFFD, typical
    of the big brackets and radicals of math-extension fonts) among few letters."""
    chars = "".join(text.split())
    return 0 < len(chars) <= FRAGMENT_MAX and "\ufffd" in chars and alpha_ratio(text) < 0.6


#: Prose in a short line: a Latin word of four letters (formulas use 1-3 letter symbols:
#: ln, max), a word of two letters in another script (Greek, Hangul: formulas use single
#: Greek letters), or a line opening with a lowercase word (``by 5 μm.``, ``of the 2 × 2``:
#: the end of a sentence carried over from a column or page before).
_PROSE_RE = re.compile(r"[A-Za-z]{4}|[^\W\d_A-Za-z]{2}|^[a-z]{2,} ")
#: Operators and relations (not Greek letters, ``·`` joining words, or ``_``).
_OPERATOR_CHARS = set("=+−×÷±∓≤≥≈≠≡∝∈∉⊂⊆∑∏∫∂√∇→←⇒<>")
_RELATION_CHARS = set("=≡≤≥≈≠∝∈∉⊂⊆∂∑∏∫√∇→⇒")


def is_formula_line(text: str) -> bool:
    """A line of a display formula set on its own (``Ψ(x, q) = − ∂ ln f0``) or a piece of
    one (``˙Ψ −i q``, ``+ m``): no prose (``_PROSE_RE``) and an operator; with a relation or
    an operator of analysis it is a formula line, else only a piece as short as a glyph
    fragment that does not end a sentence. ``·`` counts only set apart (``k · n``); between
    words (``예방·관리``) it is punctuation."""
    if _PROSE_RE.search(text):
        return False
    if not any(ch in _OPERATOR_CHARS for ch in text) and " · " not in text:
        return False
    if any(ch in _RELATION_CHARS for ch in text):
        return True
    return len("".join(text.split())) <= FRAGMENT_MAX and not text.rstrip().endswith(".")


#: A bold head standing alone on two lines may state a finding (a results section's
#: ``FISH using Arabidopsis-type telomere repeat, 5S rDNA and 45S rDNA allows unambiguous
#: identification of 3 Rosa wichurana mitotic chromosomes``): this many characters and words.
LONG_HEAD_CHARS = 180
LONG_HEAD_WORDS = 25
#: How much larger than the body (a factor) a head of three or four lines in the body's
#: weight is set at least (a slide's 18 pt text over 14 pt is no head).
HEAD_LARGER = 1.4


#: How much larger than the body (a factor) a display title is set, which may wrap over as
#: many lines as its words fill (a command paper's cover: ``Government response to`` | ``the
#: House of Lords UK`` | … six lines of 38 pt over 12 pt text).
DISPLAY_HEAD = 2.5


#: Fewest words of prose a head set large holding one mathematical sign has.
MATH_HEAD_WORDS = 5


def is_short(n_lines: int, text: str) -> bool:
    """At most two lines, 120 characters and 15 words: a heading or formula line's size."""
    return n_lines <= 2 and len(text) <= 120 and 0 < len(text.split()) <= 15


#: A symbol's categories: a symbol (``So``), or a private-use code an icon font draws
#: (FontAwesome's bullhorn before a newsletter's ``What happened in 2015?``).
_MARK_CATEGORIES = ("So", "Co")


def unmarked(text: str) -> str:
    """``text`` without the symbols that mark a section in front of it (a textbook's
    advanced sections: Erickson's *Algorithms* sets a heart, its font maps it to ``™``;
    ``★ Exercises``): the section's name."""
    rest = text.lstrip("".join(c for c in text[:3] if unicodedata.category(c) in _MARK_CATEGORIES)).lstrip()
    return rest or text


#: A table of contents entry's end: dot leaders or a page number after spaces.
_CONTENTS_ENTRY_RE = re.compile(r"(?:\.\s?){3,}\s*\w*$|\s{2,}\d{1,4}$|\s\d{1,4}$")


def _lowercase_name_head(text: str) -> bool:
    """Whether a line set large and bold opens with a name in lowercase (GSA's
    ``orthofisher and BUSCO obtain similar results``): three words or more, the first of
    five letters or more (a title's next line opens ``with``, a sample's run of Latin ``ac``)."""
    words = text.split()
    return len(words) >= 3 and words[0].isalpha() and words[0].islower() and len(words[0]) >= NAME_HEAD_LETTERS


#: How far under the body (points) an italic subsection head numbered two deep may be set.
ITALIC_SUBHEAD_UNDER = 1.2
#: Fewest letters of a lowercase name opening a head.
NAME_HEAD_LETTERS = 5


def _marked_capital(text: str) -> bool:
    """A capital after a symbol that marks a section (``unmarked``)."""
    rest = unmarked(text)
    return rest != text and rest[:1].isupper()


#: A heading lettered or numbered with a bracket before a capital (the Royal Society's
#: ``(a) Study area``, IEEE's third level ``1) DATA AUGMENTATION``).
BRACKET_HEAD_RE = re.compile(r"\(?(?:[a-z]|[ivx]{1,4}|\d{1,2})\)\s+[A-Z]")


def classify(text: str, size: float, bold: bool, n_lines: int, body: float,
             standalone: bool, *, italic: bool = False, small_caps: bool = False
             ) -> tuple[ChunkType, str | None]:
    """A block's type from its text and typography (largest size, all bold, italic or in
    small capitals, line count), with its heading number when it is a numbered heading.
    ``standalone``: the block was not split from a larger one."""
    if CAPTION_RE.match(text):
        return ("table" if is_table_caption(text) else "figure"), None
    if LIST_RE.match(text):
        return "list", None
    if len(text) >= 300:
        return "paragraph", None
    # (a long head set large and bold may wrap onto a third line in its column: Frontiers'
    # ``Salvinorin A as a Novel Scaffold for KOPr`` | ``Medicinal Chemistry and …`` | ``of …``;
    # so may one set much larger in a narrow margin, onto a fourth: GAO's 17 pt ``Analysis
    # of Close-`` | ``Ended Survey`` | ``Questions`` beside 11 pt text)
    short = is_short(n_lines, text) or (is_short(2, text) and (
        (n_lines == 3 and bold and size >= body + 1.5) or (n_lines <= 4 and size >= body * HEAD_LARGER))) \
        or (bold and standalone and n_lines == 2 and len(text) <= LONG_HEAD_CHARS
            and len(text.split()) <= LONG_HEAD_WORDS) \
        or (size >= DISPLAY_HEAD * body and len(text) <= LONG_HEAD_CHARS and len(text.split()) <= LONG_HEAD_WORDS)
    # (an identifier's underscore is no subscript: a manual's ``UCODE_2005`` in its heads)
    math = sum(map(_MATH_CHARS.__contains__, _IDENT_UNDERSCORE_RE.sub("", text) if "_" in text else text))
    number = heading_number(text)
    if (number is not None and "." in number and short and not math
            and (n_lines == 1 or (bold and size >= body + 1.5))
            and (bold or italic) and text.endswith(".") and size >= body - 0.3):
        # acmart's "6.1.2 Highlighting based on Engagement (D1)." on its own line; set
        # larger, over two (Springer Nature's ``4.1 Vegetation structure as a key driver of
        # mosquito`` | ``communities including potential vectors.``)
        return "heading", number
    if short and (bold or italic) and text.rstrip().endswith(".") and _LEGAL_HEAD_RE.match(text) and size >= body - 0.3:
        return "heading", None  # a bill's or report's "Section 2. Sense of Congress." set apart
    if (
        short
        # (one sign among words, set large, is a head's: a slide's ``Introductions – tell
        # us about yourself (≤ 1 minute)``; a formula has more signs or fewer words)
        and (not math or (math == 1 and size >= body + 1.5 and prose_words(text) >= MATH_HEAD_WORDS))
        and (text[0].isupper() or text[0].isdigit() or _marked_capital(text)
             or (size >= body + 1.5 and bool(BRACKET_HEAD_RE.match(text)))
             # a head set large and bold opening with a name in lowercase (GSA's
             # ``orthofisher and BUSCO obtain similar results``)
             or (size >= body + 1.5 and bold and standalone and _lowercase_name_head(text)))
        # (an ellipsis ends a head as well: AGU's ``1. A Long Time Ago, in a Galaxy Far, Far Away...``)
        and (not text.endswith((".", ",", ";")) or text.endswith("..."))
        and not _LISTING_LINE_RE.match(text)  # "21: end procedure", a numbered listing's line
        and not _figures_row(text)  # a table's bold row: "2024 Apr 132.2 3.0 0.5 133.5 …"
        and not is_theorem_label(text)  # "Lemma 2.2. Let k ≤ d. Then": a statement, no section
        # a word of three letters at least, or letter-spaced ``K E Y W O R D S``: not a
        # big operator (TeX's summation ``P``)
        and (any(sum(map(str.isalpha, w)) >= 3 for w in text.split()) or alpha_count(text) >= 6)
    ):
        number = heading_number(text)
        if size >= body + 1.5 and alpha_ratio(text) > 0.5:
            return "heading", number
        if bold and (number is not None or (standalone and size >= body - 0.3 and (
                n_lines == 1 or (n_lines == 2 and not text.endswith(":") and not is_caps_heading(text))))):
            return "heading", number
        if number is not None and size >= body + 0.5:
            return "heading", number
        one_line = standalone and n_lines == 1
        # A number three levels deep on a line of its own in the body's face (a thesis's
        # ``5.4.3.5. Tiempos de ejecución``), or two with a stop after it (A&A's ``3.2.
        # gammapy.data`` over its ``3.3.1. Effective area``): no list item or sentence is
        # numbered so.
        if number is not None and (number.count(".") >= 2 or (
                number.count(".") == 1 and text.startswith(number + ". "))) and one_line \
                and size >= body - 0.3 and not _CONTENTS_ENTRY_RE.search(text):
            return "heading", number
        # A numbered line set in italics on its own ("2.1. Main Objectives", MDPI, Elsevier).
        if italic and number is not None and one_line and (
                size >= body - 0.3 or ("." in number and size >= body - ITALIC_SUBHEAD_UNDER)):
            # (a subsection's, numbered two deep, may be set a point under the body: the
            # 2014 New Journal of Physics' 11 pt ``3.1. Barotropic vorticity equation``)
            return "heading", number
        # A numbered line in small capitals (amsart's "1. Introduction" in CMCSC10); an
        # unnumbered one standing alone, a few words opening with a capital and ending in
        # none of a sentence's marks (amsart's centred "Introduction", "Acknowledgements").
        if small_caps and number is None and (lowered := _SMALL_CAPS_NUM_RE.match(text)):
            number = lowered.group(1)  # (small capitals the text layer gives as lowercase)
        if small_caps and number is not None and n_lines == 1 and size >= body - 0.3:
            return "heading", number
        if small_caps and one_line and size >= body - 0.3 and len(text.split()) <= SMALL_CAPS_HEAD_WORDS \
                and text[:1].isupper() and not text.rstrip().endswith((".", ",", ";", ":")):
            return "heading", number
        # A bold line in capitals on its own, even set smaller than the body ("THE SOCIAL
        # ECOLOGY OF WOLVES", Frontiers' subsection heads); so a paper's usual section name
        # (a working paper's 10.9 pt centred ``Abstract`` over 12 pt text).
        if bold and one_line and (is_caps_heading(text) or (_caps_word(text) and not italic)
                                  or _PAPER_HEAD_RE.fullmatch(text.strip())) and size >= body - 2.0:
            return "heading", number
        # So in a face of small capitals, on a line or two of their own (the British
        # Ecological Society's ``SAMPLING SITE, CORING AND RADIOCARBON DATING`` in 7 pt
        # Arial small capitals beside 9 pt Times).
        if small_caps and standalone and is_caps_heading(text) and size >= body - 2.0:
            return "heading", number
        # A line in capitals with a section number, in the body's own roman (IEEE's
        # small capitals "I. INTRODUCTION", Wiley's "1. INTRODUCTION"), also where the
        # text layer puts it in one block with the keywords above it. A single letter is
        # no section number here: "A. SMITH" is a name.
        if n_lines == 1 and number is not None and SECTION_NUMBER_RE.fullmatch(number) \
                and _is_caps_title(text[len(number):]) and size >= body - 2.0:
            return "heading", number
    if (
        (_EQNUM_RE.search(text) and (math >= 1 or alpha_ratio(text) < 0.6))
        or (math >= 3 and alpha_ratio(text) < 0.5)
        or is_glyph_fragment(text)
    ):
        return "equation", None
    return "paragraph", None


def lower_words(words: list[str]) -> int:
    """How many of ``words`` are words in lowercase letters (two letters or more)."""
    return sum(1 for w in words if len(w) > 1 and w.isalpha() and w.islower())


#: Fewest CJK letters of a piece of running text (a label or a name has fewer) ...
CJK_PROSE = 16
#: ... which has clauses, marked off as Chinese and Japanese do, or Korean (in Latin marks).
_CJK_CLAUSE_MARKS = ("，", "。", "、", "；", ", ", ". ")


def cjk_letters(text: str) -> int:
    """How many Chinese, Japanese or Korean letters ``text`` holds."""
    return len(CJK_RE.findall(text))


def word_count(text: str) -> int:
    """About how many words ``text`` holds: its space-separated words, and in Chinese,
    Japanese or Korean, which set none between words, one a two letters."""
    return len(text.split()) + cjk_letters(text) // 2


def is_prose(text: str) -> bool:
    """Whether ``text`` reads as prose: a sentence with words in lowercase letters, or most
    of its words so (a figure's labels are names, numbers and OCR debris, which may end in a
    stray full stop), or running Chinese, Japanese or Korean. Up to ``LABEL_WORDS`` words
    without a sentence's end is a label."""
    if cjk_letters(text) >= CJK_PROSE and any(mark in text for mark in _CJK_CLAUSE_MARKS):
        return True  # (a title page's ``培养单位：计算机科学与技术系`` has no clause in it)
    words = text.split()
    lower = lower_words(words)
    if text.rstrip().endswith(SENT_END):
        return lower >= 2
    if (len(words) <= LABEL_WORDS and len(text) < 80) or alpha_ratio(text) < 0.3:
        return False
    return lower >= len(words) / 2
