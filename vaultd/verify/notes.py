"""Note verify: re-hash every quote in wiki/ and compare with its recorded text_sha256.

The hot path is a lean scanner (regexes over the note text, no pydantic) that extracts
``(chunk id, quote, recorded hash)``; tests check it agrees with ``note.parse_note`` on every
rendered note. A broken note becomes a MALFORMED finding for that file, never an exception.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import NamedTuple

from vaultd.canonical import text_sha256
from vaultd.citekey import filename_to_key
from vaultd.errors import NoteFormatError, VaultdError
from vaultd.index.store import open_index
from vaultd.models import Finding, FindingKind, VerifyReport
from vaultd.notes.escape import unescape
from vaultd.notes.folds import unfolded
from vaultd.notes.layout import CHUNK_END
from vaultd.notes.reader import LINE_QUOTE_MARK, split_frontmatter, yaml_mapping
from vaultd.vault import Vault
from vaultd.verify.match import word_diff

_BEGIN = "\n<!-- chunk id="
_BEGIN_RE = re.compile(r"^<!-- chunk id=(\S+) -->$", re.MULTILINE)
_MARKER_TAIL_RE = re.compile(r"(\S+) -->\n")
_END = "\n" + CHUNK_END
_QUOTE_RUN_RE = re.compile(r">.*(?:\n>.*)*")
_PREFIX_RE = re.compile(r"\n> ?")
_FENCE_OPEN_RE = re.compile(r"(`{3,})yaml\n")
_HASH_KEY = "\ntext_sha256:"
_HEX64_RE = re.compile(r" ?([0-9a-f]{64})\n")
_VAULTD_MARK = "<!-- vaultd:"
#: A one-line quote in format 2: a heading chunk's heading line (``### 3.2 Attention``),
#: a reference entry's list item (``- [1] Ba J, …``).
_LINE_QUOTE_RE = re.compile(r"\n" + LINE_QUOTE_MARK + r"([^\n]*)(?=\n)")


class ScannedChunk(NamedTuple):
    id: str
    quote: str | None  # None: the block has no '>' quote
    recorded: str | None  # None: no provenance block or no text_sha256 in it
    closed: bool = True


def scan_chunks(body: str, fmt: int = 1) -> Iterator[ScannedChunk]:
    """Every chunk block of a note body, as the verifier sees it (str.find, not a parse:
    this is the hot path). ``fmt``: the note's ``note_format``."""
    text = "\n" + body  # so a marker on the first line is found like any other
    pos = text.find(_BEGIN)
    while pos >= 0:
        m = _MARKER_TAIL_RE.match(text, pos + len(_BEGIN))
        nxt = text.find(_BEGIN, pos + 1)
        if m is None:  # not a marker line after all (e.g. '<!-- chunk id=x -->trailing')
            pos = nxt
            continue
        limit = nxt if nxt >= 0 else len(text)
        end = text.find(_END, m.end() - 1, limit)
        while end >= 0 and text[end + len(_END) : end + len(_END) + 1] not in ("\n", ""):
            end = text.find(_END, end + 1, limit)
        if end < 0:
            yield ScannedChunk(m.group(1), None, None, closed=False)
        else:
            yield ScannedChunk(m.group(1), *_read_block(text, m.end() - 1, end + 1, fmt))
        pos = nxt


def _read_block(text: str, start: int, end: int, fmt: int = 1) -> tuple[str | None, str | None]:
    """(quote, recorded hash) of the block text[start:end] (starts and ends with a newline)."""
    q = text.find("\n>", start, end)
    quote = None
    heading = _LINE_QUOTE_RE.search(text, start, q if q >= 0 else end) if fmt >= 2 else None
    if heading is not None:
        quote = unescape(heading.group(1))
    elif q >= 0:
        run = _QUOTE_RUN_RE.match(text, q + 1, end)
        assert run is not None
        quote = _PREFIX_RE.sub("\n", "\n" + run.group(0))[1:]
        if fmt >= 2:
            # a folded chunk's callout header (notes/folds) is no part of the quote
            quote = unescape("\n".join(unfolded(quote.split("\n"))))
    f = text.find("\n`", start, end)
    while f >= 0:
        fence = _FENCE_OPEN_RE.match(text, f + 1, end)
        if fence is not None:
            close = text.find("\n" + fence.group(1) + "\n", fence.end() - 1, end + 1)
            if close < 0:
                return quote, None
            return quote, _recorded_hash(text, fence.end() - 1, close + 1)
        f = text.find("\n`", f + 1, end)
    return quote, None


def _recorded_hash(text: str, start: int, end: int) -> str | None:
    k = text.find(_HASH_KEY, start, end)
    if k < 0 and text.find(_HASH_KEY[1:], start, end) < 0:
        return None
    # (the key after a line break YAML knows and a "\n" search does not: a section's
    # block scalar ending in U+2028 puts ``text_sha256:`` right after it)
    m = _HEX64_RE.match(text, k + len(_HASH_KEY), end) if k >= 0 else None
    if m is not None:
        return m.group(1)
    try:  # quoted, multi-line or otherwise unusual value: let YAML decide, as parse_note does
        decoded = yaml_mapping(text[start:end], "<scan>", "provenance").get("text_sha256")
    except NoteFormatError:
        return None
    return decoded if isinstance(decoded, str) else None


