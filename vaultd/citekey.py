"""Cite keys: the pattern DSL and collision resolution (pure).

A pattern is literal text and ``[token(:modifier)*]`` fields, e.g. the default
``[auth:lower][year][shorttitle:1:nopunct]`` → ``vaswani2017attention``. The grammar,
tokens and modifiers are documented in docs/citekeys.md; this module is the reference.

A token yields a list of words, already transliterated to ASCII (anyascii), so every
modifier sees ASCII and ``lower`` works on CJK names too (魏笑 → WeiXiao → weixiao).
``auth``, ``year`` and ``shortyear`` yield one fused word; ``condense`` fuses any value.
The numeric modifier ``N`` keeps the first N words, or the first N characters of a fused
value. Words are concatenated; characters outside ``[A-Za-z0-9_:-]`` are dropped.

Keys are pinned once written: ``unique_key`` only ever suffixes the *new* item.

Generated keys are ASCII (``GENERATED_KEY_RE``); a key the user wrote (a ``.bib`` entry's
key, ``--cite-key``, a ``\\cite{…}``) is kept as written when ``is_valid_key`` accepts it,
and becomes a file name by ``key_to_filename`` (reversed by ``filename_to_key``).
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from anyascii import anyascii

from vaultd.errors import CiteKeyPatternError, InputError

if TYPE_CHECKING:  # vault.py imports this module for file names: pydantic is not paid for there
    from vaultd.models import Author, Work

DEFAULT_PATTERN = "[auth:lower][year][shorttitle:1:nopunct]"
#: What the pattern DSL generates (and every key before keys were kept as written).
GENERATED_KEY_RE = re.compile(r"[A-Za-z0-9_:-]+")

TOKENS = (
    "auth", "authors", "authorsN", "authEtAl", "year", "shortyear",
    "shorttitle", "veryshorttitle", "title", "journal",
)
MODIFIERS = ("lower", "upper", "capitalize", "nopunct", "condense", "ascii", "skipwords", "N")

# Better BibTeX's default skipWords preference (MIT), so short titles agree with BBT's.
_BBT_SKIP_WORDS = (
    "a,aboard,about,above,across,after,against,al,along,amid,among,an,and,anti,around,as,"
    "at,before,behind,below,beneath,beside,besides,between,beyond,but,by,d,das,de,del,der,"
    "des,despite,die,do,down,during,ein,eine,einem,einen,einer,eines,el,except,for,from,in,"
    "inside,into,is,l,la,las,le,les,like,los,near,nor,of,off,on,onto,or,over,past,per,plus,"
    "round,save,since,so,some,than,the,through,to,toward,towards,un,una,unas,under,"
    "underneath,une,unlike,uno,unos,until,up,upon,versus,via,while,with,within,without,yet,"
    "zu,zum"
)
SKIP_WORDS = frozenset(_BBT_SKIP_WORDS.split(","))
# Name suffixes that sometimes arrive inside `family` ("King Jr."); never part of a key.
_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})

_SHORT_TITLE_WORDS = {"shorttitle": 3, "veryshorttitle": 1}
_FUSED_TOKENS = frozenset({"auth", "year", "shortyear"})
# Ideographs, kana and hangul have no spaces between words: one character, one word.
_WORD_RE = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]|"
    r"[^\s\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+"
)
_NON_KEY_RE = re.compile(r"[^A-Za-z0-9_:-]+")
_NON_ALNUM_RE = re.compile(r"[^A-Za-z0-9]+")
_TAG_RE = re.compile(r"</?[A-Za-z][A-Za-z0-9:-]*(?:\s[^<>]*)?/?>")


@dataclass(frozen=True, slots=True)
class Field:
    """One ``[token:modifier…]``: ``count`` is N of ``authorsN``; ``modifiers`` hold
    (name, number) pairs, number set only for the numeric modifier ``N``."""

    token: str
    count: int | None
    modifiers: tuple[tuple[str, int | None], ...]


@dataclass(frozen=True, slots=True)
class KeyPattern:
    """A compiled pattern: literal strings and fields, in order."""

    source: str
    parts: tuple[str | Field, ...]


def _error(pattern: str, position: int, what: str) -> CiteKeyPatternError:
    return CiteKeyPatternError(
        f"cite-key pattern {pattern!r}: {what} at position {position}; "
        "see docs/citekeys.md for the syntax",
        position,
    )


@lru_cache(maxsize=64)
def compile_pattern(pattern: str) -> KeyPattern:
    """Parse ``pattern``; raise ``CiteKeyPatternError`` (with ``.position``) if malformed."""
    parts: list[str | Field] = []
    pos = 0
    while pos < len(pattern):
        ch = pattern[pos]
        if ch == "[":
            end = pattern.find("]", pos + 1)
            nested = pattern.find("[", pos + 1)
            if end < 0 or (0 <= nested < end):
                raise _error(pattern, pos, "'[' is never closed")
            parts.append(_parse_field(pattern, pos + 1, pattern[pos + 1 : end]))
            pos = end + 1
            continue
        if ch == "]":
            raise _error(pattern, pos, "']' without a matching '['")
        if not GENERATED_KEY_RE.fullmatch(ch):
            raise _error(
                pattern, pos, f"character {ch!r} cannot appear in a key (allowed: A-Z a-z 0-9 _ : -)"
            )
        if parts and isinstance(parts[-1], str):
            parts[-1] += ch
        else:
            parts.append(ch)
        pos += 1
    if not any(isinstance(p, Field) for p in parts):
        raise _error(pattern, 0, "no [token] field (every key would be the same)")
    return KeyPattern(source=pattern, parts=tuple(parts))


def _parse_field(pattern: str, start: int, body: str) -> Field:
    pieces = body.split(":")
    name = pieces[0]
    count: int | None = None
    m = re.fullmatch(r"authors([0-9]+)", name)
    if m:
        count = int(m.group(1))
        if count < 1:
            raise _error(pattern, start, f"'{name}' needs N of at least 1")
        name = "authorsN"
    elif name not in TOKENS or name == "authorsN":
        what = "empty field []" if not name else f"unknown token {name!r}"
        raise _error(pattern, start, f"{what} (tokens: {', '.join(TOKENS)})")
    modifiers: list[tuple[str, int | None]] = []
    offset = start + len(pieces[0]) + 1
    for piece in pieces[1:]:
        if piece.isascii() and piece.isdigit():
            if int(piece) < 1:
                raise _error(pattern, offset, "numeric modifier must be at least 1")
            modifiers.append(("N", int(piece)))
        elif piece in MODIFIERS and piece != "N":
            modifiers.append((piece, None))
        else:
            raise _error(
                pattern, offset,
                f"unknown modifier {piece!r} (modifiers: {', '.join(MODIFIERS[:-1])}, or a number N)",
            )
        offset += len(piece) + 1
    return Field(token=name, count=count, modifiers=tuple(modifiers))


def make_key(work: Work, pattern: str | KeyPattern = DEFAULT_PATTERN) -> str:
    """The base cite key of ``work``: non-empty and matching ``GENERATED_KEY_RE``.

    If the pattern expands to nothing for this work (``[journal]`` without a journal),
    the default pattern is used, which always yields a key (``anon``/``nd`` fallbacks).
    """
    compiled = compile_pattern(pattern) if isinstance(pattern, str) else pattern
    key = _expand(work, compiled)
    if not key:
        key = _expand(work, compile_pattern(DEFAULT_PATTERN))
    return key


def unique_key(base: str, taken: Collection[str]) -> str:
    """``base`` if free, else ``base`` + a…z, then ``base_27``, ``base_28``…

    Only the new item is suffixed: existing keys are pinned. Comparison is ``fold_key``
    (case and Unicode normalisation ignored), because keys are file names and macOS and
    Windows file systems ignore case, and macOS the composed/decomposed difference.
    """
    problem = key_problem(base)
    if problem is not None:
        raise InputError(f"invalid cite key {base!r}: {problem}")
    low = fold_key(base)
    folded = {f for k in taken if (f := fold_key(k)).startswith(low)}
    if low not in folded:
        return base
    for letter in "abcdefghijklmnopqrstuvwxyz":
        if low + letter not in folded:
            return base + letter
    n = 27
    while f"{low}_{n}" in folded:
        n += 1
    return f"{base}_{n}"


# --- the key grammar and the file-name encoding --------------------------------------

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


# --- expansion ---------------------------------------------------------------------


def _expand(work: Work, pattern: KeyPattern) -> str:
    out: list[str] = []
    for part in pattern.parts:
        if isinstance(part, str):
            out.append(part)
        else:
            out.append(_NON_KEY_RE.sub("", "".join(_field_words(work, part))))
    # Pandoc's @key syntax needs a letter, digit or _ at both ends.
    return "".join(out).strip(":-")


def _field_words(work: Work, field: Field) -> list[str]:
    words, fused = _token_words(work, field)
    for name, number in field.modifiers:
        if name == "lower":
            words = [w.lower() for w in words]
        elif name == "upper":
            words = [w.upper() for w in words]
        elif name == "capitalize":
            words = [w[:1].upper() + w[1:] for w in words]
        elif name == "nopunct":
            words = [c for c in (_NON_ALNUM_RE.sub("", w) for w in words) if c]
        elif name == "condense":
            words, fused = ["".join(words)], True
        elif name == "skipwords":
            words = [w for w in words if not _is_skip(w)]
        elif name == "N" and number is not None:
            words = [words[0][:number]] if fused and words else words[:number]
        # "ascii" is implied: token words are transliterated before any modifier runs.
    return words


def _token_words(work: Work, field: Field) -> tuple[list[str], bool]:
    token = field.token
    if token == "year":
        return [str(work.year) if work.year is not None else "nd"], True
    if token == "shortyear":
        return [f"{work.year % 100:02d}" if work.year is not None else "nd"], True
    if token in _SHORT_TITLE_WORDS:
        # Google Scholar-style lower case, so the default gives vaswani2017attention.
        words = [w.lower() for w in _significant(_words(work.title))]
        if not any(name == "N" for name, _ in field.modifiers):
            words = words[: _SHORT_TITLE_WORDS[token]]
        return words, False
    if token == "title":
        return _words(work.title), False
    if token == "journal":
        return _words(work.container_title), False
    names = [n for n in (_name(a) for a in work.authors) if n]
    if not names:
        return [_no_author(work)], token == "auth"
    if token == "auth":
        return [names[0]], True
    if token == "authEtAl":
        return (names if len(names) <= 2 else [names[0], "EtAl"]), False
    if token == "authorsN" and field.count is not None:
        return names[: field.count] + (["EtAl"] if len(names) > field.count else []), False
    return names, False  # authors


def _no_author(work: Work) -> str:
    # Stands in for a name, so it is cleaned like one: "VESPA:" must not leave a ":".
    for word in _significant(_words(work.title)):
        if cleaned := _NON_ALNUM_RE.sub("", anyascii(word)):
            return cleaned
    return "anon"


@lru_cache(maxsize=4096)
def _translit(text: str) -> str:
    return "".join(anyascii(unicodedata.normalize("NFKC", text)).split())


def _words(text: str | None) -> list[str]:
    if not text:
        return []
    if "<" in text or "&" in text:
        # CrossRef titles carry inline markup: "Structure of <i>E. coli</i>", "CO<sub>2</sub>".
        text = html.unescape(_TAG_RE.sub("", text))
    return [w for w in (_translit(raw) for raw in _WORD_RE.findall(text)) if w]


def _is_skip(word: str) -> bool:
    return _NON_ALNUM_RE.sub("", word).lower() in SKIP_WORDS


def _significant(words: Sequence[str]) -> list[str]:
    """Title words that carry meaning: no skip-words, no bare punctuation ("-")."""
    return [w for w in words if _NON_ALNUM_RE.sub("", w) and not _is_skip(w)]


def _name(author: Author) -> str:
    """The name an author contributes to a key: ``family`` without its particle (the
    reconciler stores "van der" in ``non_dropping_particle``) or suffix, else the corporate
    ``literal``, else a mononym in ``given``; fused into one ASCII word."""
    if author.family and author.family.strip():
        parts = author.family.split()
        while len(parts) > 1 and parts[-1].strip(",").lower() in _SUFFIXES:
            parts.pop()
        raw = " ".join(parts).rstrip(",")
    else:
        raw = (author.literal or author.given or "").strip()
    return _NON_KEY_RE.sub("", _translit(raw)) if raw else ""
