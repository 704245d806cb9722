"""Unreliable text layers: glyphs a PDF maps to no text, or to the wrong text.

A quote must be what the page shows. Some fonts break that in ways the text layer itself
reveals:

* a glyph mapped to no Unicode is U+FFFD ``�`` in vaultd's text (layout rule 5): math
  italic and symbol fonts without a usable ``ToUnicode`` map (``For a sentence of � words``);
* a code point of a Private Use Area (U+E000–U+F8FF, planes 15–16): a font's own symbols
  that no reader can render as text;
* letters mapped to dingbats and symbols (U+2600–U+27BF) by a font's broken
  ``ToUnicode`` map (``●❡tt✐♥❣ st❛rt❡❞`` for "Getting started"), a fifth of the text or
  more;
* the classic mis-mapping of MathType's and Symbol fonts by some publishers' PDF makers,
  where ``=`` comes out as ``¼``, ``(`` ``)`` as ``ð`` ``Þ`` and ``+`` as ``þ``
  (``Fexti ¼ 100 FEi ð1Þ`` on a page showing ``Fexti = 100 FEi (1)``): an ``ð…Þ`` pair
  around a short run, or two ``¼``/``þ`` standing alone between spaces (one alone may be a
  real fraction: ``costs ¼ of``).

``unreliable(text)`` says whether a text has any of these. Such a chunk is marked
``text_layer: unreliable`` in its provenance, shown with a warning in the note and labelled
by ``quote``; a ``mis_mapped`` formula (short, few letters, or fewer than three
``prose_words``) is an ``equation`` chunk, never a paragraph (short lines with an unmapped
``�`` are judged by the formula rules of ``vaultd.parse.classify``: ``See caf� menu.`` is
prose). A paragraph of prose with a few unmapped inline
symbols stays a paragraph, marked: splitting a sentence at each variable would quote
neither the sentence nor the formula.
Pure text rules; ``vaultd.parse.structure`` applies them to every block.
"""

from __future__ import annotations

import re

_WRONG_RE = re.compile(
    "[\ue000-\uf8ff\U000f0000-\U0010ffff]"  # Private Use Areas
    r"|ð[^\sðÞ]{1,12}Þ"  # ( … ) of a mis-mapped equation number or group: ð1Þ
)
#: Symbols and dingbats (U+2600–U+27BF): a font whose ``ToUnicode`` map gives them for
#: letters (spatstat's vignette reads ``●❡tt✐♥❣ st❛rt❡❞`` for "Getting started") when
#: they are a fifth of a text's characters or more, three at least (a checklist's ``✓``
#: before each item is less).
_SYMBOL_RE = re.compile("[\u2600-\u27bf]")
SYMBOL_LEAST, SYMBOL_SHARE = 3, 5
#: A character one of the patterns needs: far quicker to rule out than any.
_TELLTALE_RE = re.compile("[ð¼þ\u2600-\u27bf\ue000-\uf8ff\U000f0000-\U0010ffff]")
#: ``=`` and ``+`` of a mis-mapped formula, standing alone. ``¼`` is a real fraction in
#: prose too (``costs ¼ of``), so two of them are needed, or one beside an ``ð…Þ`` pair.
_LONE_RE = re.compile(r"(?:^|\s)[¼þ](?=\s|$)")

#: The provenance value that marks a chunk whose text layer is unreliable.
UNRELIABLE = "unreliable"


def unreliable(text: str) -> bool:
    """Whether ``text`` holds glyphs its PDF maps to no text or to the wrong text."""
    return "\ufffd" in text or mis_mapped(text)


def mis_mapped(text: str) -> bool:
    """Whether ``text`` holds glyphs its PDF maps to the wrong text (Private Use code
    points, MathType's ``¼``/``ð…Þ``/``þ``), not only glyphs mapped to none."""
    if text.isascii() or _TELLTALE_RE.search(text) is None:
        return False  # most text: none of the characters the patterns need
    if _WRONG_RE.search(text) is not None or len(_LONE_RE.findall(text)) >= 2:
        return True
    symbols, chars = _symbols(text)
    return symbols >= SYMBOL_LEAST and symbols * SYMBOL_SHARE >= chars


def letter_spaced(text: str) -> bool:
    """Whether a paragraph's words come apart into their letters (a 1985 scan's OCR layer:
    ``The a b i l i t y t o numerically d e f i n e …``, the page showing ``ability to
    define``): a run of ``SPACED_RUN`` single letters, or ``SPACED_RUNS`` runs of three. Its
    quote is not what the page shows: the chunk is marked unreliable (a head's letter-spaced
    ``K E Y W O R D S`` is set so, and is no paragraph)."""
    if not any(word in text for word in _SPACED_WORDS):
        return False  # (nearly every text: a substring test is far quicker than the pattern)
    runs = [len(m.group().split()) for m in _SPACED_RE.finditer(text)]
    return any(n >= SPACED_RUN for n in runs) or len(runs) >= SPACED_RUNS


#: Three single lowercase letters or more, a space apart (``t h e``; a formula's variables
#: are as often capitals, Greek or set apart by operators).
_SPACED_RE = re.compile(r"(?<!\S)(?:[a-z] ){2,}[a-z](?!\S)")
SPACED_RUN, SPACED_RUNS = 5, 2
#: Common short words letter-spaced, one of which a letter-spaced paragraph holds.
_SPACED_WORDS = (" t h e ", " o f ", " t o ", " a n d ", " i n ", " i s ", " f o r ", " t h a t ")


#: Share of a page's characters that, mapped to symbols, make its text layer unreadable.
GARBLED_SHARE = 0.3


def garbled(texts: list[str]) -> bool:
    """Whether a page's text (its lines' ``texts``) is a symbol substitution, not letters:
    ``GARBLED_SHARE`` of its characters or more are dingbats and symbols (U+2600–U+27BF),
    as spatstat's vignette reads ``●❡tt✐♥❣ st❛rt❡❞`` for "Getting started". Its quotes
    would be unreadable; the page is read as a scan is (``vaultd.parse.tiers``)."""
    text = "".join(texts)
    if _SYMBOL_RE.search(text) is None:  # (nearly every page)
        return False
    symbols, chars = _symbols(text)
    return symbols >= GARBLED_SHARE * chars


def _symbols(text: str) -> tuple[int, int]:
    """How many of ``text``'s characters are symbols and dingbats, and how many it has
    (spaces not counted)."""
    return len(_SYMBOL_RE.findall(text)), len(text) - text.count(" ")


#: A word of prose: four Latin letters or more, not a run of ``ff``/``fi`` (a radical's
#: bar mis-mapped to ligatures comes out as ``ffiffiffi``).
_WORD_RE = re.compile(r"[A-Za-z]{4,}")
_LIGATURE_RUN_RE = re.compile(r"(?:ffi|ff|fi|fl)+")


def prose_words(text: str) -> int:
    """How many words of prose ``text`` has (a formula has few or none)."""
    return sum(1 for w in _WORD_RE.findall(text) if not _LIGATURE_RUN_RE.fullmatch(w))
