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
and becomes a file name by ``key_to_filename`` (reversed by ``filename_to_key``); that
grammar and encoding are ``vaultd.key_grammar``'s, re-exported here.

A work without authors takes its title words in the author's place (the default pattern
gives ``novel2014approach`` for "A novel approach", 2014, and no ``nd`` between title words
when it has no year either); no title word enters a key twice, and a generated key is at
most ``MAX_KEY_CHARS`` long.
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

# The key grammar and the file-name encoding live in key_grammar; their names are
# this module's too, as every caller knows them.
from vaultd.key_grammar import MAX_KEY_FILENAME_BYTES as MAX_KEY_FILENAME_BYTES
from vaultd.key_grammar import filename_to_key as filename_to_key
from vaultd.key_grammar import fold_key as fold_key
from vaultd.key_grammar import is_valid_key as is_valid_key
from vaultd.key_grammar import key_problem as key_problem
from vaultd.key_grammar import key_to_filename as key_to_filename
from vaultd.key_grammar import same_key as same_key

if TYPE_CHECKING:  # vault.py imports this module for file names: pydantic is not paid for there
    from vaultd.models import Author, Work

DEFAULT_PATTERN = "[auth:lower][year][shorttitle:1:nopunct]"
#: The longest key the pattern generates (a collision suffix included): a title's long
#: compound word or a long title in ``[title]`` must not make an unreadable key.
MAX_KEY_CHARS = 40
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
    """The base cite key of ``work``: non-empty, matching ``GENERATED_KEY_RE``, at most
    ``MAX_KEY_CHARS`` long, and never the same word twice.

    If the pattern expands to nothing for this work (``[journal]`` without a journal),
    the default pattern is used, which always yields a key (``anon``/``nd`` fallbacks).
    """
    compiled = compile_pattern(pattern) if isinstance(pattern, str) else pattern
    key = _expand(work, compiled)
    if not key:
        key = _expand(work, compile_pattern(DEFAULT_PATTERN))
    return _cut(key, MAX_KEY_CHARS)


def _cut(key: str, limit: int) -> str:
    return key if len(key) <= limit else key[:limit].rstrip(":-") or key[:limit]


def unique_key(base: str, taken: Collection[str], *, max_chars: int | None = None) -> str:
    """``base`` if free, else ``base`` + a…z, then ``base_27``, ``base_28``…

    Only the new item is suffixed: existing keys are pinned. Comparison is ``fold_key``
    (case and Unicode normalisation ignored), because keys are file names and macOS and
    Windows file systems ignore case, and macOS the composed/decomposed difference.
    With ``max_chars`` (a generated key), ``base`` is shortened to leave room for the
    suffix.
    """
    problem = key_problem(base)
    if problem is not None:
        raise InputError(f"invalid cite key {base!r}: {problem}")
    folded = {fold_key(k) for k in taken}

    def free(suffix: str) -> str | None:
        stem = base if max_chars is None else _cut(base, max(1, max_chars - len(suffix)))
        return stem + suffix if fold_key(stem + suffix) not in folded else None

    for suffix in ("", *"abcdefghijklmnopqrstuvwxyz"):
        if (key := free(suffix)) is not None:
            return key
    n = 27
    while (key := free(f"_{n}")) is None:
        n += 1
    return key


# --- expansion ---------------------------------------------------------------------


def _expand(work: Work, pattern: KeyPattern) -> str:
    out: list[str] = []
    used: set[str] = set()  # the words earlier fields put in the key: never twice
    for part in pattern.parts:
        if isinstance(part, str):
            out.append(part)
        else:
            out.append(_NON_KEY_RE.sub("", "".join(_field_words(work, part, used))))
    # Pandoc's @key syntax needs a letter, digit or _ at both ends.
    return "".join(out).strip(":-")


def _field_words(work: Work, field: Field, used: set[str]) -> list[str]:
    words, fused = _token_words(work, field, used)
    if field.token not in _DATE_TOKENS:
        used.update(_fold_word(w) for w in words)
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


def _token_words(work: Work, field: Field, used: set[str]) -> tuple[list[str], bool]:
    token = field.token
    if token in _DATE_TOKENS:
        if work.year is None:
            # "nd" stands after a name; between a title's words (a work without authors,
            # whose key is its title words) it would read as one of them.
            return [] if _titled_without_author(work) else ["nd"], True
        return [str(work.year) if token == "year" else f"{work.year % 100:02d}"], True
    if token in _SHORT_TITLE_WORDS:
        # Google Scholar-style lower case, so the default gives vaswani2017attention.
        words = _unused([w.lower() for w in _significant(_words(work.title))], used)
        if not any(name == "N" for name, _ in field.modifiers):
            words = words[: _SHORT_TITLE_WORDS[token]]
        return words, False
    if token == "title":
        return _unused(_words(work.title), used), False
    if token == "journal":
        return _unused(_words(work.container_title), used), False
    names = [n for n in (_name(a) for a in work.authors) if n]
    if not names:
        return [_no_author(work, used)], token == "auth"
    if token == "auth":
        return [names[0]], True
    if token == "authEtAl":
        return (names if len(names) <= 2 else [names[0], "EtAl"]), False
    if token == "authorsN" and field.count is not None:
        return names[: field.count] + (["EtAl"] if len(names) > field.count else []), False
    return names, False  # authors


_DATE_TOKENS = frozenset({"year", "shortyear"})


def _fold_word(word: str) -> str:
    return _NON_ALNUM_RE.sub("", word).lower()


def _unused(words: list[str], used: set[str]) -> list[str]:
    """``words`` without those already in the key, and without repeats."""
    seen = set(used)
    out = []
    for w in words:
        folded = _fold_word(w)
        if folded and folded in seen:
            continue
        seen.add(folded)
        out.append(w)
    return out


def _titled_without_author(work: Work) -> bool:
    return not any(_name(a) for a in work.authors) and _no_author(work) != "anon"


#: A title word standing in for a name longer than this is cut to its first part
#: ("Convalescent-anti-sars-cov-2-plasma/immune-globulin" → "Convalescent"), and that
#: to this many characters.
MAX_NAME_CHARS = 20


def _no_author(work: Work, used: set[str] | None = None) -> str:
    """The first significant title word, standing in for a name (and then in ``used``, so
    the title tokens go on with the next word). It is cleaned like a name: "VESPA:" must
    not leave a ":"."""
    for word in _significant(_words(work.title)):
        if cleaned := _NON_ALNUM_RE.sub("", anyascii(word)):
            if len(cleaned) > MAX_NAME_CHARS:
                first = next(p for p in _NON_ALNUM_RE.split(anyascii(word)) if p)
                cleaned = first[:MAX_NAME_CHARS]
            if used is not None:
                used.add(_fold_word(word))
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
