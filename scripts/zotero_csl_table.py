"""Derive vaultd/importers/data/zotero_csl.json from Zotero's global schema files.

Zotero's own CSL mapping lives in the ``csl`` section of the zotero-schema repository's
``schema.json`` (the file Zotero ships as ``resource/schema/global``); each item type's
fields name the base field they stand for (``bookTitle`` → ``publicationTitle``). This
script reads one or more versions of that file, oldest first, and writes the table vaultd
reads: newer versions win, older ones only add what a newer one dropped (so a database
written by an older Zotero still maps).

    python scripts/zotero_csl_table.py OLD/schema.json … NEW/schema.json

It is run by hand when Zotero's schema changes; the table it writes names the versions
and commits it was made from (pass them with --origin).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "vaultd" / "importers" / "data" / "zotero_csl.json"


def _merge(table: dict[str, Any], schema: dict[str, Any]) -> None:
    csl = schema["csl"]
    for csl_type, zotero_types in csl["types"].items():
        for zotero_type in zotero_types:
            table["types"][zotero_type] = csl_type
    for variable, fields in csl["fields"]["text"].items():
        known = table["text"].setdefault(variable, [])
        table["text"][variable] = list(dict.fromkeys([*fields, *known]))
    table["dates"].update(csl["fields"]["date"])
    table["names"].update(csl["names"])
    for item_type in schema["itemTypes"]:
        name = item_type["itemType"]
        base = table["base_fields"].setdefault(name, {})
        for field in item_type["fields"]:
            table["fields"].add(field["field"])
            if "baseField" in field:
                base[field["field"]] = field["baseField"]
                table["fields"].add(field["baseField"])
        primary = [c["creatorType"] for c in item_type.get("creatorTypes", []) if c.get("primary")]
        if primary:
            table["primary_creator"][name] = primary[0]
        for creator in item_type.get("creatorTypes", []):
            table["creator_types"].add(creator["creatorType"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("schemas", nargs="+", type=Path, help="schema.json files, oldest first")
    parser.add_argument("--origin", required=True, help="where the files came from (repo, commits)")
    args = parser.parse_args()
    table: dict[str, Any] = {"types": {}, "text": {}, "dates": {}, "names": {}, "base_fields": {},
                             "primary_creator": {}, "fields": set(), "creator_types": set()}
    versions = []
    for path in args.schemas:
        schema = json.loads(path.read_text(encoding="utf-8"))
        versions.append(schema["version"])
        _merge(table, schema)
    out = {
        "origin": args.origin,
        "schema_versions": versions,
        "note": "Derived by scripts/zotero_csl_table.py: types = Zotero item type → CSL type; "
                "text = CSL variable → Zotero base fields in Zotero's order; dates = CSL date "
                "variable → Zotero field; names = Zotero creator type → CSL name variable; "
                "base_fields = per item type, type-specific field → base field; "
                "primary_creator = the creator type Zotero cites as author when it has no CSL "
                "mapping.",
        "types": dict(sorted(table["types"].items())),
        "text": table["text"],
        "dates": table["dates"],
        "names": dict(sorted(table["names"].items())),
        "primary_creator": dict(sorted(table["primary_creator"].items())),
        "base_fields": {k: dict(sorted(v.items())) for k, v in sorted(table["base_fields"].items())},
        "fields": sorted(table["fields"]),
        "creator_types": sorted(table["creator_types"]),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT} from schema versions {versions}")


if __name__ == "__main__":
    main()
