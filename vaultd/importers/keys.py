"""Which citation key an item keeps, and the others it keeps as aliases (pure).

A key is kept exactly as the library holds it: no case folding, no character replaced,
only the spaces around it removed (Better BibTeX trims them too). When several places name
a key, the first of them in the reader's order of trust is the item's key and each other
distinct key is an alias (the pipeline keeps aliases so an old ``\\cite{…}`` still
resolves).
"""

from __future__ import annotations

from collections.abc import Iterable

from vaultd.importers.model import KeySource


def choose_key(candidates: Iterable[tuple[KeySource, str | None]],
               aliases: Iterable[str] = ()) -> tuple[str | None, KeySource | None,
                                                     tuple[str, ...]]:
    """(key, where it came from, aliases) from ``candidates`` in order of trust."""
    key: str | None = None
    source: KeySource | None = None
    others: list[str] = []
    for where, value in candidates:
        value = value.strip() if value else None
        if not value:
            continue
        if key is None:
            key, source = value, where
        else:
            others.append(value)
    others.extend(a.strip() for a in aliases if a and a.strip())
    return key, source, tuple(dict.fromkeys(a for a in others if a != key))
