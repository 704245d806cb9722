"""Rows set with dot leaders outside a table of contents: a form's, a worksheet's or a
notice's lines (an IRS instruction's ``Recordkeeping ........ 2 hr., 44 min.``, its
worksheet's ``4. Subtract line 3 from line 2 .........``) are rows of a table, no passage
(``leader_rows``). A table of contents under its label is front matter already
(``front_blocks.contents_front``). Pure: paragraphs in, their types set.
"""

from __future__ import annotations

import re

from vaultd.parse.paras import Para

#: A run of dot leaders: six dots or more, each with at most one space after it (a
#: sentence's ellipsis, ``. . . .``, has four at most).
LEADERS_RE = re.compile(r"(?:\.\s?){6,}")
#: Most words a row's label may have (a worksheet's line reads as a long instruction) ...
LABEL_WORDS = 40
#: ... and its value after the leaders (``2 hr., 44 min.``, an amount, a page number).
VALUE_WORDS = 4


def is_leader_rows(text: str) -> bool:
    """Whether ``text`` is one row or more of label, dot leaders and a short value (or none:
    a form's line left to fill in)."""
    parts = LEADERS_RE.split(text.strip())
    return len(parts) >= 2 and len(parts[-1].split()) <= VALUE_WORDS \
        and all(0 < len(part.split()) <= LABEL_WORDS for part in parts[:-1])


def leader_rows(paras: list[Para]) -> None:
    """Paragraphs, list items and heads that are rows set with dot leaders become
    ``table``, in place: a head loses its section, a row's words are no passage."""
    for para in paras:
        if para.type in ("paragraph", "list", "heading") and not para.floating and is_leader_rows(para.text):
            para.type, para.number = "table", None
