"""A RIS file (``.ris``) → ``ImportResult``, read with rispy.

The file is cut into records here, so that a malformed one is named by its line and the
others still read: a record runs from its ``TY`` line to its ``ER`` line; a record whose
``ER`` is missing is read up to the next ``TY`` or the end of the file (said, not
skipped); lines outside any record are said once per run. Each record's text is parsed by
rispy (tags, continuation lines, ``UR`` lists), then mapped by ``ris_map`` (Zotero's RIS
translator's table) and cited through the Zotero → CSL mapping. The ``ID`` tag, when
present, is the citation key, kept exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

import rispy

from vaultd.errors import InputError
from vaultd.importers.csl_work import work_from_csl
from vaultd.importers.keys import choose_key
from vaultd.importers.model import Attachment, ImportedItem, ImportResult, ItemNote, ItemOrigin
from vaultd.importers.notes import note_markdown
from vaultd.importers.ris_map import RisItem, ris_item
from vaultd.importers.tags import item_tags
from vaultd.importers.zotero_csl import record_to_csl
from vaultd.importers.zotero_schema import zotero_schema

#: rispy's field name → RIS tag (rispy names the tags it knows; others stay tags).
_TAG_OF = {name: tag for tag, name in rispy.TAG_KEY_MAPPING.items()}
_UNKNOWN = rispy.TAG_KEY_MAPPING["UK"]


@dataclass
class RisRecord:
    """The lines of one record and where it starts."""

    line: int  # 1-based line of its TY
    lines: list[str] = field(default_factory=list)
    closed: bool = False


def _tag(line: str) -> str | None:
    """The tag of a RIS line (rispy's rule: two capitals or a capital and a digit, two
    spaces, a hyphen), or None for a continuation line."""
    if line[2:5] == "  -" and line[:2].isupper() and line[:1].isalpha():
        return line[:2]
    return None


def split_records(text: str) -> tuple[list[RisRecord], list[tuple[int, str]]]:
    """The records of a RIS text, and (line, problem) for what lies outside them."""
    records: list[RisRecord] = []
    problems: list[tuple[int, str]] = []
    current: RisRecord | None = None
    stray: int | None = None
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = raw.rstrip("\r")
        tag = _tag(line)
        if tag == "TY":
            if current is not None and not current.closed:
                problems.append((current.line, "no ER line before the next TY (line "
                                 f"{number}); read up to it"))
            current = RisRecord(number, [line])
            records.append(current)
            stray = None
        elif current is not None and not current.closed:
            current.lines.append(line)
            if tag == "ER":
                current.closed = True
        elif line.strip() and stray is None:
            stray = number
            problems.append((number, f"text outside any record ({line.strip()[:40]!r}); "
                             "a record starts with a TY line"))
    if current is not None and not current.closed:
        problems.append((current.line, "no ER line before the end of the file; read to the end"))
    return records, problems


def _values(record: RisRecord) -> dict[str, list[str]]:
    """The record's values by tag, as rispy reads them."""
    lines = list(record.lines)
    if not record.closed:
        lines.append("ER  - ")
    parsed = rispy.loads("\n".join(lines), enforce_list_tags=False)
    if not parsed:
        return {}
    out: dict[str, list[str]] = {}
    for name, value in parsed[0].items():
        if name == _UNKNOWN:
            for tag, unknown in value.items():
                out.setdefault(tag, []).extend(str(v) for v in unknown)
            continue
        tag = _TAG_OF.get(name, name)
        values = value if isinstance(value, list) else [value]
        out.setdefault(tag, []).extend(str(v) for v in values)
    return out


def _file(kind: str, value: str, folder: Path) -> Attachment | None:
    if value.startswith("file://"):
        path = Path(unquote(urlparse(value).path))
    elif "://" in value:
        return Attachment(kind="url", path=None, url=value, stored_path=value)
    else:
        path = Path(value) if Path(value).is_absolute() else folder / value
    content_type = "application/pdf" if kind == "PDF" or path.suffix.lower() == ".pdf" else None
    return Attachment(kind="file", path=path, content_type=content_type, stored_path=value,
                      missing=not path.is_file())


def _item(read: RisItem, record: RisRecord, index: int, path: Path) -> ImportedItem:
    cited = record_to_csl(read.record, zotero_schema())
    work, warnings = work_from_csl(cited.csl, "ris")
    if not work.title and not work.authors:
        raise InputError("has neither a title (TI/T1) nor an author (AU/A1)")
    key, source, aliases = choose_key(
        [("ris", read.key), ("extra", cited.extra.citation_key)], cited.extra.aliases)
    origin = ItemOrigin(source=str(path), item_type=read.record.item_type, index=index,
                        line=record.line)
    files = [a for a in (_file(kind, value, path.parent) for kind, value in read.files) if a]
    return ImportedItem(
        work=work, origin=origin, key=key, key_source=source, aliases=aliases,
        tags=item_tags(read.tags, []), source_tags=tuple(read.tags),
        notes=tuple(ItemNote(markdown=note_markdown(n), html=n) for n in read.notes),
        attachments=tuple(files), warnings=(*read.warnings, *cited.warnings, *warnings))


def read_ris_text(text: str, path: Path) -> ImportResult:
    """The items of a RIS text (``path`` names it and anchors relative file paths)."""
    result = ImportResult(source=str(path))
    records, problems = split_records(text)
    for line, reason in problems:
        result.problem(f"line {line}", reason, skipped=False)
    for index, record in enumerate(records, start=1):
        label = f"record {index} (line {record.line})"
        try:
            values = _values(record)
            result.items.append(_item(ris_item(values), record, index, path))
        except (InputError, ValueError, KeyError) as exc:
            result.problem(label, str(exc) or type(exc).__name__)
    if not records and not result.problems:
        result.problem("file", "no RIS record (no line starts with 'TY  - ')")
    return result


def read_ris(path: Path) -> ImportResult:
    """Read a RIS file (UTF-8, with or without a byte-order mark; Latin-1 if not UTF-8)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return read_ris_text(text, path)
