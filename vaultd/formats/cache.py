"""Stored renderings: every citation vaultd printed once, keyed by what it depends on.

A rendering depends on the work's CSL item, the style file and the processor, so the key
is the SHA-256 of the item (without its id), the style file's SHA-256, the processor's
identity and the locale. A changed record, an edited style file or a new pandoc therefore
renders afresh, and `vaultd cite` / MCP ``cite`` answer from here without starting the
processor. The table lives in ``state.db`` (machine state, rebuildable at any time).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable

from vaultd.formats.citeproc import Rendering


def get_meta(db: sqlite3.Connection, key: str) -> str | None:
    row = db.execute("SELECT value FROM citation_meta WHERE key = ?", (key,)).fetchone()
    return str(row[0]) if row else None


def set_meta(db: sqlite3.Connection, key: str, value: str) -> None:
    with db:
        db.execute("INSERT OR REPLACE INTO citation_meta(key, value) VALUES (?, ?)", (key, value))


def cache_key(item_sha: str, style_sha: str, engine: str, lang: str | None) -> str:
    raw = "\x1f".join((item_sha, style_sha, engine, lang or ""))
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def get_many(db: sqlite3.Connection, keys: Iterable[str]) -> dict[str, Rendering]:
    wanted = list(dict.fromkeys(keys))
    out: dict[str, Rendering] = {}
    for i in range(0, len(wanted), 500):
        part = wanted[i : i + 500]
        marks = ",".join("?" * len(part))
        for key, data in db.execute(
            f"SELECT key, data FROM citation_renderings WHERE key IN ({marks})", part
        ):
            try:
                out[str(key)] = Rendering.from_json(json.loads(data))
            except (ValueError, KeyError, TypeError):
                continue  # an unreadable row renders afresh
    return out


def put_many(db: sqlite3.Connection, rows: dict[str, Rendering]) -> None:
    if not rows:
        return
    with db:
        db.executemany(
            "INSERT OR REPLACE INTO citation_renderings(key, data) VALUES (?, ?)",
            [(k, json.dumps(r.to_json(), ensure_ascii=False)) for k, r in rows.items()],
        )
