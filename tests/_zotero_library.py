"""Generated Zotero libraries for the importer tests: a real ``zotero.sqlite`` (and, when
asked, ``better-bibtex.sqlite``) written by this code into a test's folder.

``ZoteroLibrary(folder)`` creates the tables vaultd reads with the columns Zotero's own
``resource/schema/userdata.sql`` gives them (written here from that file's layout: the
tables and columns vaultd reads, nothing else), or, given the text of Zotero's own schema
files (``schema_sql``), runs those instead, triggers included. Item types, fields and
creator types are inserted by name as Zotero does at start-up from its global schema, with
the base-field mappings of vaultd's table. Then ``item``, ``note``, ``attachment``,
``annotation``, ``collection`` and ``group`` add what a test needs.
"""

from __future__ import annotations

import json
import random
import sqlite3
import string
from pathlib import Path
from typing import Any

from vaultd.importers.zotero_schema import zotero_schema

#: The tables and columns vaultd reads, as Zotero's userdata.sql (schema 120–129) has them.
OWN_DDL = """
CREATE TABLE version (schema TEXT PRIMARY KEY, version INT NOT NULL);
CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT, templateItemTypeID INT,
    display INT DEFAULT 1);
CREATE TABLE itemTypesCombined (itemTypeID INT NOT NULL, typeName TEXT NOT NULL,
    display INT DEFAULT 1 NOT NULL, custom INT NOT NULL, PRIMARY KEY (itemTypeID));
CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT, fieldFormatID INT);
CREATE TABLE fieldsCombined (fieldID INT NOT NULL, fieldName TEXT NOT NULL, label TEXT,
    fieldFormatID INT, custom INT NOT NULL, PRIMARY KEY (fieldID));
CREATE TABLE baseFieldMappingsCombined (itemTypeID INT, baseFieldID INT, fieldID INT,
    PRIMARY KEY (itemTypeID, baseFieldID, fieldID));
CREATE TABLE creatorTypes (creatorTypeID INTEGER PRIMARY KEY, creatorType TEXT);
CREATE TABLE libraries (libraryID INTEGER PRIMARY KEY, type TEXT NOT NULL, editable INT NOT NULL,
    filesEditable INT NOT NULL, version INT NOT NULL DEFAULT 0,
    storageVersion INT NOT NULL DEFAULT 0, lastSync INT NOT NULL DEFAULT 0,
    archived INT NOT NULL DEFAULT 0);
CREATE TABLE groups (groupID INTEGER PRIMARY KEY, libraryID INT NOT NULL UNIQUE,
    name TEXT NOT NULL, description TEXT NOT NULL, version INT NOT NULL);
CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL,
    dateAdded TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    dateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0,
    synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key));
CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE);
CREATE TABLE itemData (itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID));
CREATE TABLE itemNotes (itemID INTEGER PRIMARY KEY, parentItemID INT, note TEXT, title TEXT);
CREATE TABLE itemAttachments (itemID INTEGER PRIMARY KEY, parentItemID INT, linkMode INT,
    contentType TEXT, charsetID INT, path TEXT, syncState INT DEFAULT 0, storageModTime INT,
    storageHash TEXT, lastProcessedModificationTime INT);
CREATE TABLE itemAnnotations (itemID INTEGER PRIMARY KEY, parentItemID INT NOT NULL,
    type INTEGER NOT NULL, authorName TEXT, text TEXT, comment TEXT, color TEXT,
    pageLabel TEXT, sortIndex TEXT NOT NULL, position TEXT NOT NULL, isExternal INT NOT NULL);
CREATE TABLE tags (tagID INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE itemTags (itemID INT NOT NULL, tagID INT NOT NULL, type INT NOT NULL,
    PRIMARY KEY (itemID, tagID));
CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT,
    fieldMode INT, UNIQUE (lastName, firstName, fieldMode));
CREATE TABLE itemCreators (itemID INT NOT NULL, creatorID INT NOT NULL,
    creatorTypeID INT NOT NULL DEFAULT 1, orderIndex INT NOT NULL DEFAULT 0,
    PRIMARY KEY (itemID, creatorID, creatorTypeID, orderIndex), UNIQUE (itemID, orderIndex));
CREATE TABLE collections (collectionID INTEGER PRIMARY KEY, collectionName TEXT NOT NULL,
    parentCollectionID INT DEFAULT NULL,
    clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, libraryID INT NOT NULL,
    key TEXT NOT NULL, version INT NOT NULL DEFAULT 0, synced INT NOT NULL DEFAULT 0,
    UNIQUE (libraryID, key));
CREATE TABLE collectionItems (collectionID INT NOT NULL, itemID INT NOT NULL,
    orderIndex INT NOT NULL DEFAULT 0, PRIMARY KEY (collectionID, itemID));
CREATE TABLE feedItems (itemID INTEGER PRIMARY KEY, guid TEXT NOT NULL UNIQUE,
    readTime TIMESTAMP, translatedTime TIMESTAMP);
CREATE TABLE deletedCollections (collectionID INTEGER PRIMARY KEY,
    dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY,
    dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
"""

