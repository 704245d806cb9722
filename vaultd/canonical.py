"""Canonical chunk text and its hash: the one definition compile, verify and index share.

Canonicalisation (documented in docs/note-format.md):

1. Unicode NFC normalisation;
2. every run of whitespace (``str.isspace``: spaces, tabs, newlines, NBSP, ...) becomes
   one ASCII space;
3. leading and trailing whitespace is trimmed.

So re-wrapping a quote in an editor is not drift, but changing any other character is.
"""

from __future__ import annotations

import hashlib
import unicodedata


def canonical_text(text: str) -> str:
    if (text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " "
            and unicodedata.is_normalized("NFC", text)):
        # already canonical, as most quotes are (checked without splitting them into
        # words): the one printable whitespace character is the ASCII space
        # (tests/test_canonical_fast.py checks every code point), and it stands alone
        return text
    return " ".join(unicodedata.normalize("NFC", text).split())


def text_sha256(text: str) -> str:
    """SHA-256 (hex) of the canonical form of ``text``."""
    return canonical_sha256(canonical_text(text))


def canonical_sha256(canonical: str) -> str:
    """``text_sha256`` of text that is already canonical (``canonical_text`` is idempotent:
    NFC is, and joining whitespace-free words with single spaces puts no new characters
    side by side), without canonicalising it a second time."""
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
