"""The cite-key grammar and the key ↔ file-name encoding (pure).

A key the user wrote (a ``.bib`` entry's key, ``--cite-key``, a ``\\cite{…}``) is kept as
written when ``is_valid_key`` accepts it, and becomes a file name by ``key_to_filename``
(reversed exactly by ``filename_to_key``). ``vaultd.citekey`` generates keys and re-exports
these names.
"""

from __future__ import annotations

import re
import unicodedata

# A key the user wrote is kept when BibTeX, biber and LaTeX can all carry it. BibTeX ends
# a key at whitespace, at ',' and at the entry's closing '}' or ')'; btparse (biber's and
# Text::BibTeX's lexer) reads '{' '}' '(' ')' '"' '#' '=' as syntax and '%' as a comment
# (JabRef warns on the same set; tex.stackexchange.com/q/408530 names '%' and '=' for
# biber); in LaTeX's \cite{…} a backslash starts a command, '%' comments the rest of the
# line out, '#' is a macro parameter and '~' an active character. Everything else
# printable is allowed — Unicode letters (biber reads UTF-8 keys), digits and
# . : - _ / + ' ! $ & * ; < > ? [ ] ^ ` | @ — exactly as the user wrote it.
_KEY_BREAKERS = frozenset(',{}()"#%~=\\')
#: A file name holds at most 255 bytes; the longest name vaultd makes from a key adds
#: ``.meta.json`` and the atomic-write temp file ``.<name>.<8 random>.tmp`` to it.
MAX_KEY_FILENAME_BYTES = 200

# Percent-encoded in file names: '%' itself (so decoding is exact), path separators,
# what Windows forbids (* ? " < > |), what breaks an Obsidian [[link]] ([ ] # ^ |),
# whitespace and invisible characters. ':' stays itself: keys had it before this
# encoding existed, and their files keep their names.
_NAME_UNSAFE = frozenset('%/\\*?"<>|[]#^')
_ESCAPES_RE = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def _invisible(ch: str) -> bool:
    """Whitespace, separators, control/format/private/unassigned code points."""
    return ch.isspace() or unicodedata.category(ch)[0] in "CZ"


def key_problem(key: str) -> str | None:
    """Why ``key`` cannot be a cite key (one clause), or None when it can."""
    if not key:
        return "a cite key cannot be empty"
    for ch in key:
        if _invisible(ch):
            return f"a cite key cannot hold whitespace or invisible characters ({ch!r})"
        if ch in _KEY_BREAKERS:
            return (f"a cite key cannot hold {ch!r} (BibTeX and LaTeX break a key at "
                    ', { } ( ) " # % ~ = \\ and whitespace)')
    if len(key_to_filename(key).encode("utf-8")) > MAX_KEY_FILENAME_BYTES:
        return f"a cite key is at most {MAX_KEY_FILENAME_BYTES} bytes as a file name"
    return None


def is_valid_key(key: str) -> bool:
    """Whether ``key`` is a cite key vaultd keeps as written (see ``key_problem``)."""
    return key_problem(key) is None


def fold_key(key: str) -> str:
    """``key`` as macOS/Windows compare file names: Unicode canonical caseless form
    (NFD of the case-folded NFD), so ``Lüscher``, ``LÜSCHER`` and a decomposed ``Lüscher``
    are one key."""
    if key.isascii():  # most keys; casefold is lower() here, and NFD changes nothing
        return key.lower()
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", key).casefold())


def same_key(a: str, b: str) -> bool:
    """The same key, composed or decomposed (macOS may list a name decomposed)."""
    return unicodedata.normalize("NFC", a) == unicodedata.normalize("NFC", b)


def key_to_filename(key: str) -> str:
    """The file-name stem of ``key`` (``raw/<stem>.pdf``, ``wiki/<stem>.md``).

    Every character that is unsafe in a file name (``_NAME_UNSAFE``, whitespace and
    invisible characters, a leading or trailing ``.``) becomes ``%XX`` of its UTF-8 bytes;
    everything else is kept, so every ``[A-Za-z0-9_:-]+`` key is its own file name. The
    stem never holds a path separator and is never ``.`` or ``..``: a key cannot name a
    file outside its folder. ``filename_to_key`` reverses it exactly.
    """
    if not key:
        raise ValueError("an empty cite key has no file name")
    last = len(key) - 1
    out: list[str] = []
    for i, ch in enumerate(key):
        if ch in _NAME_UNSAFE or _invisible(ch) or (ch == "." and i in (0, last)):
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass")))
        else:
            out.append(ch)
    return "".join(out)


def filename_to_key(stem: str) -> str:
    """The key a file-name stem encodes (``key_to_filename`` reversed). A ``%`` that is no
    escape of UTF-8 bytes is kept as it is (a name vaultd did not make)."""

    def decode(m: re.Match[str]) -> str:
        try:
            return bytes.fromhex(m[0].replace("%", "")).decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            return m[0]

    return _ESCAPES_RE.sub(decode, stem)
