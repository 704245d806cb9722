"""Zotero creators and RIS names as CSL names.

A Zotero creator is a last and a first name, or one field (``fieldMode`` 1: an
organisation). Zotero's CSL export keeps a one-field name as ``literal``, strips the quotes
of a quoted last name (``"van Gogh"``: no particle parsing), and otherwise splits particles
the way citeproc-js does (``Zotero.Utilities.Item.parseParticles``): leading words of the
last name that begin in lower case are its non-dropping particle (``van der`` Maaten,
``d'``Alembert), trailing lower-case words of the first name its dropping particle
(Ludwig ``van``), and ``, Jr.`` after a first name its suffix.

RIS writes ``Last, First[, Suffix]``; a name without a comma is one field (Zotero's RIS
translator imports it so).

Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# One leading particle of a family name: a word ending at a space, hyphen or apostrophe.
_FAMILY_PARTICLE = re.compile(r"^([^ ]+?(?:-|\u02bb|\u2019|'| ) *)(.+)$")
_GIVEN_SUFFIX = re.compile(r"^(.+?)\s*,!?\s*(.+)$")


@dataclass(frozen=True)
class Creator:
    """A creator as Zotero stores one."""

    creator_type: str
    last: str | None = None
    first: str | None = None
    single_field: bool = False  # fieldMode 1: one name (organisation)


def _starts_lower(word: str) -> bool:
    letter = word.lstrip("-'\u02bb\u2019 ")[:1]
    return bool(letter) and letter != letter.upper()


def _split_family(family: str) -> tuple[str | None, str]:
    particles = ""
    rest = family
    while True:
        m = _FAMILY_PARTICLE.match(rest)
        if not m or not _starts_lower(m.group(1)):
            break
        particles += m.group(1)
        rest = m.group(2)
    if not particles:
        return None, family
    return particles.strip() if particles.endswith(" ") else particles, rest


def _split_given(given: str) -> tuple[str, str | None]:
    words = given.split(" ")
    cut = len(words)
    while cut > 1 and _starts_lower(words[cut - 1]):
        cut -= 1
    if cut == len(words):
        return given, None
    return " ".join(words[:cut]), " ".join(words[cut:])


def csl_name(creator: Creator) -> dict[str, str] | None:
    """The CSL name of a Zotero creator, or None for an empty one."""
    last = (creator.last or "").strip()
    first = (creator.first or "").strip()
    if creator.single_field:
        return {"literal": last} if last else None
    if not last and not first:
        return None
    if not first:
        return {"family": last}
    name: dict[str, str] = {}
    if len(last) > 1 and last[0] == '"' and last[-1] == '"':
        name["family"] = last[1:-1]
        if first:
            name["given"] = first
        return name
    suffix = None
    m = _GIVEN_SUFFIX.match(first) if first else None
    if m:
        first, suffix = m.group(1), m.group(2)
    particle, family = _split_family(last) if last else (None, last)
    given, dropping = _split_given(first)
    if family:
        name["family"] = family
    if given:
        name["given"] = given
    if particle:
        name["non-dropping-particle"] = particle
    if dropping:
        name["dropping-particle"] = dropping
    if suffix:
        name["suffix"] = suffix
    return name


def ris_creator(value: str, creator_type: str) -> Creator:
    """A RIS name ('Last, First, Suffix' or one name) as a Zotero creator, as Zotero's RIS
    translator reads it: the part before the first comma is the last name."""
    last, _, first = value.strip().partition(",")
    first = re.sub(r"^\s*", "", first)
    if not first.strip():
        return Creator(creator_type, last=last.strip(), single_field=True)
    return Creator(creator_type, last=last.strip(), first=first.strip())
