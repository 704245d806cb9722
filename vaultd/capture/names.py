"""Name and date helpers shared by the source parsers (pure)."""

from __future__ import annotations

import re
from typing import Any

from vaultd.models import Author, Work

_PARTICLES = {"van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "la", "le",
              "ter", "ten", "dos", "das", "bin", "al"}


def split_name(name: str) -> Author:
    """'Given Middle Family' (or 'Family, Given') into a CSL name; particles kept apart."""
    name = " ".join(name.split())
    if "," in name:
        fam, _, giv = name.partition(",")
        return make_author(family=fam.strip() or None, given=giv.strip() or None)
    parts = name.split(" ")
    if len(parts) == 1:
        return make_author(family=parts[0])
    family = parts[-1]
    i = len(parts) - 1
    particles: list[str] = []
    # Lower-case particles ('van der Maaten') stand apart; capitalised ones ('De Marchis')
    # are part of the family name as printed.
    while i - 1 > 0 and parts[i - 1] in _PARTICLES:
        particles.insert(0, parts[i - 1])
        i -= 1
    while i - 1 > 0 and parts[i - 1].lower() in _PARTICLES and parts[i - 1][:1].isupper():
        family = f"{parts[i - 1]} {family}"
        i -= 1
    return make_author(family=family, given=" ".join(parts[:i]) or None,
                       non_dropping_particle=" ".join(particles) or None)


def date_parts(text: str | None) -> list[int] | None:
    """'2016-05-26T17:59:46Z' / '2014-10-27' / '2001' → [y, m, d] (as many as given)."""
    if not text:
        return None
    m = re.match(r"^(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?", text.strip())
    if not m:
        return None
    return [int(g) for g in m.groups() if g is not None]


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
