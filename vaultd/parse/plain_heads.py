"""Headings in a text layer without fonts to tell them by (an OCR layer, one invisible
font throughout: ``plain_text_layer``): a heading set on its paragraph's first line, short
and unpunctuated (``plain_lead``), or a line of its own in capitals ending in a stop
(``plain_caps_head``), told by their shape alone. Pure: lines in, yes or no out.
"""

from __future__ import annotations

from collections import Counter

from vaultd.parse.classify import all_caps
from vaultd.parse.paras import Line

#: Share of a document's characters in its commonest font above which the font tells
#: nothing about structure (an OCR text layer: one invisible font throughout).
PLAIN_FONT_SHARE = 0.98
#: Longest heading told from its line's shape alone in such a layer (words).
PLAIN_HEAD_WORDS = 6


def plain_text_layer(pages: list[list[Line]]) -> bool:
    """Whether one font holds nearly all the document's characters, so that headings cannot
    be told by their font (an OCR layer, such as a scanned paper's ``GlyphLessFont``)."""
    chars: Counter[str] = Counter()
    for lines in pages:
        for ln in lines:
            chars[ln.font] += len(ln.text)
    total = sum(chars.values())
    if not total:
        return False
    font, n = chars.most_common(1)[0]
    return bool(font) and n >= PLAIN_FONT_SHARE * total  # "": a parser that names no fonts


def plain_lead(prev: Line, cur: Line, right: float, width: float) -> bool:
    """In a text layer without fonts: a block's first line that stops well short of the
    block's right edge, starts with a capital, ends without punctuation and has at most
    ``PLAIN_HEAD_WORDS`` words, above a line that starts with a capital under it (``Opsin
    sequencing`` / ``We amplified …``): a heading set on its paragraph's first line."""
    text = prev.text.strip()
    return (bool(text) and text[0].isupper() and text[-1].isalnum()
            and len(text.split()) <= PLAIN_HEAD_WORDS and prev.bbox[2] < right - 0.25 * width
            and cur.text[:1].isupper() and abs(cur.bbox[0] - prev.bbox[0]) <= 2.0 * max(prev.size, 1.0))


def plain_caps_head(line: Line) -> bool:
    """In a text layer without fonts: a line of its own in capitals, a few words and no
    figure, ending in a stop (an 1899 journal's ``ATTITUDE OF CREDIT MEN.`` over its
    text): a heading, as the page sets it. (Without the stop, a title page's ``A
    DISSERTATION`` is none.)"""
    text = line.text.strip()
    words = text.split()
    return 2 <= len(words) <= PLAIN_CAPS_WORDS and all_caps(text) and not any(c.isdigit() for c in text) \
        and text.endswith(".") and text[-2:-1].isalpha()


#: Most words of a heading in capitals in a text layer without fonts.
PLAIN_CAPS_WORDS = 10
