"""Plain text as LaTeX for BibTeX fields (pure; pylatexenc on first use).

The ten specials are escaped; every non-ASCII character that has a LaTeX text command
reading back to the same character is written as that command (``M{\\"u}ller``);
characters without one (CJK, Arabic, …) stay UTF-8. DOIs and URLs are written verbatim.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

_ASCII = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "&": r"\&", "%": r"\%", "$": r"\$",
    "#": r"\#", "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    # OT1 fonts print these three as ¡ ¿ and an em dash.
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}",
}
# Pairs TeX turns into one glyph (-- → –, `` → “, ?` → ¿): an empty group keeps them apart.
_LIGATURES = {("-", "-"), ("`", "`"), ("'", "'"), ("?", "`"), ("!", "`")}
# Wrong or lossy in pylatexenc's table: the double acute is \H, not \'.
_OWN = {"Ű": r"{\H{U}}", "ű": r"{\H{u}}", "Ő": r"{\H{O}}", "ő": r"{\H{o}}"}


# BibTeX's own ligatures for the dashes (read by BibTeX, biber and pandoc alike).
_DASHES = {"–": "--", "—": "---"}
_SAFE_COMMAND_RE = re.compile(
    r"\{\\[`'^\"~=.][A-Za-z]\}|\{\\[uvHckrbdt]\{[A-Za-z]\}\}"
    r"|\{\\(?:o|O|l|L|ss|ae|AE|oe|OE|aa|AA|i)\}")


@lru_cache(maxsize=1)
def _codecs() -> tuple[Any, Any]:
    # lazy: pylatexenc.latex2text costs 28 ms at import
    from pylatexenc.latex2text import LatexNodes2Text

    # lazy: pylatexenc.latexencode costs 3 ms at import
    from pylatexenc.latexencode import UnicodeToLatexEncoder

    encoder = UnicodeToLatexEncoder(non_ascii_only=True, replacement_latex_protection="braces-all",
                                    unknown_char_policy="keep", unknown_char_warning=False)
    return encoder, LatexNodes2Text(math_mode="text")


@lru_cache(maxsize=8192)
def _char(c: str) -> str:
    if c in _ASCII:
        return _ASCII[c]
    if c.isascii():
        return c
    if c in _OWN:
        return _OWN[c]
    if c in _DASHES:
        return _DASHES[c]
    encoder, decoder = _codecs()
    latex: str = encoder.unicode_to_latex(c)
    # Only an accented Latin letter or one of LaTeX's letter commands, and only when it
    # reads back as the same character: other text commands (\textemdash, \texteuro,
    # \ensuremath{\alpha}, \dj, an accent on a dotless \i) are dropped or garbled by
    # pandoc's BibTeX reader, so those characters stay UTF-8, which every reader takes.
    if not _SAFE_COMMAND_RE.fullmatch(latex):
        return c
    return latex if decoder.latex_to_text(latex) == c else c


def latex(text: str, prev: str = "") -> str:
    """Plain text as LaTeX (runs of whitespace become one space; module docstring).
    ``prev``: the character written just before, for the ligature check."""
    text = re.sub(r"\s+", " ", text)
    out: list[str] = []
    for c in text:
        piece = _char(c)
        # Checked on what is written: "-" before "–" (written "--") must not become "---".
        if (prev, piece[:1]) in _LIGATURES:
            out.append("{}")
        out.append(piece)
        prev = piece[-1:]
    return "".join(out)


def verbatim(text: str) -> str:
    """DOIs and URLs are read verbatim (biblatex, \\url): only what would unbalance the
    braces or start a command is percent-encoded."""
    return "".join({"{": "%7B", "}": "%7D", "\\": "%5C"}.get(c, c) for c in "".join(text.split()))
