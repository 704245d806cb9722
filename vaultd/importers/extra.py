"""Zotero's Extra field: CSL variables and Zotero fields as ``key: value`` lines, and the
citation key Better BibTeX keeps there.

Zotero reads a line ``Original Date: 1886`` or ``original-date: 1886`` of Extra as the field
or CSL variable it names (``Zotero.Utilities.Internal.extractExtraFields``): the key is
compared after ``fooBar``, ``foo bar`` and ``foo_bar`` become ``foo-bar``, the first line
for a field wins, a name is ``Family || Given`` or one literal name, and the lines it did
not read stay as the item's CSL ``note``. It also accepts citeproc's older ``{:key: value}``
form. Better BibTeX keeps an item's citation key on a ``Citation Key: …`` line (also
``citationkey:``, ``bibtex:``; BBT ``content/extra.ts``; the last such line wins), and other
keys of the same work on ``Citation Key Alias: a, b`` or ``tex.ids: a, b`` lines.

One difference from Zotero, on purpose: a key is letters, spaces, hyphens and underscores
only, so ``Citation Key: doe:2020`` reads the key ``doe:2020`` (Zotero's pattern, whose
character range runs from space to underscore, would take ``Citation Key: doe`` as the key).

Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from vaultd.importers.csl_work import DATE_VARS, NAME_VARS
from vaultd.importers.zotero_schema import ZoteroSchema, normalize_key

#: CSL 1.0.2 standard and number variables (and the two Zotero still writes).
CSL_TEXT_VARS = frozenset({
    "abstract", "annote", "archive", "archive_collection", "archive_location", "archive-place",
    "authority", "call-number", "chapter-number", "citation-key", "citation-label",
    "collection-number", "collection-title", "container-title", "container-title-short",
    "dimensions", "division", "DOI", "edition", "event", "event-title", "event-place",
    "genre", "ISBN", "ISSN", "issue", "jurisdiction", "keyword", "language", "license",
    "locator", "medium", "note", "number", "number-of-pages", "number-of-volumes",
    "original-publisher", "original-publisher-place", "original-title", "page", "page-first",
    "part-number", "part-title", "PMCID", "PMID", "printing-number", "publisher",
    "publisher-place", "references", "reviewed-genre", "reviewed-title", "scale", "section",
    "source", "status", "supplement-number", "title", "title-short", "URL", "version",
    "volume", "volume-title", "volume-title-short", "year-suffix",
})
# 'note' is what is left of Extra itself: a 'note:' line stays a line of it.
_CSL_BY_KEY = {normalize_key(v): v
               for v in (CSL_TEXT_VARS - {"note"}) | DATE_VARS | NAME_VARS}
_CITATION_KEY = {"citation-key", "citationkey", "bibtex"}
_ALIAS_KEYS = {"citation-key-alias"}

_LINE = re.compile(
    r"^(?:\{:(?P<old>[A-Za-z][A-Za-z _-]*):\s*(?P<oldvalue>[^}]*)\}"
    r"|(?P<tex>(?:bib(?:la)?)?tex\.)?(?P<key>[A-Za-z][A-Za-z _-]*?)\s*:(?P<value>.*))$",
    re.IGNORECASE)


@dataclass(frozen=True)
class ExtraFields:
    """What an Extra field says beyond free text."""

    citation_key: str | None = None  # exactly as written (surrounding spaces removed)
    aliases: tuple[str, ...] = ()
    item_type: str | None = None  # 'type: …': a CSL or Zotero type
    csl: dict[str, str] = field(default_factory=dict)  # CSL text and date variables
    names: list[tuple[str, str]] = field(default_factory=list)  # (CSL name variable, value)
    rest: str = ""  # the lines not read: the CSL note


def parse_extra(extra: str | None, schema: ZoteroSchema) -> ExtraFields:
    """Read ``extra``: every ``key: value`` line naming a citation key, an alias, a type, a
    CSL variable, a Zotero field or a creator type; the other lines are kept, in order."""
    if not extra:
        return ExtraFields()
    key_line: str | None = None
    aliases: list[str] = []
    item_type: str | None = None
    csl: dict[str, str] = {}
    names: list[tuple[str, str]] = []
    rest: list[str] = []
    for line in extra.split("\n"):
        m = _LINE.match(line.strip())
        if not m:
            rest.append(line)
            continue
        raw_key = m.group("old") or m.group("key")
        value = (m.group("oldvalue") if m.group("old") else m.group("value")).strip()
        key = normalize_key(raw_key)
        if m.group("tex"):
            if key == "ids" and value:
                aliases.extend(a for a in re.split(r"\s*,\s*", value) if a)
            else:
                rest.append(line)
            continue
        if key in _CITATION_KEY:
            key_line = value or key_line
            continue
        if key in _ALIAS_KEYS:
            aliases.extend(a for a in re.split(r"\s*,\s*", value) if a)
            continue
        if not value:
            rest.append(line)
            continue
        if key == "type" and item_type is None:
            item_type = value
            continue
        variable = _variable(key, schema)
        if variable in NAME_VARS:
            names.append((variable, value))
        elif variable and variable not in csl:
            csl[variable] = value
        elif not variable:
            rest.append(line)
    return ExtraFields(citation_key=key_line, aliases=tuple(dict.fromkeys(aliases)),
                       item_type=item_type, csl=csl, names=names,
                       rest="\n".join(rest).strip("\n"))


def _variable(key: str, schema: ZoteroSchema) -> str | None:
    """The CSL variable an Extra key names: a CSL variable, a Zotero field (through Zotero's
    own CSL mapping), or a Zotero creator type; None when it names nothing."""
    if key in _CSL_BY_KEY:
        return _CSL_BY_KEY[key]
    zotero_field = schema.field_for_key(key)
    if zotero_field:
        for variable, fields in schema.text.items():
            if zotero_field in fields and variable != "note":
                return "title-short" if variable == "shortTitle" else variable
        for variable, date_field in schema.dates.items():
            if date_field == zotero_field:
                return variable
    for creator_type, variable in schema.names.items():
        if normalize_key(creator_type) == key:
            return variable
    return None


def name_value(value: str) -> dict[str, str]:
    """An Extra name ('Family || Given', or one name) as a CSL name."""
    if "||" in value:
        family, _, given = (p.strip() for p in value.partition("||"))
        return {k: v for k, v in (("family", family), ("given", given)) if v}
    return {"literal": value.strip()}
