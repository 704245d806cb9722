"""Cite keys a reader asks for: the record of a key, or the keys it may have meant.

``load_meta`` is the lookup service's way into the record store: an unknown key is an
``UnknownKeyError`` carrying ``key — title`` suggestions (fuzzy over keys, titles and
authors of the index's papers and the vault's records).
"""

from __future__ import annotations

from vaultd import record_store
from vaultd.errors import InputError
from vaultd.index.store import IndexDB
from vaultd.models import MetaFile
from vaultd.vault import Vault


class UnknownKeyError(InputError):
    """A cite key that is not in the vault; ``suggestions`` are ``key — title`` lines."""

    def __init__(self, message: str, suggestions: list[str]) -> None:
        super().__init__(message)
        self.suggestions = suggestions


def known_works(vault: Vault, index_db: IndexDB | None = None) -> dict[str, tuple[str, str]]:
    """cite key → (title, authors) for fuzzy matching: index papers + raw/*.meta.json names."""
    works: dict[str, tuple[str, str]] = {}
    if index_db is not None:
        for key, title, authors in index_db.conn.execute(
                "SELECT cite_key, title, authors FROM papers"):
            works[str(key)] = (str(title or "").strip(), str(authors or "").strip())
    for path in record_store.paths(vault):
        works.setdefault(record_store.key_of(path), ("", ""))
    return works


def suggest(query: str, works: dict[str, tuple[str, str]], limit: int = 5,
            vault: Vault | None = None) -> list[str]:
    """Top fuzzy matches for ``query`` over keys, titles and authors, as ``key — title``
    lines (authors help the match but are not printed)."""
    # lazy: rapidfuzz costs 19 ms at import
    from rapidfuzz import fuzz, process, utils

    choices = {k: " ".join(x for x in (k, *v) if x) for k, v in works.items()}
    found = process.extract(query, choices, scorer=fuzz.WRatio, processor=utils.default_process,
                            limit=limit)
    out = []
    for _choice, _score, key in found:
        title = works[key][0] or (_meta_title(vault, key) if vault else "")
        out.append(f"{key} — {title}" if title else str(key))
    return out


def _meta_title(vault: Vault, key: str) -> str:
    meta = record_store.get(vault, key)
    return (meta.title or "") if meta else ""


def load_meta(vault: Vault, cite_key: str, *, index_db: IndexDB | None = None) -> MetaFile:
    """The record ``cite_key`` names: its own, or the record keeping it as an alias (a
    library's other key for the work, `vaultd import`)."""
    key = record_store.resolve(vault, cite_key)
    if key is None:
        hints = suggest(cite_key, known_works(vault, index_db), vault=vault) if cite_key else []
        tail = ("; did you mean: " + "; ".join(hints)) if hints else \
            "; list keys with `vaultd search` or capture the paper first"
        raise UnknownKeyError(f"unknown cite key {cite_key!r}{tail}", hints)
    return record_store.load(vault, key)
