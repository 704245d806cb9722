"""RIS tags → a Zotero item, by the table of Zotero's own RIS translator (pure).

``data/ris_zotero.json`` holds the import maps of zotero/translators ``RIS.js``: ``TY`` →
Zotero item type (an unknown type is read as a journal article, as Zotero does), and each
tag → the Zotero field it fills for the item type (``T2`` is ``bookTitle`` in a book
section, ``publicationTitle`` in a journal article). The record then goes through the same
Zotero → CSL mapping as an item of Zotero's database.

Beyond the table, as the translator does: ``SP`` and ``EP`` make one page range; ``DA``,
``PY`` and ``Y1`` give one date, the fullest first (``YYYY/MM/DD/other``, zero parts
unknown); a name is ``Last, First[, Suffix]``, one without a comma an organisation; ``KW``
are tags, ``N1``/``RN`` notes, ``L1``/``L2``/``L4`` files; ``unsupported/…`` tags (author
addresses, captions) are not cited.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from vaultd.importers.dates import first_parts, ris_date
from vaultd.importers.names import Creator, ris_creator
from vaultd.importers.zotero_csl import ZoteroRecord

_DATE_TAGS = ("DA", "PY", "Y1")  # fullest first: DA carries the whole date, PY the year
_NOT_MAPPED = frozenset({"TY", "ER", "ID", "SP", "EP", *_DATE_TAGS})
_TAG_SPLIT = re.compile(r"\s*(?:[\r\n]+\s*)+|\s*(?:;\s*)+")


@dataclass(frozen=True)
class RisTable:
    default_type: str
    types: dict[str, str]
    maps: tuple[dict[str, Any], ...]

    def item_type(self, ty: str) -> str | None:
        return self.types.get(ty.strip().upper())

    def field(self, item_type: str, tag: str) -> str | None:
        """The Zotero field (or ``creators/…``, ``attachments/…``, …) ``tag`` fills."""
        found = self.lookup(item_type, tag)
        return found[0] if found else None

    def lookup(self, item_type: str, tag: str) -> tuple[str, int] | None:
        """(field, index of the map that gave it): the translator's own maps come before
        its maps of degenerate tags, and their tags are applied first."""
        for index, table in enumerate(self.maps):
            entry = table.get(tag)
            if isinstance(entry, str):
                return entry, index
            if not isinstance(entry, dict):
                continue
            for name, types in entry.items():
                if not name.startswith("__") and item_type in types:
                    return str(name), index
            default = entry.get("__default")
            if default and item_type not in entry.get("__exclude", []):
                return str(default), index
        return None


@cache
def ris_table() -> RisTable:
    raw = json.loads(resources.files("vaultd.importers").joinpath(
        "data/ris_zotero.json").read_text("utf-8"))
    return RisTable(raw["default_type"], dict(raw["types"]), tuple(raw["maps"]))


@dataclass
class RisItem:
    """One RIS record read as a Zotero item, with what is not a field."""

    record: ZoteroRecord
    key: str | None = None
    tags: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    files: list[tuple[str, str]] = field(default_factory=list)  # (kind, path or URL)
    warnings: list[str] = field(default_factory=list)
    backup_title: str | None = None


def _complete(item: RisItem, fields: dict[str, str]) -> None:
    """The translator's last touches (``completeItem``): a publication title from the
    backup tags or the journal abbreviation, a title from the short title, and one lone
    keyword line split at commas."""
    if item.backup_title and "publicationTitle" not in fields:
        fields["publicationTitle"] = item.backup_title
    if fields.get("journalAbbreviation") and "publicationTitle" not in fields:
        fields["publicationTitle"] = fields["journalAbbreviation"]
    if fields.get("shortTitle") and "title" not in fields:
        fields["title"] = fields["shortTitle"]
    if len(item.tags) == 1:
        item.tags = [t for t in re.split(r"\s*(?:,\s*)+", item.tags[0]) if t]


def _date_text(values: dict[str, list[str]]) -> str | None:
    best: tuple[int, str] | None = None
    for tag in _DATE_TAGS:
        for value in values.get(tag, []):
            date = ris_date(value)
            parts = first_parts(date)
            if parts and (best is None or len(parts) > best[0]):
                best = (len(parts), "-".join(f"{p:04d}" if i == 0 else f"{p:02d}"
                                             for i, p in enumerate(parts)))
            elif date and "literal" in date and best is None:
                best = (0, value)
    return best[1] if best else None


def ris_item(values: dict[str, list[str]]) -> RisItem:
    """A record's values by tag (in file order) → a Zotero item."""
    table = ris_table()
    ty = (values.get("TY") or [""])[0]
    item_type = table.item_type(ty)
    warnings = []
    if item_type is None:
        warnings.append(f"RIS type {ty!r} is unknown; read as {table.default_type}")
        item_type = table.default_type
    fields: dict[str, str] = {}
    creators: list[Creator] = []
    out = RisItem(ZoteroRecord(item_type), warnings=warnings)
    targets = []
    for order, (tag, tag_values) in enumerate(values.items()):
        found = None if tag in _NOT_MAPPED else table.lookup(item_type, tag)
        if found is not None:
            targets.append((found[1], order, found[0], tag_values))
    for _, _, target, tag_values in sorted(targets, key=lambda t: (t[0], t[1])):
        head, _, rest = target.partition("/")
        for value in (v.strip() for v in tag_values):
            if not value:
                continue
            if head == "creators":
                creators.append(ris_creator(value, rest))
            elif head == "attachments":
                out.files.append((rest, value))
            elif head == "tags":
                out.tags.extend(t for t in _TAG_SPLIT.split(value) if t)
            elif head == "notes":
                out.notes.append(value)
            elif head == "extra":
                fields["extra"] = f"{fields['extra']}\n{value}" if "extra" in fields else value
            elif head in ("unsupported", "__ignore") or target in fields:
                continue
            elif head == "backupPublicationTitle":
                out.backup_title = out.backup_title or value
            else:
                fields[target] = value
    _complete(out, fields)
    _pages(values, item_type, table, fields)
    date = _date_text(values)
    if date:
        date_field = table.field(item_type, "DA") or "date"
        fields.setdefault(date_field, date)
    ident = [v.strip() for v in values.get("ID", []) if v.strip()]
    out.key = ident[0] if ident else None
    out.record = ZoteroRecord(item_type, fields, tuple(creators))
    return out


def _pages(values: dict[str, list[str]], item_type: str, table: RisTable,
           fields: dict[str, str]) -> None:
    start = next((v.strip() for v in values.get("SP", []) if v.strip()), "")
    end = next((v.strip() for v in values.get("EP", []) if v.strip()), "")
    target = table.field(item_type, "SP") or "pages"
    if target != "pages":  # numPages, firstPage, runningTime, codePages: SP alone
        if start:
            fields[target] = start
        if end:
            fields.setdefault("pages", end)
        return
    if start and end and "-" not in start:
        fields["pages"] = f"{start}-{end}"
    elif start or end:
        fields["pages"] = start or end