ANNOTATION_TYPES = {"highlight": 1, "note": 2, "image": 3, "ink": 4, "underline": 5, "text": 6}
LINK_MODES = {"stored": 0, "stored-url": 1, "linked": 2, "url": 3, "embedded": 4}


def zotero_key(rng: random.Random) -> str:
    """An 8-character item key in Zotero's alphabet (no 0, 1, O, I, L)."""
    return "".join(rng.choice("23456789ABCDEFGHIJKMNPQRSTUVWXYZ") for _ in range(8))


class ZoteroLibrary:
    """A Zotero data folder being written by a test."""

    def __init__(self, folder: Path, *, userdata: int = 129,
                 schema_sql: list[str] | None = None, journal_mode: str = "delete") -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "storage").mkdir(exist_ok=True)
        self.db = folder / "zotero.sqlite"
        self.conn = sqlite3.connect(self.db)
        self.conn.execute(f"PRAGMA journal_mode={journal_mode}")
        self.conn.execute("PRAGMA synchronous=OFF")  # a test's library: no fsync to wait for
        self.rng = random.Random(36)
        if schema_sql is None:
            self.conn.executescript(OWN_DDL)
        else:
            for sql in schema_sql:
                self.conn.executescript(sql)
        self.conn.execute("INSERT OR REPLACE INTO version VALUES ('userdata', ?)", (userdata,))
        self._global_schema()
        self.conn.execute("INSERT INTO libraries (libraryID, type, editable, filesEditable) "
                          "VALUES (1, 'user', 1, 1)")
        self.conn.commit()

    def _global_schema(self) -> None:
        schema = zotero_schema()
        types = sorted({*schema.types, "annotation", *schema.base_fields})
        self.type_ids = {t: i for i, t in enumerate(types, start=1)}
        self.field_ids = {f: i for i, f in enumerate(sorted(schema.fields), start=1)}
        self.creator_ids = {c: i for i, c in enumerate(sorted(schema.creator_types), start=1)}
        c = self.conn
        c.executemany("INSERT INTO itemTypes (itemTypeID, typeName) VALUES (?, ?)",
                      [(i, t) for t, i in self.type_ids.items()])
        c.executemany("INSERT INTO itemTypesCombined VALUES (?, ?, 1, 0)",
                      [(i, t) for t, i in self.type_ids.items()])
        c.executemany("INSERT INTO fields (fieldID, fieldName) VALUES (?, ?)",
                      [(i, f) for f, i in self.field_ids.items()])
        c.executemany("INSERT INTO fieldsCombined (fieldID, fieldName, custom) VALUES (?, ?, 0)",
                      [(i, f) for f, i in self.field_ids.items()])
        c.executemany("INSERT INTO creatorTypes VALUES (?, ?)",
                      [(i, t) for t, i in self.creator_ids.items()])
        c.executemany("INSERT INTO baseFieldMappingsCombined VALUES (?, ?, ?)", [
            (self.type_ids[t], self.field_ids[base], self.field_ids[f])
            for t, mapping in schema.base_fields.items() for f, base in mapping.items()])

    def group(self, name: str, group_id: int = 1001) -> int:
        library_id = self.conn.execute(
            "INSERT INTO libraries (type, editable, filesEditable) VALUES ('group', 1, 1)"
        ).lastrowid
        assert library_id is not None
        self.conn.execute("INSERT INTO groups VALUES (?, ?, ?, '', 0)", (group_id, library_id, name))
        return library_id

    def _item(self, item_type: str, library: int, key: str | None = None) -> tuple[int, str]:
        key = key or zotero_key(self.rng)
        item_id = self.conn.execute(
            "INSERT INTO items (itemTypeID, libraryID, key, dateModified) VALUES (?, ?, ?, "
            "'2024-05-06 07:08:09')", (self.type_ids[item_type], library, key)).lastrowid
        assert item_id is not None
        return item_id, key

    def _value(self, value: Any) -> int:
        row = self.conn.execute("SELECT valueID FROM itemDataValues WHERE value = ?",
                                (value,)).fetchone()
        if row:
            return int(row[0])
        value_id = self.conn.execute("INSERT INTO itemDataValues (value) VALUES (?)",
                                     (value,)).lastrowid
        assert value_id is not None
        return value_id

    def _fields(self, item_id: int, fields: dict[str, Any]) -> None:
        for name, value in fields.items():
            self.conn.execute("INSERT INTO itemData VALUES (?, ?, ?)",
                              (item_id, self.field_ids[name], self._value(value)))

    def item(self, item_type: str, fields: dict[str, Any] | None = None,
             creators: list[tuple[str, str | None, str | None]] | None = None,
             *, library: int = 1, key: str | None = None, tags: tuple[str, ...] = (),
             collections: tuple[int, ...] = (), trashed: bool = False) -> tuple[int, str]:
        """A regular item; ``creators``: (creator type, last, first) — first None: one
        field (an organisation)."""
        item_id, key = self._item(item_type, library, key)
        self._fields(item_id, fields or {})
        for order, (kind, last, first) in enumerate(creators or []):
            mode = 1 if first is None else 0
            row = self.conn.execute(
                "SELECT creatorID FROM creators WHERE lastName IS ? AND firstName IS ? AND "
                "fieldMode = ?", (last, "" if first is None else first, mode)).fetchone()
            creator_id = row[0] if row else self.conn.execute(
                "INSERT INTO creators (firstName, lastName, fieldMode) VALUES (?, ?, ?)",
                ("" if first is None else first, last, mode)).lastrowid
            self.conn.execute("INSERT INTO itemCreators VALUES (?, ?, ?, ?)",
                              (item_id, creator_id, self.creator_ids[kind], order))
        for tag in tags:
            row = self.conn.execute("SELECT tagID FROM tags WHERE name = ?", (tag,)).fetchone()
            tag_id = row[0] if row else self.conn.execute(
                "INSERT INTO tags (name) VALUES (?)", (tag,)).lastrowid
            self.conn.execute("INSERT INTO itemTags VALUES (?, ?, 0)", (item_id, tag_id))
        for collection in collections:
            self.conn.execute("INSERT INTO collectionItems (collectionID, itemID) VALUES (?, ?)",
                              (collection, item_id))
        if trashed:
            self.conn.execute("INSERT INTO deletedItems (itemID) VALUES (?)", (item_id,))
        self.conn.commit()
        return item_id, key

    def collection(self, name: str, parent: int | None = None, library: int = 1,
                   trashed: bool = False) -> int:
        cid = self.conn.execute(
            "INSERT INTO collections (collectionName, parentCollectionID, libraryID, key) "
            "VALUES (?, ?, ?, ?)", (name, parent, library, zotero_key(self.rng))).lastrowid
        assert cid is not None
        if trashed:
            self.conn.execute("INSERT INTO deletedCollections (collectionID) VALUES (?)", (cid,))
        self.conn.commit()
        return cid

    def note(self, parent: int | None, html: str, library: int = 1) -> tuple[int, str]:
        item_id, key = self._item("note", library)
        self.conn.execute("INSERT INTO itemNotes (itemID, parentItemID, note, title) "
                          "VALUES (?, ?, ?, '')", (item_id, parent, html))
        self.conn.commit()
        return item_id, key

    def attachment(self, parent: int | None, mode: str, path: str | None, *,
                   content_type: str | None = "application/pdf", title: str = "Full Text PDF",
                   content: bytes | None = b"%PDF-1.4\n", url: str | None = None,
                   library: int = 1) -> tuple[int, str]:
        """An attachment; a stored one's file is written under storage/<key>/ unless
        ``content`` is None (a missing file)."""
        item_id, key = self._item("attachment", library)
        self._fields(item_id, {"title": title, **({"url": url} if url else {})})
        self.conn.execute("INSERT INTO itemAttachments (itemID, parentItemID, linkMode, "
                          "contentType, path) VALUES (?, ?, ?, ?, ?)",
                          (item_id, parent, LINK_MODES[mode], content_type, path))
        if mode.startswith("stored") and path and content is not None:
            folder = self.folder / "storage" / key
            folder.mkdir(parents=True, exist_ok=True)
            (folder / path.removeprefix("storage:")).write_bytes(content)
        self.conn.commit()
        return item_id, key

    def annotation(self, attachment: int, kind: str, *, text: str | None = None,
                   comment: str | None = None, color: str = "#ffd400",
                   page_label: str | None = None, position: dict[str, Any] | None = None,
                   sort_index: str = "00000|000000|00000", author: str | None = None,
                   library: int = 1) -> tuple[int, str]:
        item_id, key = self._item("annotation", library)
        self.conn.execute("INSERT INTO itemAnnotations (itemID, parentItemID, type, authorName, "
                          "text, comment, color, pageLabel, sortIndex, position, isExternal) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
                          (item_id, attachment, ANNOTATION_TYPES[kind], author, text, comment,
                           color, page_label, sort_index, json.dumps(position or {})))
        self.conn.commit()
        return item_id, key

    def close(self) -> None:
        self.conn.close()


