"""Numbered sentences of a chunk (pure).

The LLM names a chunk's key sentence by its index in this list, never by quoting it; the
note and the MCP answers look the index up here in the verbatim text. The prompt and the
note must number sentences identically, so both use this one function.
"""

from __future__ import annotations

import re

_BOUNDARY = re.compile(r"""(?<=[.!?])["'\u201d\u2019)\]]*\s+(?=["'\u201c\u2018(\[A-Z0-9])""")
_ABBREVIATIONS = (
    "e.g.",
    "i.e.",
    "et al.",
    "etc.",
    "cf.",
    "vs.",
    "Fig.",
    "Figs.",
    "Eq.",
    "Eqs.",
    "Sec.",
    "Tab.",
    "Ref.",
    "Refs.",
    "No.",
    "Dr.",
    "Mr.",
    "Ms.",
    "Prof.",
    "approx.",
    "resp.",
    "al.",
)


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text`` as exact substrings (stripped), in order.

    Deterministic and pure, so the note and the prompt number sentences identically.
    Common abbreviations ("e.g.", "et al.", "Fig.") and initials ("A. Smith") do not end
    a sentence.
    """
    out: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        head = text[start : match.start()].rstrip("\"'\u201d\u2019)]")
        if head.endswith(_ABBREVIATIONS) or re.search(r"(?:^|\s)[A-Z]\.$", head):
            continue
        piece = text[start : match.start()].strip()
        if piece:
            out.append(piece)
        start = match.end()
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return out


def key_sentence_text(text: str, index: int | None) -> str | None:
    """The verbatim sentence ``index`` of ``text`` (None when out of range or None)."""
    if index is None:
        return None
    sentences = split_sentences(text)
    return sentences[index] if 0 <= index < len(sentences) else None


__all__ = ["key_sentence_text", "split_sentences"]
