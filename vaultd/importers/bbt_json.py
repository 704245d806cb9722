"""A Better BibTeX JSON export (``.json`` with ``config`` and ``items``) → ``ImportResult``.

BBT writes each item as Zotero's own item JSON (``itemType``, fields by name, ``creators``
with ``firstName``/``lastName`` or ``name``), plus ``citationKey`` (the key BBT cites it
by, kept exactly), ``tags`` (``{"tag": …}``), ``notes`` (HTML strings, or ``{"note": …}``),
``attachments`` (``{"path", "contentType", "title", "url"}``; a relative path is taken
from the export's folder) and, at the top, ``collections`` by key (``{"name", "parent",
"items": [itemID…]}``). The item goes through the same Zotero → CSL mapping as an item
of Zotero's database (``zotero_csl``).

An item that cannot be read is one problem naming it (its position, key and title); the
others are still read. A file that is not such an export is an ``InputError``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from vaultd.errors import InputError
from vaultd.importers.csl_work import work_from_csl
from vaultd.importers.keys import choose_key
from vaultd.importers.model import Attachment, ImportedItem, ImportResult, ItemNote, ItemOrigin
from vaultd.importers.names import Creator
from vaultd.importers.notes import note_markdown
from vaultd.importers.tags import item_tags
from vaultd.importers.zotero_csl import ZoteroRecord, record_to_csl
from vaultd.importers.zotero_schema import CHILD_TYPES, zotero_schema

_NOT_FIELDS = frozenset({"itemType", "creators", "tags", "notes", "attachments", "relations",
                         "collections", "itemID", "key", "version", "citationKey", "uri",
                         "dateAdded", "dateModified", "select", "itemKey", "libraryID",
                         "citekey", "multi", "seeAlso"})


def is_bbt_export(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("items"), list) and (
        "config" in data or "collections" in data or "version" in data)


def _collections(data: dict[str, Any]) -> dict[Any, list[tuple[str, ...]]]:
    """itemID → the paths of the collections holding it."""
    raw = data.get("collections")
    if not isinstance(raw, dict):
        return {}
    out: dict[Any, list[tuple[str, ...]]] = {}
    for key, coll in raw.items():
        if not isinstance(coll, dict):
            continue
        path: list[str] = []
        at: Any = key
        seen: set[Any] = set()
        while at in raw and at not in seen and isinstance(raw[at], dict):
            seen.add(at)
            path.insert(0, str(raw[at].get("name", "")))
            at = raw[at].get("parent")
        for item_id in coll.get("items") or []:
            out.setdefault(item_id, []).append(tuple(path))
    return out


def _creators(raw: Any) -> tuple[Creator, ...]:
    out = []
    for c in raw if isinstance(raw, list) else []:
        if not isinstance(c, dict):
            continue
        kind = str(c.get("creatorType") or "author")
        if c.get("name"):
            out.append(Creator(kind, last=str(c["name"]), single_field=True))
        else:
            out.append(Creator(kind, last=c.get("lastName"), first=c.get("firstName"),
                               single_field=c.get("fieldMode") == 1))
    return tuple(out)


def _attachment(raw: dict[str, Any], folder: Path) -> Attachment:
    stored = raw.get("localPath") or raw.get("path")
    path = None
    if isinstance(stored, str) and stored:
        path = Path(stored) if Path(stored).is_absolute() else folder / stored
    return Attachment(kind="linked" if path is not None else "url", path=path, content_type=raw.get("contentType"),
                      title=raw.get("title"), url=raw.get("url"), key=raw.get("key"),
                      stored_path=stored if isinstance(stored, str) else None,
                      missing=path is not None and not path.is_file())


def _notes(raw: Any) -> tuple[ItemNote, ...]:
    out = []
    for note in raw if isinstance(raw, list) else []:
        html = note.get("note") if isinstance(note, dict) else note
        if isinstance(html, str) and html.strip():
            out.append(ItemNote(markdown=note_markdown(html), html=html,
                                key=note.get("key") if isinstance(note, dict) else None))
    return tuple(out)


def _tags(raw: Any) -> list[str]:
    tags = []
    for t in raw if isinstance(raw, list) else []:
        name = t.get("tag") if isinstance(t, dict) else t
        if isinstance(name, str) and name.strip():
            tags.append(name)
    return tags


def _item(raw: dict[str, Any], index: int, path: Path,
          collections: dict[Any, list[tuple[str, ...]]]) -> ImportedItem:
    schema = zotero_schema()
    item_type = raw.get("itemType")
    if not isinstance(item_type, str) or not item_type:
        raise InputError("no itemType")
    fields = {k: str(v) for k, v in raw.items()
              if k not in _NOT_FIELDS and isinstance(v, str | int | float)
              and not isinstance(v, bool)}
    if isinstance(raw.get("extra"), list):  # older exports: Extra as a list of lines
        fields["extra"] = "\n".join(str(line) for line in raw["extra"])
    cited = record_to_csl(ZoteroRecord(item_type, fields, _creators(raw.get("creators"))),
                          schema)
    work, warnings = work_from_csl(cited.csl, "better-bibtex-json")
    key, source, aliases = choose_key(
        [("better-bibtex-json", raw.get("citationKey") if isinstance(
            raw.get("citationKey"), str) else None),
         ("extra", cited.extra.citation_key)], cited.extra.aliases)
    tags = _tags(raw.get("tags"))
    colls = collections.get(raw.get("itemID"), [])
    origin = ItemOrigin(source=str(path), item_key=raw.get("key") if isinstance(
        raw.get("key"), str) else None, item_type=item_type, index=index,
        modified=raw.get("dateModified"))
    attachments = tuple(_attachment(a, path.parent) for a in raw.get("attachments") or []
                        if isinstance(a, dict))
    return ImportedItem(
        work=work, origin=origin, key=key, key_source=source, aliases=aliases,
        tags=item_tags(tags, colls), collections=tuple(colls), source_tags=tuple(tags),
        notes=_notes(raw.get("notes")), attachments=attachments,
        warnings=(*cited.warnings, *warnings))


def read_bbt_data(data: dict[str, Any], path: Path) -> ImportResult:
    """The items of a parsed BBT JSON export (``path`` names it and anchors relative
    attachment paths)."""
    result = ImportResult(source=str(path))
    collections = _collections(data)
    for index, raw in enumerate(data["items"], start=1):
        if not isinstance(raw, dict):
            result.problem(f"item {index}", "not a JSON object")
            continue
        if raw.get("itemType") in CHILD_TYPES:
            result.count_skipped(f"standalone {raw.get('itemType')}")
            continue
        try:
            result.items.append(_item(raw, index, path, collections))
        except InputError as exc:
            key = raw.get("citationKey") or raw.get("key")
            name = f"item {index}" + (f" ({key})" if key else "")
            title = raw.get("title")
            if isinstance(title, str) and title:
                name += f" {title[:60]!r}"
            result.problem(name, str(exc))
    return result
