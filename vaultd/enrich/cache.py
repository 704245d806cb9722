"""Enrichment cache in `the machine state directory's `state.db``, keyed by (text_sha256, model, prompt version).

Re-compiling a note re-asks the LLM only for chunks whose text changed; a new model or
prompt version misses the cache, so ``vaultd enrich KEY --force`` re-enriches.
"""

from __future__ import annotations

import sqlite3

from vaultd.enrich.contract import ValidatedAnswer
from vaultd.errors import StoreError


class EnrichCache:
    """Answers already obtained, for one model and prompt version."""

    def __init__(self, db: sqlite3.Connection, model: str, prompt_version: str) -> None:
        self.db = db
        self.model = model
        self.prompt_version = prompt_version

    def get(self, text_sha256: str) -> ValidatedAnswer | None:
        try:
            row = self.db.execute(
                "SELECT paraphrase, implication, key_sentence FROM enrich_cache "
                "WHERE text_sha256 = ? AND model = ? AND prompt_version = ?",
                (text_sha256, self.model, self.prompt_version),
            ).fetchone()
        except sqlite3.Error as exc:
            raise StoreError(
                f"enrichment cache read failed: {exc}; check the state database (`vaultd status` shows where)"
            ) from exc
        if row is None:
            return None
        return ValidatedAnswer(row[0], row[1], row[2])

    def put(self, text_sha256: str, answer: ValidatedAnswer) -> None:
        try:
            with self.db:
                self.db.execute(
                    "INSERT OR REPLACE INTO enrich_cache (text_sha256, model, prompt_version, "
                    "paraphrase, implication, key_sentence) VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        text_sha256,
                        self.model,
                        self.prompt_version,
                        answer.paraphrase,
                        answer.implication,
                        answer.key_sentence,
                    ),
                )
        except sqlite3.Error as exc:
            raise StoreError(
                f"enrichment cache write failed: {exc}; check the state database (`vaultd status` shows where)"
            ) from exc

    def producers(self, text_sha256: str, answer: ValidatedAnswer) -> list[tuple[str, str]]:
        """(model, prompt version) pairs, in any model, whose cached answer for this text is
        exactly ``answer``: which model wrote an enrichment already in a note."""
        try:
            rows = self.db.execute(
                "SELECT model, prompt_version, paraphrase, implication, key_sentence "
                "FROM enrich_cache WHERE text_sha256 = ? ORDER BY model, prompt_version",
                (text_sha256,),
            ).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(
                f"enrichment cache read failed: {exc}; check the state database (`vaultd status` shows where)"
            ) from exc
        return [
            (row[0], row[1])
            for row in rows
            if ValidatedAnswer(row[2], row[3], row[4]) == answer
        ]
