"""``.bib`` import: each BibTeX/biblatex entry as a Work, its key kept as the cite key.

bibtexparser 2 splits the file and its middlewares resolve ``@string`` macros, remove the
field delimiters, split name lists on ``and`` outside braces and read month macros;
pylatexenc reads the LaTeX (``capture/latex_text.py``): an English title is lowered to
sentence case as pandoc does, except where braces protect it, and keeps its marked-up parts
as CSL rich text; the plain title has no braces. A name that is one braced group is an
organisation, kept whole. docs/bibtex.md lists the entry types and fields.

An entry bibtexparser cannot read is reported with the file, line and key, and the others
are still imported; a file with no readable entry is an InputError.
"""


from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vaultd.capture.bib_csl import pandoc_items, work_from_item
from vaultd.capture.bib_entry import to_work
from vaultd.capture.bib_inherit import inherit
from vaultd.errors import InputError
from vaultd.models import Work

log = logging.getLogger(__name__)


class _QuietSplitter(logging.Filter):
    """bibtexparser's splitter logs each syntax error itself, with 0-based line numbers;
    vaultd reports the same failure (1-based, with the key) through BibLibrary."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "aborted" not in record.getMessage()


logging.getLogger("bibtexparser.splitter").addFilter(_QuietSplitter())

@dataclass
class BibEntry:
    key: str
    work: Work
    doi: str | None
    arxiv_id: str | None


@dataclass
class BibProblem:
    """A block of a .bib file that could not be read as it stands."""

    source: str
    line: int | None  # 1-based
    key: str | None
    reason: str
    imported: bool = False  # True: read anyway (e.g. a repeated field: the first wins)

    @property
    def label(self) -> str:
        where = f"{self.source} line {self.line}" if self.line else self.source
        return f"{where} (@{self.key})" if self.key else where

    def __str__(self) -> str:
        return f"{self.label}: {self.reason}"


@dataclass
class BibLibrary:
    """What one .bib gave: the entries read, and the problems met on the way."""

    entries: list[BibEntry] = field(default_factory=list)
    problems: list[BibProblem] = field(default_factory=list)

    @property
    def failed(self) -> list[tuple[str, str]]:
        """(block, reason) for each entry left out, as capture reports failed items."""
        return [(p.label, p.reason) for p in self.problems if not p.imported]

    @property
    def warnings(self) -> list[str]:
        return [str(p) for p in self.problems]


# --- the file ---------------------------------------------------------------------------

_BLOCK_HEAD_RE = re.compile(r"@\s*(\w+)\s*[{(]\s*([^\s,{}()=\"#%'~\\]+)?")


def _concatenated(value: str, strings: dict[str, str]) -> str:
    """``jnl # " Letters"``: bibtexparser leaves concatenations as written."""
    parts: list[str] = []
    depth, quoted, start = 0, False, 0
    for i, c in enumerate(value + "#"):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == '"' and depth == 0:
            quoted = not quoted
        elif c == "#" and depth == 0 and not quoted:
            parts.append(value[start:i].strip())
            start = i + 1
    out = []
    for p in parts:
        if len(p) >= 2 and p[0] + p[-1] in ("{}", '""'):
            out.append(p[1:-1])
        else:
            out.append(strings.get(p.lower(), p))
    return "".join(out)


def _fields(entry: Any, strings: dict[str, str]) -> dict[str, Any]:
    # lazy: bibtexparser costs 113 ms at import
    from bibtexparser.middlewares import RemoveEnclosingMiddleware

    unenclosed = entry.parser_metadata.get(RemoveEnclosingMiddleware.metadata_key()) or {}
    out: dict[str, Any] = {}
    for fld in entry.fields:
        key = fld.key.lower()
        if key in out:
            continue  # BibTeX reads the first of repeated fields
        value = fld.value
        if isinstance(value, str) and unenclosed.get(fld.key) == "no-enclosing" \
                and "#" in value:
            value = _concatenated(value, strings)
        out[key] = value
    return out


