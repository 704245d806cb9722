"""The vault's works as the draft checker needs them (``Works``): each work's record, its
note's chunks that still match their hashes, and their text as passages to match quotes
against, read once per check; other works that may hold a quote, found through the
index's full-text search or else every paper note."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from vaultd import record_store
from vaultd.canonical import text_sha256
from vaultd.citekey import filename_to_key, is_valid_key
from vaultd.errors import VaultdError
from vaultd.models import Chunk, MetaFile
from vaultd.notes.reader import parse_note
from vaultd.vault import Vault
from vaultd.verify.match import Passages


@dataclass
class DraftWork:
    meta: MetaFile
    chunks: list[Chunk]
    passages: Passages


class Works:
    """The vault's works as the checker needs them, each read once."""

    def __init__(self, vault: Vault, index_db: Any = None) -> None:
        self.vault = vault
        self.index_db = index_db
        self._cache: dict[str, DraftWork | None] = {}

    def get(self, key: str) -> DraftWork | None:
        if key not in self._cache:
            self._cache[key] = self._load(key)
        return self._cache[key]

    def _load(self, key: str) -> DraftWork | None:
        meta = record_store.get(self.vault, key) if key and is_valid_key(key) else None
        if meta is None:
            return None
        chunks: list[Chunk] = []
        note = self.vault.note_path(key)
        if note.is_file():
            try:
                chunks = parse_note(note.read_text(encoding="utf-8"), source=self.vault.rel(note)).chunks
            except VaultdError:
                chunks = []
        # A chunk edited since compile is no source to quote from.
        chunks = [c for c in chunks if text_sha256(c.text) == c.provenance.text_sha256]
        return DraftWork(meta, chunks, Passages([c.text for c in chunks]))

    def candidates(self, parts: Sequence[str], exclude: Iterable[str]) -> list[str]:
        """Other works that may hold the quote: by the index's full-text search when there
        is an index, else every paper note."""
        skip = set(exclude)
        longest = max(parts, key=len)
        words = re.findall(r"\w+", longest)[:12]
        if self.index_db is not None and len(words) >= 3:
            phrase = " ".join(words).replace('"', "")
            try:
                rows = self.index_db.execute(
                    "SELECT DISTINCT c.cite_key FROM chunks_fts f JOIN chunks c ON c.rowid = f.rowid "
                    "WHERE chunks_fts MATCH ? AND c.kind = 'paper' LIMIT 50",
                    (f'text : "{phrase}"',))
                return [str(r[0]) for r in rows if r[0] and r[0] not in skip]
            except Exception:  # an unusable index (apsw errors): fall back to the notes
                pass
        keys = (filename_to_key(p.stem) for p in self.vault.paper_notes())
        return [k for k in keys if k not in skip]
