"""Glyphs of a font that names them by their code points in four hexadecimal digits.

Some producers (Acrobat Distiller 3 with the Lucida fonts of Plan 9's papers) embed a
Type 1 font without a ``ToUnicode`` map whose built-in encoding names each glyph by its
character's code point in four hexadecimal digits: ``0065`` for ``e``, ``004e`` for ``N``.
poppler reads such names as hexadecimal. MuPDF reads a name of four decimal digits as a
decimal code (``0065`` → ``A``, ``0032`` → a space) and one with a letter as no character
(U+FFFD), so the page's text reads as other letters (``6DA`` for ``The``).

A glyph of such a font is read again (``decode``):

* a U+FFFD by its code, which a second extraction gives for a glyph it cannot name
  (MuPDF's ``TEXT_CID_FOR_UNKNOWN_UNICODE``), and the name the encoding gives that code;
* any other character whose decimal reading is one of the font's names (``A`` → ``0065``)
  and whose glyph is as wide as that name's code advances: that name, read in hexadecimal;
* anything else as it is (a space MuPDF put between two words is no glyph of the font).

Pure logic: the PyMuPDF side (``vaultd.parse.glyphs``) reads the fonts' programs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

#: A glyph name of four hexadecimal digits.
_HEX_NAME_RE = re.compile(r"[0-9A-Fa-f]{4}")
#: Share of a font's named codes that must have such names, and fewest such names (a
#: subset of a few punctuation marks: ``2019``, ``201c``, ``201d``).
HEX_SHARE, HEX_LEAST = 0.8, 2
#: How far (thousandths of the size) a glyph's box may stand from its code's advance.
WIDTH_SLACK = 6.0


@dataclass(frozen=True)
class HexFont:
    """A font whose glyph names are code points in hexadecimal: code → character, the
    codes whose names are all digits by their decimal reading, and code → advance width
    (thousandths of the size)."""

    chars: dict[int, str]
    decimal: dict[int, int]
    widths: dict[int, float]


def hex_font(encoding: Sequence[str], widths: dict[int, float], sure: bool = False) -> HexFont | None:
    """The ``HexFont`` of a font's ``encoding`` (code → glyph name, ``.notdef`` for none),
    when most of its named codes are named so and one name at least holds a letter (else
    the names may be decimal, as MuPDF reads them), or ``sure``: another font of the page
    is named so (a subset of ``2019``, ``2014``: the same producer's punctuation); else
    None."""
    named = {code: name for code, name in enumerate(encoding) if name and name != ".notdef"}
    hexed = {code: name for code, name in named.items() if _HEX_NAME_RE.fullmatch(name)}
    if len(hexed) < HEX_LEAST or len(hexed) < HEX_SHARE * len(named) \
            or not (sure or any(not name.isdigit() for name in hexed.values())):
        return None
    chars = {code: chr(int(name, 16)) for code, name in hexed.items()
             if chr(int(name, 16)).isprintable() or name.lower() == "00ad"}  # (a soft hyphen)
    decimal = {int(name): code for code, name in hexed.items() if name.isdigit() and code in chars}
    return HexFont(chars, decimal, widths)


def decode(glyphs: Sequence[tuple[str, str, float, float]], size: float, font: HexFont) -> str:
    """The text of a span of ``font``: ``glyphs`` are each glyph's character as read, its
    character in the second extraction (its code, where the first gave U+FFFD) and its
    box's left and right edges in points, at ``size``. The font's space glyph reads as a
    control character MuPDF leaves out: a gap of ``SPACE_GAP`` em between two glyphs is
    a word space (poppler's rule)."""
    out: list[str] = []
    right = None
    for char, code_char, x0, x1 in glyphs:
        if right is not None and size > 0 and x0 - right > SPACE_GAP * size and out and out[-1] != " " \
                and char != " ":
            out.append(" ")
        right = x1
        if char == "\ufffd":
            out.append(font.chars.get(ord(code_char), char))
            continue
        code = font.decimal.get(ord(char))
        advance = font.widths.get(code, -1.0) if code is not None else -1.0
        if code is not None and size > 0 and abs((x1 - x0) / size * 1000.0 - advance) <= WIDTH_SLACK:
            out.append(font.chars[code])
        else:
            out.append(char)
    return "".join(out)


#: A gap between two glyphs (ems) that is a word space: poppler's ``minWordSpacing``.
SPACE_GAP = 0.15
