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
    return " ".join(unicodedata.normalize("NFC", text).split())


def text_sha256(text: str) -> str:
    """SHA-256 (hex) of the canonical form of ``text``."""
    return hashlib.sha256(canonical_text(text).encode("utf-8")).hexdigest()
