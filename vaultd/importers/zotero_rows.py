"""The rows of Zotero's database that make a library, read in a few whole-table queries.

Tables and columns as Zotero's ``resource/schema/userdata.sql`` defines them from schema
version 120 (Zotero 6) to 129 (Zotero 10): ``libraries``/``groups``, ``items`` with
``itemTypesCombined``, ``itemData``/``itemDataValues``/``fieldsCombined``,
``itemCreators``/``creators``/``creatorTypes``, ``itemTags``/``tags``,
``collections``/``collectionItems``, ``itemNotes``, ``itemAttachments``,
``itemAnnotations``, and the trash (``deletedItems``, ``deletedCollections``). Feeds
(``feedItems``) are not part of a library. Item types and fields are joined by name, so
their numeric ids (which differ between databases) never matter.

Reads an open connection (``zotero_db.open_zotero``); writes nothing.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ItemRow:
    item_id: int
    key: str
    library_id: int
    item_type: str
    modified: str | None


@dataclass(frozen=True)
class CreatorRow:
    creator_type: str
    first: str | None
    last: str | None
    single_field: bool


@dataclass(frozen=True)
class AttachmentRow:
    item_id: int
    key: str
    parent_id: int | None
    link_mode: int | None
    content_type: str | None
    path: str | None


@dataclass(frozen=True)
class NoteRow:
    item_id: int
    key: str
    parent_id: int | None
    note: str
    modified: str | None


@dataclass(frozen=True)
class AnnotationRow:
    item_id: int
    key: str
    parent_id: int
    type: int
    author: str | None
    text: str | None
    comment: str | None
    color: str | None
    page_label: str | None
    sort_index: str | None
    position: str | None
    external: bool
    modified: str | None


@dataclass
class ZoteroRows:
    """One database's libraries and everything in them, by item id."""

    libraries: dict[int, str] = field(default_factory=dict)  # libraryID → name
    items: list[ItemRow] = field(default_factory=list)  # not in the trash, not feed items
    trashed: set[int] = field(default_factory=set)
    fields: dict[int, dict[str, str]] = field(default_factory=lambda: defaultdict(dict))
    creators: dict[int, list[CreatorRow]] = field(default_factory=lambda: defaultdict(list))
    tags: dict[int, list[str]] = field(default_factory=lambda: defaultdict(list))
    collections: dict[int, list[tuple[str, ...]]] = field(
        default_factory=lambda: defaultdict(list))
    notes: list[NoteRow] = field(default_factory=list)
    attachments: list[AttachmentRow] = field(default_factory=list)
    annotations: list[AnnotationRow] = field(default_factory=list)
    base_fields: dict[str, dict[str, str]] = field(default_factory=lambda: defaultdict(dict))


def _libraries(conn: sqlite3.Connection) -> dict[int, str]:
    groups = {r["libraryID"]: r["name"] for r in conn.execute(
        "SELECT libraryID, name FROM groups")}
    out: dict[int, str] = {}
    for row in conn.execute("SELECT libraryID, type FROM libraries ORDER BY libraryID"):
        if row["type"] == "user":
            out[row["libraryID"]] = "My Library"
        elif row["type"] == "group":
            out[row["libraryID"]] = groups.get(row["libraryID"], f"group {row['libraryID']}")
    return out  # feeds are no library of the user's


def _collection_paths(conn: sqlite3.Connection) -> dict[int, tuple[str, ...]]:
    rows = {r["collectionID"]: (r["collectionName"], r["parentCollectionID"]) for r in
            conn.execute("SELECT collectionID, collectionName, parentCollectionID FROM "
                         "collections WHERE collectionID NOT IN "
                         "(SELECT collectionID FROM deletedCollections)")}
    paths: dict[int, tuple[str, ...]] = {}
    for cid in rows:
        path: list[str] = []
        seen: set[int] = set()
        at: int | None = cid
        while at is not None and at in rows and at not in seen:
            seen.add(at)
            name, parent = rows[at]
            path.insert(0, name)
            at = parent
        if at is None:  # a collection under a trashed one is trashed with it
            paths[cid] = tuple(path)
    return paths


