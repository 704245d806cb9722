"""The matter around a court opinion's text: its case caption (the parties and the docket
in two columns parted by a column of ``)``), the judge's signature under a rule, and the
panel's concurrence line. Front matter, not passages: a reader quotes the opinion, not its
caption. Pure: text in, yes or no out.
"""

from __future__ import annotations

import re

#: A case caption's column of closing brackets (or section signs) between the parties
#: and the docket (``JAGELS, ) No. ED108783 ) Appellant, ) Appeal from …``): a bracket
#: standing alone as a word.
_CAPTION_COLUMN_RE = re.compile(r"(?:^|\s)[)§](?=\s|$)")
#: Fewest such brackets in a case caption.
CAPTION_COLUMN_MIN = 3
#: A judge's title after a name: ``J.``, ``P.J.``, ``C.J.``, ``JJ.``, ``Judge``, ``Justice``.
_JUDGE = r"(?:[PC]\.\s?J\.|J\.|JJ\.|Judge|Justice|Chief\s+Justice|Presiding\s+Judge)"
#: A name (capitalised words and initials) and its judge's title.
_NAME_JUDGE = rf"(?:[A-Z][\w.'’-]*\s+){{0,4}}[A-Z][\w'’-]+,\s+{_JUDGE}"
#: The panel's concurrence line (``Angela T. Quigless, P.J., and Kurt S. Odenwald, J.,
#: concur.``) and a signature's name and title (``James M. Dowd, Judge``), under a rule
#: of underscores or not.
_SIGNED_RE = re.compile(
    rf"^(?:_{{8,}}\s*)?{_NAME_JUDGE}(?:,?\s+(?:and\s+)?{_NAME_JUDGE})*"
    rf"(?:,?\s+(?:concurs?|dissents?|concurs?\s+in\s+(?:the\s+)?result)\.?)?$")


#: Where one of the judges' lines a block runs together ends: at a title or a verb.
_PART_END_RE = re.compile(rf"({_JUDGE}|concurs?\.|dissents?\.)\s+(?=_|[A-Z][\w.'’-]*\s)")


def is_case_caption(text: str) -> bool:
    """Whether a block is a court filing's case caption, its parties and docket set in two
    columns parted by a column of ``)`` (or ``§``): front matter, however many words."""
    return len(_CAPTION_COLUMN_RE.findall(text)) >= CAPTION_COLUMN_MIN


def is_judges_line(text: str) -> bool:
    """Whether a block is an opinion's judges' line: the panel (``Angela T. Quigless, P.J.,
    Kurt S. Odenwald, J., and James M. Dowd, J.``), the judge's signature under its rule
    (``______ James M. Dowd, Judge``) or the others' concurrence (``…, J., concur.``), one
    after the other in a block or alone."""
    if len(text) > JUDGES_MAX_CHARS or "J" not in text:  # (asked of every paragraph: most are none)
        return False
    return all(_SIGNED_RE.match(part) for part in _parts(" ".join(text.split())))


#: Most characters of a block of judges' lines (a panel of seven and a dissent's line).
JUDGES_MAX_CHARS = 400


def _parts(text: str) -> list[str]:
    """The judges' lines a block runs together: each signature or concurrence ends at its
    title (``Judge``) or its verb (``concur.``)."""
    cut = _PART_END_RE.sub(r"\1\n", text)
    return [p.strip() for p in cut.split("\n") if p.strip()]
