"""Quote text shown exactly as the source's characters in Obsidian: Markdown escaping.

A quote such as ``Click on the box saying “<your name> — …”`` or ``*p* < 0.05`` is read by
Obsidian as HTML, emphasis, a tag (``#word``), a highlight (``==``), a comment (``%%``),
math (``$``), a list (a line opening with ``1.`` or ``-``) … and shown with characters
missing. ``escape`` puts a backslash before every character that could start such markup
(CommonMark lets any ASCII punctuation be escaped, and Obsidian follows it), so reading
view shows exactly the quote; ``unescape`` reverses it, so verify reads back the quote's
own characters. ``unescape(escape(t)) == t`` for every text (tests/test_mdescape.py).
"""

from __future__ import annotations

import re

#: Characters escaped wherever they stand.
ESCAPED = frozenset("\\`*_[]<>#|~=%$^&")
#: Characters escaped only where they would open a list item: at a line's start (``-``,
#: ``+``), or after a line's leading digits (``1.``, ``2)``).
_LIST_RE = re.compile(r"^([-+])|^(\d+)([.)])")
_UNESCAPE_RE = re.compile(r"\\([\\`*_\[\]<>#|~=%$^&+.)-])")


def _escape_line(line: str) -> str:
    out = "".join("\\" + ch if ch in ESCAPED else ch for ch in line)
    m = _LIST_RE.match(out)
    if m is None:
        return out
    if m.group(1):
        return "\\" + out
    return m.group(2) + "\\" + m.group(3) + out[m.end():]


def escape(text: str) -> str:
    """``text`` with Markdown and Obsidian markup characters backslash-escaped, line by line."""
    return "\n".join(_escape_line(line) for line in text.split("\n"))


def unescape(text: str) -> str:
    """The text ``escape`` was given."""
    if "\\" not in text:  # most quotes: nothing escaped, no substitution to run
        return text
    return _UNESCAPE_RE.sub(r"\1", text)
