"""Name and date helpers shared by the source parsers (pure)."""

from __future__ import annotations

import re
from typing import Any

from vaultd.models import Author, Work

_PARTICLES = {"van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "la", "le",
              "ter", "ten", "dos", "das", "bin", "al"}
# Generational suffixes, written after the name ('King Jr.') or as its own part
# ('King, Jr., Martin Luther').
SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "2nd", "3rd", "4th"}
# A name holding one of these words names a group, not a person: it stays whole.
_ORGANISATION_WORDS = {
    "collaboration", "consortium", "organization", "organisation", "committee",
    "association", "institute", "university", "council", "agency", "foundation", "ministry",
    "department", "society", "group", "team", "project", "network", "initiative",
    "corporation", "inc", "inc.", "ltd", "ltd.", "gmbh", "llc", "commission", "alliance",
    "laboratory", "laboratories", "centre", "center", "authority",
    "federation", "academy", "bureau", "programme", "program", "partnership",
    "investigators", "contributors", "developers", "editors", "subcommittee", "equipe",
    "équipe", "equipo",
}


def is_organisation(name: str) -> bool:
    """True when ``name`` names a group ('ATLAS Collaboration', 'World Health
    Organization') rather than a person."""
    return any(w.lower().strip(",()") in _ORGANISATION_WORDS for w in name.split())


def _is_suffix(word: str) -> bool:
    return word.lower() in SUFFIXES and (word[:1].isupper() or word[:1].isdigit())


def split_name(name: str) -> Author:
    """'Given Middle Family' (or 'Family, Given', 'Family, Jr., Given') into a CSL name:
    lowercase particles kept apart, a generational suffix kept as ``suffix``, an
    organisation kept whole as ``literal``. No part is invented."""
    name = " ".join(name.split())
    if is_organisation(name):
        return make_author(literal=name)
    if "," in name:
        parts = [p.strip() for p in name.split(",")]
        suffix = None
        if len(parts) >= 3 and _is_suffix(parts[1]):  # 'King, Jr., Martin Luther'
            suffix = parts.pop(1)
        elif len(parts) >= 3 and _is_suffix(parts[-1]):  # 'King, Martin Luther, Jr.'
            suffix = parts.pop()
        elif len(parts) == 2 and _is_suffix(parts[1]) and " " in parts[0]:
            # 'Martin Luther King, Jr.': the comma sets off the suffix only
            person = split_name(parts[0])
            person.suffix = parts[1]
            return person
        fam, giv = parts[0], ", ".join(parts[1:])
        return make_author(family=fam or None, given=giv or None, suffix=suffix)
    words = name.split(" ")
    suffix = None
    if len(words) > 2 and _is_suffix(words[-1]):
        suffix = words.pop()
    if len(words) == 1:
        return make_author(family=words[0] or None, suffix=suffix)
    family = words[-1]
    i = len(words) - 1
    particles: list[str] = []
    # Lower-case particles ('van der Maaten') stand apart; capitalised ones ('De Marchis')
    # are part of the family name as printed.
    while i - 1 > 0 and words[i - 1] in _PARTICLES:
        particles.insert(0, words[i - 1])
        i -= 1
    while i - 1 > 0 and words[i - 1].lower() in _PARTICLES and words[i - 1][:1].isupper():
        family = f"{words[i - 1]} {family}"
        i -= 1
    return make_author(family=family, given=" ".join(words[:i]) or None,
                       non_dropping_particle=" ".join(particles) or None, suffix=suffix)


_DATE_RE = re.compile(r"^(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?")


def date_parts(text: str | None) -> list[int] | None:
    """'2016-05-26T17:59:46Z' / '2014-10-27' / '2001' → [y, m, d] (as many as given).

    A month outside 1–12 (EDTF seasons, '2019-21') or a day outside 1–31 is left out.
    """
    if not text:
        return None
    m = _DATE_RE.match(text.strip())
    if not m:
        return None
    parts = [int(m.group(1))]
    month, day = (int(g) if g else None for g in m.groups()[1:])
    if month is not None and 1 <= month <= 12:
        parts.append(month)
        if day is not None and 1 <= day <= 31:
            parts.append(day)
    return parts


def clean_text(text: str | None) -> str | None:
    """Collapse the hard wraps and indentation some APIs put inside titles and names."""
    if text is None:
        return None
    return " ".join(text.split())


def make_work(**fields: Any) -> Work:
    """Build a Work from keyword fields (validated; keeps mypy away from pydantic aliases)."""
    return Work.model_validate(fields)


def make_author(**fields: Any) -> Author:
    return Author.model_validate(fields)
