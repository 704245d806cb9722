"""A first page's spans as the reader sees them (pure): what is drawn, in the letters drawn.

Applied to PyMuPDF's ``page.get_text("dict")`` spans before they become lines
(``vaultd.capture.page_layout``):

- **Invisible text** (render mode 3: neither filled nor stroked, which PyMuPDF reports as
  ``alpha`` 0 and no fill/stroke bit in ``char_flags``) is left out when the page also
  draws visible text: it is a hidden layer, not what the page prints. A page whose text
  is all invisible is a scan's OCR layer, and that layer is all there is to read.
- **A Cyrillic font without a Unicode map** extracts as Latin-1 letters in the places of
  the Windows-1251 ones ("Íå î÷åíü" for "Не очень"). When a page holds several words
  made only of letters U+00C0–U+00FF (Western languages mix them with ASCII letters), each
  such word is read back through Windows-1251.
- **Mathematical letters** (U+1D400–U+1D7FF, a title's italic *a*) come out of PyMuPDF
  1.28 without their plane, as Hangul syllables (U+D400–U+D7FF): in a math font they are
  given their plane back.
- **A spacing accent stored before its letter** ("c´omo", "Par´e") is combined with it
  ("cómo", "Paré"), when the two make one precomposed letter. The parser applies the same
  rule to quotes (``vaultd.parse.layout``); capture may not import the parser, so the
  table is repeated here.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

CHAR_FILLED = 16  # PyMuPDF char_flags bit: the glyphs are filled
CHAR_STROKED = 32  # … or stroked; neither (render mode 3) is invisible
MOJIBAKE_MIN_WORDS = 3  # this many Latin-1-only words make a page's text Windows-1251
_MATH_PLANE = 0x10000
_LOST_PLANE_RE = re.compile("[\ud400-\ud7ff]")
_LATIN1_WORD_RE = re.compile(r"(?<![\w\u00c0-\u00ff])[\u00c0-\u00ff]+(?![\w\u00c0-\u00ff])")
_SPACING_ACCENTS = {
    "\u00b4": "\u0301", "\u0060": "\u0300", "\u00a8": "\u0308", "\u02c6": "\u0302",
    "\u02dc": "\u0303", "\u00b8": "\u0327", "\u02c7": "\u030c", "\u02d8": "\u0306",
    "\u02da": "\u030a", "\u02dd": "\u030b", "\u02d9": "\u0307", "\u02db": "\u0328",
}
_ACCENT_RE = re.compile(
    r"(?<=\w)([" + "".join(_SPACING_ACCENTS) + r"])([A-Za-z\u0131])|"
    r"(?<![\w'])([" + "".join(_SPACING_ACCENTS) + r"])([A-Za-z\u0131])(?=\w)")


def is_invisible(span: dict[str, Any]) -> bool:
    """True for a span drawn neither filled nor stroked (text render mode 3)."""
    if int(span.get("alpha", 255)) == 0:
        return True
    flags = span.get("char_flags")
    return flags is not None and not int(flags) & (CHAR_FILLED | CHAR_STROKED)


def drawn(spans: Iterable[dict[str, Any]], page_has_visible_text: bool) -> list[dict[str, Any]]:
    """The spans the page shows (all of them on an OCR layer, which is all invisible)."""
    if not page_has_visible_text:
        return list(spans)
    return [s for s in spans if not is_invisible(s)]


def has_visible_text(page: dict[str, Any]) -> bool:
    return any(s.get("text", "").strip() and not is_invisible(s) for s in _spans(page))


def _spans(page: dict[str, Any]) -> Iterable[dict[str, Any]]:
    for block in page.get("blocks", []):
        for line in block.get("lines", []):
            yield from line.get("spans", [])


def is_cp1251_mojibake(page: dict[str, Any]) -> bool:
    """True when the page's text holds several words made only of U+00C0–U+00FF letters
    (two or more letters each): a Cyrillic font extracted without its Unicode map."""
    words = 0
    for span in _spans(page):
        words += sum(len(w) > 1 for w in _LATIN1_WORD_RE.findall(span.get("text", "")))
        if words >= MOJIBAKE_MIN_WORDS:
            return True
    return False


def _from_cp1251(m: re.Match[str]) -> str:
    try:
        return m.group(0).encode("latin-1").decode("cp1251")
    except UnicodeError:
        return m.group(0)


def _combined(m: re.Match[str]) -> str:
    accent, letter = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    base = "i" if letter == "\u0131" else letter
    joined = unicodedata.normalize("NFC", base + _SPACING_ACCENTS[accent])
    return joined if len(joined) == 1 else m.group(0)


def repair(text: str, font: str, cp1251: bool) -> str:
    """A span's text in the letters the page draws (see the module doc)."""
    if cp1251:
        text = _LATIN1_WORD_RE.sub(_from_cp1251, text)
    if "math" in font.lower() and _LOST_PLANE_RE.search(text):
        text = _LOST_PLANE_RE.sub(lambda m: chr(ord(m.group(0)) + _MATH_PLANE), text)
    return text


def combine_accents(text: str) -> str:
    """'c´omo' → 'cómo': a spacing accent joined to the letter after it (within a word)."""
    return _ACCENT_RE.sub(_combined, text)
