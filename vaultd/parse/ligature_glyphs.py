"""Ligature glyphs MuPDF reads as their first letter alone.

A font may draw ``Th`` as one glyph named ``T_h`` and leave it out of its ``ToUnicode``
map (Hindawi's 2021 Minion Pro). MuPDF then names the glyph from its name and keeps only
the first letter: the text layer reads ``Te global market``, ``Tis is an open access
article``, while poppler, by the Adobe Glyph List's rule for ligature names (the letters
of each part joined by ``_``), reads ``The``. A quote of such a page would not be the
page's words.

A page is looked at only when its text holds words no English sentence spells so
(``Te``, ``Tis``, ``Tey``, ``Tese`` …, ``needs_look``). Then each glyph of its text
trace (``Page.get_texttrace``: character, glyph id, origin) whose font names it a
ligature of two letters or more, read as its first letter alone, is mended to the whole
ligature, matched to the ``rawdict`` glyph at the same origin.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from vaultd.parse.font_programs import glyph_order
from vaultd.parse.glyph_names import base_font

#: Words the ``Th`` ligature read as ``T`` leaves (no English word is spelled so).
_LOST_TH_RE = re.compile(r"\bT(?:e|is|ey|at|ese|ose|ere|erefore|us|rough|ird|ousand|eir|em)\b")

#: A glyph's origin, to a tenth of a point: how a text trace's glyph and a ``rawdict``
#: glyph are matched.
Origin = tuple[float, float]


def needs_look(text: str) -> bool:
    """Whether a span's text holds a word a ``Th`` ligature read as ``T`` would leave."""
    return "T" in text and _LOST_TH_RE.search(text) is not None


def origin_key(x: float, y: float) -> Origin:
    """A glyph's origin to a tenth of a point, as glyphs are matched between extractions."""
    return round(x, 1), round(y, 1)


def ligature_text(name: str, read: str) -> str | None:
    """The whole ligature a glyph named ``name`` stands for, when the text layer ``read``
    it as its first letter alone (``T_h`` read ``T`` → ``Th``); else None. Pure."""
    base = name.partition(".")[0]
    parts = base.split("_")
    if len(parts) < 2 or not all(len(p) == 1 and p.isalpha() for p in parts):
        return None
    whole = "".join(parts)
    return whole if read == whole[0] else None


def lost_ligatures(page: Any) -> dict[Origin, str]:
    """The origins of the page's ligature glyphs read as their first letter alone, with
    the whole ligature each stands for."""
    orders: dict[str, list[str] | None] = {}
    fixes: dict[Origin, str] = {}
    for span in page.get_texttrace():
        font = span["font"]
        if font not in orders:
            orders[font] = _glyph_order(page, font)
        order = orders[font]
        if not order:
            continue
        for uni, gid, origin, _box in span["chars"]:
            if 0 <= gid < len(order) and uni > 0 and "_" in order[gid]:
                whole = ligature_text(order[gid], chr(uni))
                if whole is not None:
                    fixes[origin_key(*origin)] = whole
    return fixes


def mend_spans(pairs: Iterable[tuple[dict[str, Any], list[Any]]], fixes: dict[Origin, str]) -> None:
    """Each span of ``pairs`` (a ``dict`` span with its ``rawdict`` glyphs) that holds a
    glyph of ``fixes``, its text mended in place."""
    for span, chars in pairs:
        keys = [origin_key(*c["origin"]) for c in chars]
        if any(k in fixes for k in keys):
            span["text"] = "".join(fixes.get(k, ch) for k, ch in zip(keys, span["text"], strict=True))


def _glyph_order(page: Any, font: str) -> list[str] | None:
    """The glyph names of the page's embedded font ``font`` by glyph id, or None."""
    doc = page.parent
    for xref, _ext, _kind, name, *_ in page.get_fonts():
        if base_font(name) != base_font(font):
            continue
        _name, ext, _type, program = doc.extract_font(xref)
        return glyph_order(ext, program) if program else None
    return None


#: A ligature's letters with a space after them and a lowercase letter (MuPDF spells a
#: ligature out: ``defi ned``, The Lancet's pages drawing a space glyph inside each
#: ligature's box; no English word ends in ``fi`` or ``fl``).
_LIGATURE_SPACE_RE = re.compile(r"f[il] [a-z]")


def has_ligature_space(text: str) -> bool:
    """Whether a span's text holds a ligature's letters with a space and a lowercase letter
    after them."""
    return _LIGATURE_SPACE_RE.search(text) is not None


def drop_ligature_spaces(pairs: Iterable[tuple[dict[str, Any], list[Any]]]) -> None:
    """Each span of ``pairs`` (a ``dict`` span with its ``rawdict`` glyphs) loses, in place,
    the spaces drawn inside the glyph before them with the next letter set right at that
    glyph's end (``deﬁ ned``, ``eﬀ ective``: the space starts half a point or more before
    the ligature's box ends, and the ``n`` at most half a point after it), which poppler
    reads as no space either: no word ends there. A word's space starts where the glyph
    before it ends."""
    for span, chars in pairs:
        text = span["text"]
        if " " not in text:
            continue
        kept = [
            ch for k, ch in enumerate(text)
            if not (ch == " " and 0 < k < len(text) - 1 and text[k + 1].isalpha()
                    and chars[k]["bbox"][0] < chars[k - 1]["bbox"][2] - 0.5
                    and chars[k + 1]["bbox"][0] <= chars[k - 1]["bbox"][2] + 0.5)]
        span["text"] = "".join(kept)
