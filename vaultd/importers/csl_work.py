"""A CSL-JSON item from any importer → ``Work`` (``Work.from_csl``), made safe first.

CSL-JSON written by other tools carries what ``Work`` does not accept as it stands: name
keys of citeproc-js (``isInstitution``, ``parse-names``, ``comma-suffix``,
``static-ordering``, ``sequence``), numbers where strings belong, dates as ``raw`` or
``literal`` strings, and types outside CSL 1.0.2. This module keeps every value it can:
formatting hints of names are dropped, numbers become strings, a ``raw`` date is read like
typed text (``dates.parse_text``), an unknown type is cited as ``document`` (said in a
warning). An arXiv id named by the number, DOI or URL (``arXiv:2101.00001``,
``10.48550/arXiv.2101.00001``, ``arxiv.org/abs/…``) is set on the Work.

Pure.
"""

from __future__ import annotations

import re
from typing import Any, get_args

from pydantic import ValidationError

from vaultd.errors import InputError
from vaultd.importers.dates import zotero_date
from vaultd.models import CSLType, Work

CSL_TYPES = frozenset(get_args(CSLType))
_NAME_KEYS = ("family", "given", "literal", "non-dropping-particle", "dropping-particle",
              "suffix")
#: CSL 1.0.2 name and date variables.
NAME_VARS = frozenset({
    "author", "chair", "collection-editor", "compiler", "composer", "container-author",
    "contributor", "curator", "director", "editor", "editorial-director", "executive-producer",
    "guest", "host", "illustrator", "interviewer", "narrator", "organizer", "original-author",
    "performer", "producer", "recipient", "reviewed-author", "script-writer", "series-creator",
    "translator",
})
DATE_VARS = frozenset({
    "accessed", "available-date", "event-date", "issued", "original-date", "submitted",
})
_ARXIV = re.compile(
    r"(?:arxiv[:.]\s*|arxiv\.org/(?:abs|pdf)/)(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})"
    r"(?:v(\d+))?", re.IGNORECASE)


def _name(value: Any) -> dict[str, str] | None:
    if isinstance(value, str):
        return {"literal": value} if value.strip() else None
    if not isinstance(value, dict):
        return None
    name = {k: str(value[k]) for k in _NAME_KEYS if value.get(k) not in (None, "")}
    return name or None


def _date(value: Any) -> Any:
    """A CSL date as citeproc-js accepts it → one ``Work.from_csl`` reads."""
    if isinstance(value, str | int):
        return zotero_date(str(value))
    if not isinstance(value, dict):
        return None
    parts = value.get("date-parts")
    if isinstance(parts, list) and parts:
        clean = []
        for date in parts:
            if not isinstance(date, list):
                break
            numbers = []
            for p in date:
                if isinstance(p, int | float) or (isinstance(p, str) and p.strip().lstrip("-").isdigit()):
                    numbers.append(int(p))
                else:
                    break
            if numbers:
                clean.append(numbers)
        if clean:
            return {**value, "date-parts": clean}
    if isinstance(value.get("raw"), str):
        return zotero_date(value["raw"])
    if isinstance(value.get("literal"), str):
        return {"literal": value["literal"]}
    return None


def clean_csl(item: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """``item`` as ``Work.from_csl`` reads it, and what was changed that a user would want
    to know (an unknown type)."""
    warnings: list[str] = []
    out: dict[str, Any] = {}
    for key, value in item.items():
        if value is None or value == "" or value == []:
            continue
        if key in NAME_VARS:
            if not isinstance(value, list):
                warnings.append(f"{key} is not a list of names; read as one name")
                value = [value]
            names = [n for n in (_name(v) for v in value) if n]
            if names:
                out[key] = names
        elif key in DATE_VARS:
            date = _date(value)
            if date:
                out[key] = date
        elif isinstance(value, int | float) and not isinstance(value, bool):
            out[key] = str(value)
        else:
            out[key] = value
    # Zotero's CSL export (and citeproc-js) name these two its own way.
    for zotero, csl in (("journalAbbreviation", "container-title-short"),
                        ("shortTitle", "title-short")):
        if zotero in out:
            value = out.pop(zotero)
            out.setdefault(csl, value)
    csl_type = out.get("type")
    if csl_type not in CSL_TYPES:
        warnings.append(f"CSL type {csl_type!r} is not a CSL 1.0.2 type; cited as 'document'")
        out["type"] = "document"
    return out, warnings


def arxiv_id(csl: dict[str, Any]) -> tuple[str, int | None] | None:
    """The arXiv id (and version) the item names in its number, DOI or URL."""
    for key in ("number", "DOI", "URL", "archive_location"):
        value = csl.get(key)
        if isinstance(value, str):
            m = _ARXIV.search(value)
            if m:
                return m.group(1), int(m.group(2)) if m.group(2) else None
    return None


def work_from_csl(item: dict[str, Any], source: str) -> tuple[Work, list[str]]:
    """The Work of a CSL-JSON item, and warnings; ``InputError`` naming what is wrong when
    it cannot be read at all."""
    clean, warnings = clean_csl(item)
    try:
        work = Work.from_csl(clean)
    except (ValidationError, ValueError, TypeError) as exc:
        raise InputError(_reason(exc)) from exc
    update: dict[str, Any] = {"sources": [source]}
    found = arxiv_id(clean)
    if found and not work.arxiv_id:
        update["arxiv_id"], update["arxiv_version"] = found
    return work.model_copy(update=update), warnings


def _reason(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        return f"{where}: {first.get('msg', 'invalid value')}"
    return str(exc) or type(exc).__name__
