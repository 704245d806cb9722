"""Better BibTeX's own database, ``better-bibtex.sqlite`` beside ``zotero.sqlite``: the
citation keys BBT generated or the user pinned, by library and Zotero item key.

Two layouts, read from BBT's source (retorquere/zotero-better-bibtex):

- from BBT 6.7.1xx (October 2023, ``content/db/citation-key.sql``): a table
  ``citationkey(itemID, itemKey, libraryID, citationKey, pinned)``;
- before it: a table ``"better-bibtex"(name, data)`` whose row ``better-bibtex.citekey``
  holds a LokiJS collection as JSON, ``{"data": [{itemID, itemKey, libraryID,
  citationKey, pinned}, …]}`` (BBT copied it into ``citationkey`` on upgrade).

Newer BBT (2026) moves the keys into Zotero's own Citation Key field and renames the file
``better-bibtex.migrated``: then there is no file here, and the keys are in ``zotero.sqlite``.
The file is read through the same private copy as Zotero's database.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from vaultd.errors import InputError
from vaultd.importers.zotero_db import snapshot

BBT_DB = "better-bibtex.sqlite"

Keys = dict[tuple[int, str], str]


def _legacy(conn: sqlite3.Connection) -> Keys:
    row = conn.execute('SELECT data FROM "better-bibtex" WHERE name = ?',
                       ("better-bibtex.citekey",)).fetchone()
    if row is None or not row[0]:
        return {}
    data = json.loads(row[0])
    out: Keys = {}
    for entry in data.get("data", []) if isinstance(data, dict) else []:
        if isinstance(entry, dict) and entry.get("citationKey") and entry.get("itemKey"):
            out[(int(entry.get("libraryID") or 1), str(entry["itemKey"]))] = str(
                entry["citationKey"])
    return out


def read_bbt_keys(data_dir: Path) -> tuple[Keys, str | None]:
    """{(libraryID, itemKey): citation key} from BBT's database, and a one-line problem when
    the file is there but could not be read (the keys then come from Zotero itself)."""
    path = data_dir / BBT_DB
    if not path.is_file():
        return {}, None
    try:
        with snapshot(path) as conn:
            tables = {str(r[0]).lower() for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "citationkey" in tables:
                return {(int(r["libraryID"]), str(r["itemKey"])): str(r["citationKey"])
                        for r in conn.execute(
                            "SELECT libraryID, itemKey, citationKey FROM citationkey")
                        if r["citationKey"]}, None
            if "better-bibtex" in tables:
                return _legacy(conn), None
            return {}, f"{path}: no citation key table (not a Better BibTeX database?)"
    except (InputError, sqlite3.DatabaseError, ValueError) as exc:
        return {}, f"{path}: could not be read ({exc}); keys are read from Zotero instead"
