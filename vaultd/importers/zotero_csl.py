"""A Zotero item (its type, fields and creators) → the CSL-JSON item Zotero itself would cite.

Followed step by step from Zotero's ``itemToCSLJSON`` (zotero/utilities
``utilities_item.js``) with the mapping of Zotero's global schema (``zotero_schema``):

- the CSL type of the item type (an unknown type is cited as ``document``, with a warning);
- each CSL text variable from the first of its Zotero fields that has a value, a
  type-specific field standing for its base field (``bookTitle`` for ``publicationTitle``);
  only the first ISBN; enclosing double quotes stripped; ``place`` is ``event-place`` (not
  ``publisher-place``) for audio recordings, presentations and video recordings;
- each creator under its CSL name variable, the item type's primary creator type as
  ``author`` when it has no CSL name of its own, other unmapped types left out;
- each date variable from its field (``dates.zotero_date``);
- Extra (``extra.parse_extra``): ``type:`` changes the type, a date variable replaces the
  field's date (Zotero reads Extra's dates over the fields'), another CSL variable or
  Zotero field fills the variable when the item has none, a name is added when the item has no name of
  that kind, and the lines left are the CSL ``note``.

The record is the same whether it comes from Zotero's database, a Better BibTeX JSON export
or a RIS record read through Zotero's RIS mapping: one mapping for all three.

Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from vaultd.importers.csl_work import CSL_TYPES, DATE_VARS
from vaultd.importers.dates import zotero_date
from vaultd.importers.extra import ExtraFields, name_value, parse_extra
from vaultd.importers.names import Creator, csl_name
from vaultd.importers.zotero_schema import ZoteroSchema

_ISBN = re.compile(r"^(?:97[89]-?)?(?:\d-?){9}[\dx](?!-)\b", re.IGNORECASE)
_EVENT_PLACE_TYPES = frozenset({"audioRecording", "presentation", "videoRecording"})


@dataclass(frozen=True)
class ZoteroRecord:
    """A Zotero item as data: its type, its fields by name and its creators in order."""

    item_type: str
    fields: dict[str, str] = field(default_factory=dict)
    creators: tuple[Creator, ...] = ()


@dataclass(frozen=True)
class CitedRecord:
    csl: dict[str, Any]
    extra: ExtraFields
    warnings: tuple[str, ...] = ()


def _strip_quotes(value: str) -> str:
    if value[:1] == '"' and value.find('"', 1) == len(value) - 1:
        return value[1:-1]
    return value


def _base_view(record: ZoteroRecord, schema: ZoteroSchema) -> dict[str, str]:
    """The record's values by base field name (and by their own name)."""
    view: dict[str, str] = {}
    for name, value in record.fields.items():
        if value is None or not str(value).strip():
            continue
        text = str(value)
        view.setdefault(name, text)
        view.setdefault(schema.base_field(record.item_type, name), text)
    return view


def _csl_type(record: ZoteroRecord, schema: ZoteroSchema, warnings: list[str]) -> str:
    csl_type = schema.csl_type(record.item_type)
    if csl_type is None:
        warnings.append(f"Zotero item type {record.item_type!r} is not in vaultd's mapping "
                        f"(Zotero schema {max(schema.versions, default=0)}); cited as 'document'")
        return "document"
    return csl_type


def _text_variables(record: ZoteroRecord, view: dict[str, str],
                    schema: ZoteroSchema) -> dict[str, Any]:
    csl: dict[str, Any] = {}
    for variable, fields in schema.text.items():
        if variable in ("shortTitle", "note"):
            continue  # Zotero writes title-short only; note is what Extra leaves
        if record.item_type in _EVENT_PLACE_TYPES:
            if variable == "event-place":
                fields = ["place"]
            elif variable == "publisher-place":
                continue
        for name in fields:
            value = view.get(name) or (view.get("version") if name == "versionNumber" else None)
            if not value:
                continue
            if name == "ISBN":
                m = _ISBN.match(value)
                value = m.group(0) if m else value
            csl[variable] = _strip_quotes(value)
            break
    return csl


def _names(record: ZoteroRecord, schema: ZoteroSchema) -> dict[str, list[dict[str, str]]]:
    primary = schema.primary_creator.get(record.item_type)
    out: dict[str, list[dict[str, str]]] = {}
    for creator in record.creators:
        variable = schema.names.get(creator.creator_type)
        if variable is None and creator.creator_type == primary:
            variable = "author"
        if variable is None:
            continue
        name = csl_name(creator)
        if name:
            out.setdefault(variable, []).append(name)
    return out


def _apply_extra(csl: dict[str, Any], extra: ExtraFields, schema: ZoteroSchema) -> None:
    if extra.item_type:
        if extra.item_type in CSL_TYPES:
            csl["type"] = extra.item_type
        elif extra.item_type in schema.types:
            csl["type"] = schema.types[extra.item_type]
    for variable, value in extra.csl.items():
        if variable in DATE_VARS:
            date = zotero_date(value)
            if date and ("literal" not in date or variable not in csl):
                csl[variable] = date  # a date in Extra overrides the field (Zotero does)
        elif variable not in csl:
            csl[variable] = value
    named = set(csl)
    for variable, value in extra.names:
        if variable not in named:
            csl.setdefault(variable, []).append(name_value(value))
    if extra.rest.strip():
        csl["note"] = extra.rest


def record_to_csl(record: ZoteroRecord, schema: ZoteroSchema, item_id: str = "") -> CitedRecord:
    """The CSL-JSON item Zotero would cite for ``record``, what its Extra says, and what was
    read with a doubt."""
    warnings: list[str] = []
    view = _base_view(record, schema)
    csl: dict[str, Any] = {"id": item_id, "type": _csl_type(record, schema, warnings)}
    csl.update(_text_variables(record, view, schema))
    csl.update(_names(record, schema))
    for variable, name in schema.dates.items():
        date = zotero_date(view.get(name), access=(name == "accessDate"))
        if date:
            csl[variable] = date
    extra = parse_extra(view.get("extra"), schema)
    _apply_extra(csl, extra, schema)
    return CitedRecord(csl, extra, tuple(warnings))