def _problem(block: Any, source: str) -> BibProblem:
    # lazy: bibtexparser costs 113 ms at import
    from bibtexparser.exceptions import BlockAbortedException

    raw = block.raw or ""
    head = _BLOCK_HEAD_RE.search(raw)
    key = getattr(block.ignore_error_block, "key", None) or (head.group(2) if head else None)
    line = block.start_line + 1 if block.start_line is not None else None
    error = block.error
    kind = type(block).__name__
    if kind == "DuplicateBlockKeyBlock":
        return BibProblem(source, line, key, "the key is used by an earlier entry; only the "
                          "first entry with it was imported (give this one its own key)")
    if kind == "DuplicateFieldKeyBlock":
        return BibProblem(source, line, key, f"{error}; the first value was used".replace(
            ". Note: The entry (containing duplicates) is available as "
            "`failed_block.ignore_error_block`", ""), imported=True)
    if isinstance(error, BlockAbortedException):
        reason = " ".join(str(error.abort_reason).split())
        return BibProblem(source, line, key, f"BibTeX syntax error ({reason}); the entry was "
                          "skipped: fix it and import the file again")
    return BibProblem(source, line, key, f"cannot read this entry ({error}); fix it and "
                      "import the file again")


def parse_bib_library(text: str, source: str = "<bib>") -> BibLibrary:
    """Every entry of a .bib text, and a problem (file, line, key) for each block that
    could not be read. Raises InputError when no entry could be read at all."""
    # lazy: bibtexparser costs 113 ms at import
    from bibtexparser.entrypoint import parse_string

    # lazy: bibtexparser costs 113 ms at import
    from bibtexparser.middlewares import MonthIntMiddleware, SeparateCoAuthors

    # lazy: bibtexparser costs 113 ms at import
    from bibtexparser.model import Entry

    try:
        library = parse_string(
            text, append_middleware=[MonthIntMiddleware(), SeparateCoAuthors()])
    except Exception as exc:  # bibtexparser raises assorted types on malformed input
        raise InputError(f"cannot read {source} as BibTeX: {exc}; check the file") from exc
    out = BibLibrary()
    blocks = list(library.entries)
    for failed in library.failed_blocks:
        problem = _problem(failed, source)
        out.problems.append(problem)
        if problem.imported and isinstance(failed.ignore_error_block, Entry):
            blocks.append(failed.ignore_error_block)
    blocks.sort(key=lambda b: b.start_line or 0)
    strings = {k.lower(): str(s.value) for k, s in library.strings_dict.items()}
    fields = {b.key.lower(): _fields(b, strings) for b in blocks}
    inherit({b.key.lower(): b.entry_type.lower() for b in blocks}, fields)
    # xdata entries lend their fields to others and are no works of their own
    blocks = [b for b in blocks if b.entry_type.lower() != "xdata"]
    items = pandoc_items(text, source) if blocks else {}
    for block in blocks:
        try:
            work = to_work(block.entry_type, fields[block.key.lower()])
            if block.key in items:
                work = work_from_item(items[block.key], work)
        except (ValueError, TypeError) as exc:  # a value the Work model refuses
            out.problems.append(BibProblem(source, (block.start_line or 0) + 1, block.key,
                                           f"cannot read this entry ({exc}); fix it and "
                                           "import the file again"))
            continue
        out.entries.append(BibEntry(block.key, work, work.doi, work.arxiv_id))
    if not out.entries:
        if out.problems:
            raise InputError(f"no entry of {source} could be read: {out.problems[0]} "
                             f"({len(out.problems)} problem(s) in all)")
        raise InputError(f"{source} holds no BibTeX entry (entries look like "
                         "@article{key, title = {...}}); check that it is a .bib file")
    return out


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc}; check the path") from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        log.warning("%s is not UTF-8; read as Windows-1252", path.name)
        return data.decode("cp1252", errors="replace")


def read_bib_library(path: Path) -> BibLibrary:
    return parse_bib_library(_read_text(path), path.name)


def _logged(library: BibLibrary) -> list[BibEntry]:
    for problem in library.problems:
        log.warning("%s", problem)
    return library.entries


def parse_bib(text: str, source: str = "<bib>") -> list[BibEntry]:
    """The entries of a .bib text; problems are logged (parse_bib_library returns them)."""
    return _logged(parse_bib_library(text, source))


def read_bib(path: Path) -> list[BibEntry]:
    return _logged(read_bib_library(path))
