"""A record's fields as the user sees them (pure): one row per field with its value, the
sources that gave it and, for title, author and year, whether two sources agree; and the
YAML that `vaultd meta --edit` opens, read back into the fields the user changed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import yaml

from vaultd.capture.reconcile import family_key, titles_match
from vaultd.capture.user import FIELDS, field_attr, json_value, parse_value, shown
from vaultd.errors import FieldValueError
from vaultd.models import MetaFile, UserValue, Work
from vaultd.trust import CORE_FIELDS

#: How the reconciler's warnings name a disagreement on each core field.
_WARNING_PREFIX = {"title": "title:", "authors": "first author:", "issued": "year:"}
#: Sources whose word on a field is a guess read off the PDF, not an answer.
GUESSES = frozenset({"pdf", "pdf-layout"})


@dataclass(frozen=True)
class FieldRow:
    name: str  # as the user types it
    value: Any  # as the user reads it: names as 'Family, Given', a date as '2019-05-03'
    sources: list[str]
    agreement: str | None  # title, author, year only
    entered: UserValue | None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"field": self.name, "value": self.value, "sources": self.sources,
                               "agreement": self.agreement, "entered_by_you": bool(self.entered)}
        if self.entered is not None:
            attr = FIELDS[self.name]
            out["origin"] = self.entered.origin
            out["entered_at"] = self.entered.at
            out["sources_value"] = shown(attr, self.entered.sources_value)
        return out


def sources_of(meta: MetaFile, attr: str) -> list[str]:
    """The sources of one field (a record written before fields had their own: all the
    record's sources)."""
    if meta.field_sources:
        return list(meta.field_sources.get(attr, []))
    return [s for s in meta.work.sources if s != "user"] if getattr(meta.work, attr) else []


def agreement(meta: MetaFile, attr: str) -> str | None:
    """For title, authors and year: 'entered by you', 'agreed' (two independent sources),
    'disagree' (sources give different values), 'unconfirmed' or 'absent'."""
    if attr not in CORE_FIELDS:
        return None
    if attr in meta.user:
        return "entered by you"
    if attr in meta.agreed or (meta.reconciled and not meta.field_sources):
        return "agreed"
    if any(w.startswith(_WARNING_PREFIX[attr]) for w in meta.warnings):
        return "disagree"
    return "unconfirmed" if getattr(meta.work, attr) else "absent"


def field_rows(meta: MetaFile) -> list[FieldRow]:
    """Title, author and year always; every other field that holds a value."""
    rows = []
    for name, attr in FIELDS.items():
        value = shown(attr, getattr(meta.work, attr))
        if value is None and attr not in CORE_FIELDS:
            continue
        rows.append(FieldRow(name, value, sources_of(meta, attr), agreement(meta, attr),
                             meta.user.get(attr)))
    return rows


def is_guess(meta: MetaFile, attr: str) -> bool:
    """The field is empty, a default no source gave (a type), or only read off the PDF:
    neither a source nor the user gave it."""
    if getattr(meta.work, attr) in (None, [], ""):
        return True
    if attr in meta.user:
        return False
    return set(sources_of(meta, attr)) <= GUESSES


def completion(meta: MetaFile, given: Work) -> tuple[dict[str, Any], list[str]]:
    """What a .bib entry (``given``) for the work of ``meta`` completes: Work field →
    value for each field the record lacks or only read off the PDF; and the names of the
    fields where it gives another value than the record's, which are kept."""
    values: dict[str, Any] = {}
    kept: list[str] = []
    for name, attr in FIELDS.items():
        new = getattr(given, attr)
        if new in (None, [], "") or _same(attr, new, getattr(meta.work, attr)):
            continue
        if is_guess(meta, attr):
            values[attr] = json_value(attr, new)
        else:
            kept.append(name)
    return values, kept


def _same(attr: str, a: Any, b: Any) -> bool:
    if attr == "title":
        return titles_match(a, b)
    if attr in ("authors", "editors"):  # "Doe, J." is "Doe, Jane"
        return [family_key(x) for x in a] == [family_key(x) for x in b or []]
    return bool(shown(attr, a) == shown(attr, b))


# --- the YAML of `vaultd meta --edit` --------------------------------------------------


def _scalar(value: Any) -> str:
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10**6)
    return text.removesuffix("\n...\n").rstrip("\n")


def edit_text(meta: MetaFile) -> str:
    """Every field (empty ones as null) with a comment saying where its value is from."""
    lines = [f"# vaultd meta {meta.cite_key}: change a value and save. A changed field is",
             "# entered by you: it wins over every source and survives a refresh. null empties",
             "# a field; `vaultd meta KEY --unset FIELD` returns it to the sources. Authors",
             "# and editors as \"Family, Given\"; the year as 2019 (or 2019-05-03).",
             "# Leave the file unchanged (or empty) to change nothing."]
    for name, attr in FIELDS.items():
        value = shown(attr, getattr(meta.work, attr))
        uv = meta.user.get(attr)
        where = (f"entered by you ({uv.origin})" if uv else
                 ", ".join(sources_of(meta, attr)) or "no source")
        lines.append(f"{name}: {_scalar(value)}  # {where}")
    return "\n".join(lines) + "\n"


def read_edit(text: str, meta: MetaFile) -> dict[str, Any]:
    """The fields the edited YAML changes: Work field → value; FieldValueError naming the
    field (or the line) that cannot be read."""
    if not text.strip() or all(line.lstrip().startswith("#") or not line.strip()
                               for line in text.splitlines()):
        return {}
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise _yaml_error(text, exc) from exc
    if not isinstance(data, dict):
        raise FieldValueError("the edited text is not a list of fields (FIELD: value per "
                              "line); nothing was changed", field="")
    changed: dict[str, Any] = {}
    for key, raw in data.items():
        attr = field_attr(str(key))
        if isinstance(raw, dt.date):
            raw = raw.isoformat()
        if isinstance(raw, dict):
            raise FieldValueError(f"{key}: a value, not a mapping; nothing was changed",
                                  field=str(key))
        value = parse_value(str(key), raw)
        if shown(attr, value) != shown(attr, getattr(meta.work, attr)):
            changed[attr] = value
    return changed


def _yaml_error(text: str, exc: yaml.YAMLError) -> FieldValueError:
    # Where the broken construct began (an unclosed "[" or quote) names its field best.
    mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or "cannot be read"
    if mark is None:
        return FieldValueError(f"the edited text is not valid YAML ({problem}); nothing was "
                               "changed", field="")
    lines = text.splitlines()
    line = lines[mark.line] if mark.line < len(lines) else ""
    name = line.split(":", 1)[0].strip() if ":" in line else ""
    field = name if name in FIELDS else ""
    where = f"{field}: " if field else ""
    return FieldValueError(f"{where}the edited text is not valid YAML at line {mark.line + 1} "
                           f"({problem}); nothing was changed", field=field)

