"""Whether a font is bold or italic, from its name.

A PDF's font flags rarely say (MuPDF reports ``flags & 16`` only when the font descriptor
does); the PostScript name mostly does, in one of a few conventions:

* ``Family-Style`` or ``Family,Style`` with the style spelled out or abbreviated:
  ``Times-Bold``, ``Arial,BoldItalic``, ``MinionPro-SemiboldIt``, ``TimesNewRomanPS-BoldMT``,
  URW's ``NimbusRomNo9L-Medi`` / ``-ReguItal``, Elsevier's ``AdvGulliv-B`` / ``AdvTimes-i``,
  Adobe's ``-Bd`` / ``-BdIt`` / ``-BdCn`` (bold condensed), the AAS journals'
  ``AdvOT9d60b855.B`` / ``AdvOTb4af3d5d.I``, Springer's Advent ``AdvPTimesB`` / ``AdvPTimesI``
  and Cell Press's ``AdvPSHN-H`` (heavy);
* TeX's Computer Modern and EC names, where the style is in the family:
  ``CMBX10`` (bold extended), ``CMTI10`` (text italic), ``CMSL10`` (slanted), ``SFBX1000``.

``Medium`` is not bold: in most families it is one step above Regular. The subset prefix
(``ABCDEF+``) is ignored, and so is a variant's suffix after a plus (``AdvOT3b30f6db.B+fb``).
"""

from __future__ import annotations

import functools
import re

_BOLD_STYLES = {"b", "bd", "bi", "bdit", "bdita", "boldit", "medi", "mediital", "sb", "sbit",
                "hv", "hvit", "blk", "blkit"}
_ITALIC_STYLES = {"i", "it", "bi", "obl"}  # and any longer style ending in "it" or "ital"
_BOLD_WORDS = ("bold", "black", "heavy", "semibold", "demi")
_ITALIC_WORDS = ("italic", "oblique", "slanted")
#: A subset's prefix: six capitals and a plus (``ABCDEF+Times-Bold``).
_SUBSET_RE = re.compile(r"^[A-Z]{6}\+")
_TEX_BOLD_RE = re.compile(r"^(?:CM|LM|SF|EC|TC)[A-Z]*BX|^CMB\d")
_TEX_ITALIC_RE = re.compile(r"^(?:CM|SF|EC)(?:BX)?(?:TI|SL|IT|SI|SO)\d")


def _style(name: str) -> tuple[str, str]:
    """The name without its subset prefix or a variant's suffix, and its style part in
    lowercase (after the last ``-`` or ``,``, without a trailing ``MT``/``PS``; empty when
    there is none)."""
    base = _SUBSET_RE.sub("", name)
    if "+" in base:  # a variant of the face (ASM's ``AdvOT3b30f6db.B+fb``, its ligatures)
        base = base.partition("+")[0] or base
    cut = max(base.rfind("-"), base.rfind(","))
    style = base[cut + 1:] if cut > 0 else ""
    for tail in ("MT", "PS"):
        if style.endswith(tail) and len(style) > len(tail):
            style = style[: -len(tail)]
    return base, style.lower()


@functools.lru_cache(maxsize=1024)
def face_name(name: str) -> str:
    """A font's name without its subset prefix or a variant's suffix
    (``ABCDEF+Times-Bold`` → ``Times-Bold``, ``AdvOT3b30f6db.B+fb`` → ``AdvOT3b30f6db.B``)."""
    return _style(name)[0]


@functools.lru_cache(maxsize=1024)
def font_family(name: str) -> str:
    """A font's family: its name without the subset prefix, before its style, without a
    trailing number (``MinionPro-Regular`` → ``MinionPro``, ``Corbel2`` → ``Corbel``)."""
    base, _ = _style(name)
    return re.split(r"[-,]", base, maxsplit=1)[0].rstrip("0123456789")


@functools.lru_cache(maxsize=1024)
def is_bold_font(name: str) -> bool:
    """``Times-Bold``, ``AdvGulliv-B``, ``NimbusRomNo9L-Medi``, ``NimbusRomNo9-Med``, ``CMBX10`` …
    (not ``-Medium``)."""
    base, style = _style(name)
    lower = base.lower()
    return (any(w in lower for w in _BOLD_WORDS) or ".B" in base or style in _BOLD_STYLES
            or style.startswith("bd") or bool(_TEX_BOLD_RE.match(base)) or bool(_ADVENT_BOLD_RE.search(base))
            # (URW's Nimbus Roman names its bold "Medium" for the Times weight it copies:
            # ``NimbusRomNo9-Med``, ``NimbusRomNo9L-MediItal``; elsewhere Medium is not bold)
            or (lower.startswith("nimbusrom") and style.startswith("med")))


