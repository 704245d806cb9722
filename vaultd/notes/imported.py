"""Notes the user wrote in their library (Zotero's child notes, RIS ``N1``) placed under
"My notes" of the work's note (pure).

Each goes at the end of the ``## My notes`` section, under a heading naming where it came
from; its own headings are set three levels lower so they stay inside it. It is written
once: from then on it is the user's text like any other in the section (the record
remembers which notes were brought in, so a re-import never writes one again, and never
touches what the user changed there).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from vaultd.models import Note
from vaultd.notes.layout import MY_NOTES_BLOCK

_HEADING_RE = re.compile(r"^(#{1,6})(?=\s)", re.MULTILINE)
_FENCE_RE = re.compile(r"^(`{3,}|~{3,})", re.MULTILINE)
MY_NOTES_HEADING = MY_NOTES_BLOCK.rstrip("\n")


@dataclass(frozen=True)
class LibraryNote:
    """One note to place: where it came from ('Zotero (My Library)') and its Markdown."""

    origin: str
    markdown: str
    updated: bool = False  # the library's note changed since it was brought in


def _nested(markdown: str) -> str:
    """``markdown`` with its headings three levels lower (at most ``######``), outside
    code fences."""
    out: list[str] = []
    fence: str | None = None
    for line in markdown.split("\n"):
        m = _FENCE_RE.match(line)
        if m is not None:
            fence = None if fence and m.group(1).startswith(fence) else (fence or m.group(1))
        elif fence is None:
            line = _HEADING_RE.sub(lambda h: "#" * min(6, len(h.group(1)) + 3), line)
        out.append(line)
    return "\n".join(out)


def note_block(n: LibraryNote) -> str:
    """The text one library note adds to "My notes"."""
    what = "changed since it was brought in" if n.updated else None
    heading = f"### Note from {n.origin}" + (f" ({what})" if what else "")
    return f"{heading}\n\n{_nested(n.markdown.strip())}\n\n"


def with_library_notes(note: Note, notes: Sequence[LibraryNote]) -> Note:
    """``note`` with ``notes`` at the end of its "My notes" section (a section of that name
    is added at the end when the user has none)."""
    if not notes:
        return note
    blocks = list(note.user_blocks)
    text = "".join(note_block(n) for n in notes)
    at = next((i for i, b in enumerate(blocks)
               if b.split("\n", 1)[0].strip() == MY_NOTES_HEADING), None)
    if at is None:
        if blocks and not blocks[-1].endswith("\n"):
            blocks[-1] += "\n"
        if blocks and not blocks[-1].endswith("\n\n"):
            blocks[-1] += "\n"
        blocks.append(MY_NOTES_BLOCK + text)
    else:
        block = blocks[at]
        block += "" if block.endswith("\n") else "\n"
        block += "" if block.endswith("\n\n") else "\n"
        blocks[at] = block + text
    return note.model_copy(update={"user_blocks": blocks})
