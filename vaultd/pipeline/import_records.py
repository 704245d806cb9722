"""A library item's metadata as a record's (pure): the item's fields become the user's
(entered from the library, ``UserValue.origin`` naming it), so no metadata source replaces
them; a re-import updates the values it entered itself and never one the user entered
another way (`vaultd meta --set`, a .bib): those win and are named as kept. A record that
the sources made (captured before the import) is completed, as a .bib completes it: the
fields it lacks or only read off the PDF.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from vaultd.capture.record_view import completion
from vaultd.capture.user import FIELDS, NAMES, json_value, shown
from vaultd.models import Highlight, ImportOrigin, MetaFile, Work
from vaultd.pipeline.import_plan import ItemPlan, Sourced
from vaultd.pipeline.record_edit import corrected


@dataclass
class RecordChange:
    """A record as the import leaves it, and what changed in it."""

    meta: MetaFile
    fields: list[str] = field(default_factory=list)  # metadata fields entered or updated
    kept: list[str] = field(default_factory=list)  # fields whose value the user entered
    other: list[str] = field(default_factory=list)  # 'tags', 'aliases', 'highlights', …

    @property
    def changed(self) -> bool:
        return bool(self.fields or self.other)


def item_values(work: Work) -> dict[str, Any]:
    """The fields `vaultd meta` knows that the item gives: Work field → JSON value."""
    return {attr: json_value(attr, getattr(work, attr)) for attr in FIELDS.values()
            if getattr(work, attr) not in (None, [], "")}


def new_record(key: str, s: Sourced, at: str) -> MetaFile:
    """The record of a work first brought in by the item ``s``: its fields entered from the
    library."""
    work = s.item.work.model_copy(update={"sources": [s.source], "reconciled": False,
                                          "warnings": list(s.item.warnings)})
    values = item_values(work)
    base = MetaFile.from_work(key, work, captured_at=at,
                              field_sources={a: [s.source] for a in values})
    return corrected(base, values, (), origin=s.origin, at=at)


def update_record(meta: MetaFile, s: Sourced, at: str) -> RecordChange:
    """``meta`` with what the item ``s`` gives: a record this library made gets the
    library's values where they changed (those the user entered another way are kept); any
    other record is completed where it lacks a field or only read it off the PDF."""
    values = item_values(s.item.work)
    mine = any(o.origin == s.origin for o in meta.imported)
    if mine:
        kept = [NAMES[a] for a, v in values.items()
                if a in meta.user and meta.user[a].origin != s.origin
                and shown(a, v) != shown(a, getattr(meta.work, a))]
        todo = {a: v for a, v in values.items() if NAMES[a] not in kept
                and (shown(a, v) != shown(a, getattr(meta.work, a)) or a not in meta.user)}
    else:
        todo, kept = completion(meta, s.item.work)
    if not todo:
        return RecordChange(meta, kept=kept)
    new = corrected(meta, todo, (), origin=s.origin, at=at)
    changed = [NAMES[a] for a in todo if getattr(new.work, a) != getattr(meta.work, a)
               or (a in new.user) != (a in meta.user)]
    return RecordChange(new if changed else meta, fields=changed, kept=kept)


def with_library(change: RecordChange, p: ItemPlan, highlights: Sequence[Highlight],
                 notes: Mapping[tuple[str, str | None], dict[str, str]],
                 read: Collection[str] = ()) -> RecordChange:
    """The record with the library's other facts: its aliases, tags (the item's and its
    collections'), the Zotero highlights of its PDF, and where it came from (``notes``: by
    origin, the item's notes brought in).

    ``read``: the libraries (origins) whose annotations of the vault's very PDF were read
    now: their highlights are the ones ``highlights`` holds, so one the record keeps from
    them and they no longer have was deleted there and goes (the note's callout with it);
    the highlights of a library not read now are kept. A highlight recorded before origins
    were kept counts as read when every library the record came from was."""
    meta = change.meta
    aliases = list(dict.fromkeys([*meta.aliases, *p.aliases]))
    tags = list(dict.fromkeys([*meta.tags, *(t for s in p.members for t in s.item.tags)]))
    ours = {h.key for h in highlights if h.key}
    legacy = bool(read) and all(o.origin in read for o in meta.imported)

    def replaced(h: Highlight) -> bool:
        if h.key and h.key in ours:
            return True
        return h.source == "zotero" and (h.origin in read if h.origin else legacy)

    marks = [*(h for h in meta.highlights if not replaced(h)), *highlights]
    origins = {(o.origin, o.item_key or o.key): o for o in meta.imported}
    for s in p.members:
        ident = (s.origin, s.item.origin.item_key or s.item.key)
        old = origins.get(ident)
        merged = {**(old.notes if old else {}), **notes.get(ident, {})}
        origins[ident] = ImportOrigin(origin=s.origin, item_key=s.item.origin.item_key,
                                      key=s.item.key, notes=merged)
    update = {"aliases": aliases, "tags": tags, "highlights": marks,
              "imported": list(origins.values())}
    other = [name for name in ("aliases", "tags", "highlights", "imported")
             if update[name] != getattr(meta, name)]
    return RecordChange(meta.model_copy(update=update), change.fields, change.kept, other)
