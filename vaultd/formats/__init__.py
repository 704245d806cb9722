"""Citation formats of a Work: APA 7, MLA 9, Chicago 17 author-date, IEEE, BibTeX, and
CSL-JSON export.

Pure Python formatters, checked in tests against pandoc's citeproc with the official CSL
styles (docs/citations.md lists every accepted difference): a note renders all five for
every item, and a CSL processor call costs ~0.5 s where these take microseconds.
Markdown output: italics as ``*…*``, DOIs as https://doi.org/ URLs where the style wants.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from vaultd.errors import InputError
from vaultd.formats import apa, chicago, ieee, mla
from vaultd.formats._common import normalise, smart_quotes
from vaultd.formats.bibtex import to_bibtex as _to_bibtex
from vaultd.models import Author, Work

__all__ = ["STYLES", "render", "render_all", "to_bibtex", "to_csl_json"]

STYLES = ("apa", "mla", "chicago", "ieee", "bibtex")

_RENDERERS: dict[str, Callable[[Work], str]] = {
    "apa": apa.render,
    "mla": mla.render,
    "chicago": chicago.render,
    "ieee": ieee.render,
}


def render(work: Work, cite_key: str, style: str) -> str:
    """One citation of ``work`` in ``style`` (Markdown; for "bibtex" the BibTeX entry)."""
    if style == "bibtex":
        return to_bibtex(work, cite_key)
    fn = _RENDERERS.get(style)
    if fn is None:
        raise InputError(
            f"unknown citation style {style!r} for {cite_key}; use one of: {', '.join(STYLES)}"
        )
    return _typographic(fn(_markdown_safe(normalise(work))))


def render_all(work: Work, cite_key: str) -> dict[str, str]:
    """All five styles, in STYLES order."""
    norm = normalise(work)
    safe = _markdown_safe(norm)
    out = {name: _typographic(fn(safe)) for name, fn in _RENDERERS.items()}
    out["bibtex"] = _to_bibtex(norm, cite_key)
    return {name: out[name] for name in STYLES}


def to_bibtex(work: Work, cite_key: str) -> str:
    """The BibTeX entry of ``work`` keyed ``cite_key`` (ends with a newline)."""
    return _to_bibtex(normalise(work), cite_key)


def to_csl_json(work: Work, cite_key: str) -> dict[str, Any]:
    """The CSL-JSON item (what pandoc, Zotero and citeproc read), with arXiv preprints
    carrying publisher/number/DOI as CSL styles expect."""
    return normalise(work).to_csl(cite_key)


_MD_SPECIAL = re.compile(r"([\\*_`])")
_MD_FIELDS = ("title", "container_title", "publisher", "publisher_place", "genre", "number")
_URL_OR_APOSTROPHE = re.compile(r"https?://\S+|'")


def _md(text: str | None) -> str | None:
    return smart_quotes(_MD_SPECIAL.sub(r"\\\1", text)) if text else text


def _markdown_safe(work: Work) -> Work:
    """Backslash-escape Markdown emphasis characters in field values, so a title with an
    asterisk or underscores cannot turn into italics in the note."""
    updates: dict[str, object] = {}
    for field in _MD_FIELDS:
        value = getattr(work, field)
        if value and (_MD_SPECIAL.search(value) or '"' in value):
            updates[field] = _md(value)
    if any(
        _MD_SPECIAL.search(v) or '"' in v
        for a in work.authors
        for v in (a.family, a.given, a.literal)
        if v
    ):
        updates["authors"] = [
            Author(
                family=_md(a.family), given=_md(a.given), literal=_md(a.literal),
                suffix=a.suffix, orcid=a.orcid,
                **{"non-dropping-particle": a.non_dropping_particle,
                   "dropping-particle": a.dropping_particle},
            )
            for a in work.authors
        ]
    return work.model_copy(update=updates) if updates else work


def _typographic(text: str) -> str:
    # citeproc prints apostrophes as U+2019; URLs keep theirs.
    if "'" not in text:
        return text
    return _URL_OR_APOSTROPHE.sub(lambda m: "’" if m.group() == "'" else m.group(), text)