def write_bbt_database(folder: Path, keys: list[tuple[int, str, str, int]],
                       *, legacy: bool = False) -> Path:
    """better-bibtex.sqlite with (libraryID, itemKey, citationKey, pinned) rows, in BBT's
    ``citationkey`` table or (``legacy``) its older LokiJS row."""
    path = folder / "better-bibtex.sqlite"
    conn = sqlite3.connect(path)
    if legacy:
        conn.execute('CREATE TABLE "better-bibtex" (name TEXT PRIMARY KEY NOT NULL, data TEXT '
                     "NOT NULL)")
        data = {"name": "citekey", "data": [
            {"itemID": i, "libraryID": lib, "itemKey": key, "citationKey": ck, "pinned": bool(p),
             "$loki": i} for i, (lib, key, ck, p) in enumerate(keys, start=1)]}
        conn.execute('INSERT INTO "better-bibtex" VALUES (?, ?)',
                     ("better-bibtex.citekey", json.dumps(data)))
    else:
        conn.execute("CREATE TABLE citationkey (itemID NOT NULL UNIQUE, itemKey NOT NULL, "
                     "libraryID NOT NULL, citationKey NOT NULL CHECK (citationKey <> ''), "
                     "pinned CHECK (pinned in (0, 1)), UNIQUE (libraryID, itemKey))")
        conn.executemany("INSERT INTO citationkey VALUES (?, ?, ?, ?, ?)",
                         [(i, key, lib, ck, p) for i, (lib, key, ck, p) in enumerate(keys, 1)])
    conn.commit()
    conn.close()
    return path


def random_words(rng: random.Random, n: int) -> str:
    return " ".join("".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 9)))
                    for _ in range(n))
