"""Citations of a Work in every CSL style, BibTeX and CSL-JSON.

Styles are the official CSL files (``styles``), rendered by pandoc's citeproc
(``citeproc``) from the citable CSL item of a Work (``csl``); no style rule is written
here. ``CitationRenderer`` is the one entry point: it answers from stored renderings
(``cache``) and sends only what is missing to the processor, batched in one call.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from vaultd.errors import InputError
from vaultd.formats import citeproc
from vaultd.formats.bibtex import to_bibtex as _to_bibtex
from vaultd.formats.cache import cache_key, get_many, put_many
from vaultd.formats.citeproc import (
    RENDERING_VERSION,
    Rendering,
    filter_sha,
    find_pandoc,
    is_single_page,
)
from vaultd.formats.csl import citable_item, item_digest
from vaultd.formats.styles import DEFAULT_STYLES, LABELS, Style, pick, resolve_all
from vaultd.models import Work
from vaultd.video.info import timestamp

__all__ = [
    "BIBTEX",
    "CSL_JSON",
    "STYLES",
    "CitationRenderer",
    "Rendering",
    "Style",
    "has_title",
    "normalise_format",
    "to_bibtex",
    "to_csl_json",
]

log = logging.getLogger(__name__)

STYLES = DEFAULT_STYLES  # the styles every note carries unless the config says otherwise
BIBTEX = "bibtex"
CSL_JSON = "csl-json"


def normalise_format(name: str) -> str:
    """A format name as given by a user or agent (``APA``, ``BibTeX``, ``CSL-JSON``)."""
    return name.strip().lower().replace("_", "-")


def has_title(work: Work) -> bool:
    """A work is cited only with a title: an untitled citation would be a wrong one."""
    return bool(work.title and work.title.strip())


def to_bibtex(work: Work, cite_key: str) -> str:
    """The BibTeX entry of ``work`` keyed ``cite_key`` (ends with a newline)."""

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
        # One renderer serves the MCP server's worker threads: its connection is not
        # safe to share without it.
        self._lock = threading.RLock()

    def close(self) -> None:
        """Close the stored renderings' database connection, if any."""
        with self._lock:
            if self.db is not None:
                self.db.close()
                self.db = None

    @property
    def style_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.styles)

    def style(self, name: str) -> Style:
        """The configured style called ``name`` (any case), else an installed one by name."""

        return pick(self.styles, name)

    def _engine(self) -> str:
        # The processor's identity without starting it: the binary's path, size and mtime,
        # the filter's hash and how this module renders (any change renders afresh).

        exe = find_pandoc(str(self._pandoc) if self._pandoc else None)
        self._pandoc = exe
        st = exe.stat()
        return f"{exe}:{st.st_size}:{st.st_mtime_ns}:{filter_sha()}:{RENDERING_VERSION}"

    def _stored(self, keys: list[str]) -> dict[str, Rendering]:
        if self.db is None:
            return {}
        try:
            return get_many(self.db, keys)
        except sqlite3.Error as exc:
            log.warning("stored citations unreadable (%s); rendering afresh", exc)
            return {}

    def _store(self, rows: dict[str, Rendering]) -> None:
        if self.db is None or not rows:
            return
        try:
            put_many(self.db, rows)
        except sqlite3.Error as exc:  # a read-only or full state.db: render, do not store
            log.warning("cannot store citations (%s); they are rendered on each use", exc)

    def render(self, works: Mapping[str, Work], styles: Sequence[Style] | None = None, *,
               locator: str | None = None) -> dict[str, dict[str, Rendering]]:
        """``{cite key: {style name: Rendering}}``; works without a title are left out
        (an untitled citation would be a wrong one). ``locator``: render the located
        in-text citation for this page (a range) instead of the sentinel."""

        chosen = tuple(styles) if styles is not None else self.styles
        items = {key: citable_item(w, key) for key, w in works.items() if has_title(w)}
        with self._lock:
            engine = self._engine()
            variant = (self.lang or "") + (f"\x1fpage={locator}" if locator else "")
            keys = {(key, s.name): cache_key(item_digest(item), s.sha256, engine, variant)
                    for key, item in items.items() for s in chosen}
            stored = self._stored(list(keys.values()))
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
                                        lang=self.lang,
                                        locator=locator or citeproc.LOCATOR_SENTINEL)
                new_rows: dict[str, Rendering] = {}
                for name, per in fresh.items():
                    for key, rendering in per.items():
                        out[key][name] = rendering
                        new_rows[keys[(key, name)]] = rendering
                self._store(new_rows)
        order = [s.name for s in chosen]
        return {key: {n: per[n] for n in order if n in per} for key, per in out.items()}

    def one(self, work: Work, cite_key: str, style: str) -> Rendering:
        """One work in one style (configured or installed)."""
        if not has_title(work):
            raise InputError(f"{cite_key} has no title, so no citation is made for it")
        chosen = self.style(style)
        return self.render({cite_key: work}, [chosen])[cite_key][chosen.name]

    def cite(self, work: Work, cite_key: str, style: str, page: str | None = None) -> str:
        """The in-text citation of ``work`` in ``style``, pointing at ``page`` if given:
        a single page label from the stored rendering, a range ("4-5") or list rendered
        by the style itself ("pp. 4–5")."""

        if not page or is_single_page(page):
            return self.one(work, cite_key, style).cite(page)
        if not has_title(work):
            raise InputError(f"{cite_key} has no title, so no citation is made for it")
        chosen = self.style(style)
        located = self.render({cite_key: work}, [chosen], locator=page.strip())
        return located[cite_key][chosen.name].intext_locator

    def cite_time(self, work: Work, cite_key: str, style: str, seconds: float) -> str:
        """The in-text citation of a video pointing at a time in it, as the style writes a
        time locator: ``(3Blue1Brown, 2017, 3:15)``. The locator goes to the processor in
        braces, pandoc's form for a locator with no label (else it would be a page)."""

        if not has_title(work):
            raise InputError(f"{cite_key} has no title, so no citation is made for it")
        chosen = self.style(style)
        located = self.render({cite_key: work}, [chosen], locator="{" + timestamp(seconds) + "}")
        return located[cite_key][chosen.name].intext_locator

    def for_note(self, work: Work, cite_key: str) -> dict[str, str]:
        """The note's citations: every configured style as Markdown, then BibTeX."""
        if not has_title(work):
            return {}
        return self.note_citations(work, cite_key, self.render({cite_key: work})[cite_key])

    def headings(self) -> dict[str, str]:
        """Style name → the key/heading of its citation in a note: built-in styles by short
        name (``apa``), others by CSL title, made unique with the name when titles clash."""

        reserved = {BIBTEX, *LABELS, *(label.lower() for label in LABELS.values())}
        out: dict[str, str] = {}
        for s in self.styles:
            heading = s.name if s.name in LABELS else s.label
            if s.name not in LABELS and (heading.lower() in reserved or heading in out.values()):
                heading = f"{s.label} ({s.name})"
            out[s.name] = heading
        return out

    def note_citations(self, work: Work, cite_key: str,
                       per: Mapping[str, Rendering]) -> dict[str, str]:
        """Renderings as a note shows them, keyed by heading (``headings``); BibTeX last."""
        if not has_title(work):
            return {}
        headings = self.headings()
        out = {headings.get(name, name): r.entry_markdown() for name, r in per.items()}
        out[BIBTEX] = to_bibtex(work, cite_key)
        return out