def read_rows(conn: sqlite3.Connection) -> ZoteroRows:
    """Every row vaultd reads, in eight queries."""
    rows = ZoteroRows(libraries=_libraries(conn))
    rows.trashed = {r[0] for r in conn.execute("SELECT itemID FROM deletedItems")}
    feed = {r[0] for r in conn.execute("SELECT itemID FROM feedItems")}
    for r in conn.execute(
            "SELECT i.itemID, i.key, i.libraryID, t.typeName, i.dateModified FROM items i "
            "JOIN itemTypesCombined t ON t.itemTypeID = i.itemTypeID ORDER BY i.itemID"):
        if r["itemID"] in feed or r["libraryID"] not in rows.libraries:
            continue
        rows.items.append(ItemRow(r["itemID"], r["key"], r["libraryID"], r["typeName"],
                                  r["dateModified"]))
    for r in conn.execute(
            "SELECT d.itemID, f.fieldName, v.value FROM itemData d "
            "JOIN fieldsCombined f ON f.fieldID = d.fieldID "
            "JOIN itemDataValues v ON v.valueID = d.valueID"):
        if r["value"] is not None:
            rows.fields[r["itemID"]][r["fieldName"]] = str(r["value"])
    for r in conn.execute(
            "SELECT ic.itemID, ct.creatorType, c.firstName, c.lastName, c.fieldMode "
            "FROM itemCreators ic JOIN creators c ON c.creatorID = ic.creatorID "
            "JOIN creatorTypes ct ON ct.creatorTypeID = ic.creatorTypeID "
            "ORDER BY ic.itemID, ic.orderIndex"):
        rows.creators[r["itemID"]].append(CreatorRow(
            r["creatorType"], r["firstName"], r["lastName"], r["fieldMode"] == 1))
    for r in conn.execute("SELECT it.itemID, t.name FROM itemTags it "
                          "JOIN tags t ON t.tagID = it.tagID ORDER BY it.itemID, t.name"):
        rows.tags[r["itemID"]].append(r["name"])
    paths = _collection_paths(conn)
    for r in conn.execute("SELECT collectionID, itemID FROM collectionItems "
                          "ORDER BY itemID, collectionID"):
        if r["collectionID"] in paths:
            rows.collections[r["itemID"]].append(paths[r["collectionID"]])
    keys = {item.item_id: item for item in rows.items}
    for r in conn.execute("SELECT itemID, parentItemID, note FROM itemNotes ORDER BY itemID"):
        item = keys.get(r["itemID"])
        if item and item.item_type == "note" and r["itemID"] not in rows.trashed:
            rows.notes.append(NoteRow(item.item_id, item.key, r["parentItemID"],
                                      r["note"] or "", item.modified))
    for r in conn.execute("SELECT itemID, parentItemID, linkMode, contentType, path "
                          "FROM itemAttachments ORDER BY itemID"):
        item = keys.get(r["itemID"])
        if item and r["itemID"] not in rows.trashed:
            rows.attachments.append(AttachmentRow(
                item.item_id, item.key, r["parentItemID"], r["linkMode"], r["contentType"],
                r["path"]))
    for r in conn.execute(
            "SELECT itemID, parentItemID, type, authorName, text, comment, color, pageLabel, "
            "sortIndex, position, isExternal FROM itemAnnotations ORDER BY parentItemID, "
            "sortIndex"):
        item = keys.get(r["itemID"])
        if item and r["itemID"] not in rows.trashed:
            rows.annotations.append(AnnotationRow(
                item.item_id, item.key, r["parentItemID"], r["type"], r["authorName"],
                r["text"], r["comment"], r["color"], r["pageLabel"], r["sortIndex"],
                r["position"], bool(r["isExternal"]), item.modified))
    for r in conn.execute(
            "SELECT t.typeName, f.fieldName AS field, b.fieldName AS base "
            "FROM baseFieldMappingsCombined m "
            "JOIN itemTypesCombined t ON t.itemTypeID = m.itemTypeID "
            "JOIN fieldsCombined f ON f.fieldID = m.fieldID "
            "JOIN fieldsCombined b ON b.fieldID = m.baseFieldID"):
        rows.base_fields[r["typeName"]][r["field"]] = r["base"]
    return rows
