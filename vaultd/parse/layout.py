"""Layout repairs: the only changes allowed between the PDF text layer and a quote.

Compile and verify both call these, so a quote re-extracted later reproduces exactly.

1. **Line joins.** Lines of one paragraph are joined with one space, except between two
   characters of a script written without word spaces (Han, kana, CJK and full-width
   punctuation: Chinese and Japanese), which are joined directly. Korean (Hangul) is
   written with spaces and joins with one, like Latin text.
2. **End-of-line hyphenation.** A line ending in ``-`` is joined to the next line with no
   space. Inside an e-mail address, URL or identifier (``@``, ``://``, ``www.``, ``/`` or a
   dot between letters in the word) the hyphen is always kept. Otherwise the document's own
   spelling decides first (``vaultd.parse.hyphens.HyphenEvidence``, while a parse runs inside
   ``hyphen_evidence``): the hyphen is kept when the document writes the word with a hyphen
   elsewhere at least as often as whole (``Citation-`` + ``informed`` → ``Citation-informed``),
   and dropped when it writes it whole (``SciB-`` + ``ERT`` → ``SciBERT``). Without evidence
   either way, the hyphen is *dropped* (``exam-`` + ``ple`` → ``example``) only when all hold:
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
   C0/C1 control character, e.g. poppler's ``\\x8d``) get the same ``�``. One exception:
   the codes 0x1B–0x1F next to a letter are the ligatures ff, fi, fl, ffi, ffl of TeX's
   T1 (Cork) encoding, which a TeX font without a Unicode map (dvips's Type 3 bitmap
   fonts) passes through as they are (``di\\x1berent`` → ``different``): in T1 they are
   nothing else, and the older OT1's letters at those codes (œ ø Æ Œ Ø) are not met
   inside English words, where these codes stand by the hundred in such documents.

Nothing else: no spelling fixes, no punctuation reflow.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from vaultd.parse.hyphens import HYPHENS, SOFT_HYPHEN, current_evidence, drops_hyphen

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
#: Each version's rules are listed in docs/compile.md ("Layout versions", and a section a
#: version from 23 on).
LAYOUT_VERSION = 58

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
    "\u02d9": "\u0307",  # ˙ dot above (TeX's \dot: ``ṁ``, ``Q̇``)
    "\u00af": "\u0304",  # ¯ macron (TeX's \bar: ``D̄``)
    "\u02db": "\u0328",  # ˛ ogonek
}
_ACCENT_RE = re.compile("([" + "".join(SPACING_ACCENTS) + r"])\s?([A-Za-z\u0131])")

def fix_ligatures(text: str) -> str:
    return text.translate(_LIG_TABLE)


def _combined(m: re.Match[str]) -> str:
    letter = "i" if m.group(2) == "\u0131" else m.group(2)
    return unicodedata.normalize("NFC", letter + SPACING_ACCENTS[m.group(1)])


def combine_accents(text: str) -> str:
    return _ACCENT_RE.sub(_combined, text)


_DOTLESS_MARK_RE = re.compile("\u0131([\u0300-\u036f])")


#: A C0 or C1 control code (not a tab, a line's end or a form feed): an unmapped glyph's
#: stand-in (rule 5), or a mark that takes no room (``glyphs.drop_markers``).
CONTROL_RE = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")
#: T1-encoded TeX ligatures passed through as their codes, next to a letter (rule 5).
T1_LIGATURES = {"\x1b": "ff", "\x1c": "fi", "\x1d": "fl", "\x1e": "ffi", "\x1f": "ffl"}
_T1_CODE_RE = re.compile("[\x1b-\x1f]")
_T1_LIGATURE_RE = re.compile("(?<=[^\\W\\d_])[\x1b-\x1f]|[\x1b-\x1f](?=[^\\W\\d_])")


def t1_ligatures(text: str) -> str:
    """T1 ligature codes next to a letter as their letters (rule 5's exception)."""
    if _T1_CODE_RE.search(text) is None:
        return text
    return _T1_LIGATURE_RE.sub(lambda m: T1_LIGATURES[m.group()], text)


def repair_chars(text: str) -> str:
    """Ligatures, stray spacing accents and unmapped-glyph codes (rules 3, 4 and 5).

    TeX writes í as a dotless ı under an accent; once combined, ``ı`` + mark is ``í``.
    Tab, newline, form feed and carriage return are layout whitespace, not glyphs. A soft
    hyphen inside a line is not drawn (Wiley's ``Mixed-\u00adeffect``) and goes; one at the
    line's end is left for ``join_two``.
    """
    if text.isascii():  # an O(1) flag test; every ligature and ı is outside ASCII
        # printable ASCII holds no control character either: only the grave accent is left
        if text.isprintable() and "`" not in text:
            return text
    else:
        text = fix_ligatures(text)
        if SOFT_HYPHEN in text:  # shown only at a line's end, where ``join_two`` takes it
            body = text.rstrip()
            evidence = current_evidence()
            inner = "-" if evidence is not None and evidence.soft_hyphens else ""
            text = body[:-1].replace(SOFT_HYPHEN, inner) + body[-1:] + text[len(body):]
    text = CONTROL_RE.sub("\ufffd", combine_accents(t1_ligatures(text)))
    if "\u0131" in text:
        text = unicodedata.normalize("NFC", _DOTLESS_MARK_RE.sub(r"i\1", text))
    return text


#: Scripts written without spaces between words (Han, kana, CJK and full-width
#: punctuation): a line break between two of their characters is no word space.
_UNSPACED_RE = re.compile("[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def join_two(left: str, right: str) -> str:
    """Join two consecutive lines of one paragraph (rules 1 and 2)."""
    left = left.rstrip()
    right = right.lstrip()
    if not left:
        return right
    if not right:
        return left
    if left.endswith(SOFT_HYPHEN):
        evidence = current_evidence()
        if evidence is None or not evidence.soft_hyphens:
            return left[:-1] + right  # a discretionary hyphen: only where the word was broken
        left = left[:-1] + "-"  # the document's hyphens are all soft: decided as a hyphen is
    if left.endswith(HYPHENS) and not left.endswith(" -") and len(left) > 1:
        if drops_hyphen(left, right):
            return left[:-1] + right
        return left + right
    if _UNSPACED_RE.match(left[-1]) and _UNSPACED_RE.match(right[0]):
        return left + right  # Chinese and Japanese break lines between any two characters
    if left.endswith("://"):
        return left + right  # an address broken after its scheme (``https://`` | ``www.regulations.gov``)
    if left.endswith("–") and len(left) > 1 and ((left[-2].isdigit() and right[0].isdigit())
                                                  or (left[-2].islower() and right[0].islower())):
        # a range or number broken after its en dash (``FAA–2020–`` | ``0686``), a compound
        # of lowercase words (``cell–`` | ``associated``); not a raised minus, ``KIR–`` |
        # ``CD8+ T cells``, which a space follows
        return left + right
    return left + " " + right


def join_lines(lines: Iterable[str]) -> str:
    """Join a paragraph's lines and apply every character repair."""
    out = ""
    for line in lines:
        out = join_two(out, repair_chars(line))
    return out
