"""A Zotero data folder → ``ImportResult``: every regular item of every library (or of one)
with its citation key, child notes, attachments and their annotations.

- Items in the trash and feed items are left out (counted in ``skipped``); so are notes
  and attachments without a parent (a standalone PDF is listed in ``orphans`` for the
  pipeline to capture as a dropped PDF).
- The citation key: Better BibTeX's database (``bbt_db``), else Zotero's own Citation Key
  field, else a ``Citation Key:`` line of Extra; the others become aliases (``keys``).
- Attachments: a stored file ``storage:name.pdf`` lives in ``storage/<attachment key>/``;
  a linked file has an absolute path, or ``attachments:rel/path`` under the linked
  attachment base directory set in Zotero's preferences (``attachments_base`` here); a
  linked URL has no file. ``missing`` says the file was not there when read.
- Annotations: ``position`` JSON gives ``pageIndex`` (0-based) and ``rects`` in PDF user
  space; annotations on EPUB or web snapshots have no page (``page_index`` None).
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from vaultd.errors import InputError
from vaultd.importers.bbt_db import read_bbt_keys
from vaultd.importers.csl_work import work_from_csl
from vaultd.importers.keys import choose_key
from vaultd.importers.model import (
    Annotation,
    AnnotationKind,
    Attachment,
    AttachmentKind,
    ImportedItem,
    ImportResult,
    ItemNote,
    ItemOrigin,
    Rect,
)
from vaultd.importers.names import Creator
from vaultd.importers.notes import note_markdown
from vaultd.importers.tags import item_tags
from vaultd.importers.zotero_csl import ZoteroRecord, record_to_csl
from vaultd.importers.zotero_db import open_zotero
from vaultd.importers.zotero_rows import AnnotationRow, AttachmentRow, ZoteroRows, read_rows
from vaultd.importers.zotero_schema import CHILD_TYPES, ZoteroSchema, zotero_schema

ZOTERO_DB = "zotero.sqlite"
_ANNOTATION_KINDS: dict[int, AnnotationKind] = {
    1: "highlight", 2: "note", 3: "image", 4: "ink", 5: "underline", 6: "text"}
_LINK_KINDS: dict[int, AttachmentKind] = {0: "stored", 1: "stored", 2: "linked", 3: "url",
                                          4: "embedded"}
_BASE_PREFIX = "attachments:"
_STORAGE_PREFIX = "storage:"


def _rects(position: dict[str, Any]) -> tuple[Rect, ...]:
    out: list[Rect] = []
    for rect in position.get("rects") or []:
        if isinstance(rect, list) and len(rect) == 4 and all(
                isinstance(v, int | float) for v in rect):
            x1, y1, x2, y2 = (float(v) for v in rect)
            out.append((min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)))
    return tuple(out)


def annotation(row: AnnotationRow) -> Annotation:
    """A row of ``itemAnnotations`` as an Annotation."""
    try:
        position = json.loads(row.position) if row.position else {}
    except ValueError:
        position = {}
    if not isinstance(position, dict):
        position = {}
    page_index = position.get("pageIndex")
    return Annotation(
        key=row.key, kind=_ANNOTATION_KINDS.get(row.type, "unknown"), text=row.text or None,
        comment=row.comment or None, color=row.color, page_label=row.page_label or None,
        page_index=page_index if isinstance(page_index, int) else None,
        rects=_rects(position), sort_index=row.sort_index, author=row.author,
        position=position, modified=row.modified, external=row.external)


class _Context:
    def __init__(self, data_dir: Path, rows: ZoteroRows, schema: ZoteroSchema,
                 attachments_base: Path | None, result: ImportResult) -> None:
        self.data_dir = data_dir
        self.rows = rows
        self.schema = schema
        self.base = attachments_base
        self.result = result
        self.notes: dict[int, list[ItemNote]] = defaultdict(list)
        self.attachments: dict[int, list[Attachment]] = defaultdict(list)
        self.annotations: dict[int, list[Annotation]] = defaultdict(list)
        for a in rows.annotations:
            self.annotations[a.parent_id].append(annotation(a))

    def path_of(self, row: AttachmentRow, label: str) -> Path | None:
        stored = row.path or ""
        if row.link_mode in (0, 1, 4):
            if not stored.startswith(_STORAGE_PREFIX):
                return None
            return self.data_dir / "storage" / row.key / stored[len(_STORAGE_PREFIX):]
        if row.link_mode == 2 and stored.startswith(_BASE_PREFIX):
            if self.base is None:
                self.result.problem(label, f"linked file {stored!r} is relative to Zotero's "
                                    "linked attachment base directory; pass that directory "
                                    "(--attachments-base) to find it", skipped=False)
                return None
            return self.base / stored[len(_BASE_PREFIX):]
        if row.link_mode == 2 and stored:
            return Path(stored)
        return None

    def attachment(self, row: AttachmentRow, label: str) -> Attachment:
        fields = self.rows.fields.get(row.item_id, {})
        path = self.path_of(row, label)
        kind = _LINK_KINDS.get(row.link_mode if row.link_mode is not None else -1, "file")
        missing = path is not None and not path.is_file()
        return Attachment(kind=kind, path=path, content_type=row.content_type,
                          title=fields.get("title"), url=fields.get("url"), key=row.key,
                          stored_path=row.path, missing=missing,
                          annotations=tuple(self.annotations.get(row.item_id, ())))


def _gather_children(ctx: _Context, items: dict[int, Any], chosen: set[int]) -> None:
    """Child notes and attachments onto their items; standalone ones counted or listed."""
    rows = ctx.rows
    library_of = {r.item_id: r.library_id for r in rows.items}
    for note in rows.notes:
        if note.parent_id in items:
            ctx.notes[note.parent_id].append(ItemNote(
                markdown=note_markdown(note.note), key=note.key, html=note.note,
                modified=note.modified))
        elif note.parent_id is None and library_of.get(note.item_id) in chosen:
            ctx.result.count_skipped("standalone note")
    for att in rows.attachments:
        if att.link_mode == 4:
            continue  # an image inside a note, not a file of the item
        label = f"attachment {att.key}"
        if att.parent_id in items:
            ctx.attachments[att.parent_id].append(ctx.attachment(att, label))
        elif att.parent_id is None and library_of.get(att.item_id) in chosen:
            ctx.result.orphans.append(ctx.attachment(att, label))


def _item(ctx: _Context, row: Any, keys: dict[tuple[int, str], str]) -> ImportedItem | None:
    rows = ctx.rows
    library = rows.libraries[row.library_id]
    origin = ItemOrigin(source=str(ctx.data_dir / ZOTERO_DB), library=library,
                        library_id=row.library_id, item_key=row.key, item_type=row.item_type,
                        modified=row.modified)
    fields = rows.fields.get(row.item_id, {})
    creators = tuple(Creator(c.creator_type, c.last, c.first, c.single_field)
                     for c in rows.creators.get(row.item_id, ()))
    cited = record_to_csl(ZoteroRecord(row.item_type, fields, creators), ctx.schema, row.key)
    try:
        work, warnings = work_from_csl(cited.csl, "zotero")
    except InputError as exc:
        ctx.result.problem(origin.label, f"cannot be cited ({exc})")
        return None
    key, source, aliases = choose_key(
        [("better-bibtex-database", keys.get((row.library_id, row.key))),
         ("zotero-field", fields.get("citationKey")),
         ("extra", cited.extra.citation_key)], cited.extra.aliases)
    tags = rows.tags.get(row.item_id, [])
    collections = rows.collections.get(row.item_id, [])
    return ImportedItem(
        work=work, origin=origin, key=key, key_source=source, aliases=aliases,
        tags=item_tags(tags, collections), collections=tuple(collections),
        source_tags=tuple(tags), notes=tuple(ctx.notes.get(row.item_id, ())),
        attachments=tuple(ctx.attachments.get(row.item_id, ())),
        warnings=(*cited.warnings, *warnings))


def _select(libraries: dict[int, str], wanted: str | None, db: Path) -> set[int]:
    if wanted is None:
        return set(libraries)
    chosen = {lid for lid, name in libraries.items() if name.casefold() == wanted.casefold()}
    if not chosen:
        names = ", ".join(repr(n) for n in libraries.values())
        raise InputError(f"{db}: no library named {wanted!r}; the libraries are {names}")
    return chosen


def read_zotero(data_dir: Path, *, library: str | None = None,
                attachments_base: Path | None = None) -> ImportResult:
    """Read Zotero's data folder (``zotero.sqlite``, ``storage/``, and Better BibTeX's
    ``better-bibtex.sqlite`` when present) without writing anything in it.

    ``library``: only the library of that name ('My Library' or a group's name).
    ``attachments_base``: Zotero's linked attachment base directory, for linked files
    stored relative to it. Raises ``InputError`` (one line) for a missing, unreadable or
    unknown-schema database or an unknown library; every problem with one item is in
    ``result.problems`` and the rest is read."""
    if data_dir.is_file():
        data_dir = data_dir.parent
    db = data_dir / ZOTERO_DB
    result = ImportResult(source=str(db))
    keys, bbt_problem = read_bbt_keys(data_dir)
    if bbt_problem:
        result.problem("better-bibtex.sqlite", bbt_problem, skipped=False)
    with open_zotero(db) as (conn, _version):
        rows = read_rows(conn)
    chosen = _select(rows.libraries, library, db)
    result.libraries = [rows.libraries[lid] for lid in sorted(chosen)]
    schema = zotero_schema().with_base_fields(dict(rows.base_fields))
    ctx = _Context(data_dir, rows, schema, attachments_base, result)
    regular = {}
    for row in rows.items:
        if row.library_id not in chosen or row.item_type in CHILD_TYPES:
            continue
        if row.item_id in rows.trashed:
            result.count_skipped("in Zotero's trash")
            continue
        regular[row.item_id] = row
    _gather_children(ctx, regular, chosen)
    for row in regular.values():
        item = _item(ctx, row, keys)
        if item is not None:
            result.items.append(item)
    return result

