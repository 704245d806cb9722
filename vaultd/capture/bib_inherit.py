"""Data an entry takes from others: biblatex's ``xdata`` and ``crossref`` (BibTeX's too).

biblatex's rules (its manual, appendix B "Default crossref setup"): a child takes every
field it lacks from its parent, except the fields that name the parent entry itself;
some titles change their name on the way down (a multi-volume work's ``title`` is its
volume's ``maintitle``; a book's ``title`` is its chapter's ``booktitle``; a periodical's
``title`` is its article's ``journaltitle``). Parents are resolved before their children,
so a chapter inherits through its book from the multi-volume work (``inbook`` →
``book`` → ``mvbook``). ``xdata`` entries lend all their fields, under the same names, to
every entry that names them; they are not works of their own. Pure: dicts in, dicts out.
"""

from __future__ import annotations

from typing import Any

Fields = dict[str, Any]

# Fields never inherited (biblatex: "* → *" excluded).
_NOT_INHERITED = frozenset({
    "ids", "crossref", "xref", "xdata", "entryset", "entrysubtype", "execute", "label",
    "options", "presort", "related", "relatedoptions", "relatedstring", "relatedtype",
    "shorthand", "shorthandintro", "sortkey", "shorttitle", "sorttitle", "indextitle",
    "indexsorttitle"})

_MAIN = {"title": "maintitle", "subtitle": "mainsubtitle", "titleaddon": "maintitleaddon"}
_BOOK = {"title": "booktitle", "subtitle": "booksubtitle", "titleaddon": "booktitleaddon"}
_JOURNAL = {"title": "journaltitle", "subtitle": "journalsubtitle",
            "shorttitle": "shortjournal"}

# (parent types, child types) → renamed fields, as biblatex's default setup lists them.
_RULES: list[tuple[frozenset[str], frozenset[str], dict[str, str]]] = [
    (frozenset({"mvbook"}),
     frozenset({"book", "inbook", "bookinbook", "suppbook"}), _MAIN),
    (frozenset({"mvcollection", "mvreference"}),
     frozenset({"collection", "reference", "incollection", "inreference",
                "suppcollection"}), _MAIN),
    (frozenset({"mvproceedings"}), frozenset({"proceedings", "inproceedings"}), _MAIN),
    (frozenset({"book"}), frozenset({"inbook", "bookinbook", "suppbook"}),
     {**_BOOK, "author": "bookauthor"}),
    (frozenset({"collection", "reference"}),
     frozenset({"incollection", "inreference", "suppcollection"}), _BOOK),
    (frozenset({"proceedings"}), frozenset({"inproceedings"}), _BOOK),
    (frozenset({"periodical"}), frozenset({"article", "suppperiodical"}), _JOURNAL),
]
# A parent of any other pair gives its title as the child's booktitle (BibTeX's habit:
# an @inproceedings naming its @proceedings, or a @misc its @book).
_DEFAULT = _BOOK


def _renames(parent_type: str, child_type: str) -> dict[str, str]:
    for parents, children, renames in _RULES:
        if parent_type in parents and child_type in children:
            return renames
    return _DEFAULT


def inherit(types: dict[str, str], fields: dict[str, Fields]) -> None:
    """Complete every entry of ``fields`` (key → lowercase field → value; ``types``: key →
    lowercase entry type; keys lowercase) in place with its xdata and crossref data."""
    done: set[str] = set()

    def resolve(key: str, seen: frozenset[str]) -> None:
        if key in done or key in seen:
            return  # resolved already, or a cycle (a → b → a): left as it stands
        child = fields[key]
        for name in _names(child.get("xdata")):
            if name in fields and name != key:
                resolve(name, seen | {key})
                for field, value in fields[name].items():
                    if field not in _NOT_INHERITED:
                        child.setdefault(field, value)
        parent_key = str(child.get("crossref", "")).strip().lower()
        if parent_key in fields and parent_key != key:
            resolve(parent_key, seen | {key})
            _take(child, fields[parent_key],
                  _renames(types.get(parent_key, ""), types.get(key, "")))
        done.add(key)

    for key in fields:
        resolve(key, frozenset())


def _take(child: Fields, parent: Fields, renames: dict[str, str]) -> None:
    for field, value in parent.items():
        if field in _NOT_INHERITED:
            continue
        if field in renames:
            child.setdefault(renames[field], value)
            if field != "author":
                continue  # a book's author is its chapter's bookauthor and author
        elif field in _BOOK:
            continue  # the parent's own title parts never become the child's
        child.setdefault(field, value)


def _names(value: Any) -> list[str]:
    return [n.strip().lower() for n in str(value or "").split(",") if n.strip()]
