"""The user as a metadata source (pure): the fields of a record `vaultd meta` shows and
sets, what the user typed read into them, and the user's values laid over the sources'.

A value the user entered is kept in the record (``MetaFile.user``, by Work field) with the
value the sources gave beside it, so ``--unset`` can return the field to them and a
refresh lays the user's value over the fresh answer again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, get_args

from vaultd.capture.detect import ARXIV_ID_RE, DOI_RE, normalise_doi, split_arxiv_version
from vaultd.capture.names import split_name
from vaultd.errors import FieldValueError
from vaultd.models import Author, CSLType, MetaFile, UserValue, Work

#: The name the user types → the Work field it sets, in the order they are shown.
FIELDS: dict[str, str] = {
    "title": "title", "author": "authors", "year": "issued", "type": "type",
    "container-title": "container_title", "editor": "editors", "volume": "volume",
    "issue": "issue", "page": "page", "number": "number", "publisher": "publisher",
    "publisher-place": "publisher_place", "edition": "edition", "genre": "genre",
    "event": "event", "collection-title": "collection_title",
    "collection-number": "collection_number", "doi": "doi", "arxiv": "arxiv_id",
    "isbn": "isbn", "issn": "issn", "url": "url", "language": "language",
    "abstract": "abstract",
}
NAMES = {attr: name for name, attr in FIELDS.items()}
#: Fields given once per person (``--set author=… --set author=…``).
NAME_FIELDS = frozenset({"author", "editor"})
#: The CSL variable each field is in a CSL item (a copy in ``csl_extra`` or ``rich`` would
#: win over the user's value there).
_CSL_NAMES = {"container_title": "container-title", "collection_title": "collection-title",
              "event": "event-title", "issued": "issued", "publisher_place": "publisher-place"}
CSL_TYPES: tuple[str, ...] = get_args(CSLType)
_YEAR_RE = re.compile(r"(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?")
FIRST_YEAR, LAST_YEAR = 1000, 2100
_MANY_NAMES_RE = re.compile(r";|\s(?:and|&)\s", re.IGNORECASE)


def _error(name: str, why: str) -> FieldValueError:
    return FieldValueError(f"{name}: {why}", field=name)


def field_attr(name: str) -> str:
    """The Work field ``name`` sets; FieldValueError when it is none."""
    attr = FIELDS.get(name.strip().lower())
    if attr is None:
        raise _error(name, f"not a field of a record; fields: {', '.join(FIELDS)}")
    return attr


def parse_name(text: str, name: str = "author") -> dict[str, str]:
    """One person ('Family, Given', 'Given Family') or organisation, as a CSL name."""
    clean = " ".join(str(text).split())
    if not clean or not any(c.isalpha() for c in clean):
        raise _error(name, f"{text!r} is no name; give it as \"Family, Given\"")
    if _MANY_NAMES_RE.search(clean) or clean.count(",") > 2:
        raise _error(name, f"{text!r} holds more than one name; give one {name} per --set "
                           f"{name}=\"Family, Given\"")
    author = split_name(clean)
    if not (author.family or author.literal):
        raise _error(name, f"{text!r} has no family name; give it as \"Family, Given\"")
    return author.model_dump(by_alias=True, exclude_none=True)


def parse_value(name: str, text: Any) -> Any:
    """The JSON value of field ``name`` from what the user typed (a YAML value too: a
    number for a year, a list for authors). An empty value empties the field."""
    attr = field_attr(name)
    name = NAMES[attr]
    if name in NAME_FIELDS:
        items = text if isinstance(text, list) else [text]
        return [parse_name(str(t), name) for t in items if t is not None]
    raw = "" if text is None else " ".join(str(text).split())
    if not raw:
        if attr in ("title", "type"):
            raise _error(name, "cannot be empty: every record has one")
        return None
    if attr == "issued":
        return parse_year(raw)
    if attr == "type":
        if raw not in CSL_TYPES:
            raise _error(name, f"{raw!r} is not a CSL type; e.g. article-journal, book, "
                               "chapter, paper-conference, report, thesis, webpage")
        return raw
    if attr == "doi":
        doi = normalise_doi(re.sub(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", "", raw,
                                   flags=re.IGNORECASE))
        if not DOI_RE.match(doi):
            raise _error(name, f"{raw!r} is not a DOI; give it as 10.NNNN/…")
        return doi
    if attr == "arxiv_id":
        ident = re.sub(r"^arxiv:\s*", "", raw, flags=re.IGNORECASE)
        if not ARXIV_ID_RE.match(ident):
            raise _error(name, f"{raw!r} is not an arXiv id; give it as 1706.03762")
        return split_arxiv_version(ident)[0]
    if attr == "url" and not re.match(r"https?://\S+$", raw, re.IGNORECASE):
        raise _error(name, f"{raw!r} is not a web address; give it as https://…")
    return raw


def parse_year(raw: str, name: str = "year") -> list[int]:
    m = _YEAR_RE.fullmatch(raw.strip())
    parts = [int(g) for g in m.groups() if g] if m else []
    if not parts or not FIRST_YEAR <= parts[0] <= LAST_YEAR \
            or (len(parts) > 1 and not 1 <= parts[1] <= 12) \
            or (len(parts) > 2 and not 1 <= parts[2] <= 31):
        raise _error(name, f"{raw!r} is not a year; give it as 2019 (or 2019-05, 2019-05-03)")
    return parts


def parse_sets(pairs: Sequence[str]) -> dict[str, Any]:
    """``--set FIELD=VALUE`` pairs → Work field → value (authors and editors gathered in
    the order given); FieldValueError on the first that cannot be read."""
    out: dict[str, Any] = {}
    for pair in pairs:
        name, eq, text = pair.partition("=")
        if not eq:
            raise _error(name.strip() or pair, "give it as FIELD=VALUE (e.g. year=2019)")
        attr = field_attr(name)
        value = parse_value(name, text)
        if NAMES[attr] in NAME_FIELDS:
            out[attr] = [*out.get(attr, []), *value]
        elif attr in out:
            raise _error(NAMES[attr], "given twice; give it once")
        else:
            out[attr] = value
    return out


def parse_unsets(names: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(field_attr(n) for n in names))


# --- values as shown -------------------------------------------------------------------


def name_text(author: Author) -> str:
    """'Family, Given' (how `vaultd meta` shows and reads a name)."""
    if author.literal and not author.family:
        return author.literal
    parts = [author.family_full, author.given, author.suffix]
    return ", ".join(p for p in parts if p)


def shown(attr: str, value: Any) -> Any:
    """A Work field's value as the user reads and writes it (names as 'Family, Given',
    a date as '2019-05-03')."""
    if value in (None, [], ""):
        return None
    if attr in ("authors", "editors"):
        return [name_text(a if isinstance(a, Author) else Author.model_validate(a))
                for a in value]
    if attr == "issued":
        return int(value[0]) if len(value) == 1 else "-".join(
            f"{p:02d}" if i else str(p) for i, p in enumerate(value))
    return value


def entered_names(meta: MetaFile) -> list[str]:
    """The fields the user entered, by the names they type, in the order shown."""
    return [name for name, attr in FIELDS.items() if attr in meta.user]


# --- the user's values over the sources' ------------------------------------------------


def json_value(attr: str, value: Any) -> Any:
    """A Work field's value as the record stores a user's value (names as CSL names)."""
    if attr in ("authors", "editors"):
        return [a.model_dump(by_alias=True, exclude_none=True) if isinstance(a, Author) else a
                for a in value or []]
    return value


def entered(meta: MetaFile, values: Mapping[str, Any], *, origin: str,
            at: str | None) -> dict[str, UserValue]:
    """``meta.user`` with ``values`` (Work field → JSON value) entered by the user; each
    remembers what the sources give for it."""
    user = dict(meta.user)
    for attr, value in values.items():
        prior = user.get(attr)
        sources_value = prior.sources_value if prior else json_value(attr, getattr(meta.work, attr))
        sources = prior.sources if prior else list(meta.field_sources.get(attr, []))
        user[attr] = UserValue(value=value, origin=origin, at=at,
                               sources_value=sources_value, sources=sources)
    return user


def rebased(user: Mapping[str, UserValue], work: Work,
            field_sources: Mapping[str, list[str]]) -> dict[str, UserValue]:
    """The user's values over a fresh answer of the sources (a refresh): each now
    remembers what the sources give today."""
    return {attr: uv.model_copy(update={"sources_value": json_value(attr, getattr(work, attr)),
                                        "sources": list(field_sources.get(attr, []))})
            for attr, uv in user.items()}


def apply_user(work: Work, field_sources: Mapping[str, list[str]],
               user: Mapping[str, UserValue]) -> tuple[Work, dict[str, list[str]]]:
    """``work`` with the user's values in place (and ``user`` among its sources), and the
    field sources saying which fields are the user's."""
    return _with_values(work, {a: uv.value for a, uv in user.items()}, field_sources,
                        {a: ["user"] for a in user}, user_source=bool(user))


