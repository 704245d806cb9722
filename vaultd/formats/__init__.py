"""Citations of a Work in every CSL style, BibTeX and CSL-JSON.

Styles are the official CSL files (``styles``), rendered by pandoc's citeproc
(``citeproc``) from the citable CSL item of a Work (``csl``); no style rule is written
here. ``CitationRenderer`` is the one entry point: it answers from stored renderings
(``cache``) and sends only what is missing to the processor, batched in one call.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from vaultd.errors import InputError
from vaultd.formats.cache import cache_key, get_many, put_many
from vaultd.formats.citeproc import Rendering, find_pandoc
from vaultd.formats.csl import citable_item, item_digest
from vaultd.formats.styles import DEFAULT_STYLES, Style, resolve_all
from vaultd.models import Work

__all__ = [
    "BIBTEX",
    "CSL_JSON",
    "STYLES",
    "CitationRenderer",
    "Rendering",
    "Style",
    "normalise_format",
    "to_bibtex",
    "to_csl_json",
]

STYLES = DEFAULT_STYLES  # the styles every note carries unless the config says otherwise
BIBTEX = "bibtex"
CSL_JSON = "csl-json"


def normalise_format(name: str) -> str:
    """A format name as given by a user or agent (``APA``, ``BibTeX``, ``CSL-JSON``)."""
    return name.strip().lower().replace("_", "-")


def to_bibtex(work: Work, cite_key: str) -> str:
    """The BibTeX entry of ``work`` keyed ``cite_key`` (ends with a newline)."""
    from vaultd.formats.bibtex import to_bibtex as _to_bibtex

    return _to_bibtex(work, cite_key)


def to_csl_json(work: Work, cite_key: str) -> dict[str, Any]:
    """The CSL-JSON item (what pandoc, Zotero and every CSL processor read)."""
    return citable_item(work, cite_key)


class CitationRenderer:
    """Renders works in a set of styles, reading and filling the stored renderings.

    ``db`` is the state database (None: no stored renderings, every call renders)."""

    def __init__(self, styles: Sequence[Style] | None = None, *,
                 db: sqlite3.Connection | None = None, pandoc: Path | None = None,
                 lang: str | None = None) -> None:
        self.styles = tuple(styles) if styles is not None else resolve_all(DEFAULT_STYLES)
        self.db = db
        self._pandoc = pandoc
        self.lang = lang

    def close(self) -> None:
        """Close the stored renderings' database connection, if any."""
        if self.db is not None:
            self.db.close()
            self.db = None

    @property
    def style_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.styles)

    def style(self, name: str) -> Style:
        """The configured style called ``name`` (any case), else an installed one by name."""
        from vaultd.formats.styles import pick

        return pick(self.styles, name)

    def _engine(self) -> str:
        # The processor's identity without starting it: the binary's path, size and mtime
        # and the filter's hash (a new pandoc or filter renders afresh).
        from vaultd.formats.citeproc import filter_sha

        exe = self._pandoc or find_pandoc()
        self._pandoc = exe
        st = exe.stat()
        return f"{exe}:{st.st_size}:{st.st_mtime_ns}:{filter_sha()}"

    def render(self, works: Mapping[str, Work],
               styles: Sequence[Style] | None = None) -> dict[str, dict[str, Rendering]]:
        """``{cite key: {style name: Rendering}}``; works without a title are left out
        (an untitled citation would be a wrong one)."""
        from vaultd.formats import citeproc

        chosen = tuple(styles) if styles is not None else self.styles
        items = {key: citable_item(w, key) for key, w in works.items() if w.title}
        engine = self._engine()
        keys = {(key, s.name): cache_key(item_digest(item), s.sha256, engine, self.lang)
                for key, item in items.items() for s in chosen}
        stored = get_many(self.db, keys.values()) if self.db is not None else {}
        out: dict[str, dict[str, Rendering]] = {key: {} for key in items}
        missing_keys: set[str] = set()
        missing_styles: dict[str, Style] = {}
        for (key, name), ck in keys.items():
            hit = stored.get(ck)
            if hit is not None:
                out[key][name] = hit
            else:
                missing_keys.add(key)
                missing_styles[name] = next(s for s in chosen if s.name == name)
        if missing_keys:
            fresh = citeproc.render([items[k] for k in sorted(missing_keys)],
                                    list(missing_styles.values()), pandoc=self._pandoc,
                                    lang=self.lang)
            new_rows: dict[str, Rendering] = {}
            for name, per in fresh.items():
                for key, rendering in per.items():
                    out[key][name] = rendering
                    new_rows[keys[(key, name)]] = rendering
            if self.db is not None:
                put_many(self.db, new_rows)
        order = [s.name for s in chosen]
        return {key: {n: per[n] for n in order if n in per} for key, per in out.items()}

    def one(self, work: Work, cite_key: str, style: str) -> Rendering:
        """One work in one style (configured or installed)."""
        if not work.title:
            raise InputError(f"{cite_key} has no title, so no citation is made for it")
        chosen = self.style(style)
        return self.render({cite_key: work}, [chosen])[cite_key][chosen.name]

    def for_note(self, work: Work, cite_key: str) -> dict[str, str]:
        """The note's citations: every configured style as Markdown, then BibTeX."""
        if not work.title:
            return {}
        return self.note_citations(work, cite_key, self.render({cite_key: work})[cite_key])

    def note_citations(self, work: Work, cite_key: str,
                       per: Mapping[str, Rendering]) -> dict[str, str]:
        """Renderings as a note shows them, keyed by heading: the built-in styles by their
        short name (``apa``), others by their CSL title; BibTeX last."""
        from vaultd.formats.styles import LABELS

        if not work.title:
            return {}
        labels = {s.name: (s.name if s.name in LABELS else s.label) for s in self.styles}
        # Some styles give certain kinds of work no reference-list entry (Chicago cites an
        # encyclopedia entry in the text only): the note says so and shows the in-text form.
        out = {labels.get(name, name): r.markdown or
               f"*No reference-list entry in this style; cite it in the text: {r.intext}*"
               for name, r in per.items()}
        out[BIBTEX] = to_bibtex(work, cite_key)
        return out
