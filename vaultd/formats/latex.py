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


@lru_cache(maxsize=1)
def _codecs() -> tuple[Any, Any]:
    from pylatexenc.latex2text import LatexNodes2Text
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
    encoder, decoder = _codecs()
    latex: str = encoder.unicode_to_latex(c)
    if latex == c or "frac" in latex or "textasciicircum" in latex:
        return c  # vaultd's import reads \textasciicircum as the ASCII ^ it writes
    # Only a command that reads back as the same character: pylatexenc writes Greek
    # capital Alpha as a Latin {A}, and a lone combining accent as nothing.
    return latex if decoder.latex_to_text(latex) == c else c


def latex(text: str, prev: str = "") -> str:
    """Plain text as LaTeX (runs of whitespace become one space; module docstring).
    ``prev``: the character written just before, for the ligature check."""
    text = re.sub(r"\s+", " ", text)
    out: list[str] = []
    for c in text:
        if (prev, c) in _LIGATURES:
            out.append("{}")
        out.append(_char(c))
        prev = c
    return "".join(out)


def verbatim(text: str) -> str:
    """DOIs and URLs are read verbatim (biblatex, \\url): only what would unbalance the
    braces or start a command is percent-encoded."""
    return "".join({"{": "%7B", "}": "%7D", "\\": "%5C"}.get(c, c) for c in "".join(text.split()))