def without_user(work: Work, field_sources: Mapping[str, list[str]],
                 user: Mapping[str, UserValue], attrs: Sequence[str]
                 ) -> tuple[Work, dict[str, list[str]]]:
    """``work`` with the fields ``attrs`` returned to what the sources give."""
    gone = {a: user[a] for a in attrs if a in user}
    left = set(user) - set(gone)
    return _with_values(work, {a: uv.sources_value for a, uv in gone.items()}, field_sources,
                        {a: list(uv.sources) for a, uv in gone.items()},
                        user_source=bool(left))


def _with_values(work: Work, values: Mapping[str, Any], field_sources: Mapping[str, list[str]],
                 sources_of: Mapping[str, list[str]], *, user_source: bool
                 ) -> tuple[Work, dict[str, list[str]]]:
    data = work.model_dump(mode="json")
    for attr, value in values.items():
        data[attr] = [] if value is None and attr in ("authors", "editors") else value
        if attr == "title":
            data["title_rich"] = None  # it marked up the title that was replaced
        csl = _CSL_NAMES.get(attr, attr.replace("_", "-"))
        data["rich"].pop(csl, None)
        data["csl_extra"].pop(csl, None)
    sources = [s for s in data["sources"] if s != "user"]
    data["sources"] = [*sources, "user"] if user_source else sources
    fields = {**field_sources, **sources_of}
    return Work.model_validate(data), {k: v for k, v in fields.items() if v}
