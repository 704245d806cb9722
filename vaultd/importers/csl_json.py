"""A CSL-JSON file (``.json``: a list of CSL items, as Zotero, Better BibTeX, pandoc and
citeproc-js write them) → ``ImportResult``.

Each item's ``id`` is its citation key, kept exactly (a number becomes its digits); a
``citation-key`` variable, when present and different, is the key and the ``id`` an alias.
The item is made safe for ``Work`` by ``csl_work`` (name hints dropped, ``raw`` dates read,
an unknown type cited as ``document``). CSL-JSON carries no files, notes or tags. An item
that cannot be read is one problem naming it; the rest is read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from vaultd.errors import InputError
from vaultd.importers.csl_work import work_from_csl
from vaultd.importers.keys import choose_key
from vaultd.importers.model import ImportedItem, ImportResult, ItemOrigin


def is_csl_json(data: Any) -> bool:
    items = data if isinstance(data, list) else [data]
    return any(isinstance(i, dict) and ("type" in i or "id" in i) for i in items[:5])


def _key(value: Any) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | str):
        return str(value)
    return None


def _item(raw: dict[str, Any], index: int, path: Path) -> ImportedItem:
    if "type" not in raw:
        raise InputError("no 'type'")
    work, warnings = work_from_csl(raw, "csl-json")
    key, source, aliases = choose_key([("csl-json", _key(raw.get("citation-key"))),
                                       ("csl-json", _key(raw.get("id")))])
    origin = ItemOrigin(source=str(path), item_type=str(raw.get("type")), index=index)
    return ImportedItem(work=work, origin=origin, key=key, key_source=source,
                        aliases=aliases, warnings=tuple(warnings))


def read_csl_data(data: Any, path: Path) -> ImportResult:
    """The items of parsed CSL-JSON (a list of items, or one item)."""
    result = ImportResult(source=str(path))
    items = data if isinstance(data, list) else [data]
    for index, raw in enumerate(items, start=1):
        name = f"item {index}"
        if not isinstance(raw, dict):
            result.problem(name, f"not a CSL item (a JSON {type(raw).__name__})")
            continue
        ident = _key(raw.get("id"))
        if ident:
            name += f" ({ident})"
        try:
            result.items.append(_item(raw, index, path))
        except InputError as exc:
            result.problem(name, str(exc))
    return result