def finding(kind: FindingKind, rel: str, key: str | None, message: str, **kw: str | None) -> Finding:
    """A Finding in the positional shorthand both verifiers (notes, sources) use."""
    return Finding(kind=kind, path=rel, cite_key=key, message=message, **kw)


#: ``originals(cite_key)``: chunk id → the quote as last indexed (asked only on drift).
Originals = Callable[[str], Mapping[str, str]]


def verify_text(text: str, rel: str, report: VerifyReport,
                originals: Originals | None = None) -> None:
    """Check one note's text, adding its counts and findings to ``report``. With
    ``originals``, a drifted quote whose recorded text is known shows the changed words."""
    key: str | None = filename_to_key(Path(rel).stem)
    text = text.replace("\r\n", "\n")  # as parse_note does
    body = text
    fmt = 1  # the note's layout (note_format), read from its frontmatter
    try:
        fm, pos = split_frontmatter(text, rel)
        body = text[pos:]
        meta = yaml_mapping(fm, rel, "frontmatter")
        fmt = meta["note_format"] if isinstance(meta.get("note_format"), int) else 1
        if not isinstance(meta.get("cite_key"), str):
            if _VAULTD_MARK not in body and _BEGIN_RE.search(body) is None:
                return  # the user's own note, not one vaultd wrote
            raise NoteFormatError(f"{rel}: frontmatter has no cite_key; recompile the note")
        key = meta["cite_key"]
    except NoteFormatError as exc:
        if _VAULTD_MARK not in text and _BEGIN_RE.search(text) is None:
            return
        report.findings.append(finding("MALFORMED", rel, key, str(exc)))
        # No readable frontmatter: the layout shows in the body (format 2 hides each
        # chunk's provenance in an Obsidian comment).
        fmt = 2 if "\n%%\n```" in text else 1
    report.notes += 1
    count = 0
    for chunk in scan_chunks(body, fmt):
        count += 1
        if not chunk.closed:
            msg = f"{rel}: chunk {chunk.id} is not closed by {CHUNK_END}; recompile the note"
        elif chunk.quote is None:
            msg = f"{rel}: chunk {chunk.id} has no '>' quote; recompile the note"
        elif chunk.recorded is None:
            msg = f"{rel}: chunk {chunk.id} has no provenance text_sha256; recompile the note"
        else:
            actual = text_sha256(chunk.quote)
            if actual != chunk.recorded:
                found = (originals(key) if originals and key else {}).get(chunk.id)
                known = found if found and text_sha256(found) == chunk.recorded else None
                changed = f": {word_diff(chunk.quote, known)}" if known else ""
                report.findings.append(
                    finding("DRIFT", rel, key, f"{key} chunk {chunk.id}: quote differs from the "
                             f"recorded hash{changed}; restore it or recompile the note",
                             chunk_id=chunk.id, expected=chunk.recorded, actual=actual,
                             fix=known)
                )
            continue
        report.findings.append(finding("MALFORMED", rel, key, msg, chunk_id=chunk.id))
    report.chunks += count


def _note_files(vault: Vault, cite_key: str | None) -> list[Path]:
    if cite_key is not None:
        return [vault.note_path(cite_key)]
    if not vault.wiki.is_dir():
        return []
    return sorted(
        p for p in vault.wiki.rglob("*.md")
        if not any(part.startswith(".") for part in p.relative_to(vault.wiki).parts)
    )


def verify_notes(vault: Vault, cite_key: str | None = None) -> VerifyReport:
    """Re-hash every quote in wiki/ (or only ``cite_key``'s note)."""
    report = VerifyReport()
    originals = indexed_quotes(vault)
    for path in _note_files(vault, cite_key):
        rel = vault.rel(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            report.findings.append(finding("MISSING", rel, cite_key, f"{rel}: no such note; "
                                            "check the cite key or compile it first"))
            continue
        except (OSError, UnicodeDecodeError) as exc:
            report.findings.append(finding("MALFORMED", rel, cite_key or path.stem,
                                            f"{rel}: unreadable ({type(exc).__name__}); fix the file"))
            continue
        verify_text(text, rel, report, originals)
    return report


def indexed_quotes(vault: Vault) -> Originals:
    """``originals`` from the search index: each chunk's text as it was last indexed (the
    source's words the note had then), read once per drifted note; nothing when the vault
    has no index."""
    def read(cite_key: str) -> Mapping[str, str]:
        if not vault.index_db.is_file():
            return {}
        try:
            db = open_index(vault.index_db, load_vec=False)
        except VaultdError:
            return {}
        try:
            rows = db.execute("SELECT chunk_id, text FROM chunks WHERE cite_key = ? "
                              "AND kind = 'paper'", (cite_key,))
            return {str(r[0]): str(r[1]) for r in rows}
        except VaultdError:
            return {}
        finally:
            db.close()
    return functools.cache(read)
