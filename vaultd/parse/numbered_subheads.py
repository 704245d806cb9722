"""Subsection heads set in the body's face: ``6.1 Complex exponential waves`` on a line
of its own in the text's roman, under the bold ``6 Wave solutions`` (Springer's
mathematics journals), an appendix's ``A.1 Monte Carlo programs and settings`` under the
bold ``A Details of the Monte Carlo samples`` (*EPJ C*). No font tells it from the text;
its number does: it goes on from the numbering of the section it stands in. Pure: built
paras in, types changed in place.
"""

from __future__ import annotations

import re

from vaultd.parse.paras import SENT_END, Para
from vaultd.parse.textlayer import prose_words

#: A subsection's number and its title's first word: ``6.1 Complex …``, ``2.3.1 The …``,
#: an appendix's ``A.1 Monte …``.
_SUBHEAD_RE = re.compile(r"((?:\d{1,2}|[A-Z])(?:\.\d{1,2}){1,2})\.?\s+[A-Z]")
#: Most words of such a head, and fewest words of prose in the paragraph under it.
SUBHEAD_WORDS = 10
AFTER_WORDS = 4


def numbered_subheads(paras: list[Para]) -> list[Para]:
    """Make ``heading``, in place, each one-line paragraph ``N.M Title`` (``_SUBHEAD_RE``,
    no sentence's end, no page number at its end as a contents entry has, ``SUBHEAD_WORDS``
    words at most) whose number goes on from the last
    heading's before it (``6`` → ``6.1``; ``6.1`` → ``6.2`` or ``6.1.1``), with a
    paragraph of prose after it. Returns the paras made headings."""
    out: list[Para] = []
    last: str | None = None  # the number of the last numbered heading read
    for i, para in enumerate(paras):
        if para.type == "heading":
            last = (para.number or "").rstrip(".") or last
            continue
        match = _SUBHEAD_RE.match(para.text.strip())
        if match is None or para.type != "paragraph" or len(para.lines) != 1 or last is None \
                or para.text.rstrip().endswith(SENT_END) or para.text.rstrip()[-1:].isdigit() \
                or len(para.text.split()) > SUBHEAD_WORDS \
                or not _goes_on(last, match.group(1)):
            continue
        after = paras[i + 1] if i + 1 < len(paras) else None
        if after is None or after.type != "paragraph" or prose_words(after.text) < AFTER_WORDS:
            continue
        para.type, para.number = "heading", match.group(1)
        last = match.group(1)
        out.append(para)
    return out


def _goes_on(last: str, number: str) -> bool:
    """Whether ``number`` is the next number after the heading numbered ``last``: its
    first subsection, its next sibling, or the next of a level above."""
    a, b = _parts(last), _parts(number)
    if not a or not b:
        return False
    if b == [*a, 1] or (len(b) == len(a) and b[:-1] == a[:-1] and b[-1] == a[-1] + 1):
        return True
    return len(b) < len(a) and b[:-1] == a[:len(b) - 1] and b[-1] == a[len(b) - 1] + 1


#: Where an appendix's letter counts among a number's parts (``B`` after ``A``, never a digit).
_LETTER_BASE = 1000


def _parts(number: str) -> list[int]:
    """A heading number's parts as integers (an appendix's letter past ``_LETTER_BASE``),
    or none when a part is neither a number nor one capital (a roman ``IV``'s parts)."""
    out: list[int] = []
    for part in number.split("."):
        if part.isdigit():
            out.append(int(part))
        elif len(part) == 1 and "A" <= part <= "Z":
            out.append(_LETTER_BASE + ord(part))
        else:
            return []
    return out
