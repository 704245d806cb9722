"""Layout repairs: the only changes allowed between the PDF text layer and a quote.

Compile and verify both call these, so a quote re-extracted later reproduces exactly.

1. **Line joins.** Lines of one paragraph are joined with one space.
2. **End-of-line hyphenation.** A line ending in ``-`` is joined to the next line with no
   space. The hyphen is *dropped* (``exam-`` + ``ple`` → ``example``) only when all hold:
   the character before the hyphen is a lowercase letter, the next line starts with a
   lowercase letter, the fragment before the hyphen contains no other hyphen and no digit
   (``state-of-the-`` + ``art`` keeps it), and that fragment is not one of the common
   compound prefixes in ``COMPOUND_PREFIXES`` (``self-`` + ``attention`` keeps it).
   Otherwise the hyphen is kept (``Hodgkin-`` + ``Huxley`` → ``Hodgkin-Huxley``).
   Without a dictionary this rule is a heuristic: a real compound split exactly at its
   hyphen with a lowercase, hyphen-free, non-listed first part loses its hyphen.
3. **Ligatures.** U+FB00–FB06 become their letters (ﬁ → fi).
4. **Spacing accents stored before their letter** (``Par´e``) are combined (``Paré``);
   a dotless ``ı`` carrying an accent becomes the accented ``i`` (TeX's ``\\'{\\i}``).
5. **Unmapped glyphs.** A glyph whose font maps it to no Unicode is U+FFFD ``�``. PyMuPDF
   writes that itself; extractors that pass the raw character code through instead (a
   C0/C1 control character, e.g. poppler's ``\\x8d``) get the same ``�``.

Nothing else: no spelling fixes, no punctuation reflow.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",  # long s + t
    "\ufb06": "st",
}
_LIG_TABLE = str.maketrans(LIGATURES)

#: vaultd's own extraction rules (word spaces, line and hyphen joins, furniture, reading
#: order), carried by every tier's ``parser_version`` as ``+layoutN``: bump when they change
#: what a chunk's text is, so a note records which rules produced its quotes and
#: `vaultd verify --source` can say why one no longer reproduces.
#: 2: word spaces at font/size/baseline changes follow poppler's raw-order rule.
#: 3: sub-figure labels above a caption are never joined to body text; short lines of a
#:    display formula are ``equation`` chunks (a paragraph no longer runs on from them).
#: 4: a line repeated at the same height on two or more pages near the top or bottom edge
#:    (within 12 % of the page) is furniture too (second header lines, lower-set headers).
#: 5: a numbered line in italics on its own and a bold line in capitals on its own are
#:    headings (sections of MDPI/Elsevier subsections and Frontiers subsection heads).
#: 6: the body size is read to the half point (an 11.5 pt body is no longer "12 pt",
#:    which hid 13 pt headings).
#: 7: a paragraph carries one region per column or page it runs across; first-page front
#:    matter (banners, dates, licences, correspondence, "ACM Reference Format") is a
#:    ``front`` chunk and never joins a paragraph; a multi-line title on the first page is
#:    a heading; the text drawn inside a figure is dropped; cells of tables ruled only
#:    across (booktabs) join their table; captions in other languages (``Tabela``,
#:    ``Figura``) and letter-spaced (``F I G U R E``); a bare DOI or URL under a caption
#:    is the caption's; running headers that an OCR layer reads a little differently on
#:    each page are furniture.
LAYOUT_VERSION = 7

# Spacing accent → combining mark.
SPACING_ACCENTS = {
    "\u00b4": "\u0301",  # ´ acute
    "\u0060": "\u0300",  # ` grave
    "\u00a8": "\u0308",  # ¨ diaeresis
    "\u02c6": "\u0302",  # ˆ circumflex
    "\u02dc": "\u0303",  # ˜ tilde
    "\u00b8": "\u0327",  # ¸ cedilla
    "\u02c7": "\u030c",  # ˇ caron
    "\u02d8": "\u0306",  # ˘ breve
    "\u02da": "\u030a",  # ˚ ring
    "\u02dd": "\u030b",  # ˝ double acute
}
_ACCENT_RE = re.compile("([" + "".join(SPACING_ACCENTS) + r"])\s?([A-Za-z\u0131])")

COMPOUND_PREFIXES = frozenset(
    {"self", "cross", "well", "semi", "quasi", "zero", "few", "two", "three", "four", "five"}
)

_HYPHENS = ("-", "\u2010")  # hyphen-minus and Unicode hyphen


def fix_ligatures(text: str) -> str:
    return text.translate(_LIG_TABLE)


def _combined(m: re.Match[str]) -> str:
    letter = "i" if m.group(2) == "\u0131" else m.group(2)
    return unicodedata.normalize("NFC", letter + SPACING_ACCENTS[m.group(1)])


def combine_accents(text: str) -> str:
    return _ACCENT_RE.sub(_combined, text)


_DOTLESS_MARK_RE = re.compile("\u0131([\u0300-\u036f])")


_CONTROL_RE = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")


def repair_chars(text: str) -> str:
    """Ligatures, stray spacing accents and unmapped-glyph codes (rules 3, 4 and 5).

    TeX writes í as a dotless ı under an accent; once combined, ``ı`` + mark is ``í``.
    Tab, newline, form feed and carriage return are layout whitespace, not glyphs.
    """
    if text.isascii():  # an O(1) flag test; every ligature and ı is outside ASCII
        # printable ASCII holds no control character either: only the grave accent is left
        if text.isprintable() and "`" not in text:
            return text
    else:
        text = fix_ligatures(text)
    text = _CONTROL_RE.sub("\ufffd", combine_accents(text))
    if "\u0131" in text:
        text = unicodedata.normalize("NFC", _DOTLESS_MARK_RE.sub(r"i\1", text))
    return text


def _drops_hyphen(left: str, right: str) -> bool:
    """``left`` ends with a hyphen; decide whether it is a line-break hyphen (rule 2)."""
    body = left[:-1]
    if not body or not right:
        return False
    if not (body[-1].isalpha() and body[-1].islower()):
        return False
    if not (right[0].isalpha() and right[0].islower()):
        return False
    fragment = body.split()[-1] if body.split() else ""
    if "-" in fragment or any(c.isdigit() for c in fragment):
        return False
    if "-" in right.split()[0].rstrip("-.,;:)]}"):
        return False  # the line goes on with a hyphenated compound: state-/of-the-art
    word = fragment.lstrip("([{\"'“‘").lower()
    return word not in COMPOUND_PREFIXES


def join_two(left: str, right: str) -> str:
    """Join two consecutive lines of one paragraph (rules 1 and 2)."""
    left = left.rstrip()
    right = right.lstrip()
    if not left:
        return right
    if not right:
        return left
    if left.endswith(_HYPHENS) and not left.endswith(" -") and len(left) > 1:
        if _drops_hyphen(left, right):
            return left[:-1] + right
        return left + right
    return left + " " + right


def join_lines(lines: Iterable[str]) -> str:
    """Join a paragraph's lines and apply every character repair."""
    out = ""
    for line in lines:
        out = join_two(out, repair_chars(line))
    return out
