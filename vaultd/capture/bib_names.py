"""Field values and names of a BibTeX/biblatex entry as vaultd reads them (pure).

A field is read as plain text (``text_of``); biblatex's literal lists (location,
publisher, …) split on ``and`` outside braces (``list_of``); a name list as CSL names with
BibTeX's First/von/Last/Jr parts (``person``), a braced name being an organisation kept
whole and ``others`` BibTeX's et al.
"""

from __future__ import annotations

import re
from typing import Any

from vaultd.capture.latex_text import decode
from vaultd.capture.names import SUFFIXES, make_author
from vaultd.models import Author


def text_of(value: Any) -> str | None:
    """A field as plain text (None when empty)."""
    if value is None:
        return None
    plain = decode(str(value))[0]
    return plain or None


def list_of(value: Any, *, biblatex: bool) -> str | None:
    """A literal list field (location, publisher, institution, organization). In biblatex
    it is a list whose items ``and`` separates outside braces; they are joined with "; "
    as pandoc reads them ("Durham and London" → "Durham; London"; "{Smith and Sons}"
    stays one). In classic BibTeX the field is plain text: "Springer Science and Business
    Media LLC" is one publisher."""
    if value is None:
        return None
    if not biblatex:
        return text_of(value)
    items = [text_of(item) for item in _split_and(str(value))]
    return "; ".join(i for i in items if i) or None


def _split_and(raw: str) -> list[str]:
    parts: list[str] = []
    depth = start = 0
    for m in re.finditer(r"[{}]|\s+and\s+", raw, flags=re.IGNORECASE):
        token = m.group()
        if token == "{":
            depth += 1
        elif token == "}":
            depth = max(0, depth - 1)
        elif depth == 0 and token.strip() == "and":
            parts.append(raw[start:m.start()])
            start = m.end()
    return [*parts, raw[start:]]


# --- names ------------------------------------------------------------------------------


def _whole_group(s: str) -> bool:
    """True when ``s`` is one brace group ``{…}`` (an organisation, kept whole); a group
    opening with a command is a special character (``{\\"O}``), not a name."""
    if not (s.startswith("{") and s.endswith("}")) or s[1:2] == "\\":
        return False
    depth = 0
    for i, c in enumerate(s):
        if c == "\\":
            continue
        depth += {"{": 1, "}": -1}.get(c, 0) if i == 0 or s[i - 1] != "\\" else 0
        if depth == 0:
            return i == len(s) - 1
    return False


def person(raw: str, *, drop_particles: bool = False) -> Author | None:
    """One BibTeX name as a CSL name (None for ``others``, BibTeX's et al.).

    ``von`` becomes the dropping particle (biblatex's default, useprefix=false), or the
    non-dropping one when the entry says ``options = {useprefix=true}``."""
    # lazy: bibtexparser costs 113 ms at import
    from bibtexparser.middlewares.names import parse_single_name_into_parts

    s = " ".join(raw.split())
    if not s or s.lower() == "others":
        return None
    if _whole_group(s):
        return make_author(literal=text_of(s[1:-1]) or s[1:-1])
    suffix = None
    words = s.split(" ")
    if "," not in s and len(words) > 2 and words[-1].lower() in SUFFIXES:
        suffix, s = words[-1], " ".join(words[:-1])  # 'Martin Luther King Jr.'
    parts = parse_single_name_into_parts(s, strict=False)

    def part(words: list[str]) -> str | None:
        return text_of(" ".join(words)) if words else None

    von, last = part(parts.von), parts.last
    if parts.von and not parts.von[0][:1].islower():
        # "Schroeder de Witt, Christian": a name opening with a capital has no von part;
        # the words up to the comma are the family name (as biber and pandoc read it)
        von, last = None, [*parts.von, *parts.last]
    particle = "dropping_particle" if drop_particles else "non_dropping_particle"
    return make_author(family=part(last), given=part(parts.first),
                       suffix=part(parts.jr) or suffix, **{particle: von})


def people(value: Any, *, drop_particles: bool = False) -> list[Author]:
    names = value if isinstance(value, list) else [str(value)]
    found = (person(n, drop_particles=drop_particles) for n in names)
    return [a for a in found if a is not None and (a.family or a.given or a.literal)]


