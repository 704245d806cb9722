"""Embedded font programs read with fontTools: a CFF program's top dictionary and a
font's glyph names by glyph id. Read only for a page that needs them (rare), so fontTools
is imported then."""

from __future__ import annotations

import io
from typing import Any


def cff_top(program: bytes) -> Any | None:
    """The top dictionary of a CFF font program (its ``Encoding``, ``charset``, ``ROS``),
    or None when fontTools cannot read it."""
    # lazy: fontTools is read only for a page whose glyphs need their font's program
    from fontTools.cffLib import CFFFontSet

    try:
        cff = CFFFontSet()
        cff.decompile(io.BytesIO(program), None)
        return cff[cff.fontNames[0]]
    except Exception:  # not a CFF program fontTools reads
        return None


def glyph_order(ext: str, program: bytes) -> list[str] | None:
    """The glyph names of an embedded font by glyph id (PyMuPDF's ``extract_font``
    extension ``ext``: a name-keyed CFF program's charset, a TrueType or OpenType font's
    glyph order), or None (a CID-keyed CFF names no glyph; other kinds are not read)."""
    if ext == "cff":
        top = cff_top(program)
        return None if top is None or hasattr(top, "ROS") else list(top.charset)
    if ext in ("ttf", "otf"):
        # lazy: as above, fontTools only for a page that needs its font's glyph names
        from fontTools.ttLib import TTFont

        try:
            return list(TTFont(io.BytesIO(program), lazy=True).getGlyphOrder())
        except Exception:  # a damaged or unusual program: no names
            return None
    return None
