"""Zotero tags and collections as Obsidian tags (pure).

An Obsidian tag holds letters, digits, ``_``, ``-`` and ``/`` (nesting) and no spaces. A
tag or a collection name is kept as close as that allows: each run of other characters
(spaces, punctuation, ``#``) becomes one ``-``, a tag's ``/`` nests (``Law / International``
→ ``Law/International``), and a ``/`` inside one collection's name
becomes ``-`` so that only the collection tree nests (``Reading list/To do`` under
``Thesis`` → ``Thesis/Reading-list-To-do``). Letters of any script are kept. The names as
written stay in ``ImportedItem.source_tags`` and ``ImportedItem.collections``.
"""

from __future__ import annotations

import re

_OTHER = re.compile(r"[^\w/-]+")
_OTHER_IN_NAME = re.compile(r"[^\w-]+")


def obsidian_tag(tag: str) -> str | None:
    """A Zotero tag as an Obsidian tag ('machine learning' → 'machine-learning'), or None
    when nothing of it is left."""
    out = _OTHER.sub("-", re.sub(r"\s*/\s*", "/", tag.strip())).strip("-/")
    out = re.sub(r"/{2,}", "/", out)
    return out or None


def collection_tag(path: tuple[str, ...]) -> str | None:
    """A collection's path (outermost first) as one nested Obsidian tag."""
    parts = [_OTHER_IN_NAME.sub("-", name.strip()).strip("-") for name in path]
    parts = [p for p in parts if p]
    return "/".join(parts) or None


def item_tags(tags: list[str] | tuple[str, ...],
              collections: list[tuple[str, ...]] | tuple[tuple[str, ...], ...]) -> tuple[str, ...]:
    """The item's Obsidian tags: its own, then its collections', each once."""
    out = [obsidian_tag(t) for t in tags] + [collection_tag(c) for c in collections]
    return tuple(dict.fromkeys(t for t in out if t))
