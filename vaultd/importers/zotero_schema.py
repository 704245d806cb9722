"""Zotero's data model as far as citing needs it: item types, base fields, creator types and
their CSL names, from the table in ``data/zotero_csl.json``.

That table is derived from the ``csl`` section and the item types of Zotero's own global
schema (zotero/zotero-schema ``schema.json``; ``scripts/zotero_csl_table.py`` says how and
the table's ``origin`` says from which versions): the mapping Zotero itself uses when it
cites an item. A database can carry a newer schema than the table; its own
``baseFieldMappingsCombined`` is then laid over the table (``with_base_fields``).

Pure (reads the packaged table once).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from typing import Any

#: Zotero item types that are parts of another item, never works of their own.
CHILD_TYPES = frozenset({"note", "attachment", "annotation"})


@dataclass(frozen=True)
class ZoteroSchema:
    types: dict[str, str]  # Zotero item type → CSL type
    text: dict[str, list[str]]  # CSL variable → Zotero base fields, in Zotero's order
    dates: dict[str, str]  # CSL date variable → Zotero base field
    names: dict[str, str]  # Zotero creator type → CSL name variable
    primary_creator: dict[str, str]  # item type → its primary creator type
    base_fields: dict[str, dict[str, str]]  # item type → {type-specific field: base field}
    fields: frozenset[str]  # every Zotero field name
    creator_types: frozenset[str]
    origin: str = ""
    versions: tuple[int, ...] = ()
    _normalized: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def csl_type(self, item_type: str) -> str | None:
        return self.types.get(item_type)

    def base_field(self, item_type: str, name: str) -> str:
        """The base field a type-specific field stands for ('bookTitle' → 'publicationTitle')."""
        return self.base_fields.get(item_type, {}).get(name, name)

    def with_base_fields(self, extra: dict[str, dict[str, str]]) -> ZoteroSchema:
        """This schema with a database's own base-field mappings laid over it."""
        merged = {t: dict(m) for t, m in self.base_fields.items()}
        for item_type, mapping in extra.items():
            merged.setdefault(item_type, {}).update(mapping)
        return replace(self, base_fields=merged, _normalized={})

    def field_for_key(self, key: str) -> str | None:
        """The Zotero field an Extra line's key names ('Original Date' → 'originalDate')."""
        if not self._normalized:
            self._normalized.update({normalize_key(f): f for f in self.fields})
        return self._normalized.get(normalize_key(key))


def normalize_key(key: str) -> str:
    """An Extra key as Zotero compares them: 'fooBar', 'foo bar', 'foo_bar' → 'foo-bar'."""
    key = re.sub(r"([a-z])([A-Z])", r"\1-\2", key.strip()).lower()
    return re.sub(r"[\s_-]", "-", key)


@cache
def zotero_schema() -> ZoteroSchema:
    """The packaged table (read once)."""
    raw: dict[str, Any] = json.loads(
        resources.files("vaultd.importers").joinpath("data/zotero_csl.json").read_text("utf-8"))
    return ZoteroSchema(
        types=dict(raw["types"]),
        text={k: list(v) for k, v in raw["text"].items()},
        dates=dict(raw["dates"]),
        names=dict(raw["names"]),
        primary_creator=dict(raw["primary_creator"]),
        base_fields={k: dict(v) for k, v in raw["base_fields"].items()},
        fields=frozenset(raw["fields"]),
        creator_types=frozenset(raw["creator_types"]),
        origin=str(raw["origin"]),
        versions=tuple(int(v) for v in raw["schema_versions"]),
    )