@functools.lru_cache(maxsize=1024)
def is_italic_font(name: str) -> bool:
    """``Times-Italic``, ``AdvGulliv-I``, ``MinionPro-It``, ``NimbusRomNo9-MedIta``, ``CMTI10``, ``CMSL10`` …"""
    base, style = _style(name)
    lower = base.lower()
    return (any(w in lower for w in _ITALIC_WORDS) or style in _ITALIC_STYLES
            or (len(style) > 2 and style.endswith(("it", "ital", "ita"))) or bool(_TEX_ITALIC_RE.match(base))
            or bool(_DOT_ITALIC_RE.search(base)) or bool(_ADVENT_ITALIC_RE.search(base)))


#: A style after a stop, as the AAS journals' Advent fonts name theirs (``AdvOT9d60b855.B``
#: bold, ``AdvOTb4af3d5d.I`` italic, ``.BI`` both).
_DOT_ITALIC_RE = re.compile(r"\.(?:I|BI|IB)$")
#: Advent 3B2's named faces, the style a capital after the family (Springer's
#: ``AdvPTimesB`` bold, ``AdvPTimesI`` italic, after a second random prefix:
#: ``FrfvttAdvPTimesB``); its PostScript faces' heavy weight, ``-H`` (Cell Press's heads
#: in ``AdvPSHN-H``; ``-H`` elsewhere may name a CJK font's horizontal encoding).
_ADVENT_BOLD_RE = re.compile(r"AdvP[A-Z][a-z]+(?:B|BI|IB)$|^AdvPS\w+-H$")
_ADVENT_ITALIC_RE = re.compile(r"AdvP[A-Z][a-z]+(?:I|BI|IB)$")


_MONO_RE = re.compile(r"^(?:CM|SF|EC|TC|LM)[A-Z]*TT|^(?:t1x|tx|rtx|ntx)(?:b|sl|bsl)?tt"  # (txfonts' t1xtt)
                      r"|Mono|Courier|Consol|Menlo|Monaco|Inconsolata"
                      r"|SourceCode|FiraCode|NimbusMon|Typewriter|Code\b"
                      r"|mplus-?1mn", re.IGNORECASE)  # (M+ 1mn: Asciidoctor PDF's listings)


@functools.lru_cache(maxsize=1024)
def is_mono_font(name: str) -> bool:
    """A typewriter face, for code: ``CMTT10``, ``CMSLTT10``, ``LMMono10-Regular``, ``t1xtt``,
    ``Courier``, ``Consolas``, ``DejaVuSansMono``, ``SourceCodePro-Regular``,
    ``mplus1mn-regular``."""
    base, _ = _style(name)
    return bool(_MONO_RE.search(base))


#: Small capitals: TeX's ``CMCSC10``/``ECCC1000``/``LMRomanCaps10``, and a style ending in
#: ``SC`` (``MinionPro-RegularSC``, ``TimesNewRomanPS-SC``) or spelled out.
_SMALL_CAPS_RE = re.compile(r"^(?:CMCSC|ECCC|EUSC|LMRomanCaps|LMRomanSlantCaps)\d|SmallCap|Small-Cap",
                            re.IGNORECASE)

#: A style part (after the family's ``-``) naming small capitals: ``SC``, ``RegularSC``,
#: ``ItSC`` … (not ``Desc``).
_SC_STYLE_RE = re.compile(r"(?:regular|roman|it|italic|bold|bd|semibold|sb|medium|light|book)?sc")


@functools.lru_cache(maxsize=1024)
def is_small_caps_font(name: str) -> bool:
    """A face of small capitals, in which amsart sets its section heads (``1. Introduction``
    in ``CMCSC10``) and some journals their authors' names."""
    base, style = _style(name)
    return bool(_SMALL_CAPS_RE.search(base) or _SC_STYLE_RE.fullmatch(style))
