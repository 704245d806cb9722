"""Glyphs a font's ``ToUnicode`` map gives as U+FFFF, read from their glyph names.

Some producers write a ``ToUnicode`` map that sends every glyph they could not name to
U+FFFF, a code point Unicode reserves as no character at all, while the font's
``/Encoding /Differences`` still names each glyph: an old-style figure ``seven.oldstyle``,
a small capital ``i.sc`` (Jeff Erickson's *Algorithms*: every chapter, section, figure and
page number, and every running head). MuPDF and poppler both follow the map, so the text
layer reads ``Figure \\uffff.\\uffff.``. The glyph's name says what it is, by the Adobe
Glyph List's rules (``fontTools.agl``: the part before the first full stop, ``uniXXXX``,
``f_i``).

Extracted text keeps no character codes, so each such glyph is matched to its code by its
advance width: the code's ``/Widths`` entry, in thousandths of the size, is the glyph's
box width. A glyph is renamed only when every code of its font name mapped to U+FFFF with
that width (within ``WIDTH_SLACK``) names the same character; otherwise it stays as it
is, and is quoted as an unreliable glyph.

Pure logic: the PyMuPDF side (``vaultd.parse.glyphs``) reads the fonts' objects.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

#: The code point such maps give a glyph they cannot name.
UNMAPPED = "\uffff"
#: How far (thousandths of the size) a glyph's box width may stand from its code's width.
WIDTH_SLACK = 0.6

_HEX = r"<([0-9A-Fa-f]+)>"
_BFCHAR_RE = re.compile(r"beginbfchar(.*?)endbfchar", re.DOTALL)
_BFRANGE_RE = re.compile(r"beginbfrange(.*?)endbfrange", re.DOTALL)
_PAIR_RE = re.compile(_HEX + r"\s*" + _HEX)
_RANGE_RE = re.compile(_HEX + r"\s*" + _HEX + r"\s*(?:" + _HEX + r"|\[([^\]]*)\])")
_DIFF_TOKEN_RE = re.compile(r"(\d+)|/([^\s/\[\]()<>{}%]+)")

#: A font's glyphs mapped to U+FFFF: (width in thousandths of the size, the character its
#: name gives), one per code.
Named = list[tuple[float, str]]


def unmapped_codes(cmap: str) -> set[int]:
    """The codes a ``ToUnicode`` CMap sends to U+FFFF (in ``bfchar`` pairs, ``bfrange``
    ranges that start at U+FFFF on a one-code range, or a range's array entries)."""
    codes: set[int] = set()
    for section in _BFCHAR_RE.findall(cmap):
        for code, uni in _PAIR_RE.findall(section):
            if uni.upper() == "FFFF":
                codes.add(int(code, 16))
    for section in _BFRANGE_RE.findall(cmap):
        for lo, hi, uni, array in _RANGE_RE.findall(section):
            first, last = int(lo, 16), int(hi, 16)
            if uni:
                if uni.upper() == "FFFF" and first == last:
                    codes.add(first)
                continue
            for offset, item in enumerate(re.findall(_HEX, array)):
                if item.upper() == "FFFF" and first + offset <= last:
                    codes.add(first + offset)
    return codes


def differences(array: str) -> dict[int, str]:
    """An ``/Encoding``'s ``/Differences`` array (``[33/seven.oldstyle/one.oldstyle]``)
    as code → glyph name."""
    names: dict[int, str] = {}
    code = 0
    for number, name in _DIFF_TOKEN_RE.findall(array):
        if number:
            code = int(number)
        else:
            names[code] = name
            code += 1
    return names


def widths(array: str, first_char: int) -> dict[int, float]:
    """A simple font's ``/Widths`` array as code → width (thousandths of the size)."""
    return {first_char + i: float(w) for i, w in enumerate(array.strip("[] \n").split())}


def named_glyphs(cmap: str, diffs: str, sizes: dict[int, float], to_unicode: Callable[[str], str]) -> Named:
    """The glyphs of one font whose ``ToUnicode`` map gives U+FFFF and whose name gives one
    character (``sizes``: its ``widths``; ``to_unicode``: the Adobe Glyph List's reading of
    a name, ``""`` for none)."""
    codes = unmapped_codes(cmap)
    if not codes:
        return []
    names = differences(diffs)
    out: Named = []
    for code in sorted(codes):
        char = to_unicode(names[code]) if code in names else ""
        if len(char) == 1 and code in sizes and char.isprintable():
            out.append((sizes[code], char))
    return out


def rename(text: str, boxes: Iterable[float], size: float, named: Named) -> str:
    """``text`` (one character per glyph; ``boxes``: each glyph's box width, in points, at
    ``size``) with each U+FFFF its width names without doubt replaced by that character."""
    if size <= 0:
        return text
    out = list(text)
    for i, width in enumerate(boxes):
        if i >= len(out) or out[i] != UNMAPPED:
            continue
        units = width / size * 1000.0
        found = {char for w, char in named if abs(w - units) <= WIDTH_SLACK}
        if len(found) == 1:
            out[i] = found.pop()
    return "".join(out)


def rename_spans(pairs: Iterable[tuple[dict[str, Any], list[Any]]], fonts: dict[str, Named]) -> None:
    """Each span of ``pairs`` (a ``dict`` span with its ``rawdict`` glyphs) that holds
    U+FFFF, in a font of ``fonts`` (by name without its subset tag), renamed in place."""
    for span, chars in pairs:
        if UNMAPPED not in span["text"]:
            continue
        named = fonts.get(base_font(span["font"]))
        if named:
            span["text"] = rename(span["text"], (c["bbox"][2] - c["bbox"][0] for c in chars),
                                  span["size"], named)


def base_font(name: str) -> str:
    """A font's name without its subset tag (``IYUOZT+Roboto-Bold`` → ``Roboto-Bold``)."""
    tag, plus, rest = name.partition("+")
    return rest if plus and len(tag) == 6 and tag.isupper() else name
