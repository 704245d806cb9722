"""Citations for the vault: the configured styles, stored renderings in ``state.db``, and
re-rendering every note's citations after a style change.

The composition roots (CLI, daemon, MCP server) build one ``CitationRenderer`` per vault
with ``renderer_for``; the compile stage and the lookups use it.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from vaultd import record_store
from vaultd.config import Settings
from vaultd.formats import CitationRenderer
from vaultd.formats.cache import get_meta, set_meta
from vaultd.formats.citeproc import find_pandoc
from vaultd.formats.styles import DEFAULT_STYLES, resolve_all
from vaultd.models import MetaFile, NoteMeta
from vaultd.statedb import open_state_db
from vaultd.trust import notice_line, record_verified, short_warning
from vaultd.vault import Vault, atomic_write_text

log = logging.getLogger(__name__)


def renderer_for(vault: Vault, settings: Settings | None, *,
                 db: sqlite3.Connection | None = None, stored: bool = True) -> CitationRenderer:
    """The vault's renderer: its configured styles and locale, with stored renderings in
    its state database (``stored=False``: none, e.g. on a read-only vault)."""
    cfg = settings.citations if settings is not None else None
    styles = resolve_all(cfg.styles if cfg else list(DEFAULT_STYLES), vault.root)
    # A configured pandoc that is not there is named now, in one line.
    pandoc = find_pandoc(cfg.pandoc) if cfg and cfg.pandoc else None
    if db is None and stored:
        try:
            db = open_state_db(vault.state_db)
        except Exception as exc:  # a cache that cannot open is not fatal
            log.warning("stored citations unavailable (%s); rendering afresh", exc)
            db = None
    return CitationRenderer(styles, db=db, pandoc=pandoc, lang=cfg.lang if cfg else None)


def trust_fields(meta: MetaFile) -> dict[str, Any]:
    """The NoteMeta fields that say how far the record can be trusted."""
    # lazy: vaultd.capture.user costs 10 ms at import (pulls in plistlib)
    from vaultd.capture.user import entered_names

    entered = entered_names(meta)
    return {"reconciled": meta.reconciled, "sources": list(meta.sources),
            "retracted": meta.work.retracted,
            "notices": [notice_line(n) for n in meta.work.notices],
            "entered": entered or None,
            "verified": record_verified(meta) if entered else None}


def record_fields(meta: MetaFile) -> dict[str, Any]:
    """The NoteMeta fields a note takes from its record (what it says about the work)."""
    return {"title": meta.title, "authors": list(meta.authors), "year": meta.year,
            "doi": meta.doi, "arxiv_id": meta.arxiv_id, "doi_preprint": meta.work.doi_preprint,
            "doi_published": meta.work.doi_published,
            "warnings": [short_warning(w) for w in meta.warnings], **trust_fields(meta)}


@dataclass
class RefreshReport:
    works: int = 0
    notes_updated: int = 0
    skipped: list[str] = field(default_factory=list)


STYLES_KEY = "note_styles"  # citation_meta: the styles the notes were last rendered in


def styles_fingerprint(renderer: CitationRenderer) -> str:
    """What the notes' citations depend on besides the works: the styles (name and file
    hash), their order and the locale."""
    return json.dumps([[s.name, s.sha256] for s in renderer.styles] + [renderer.lang or ""])


def refresh_if_styles_changed(vault: Vault, renderer: CitationRenderer) -> RefreshReport | None:
    """Re-render every note's citations when the configured styles, a style file or the
    locale differ from those the notes were last rendered in (or that is not known, as in
    a vault whose notes an older vaultd wrote); None when nothing changed."""
    if renderer.db is None:
        return None  # nowhere to remember it: `vaultd styles refresh` does it on demand
    try:
        if get_meta(renderer.db, STYLES_KEY) == styles_fingerprint(renderer):
            return None
    except sqlite3.Error as exc:
        log.warning("cannot read the styles the notes were rendered in (%s)", exc)
        return None
    return refresh_notes(vault, renderer)


def refresh_notes(vault: Vault, renderer: CitationRenderer,
                  progress: Callable[[int, int], None] | None = None) -> RefreshReport:
    """Re-render the citations region of every note (after a style or locale change):
    all works in one batch, each note rewritten only where its citations changed."""
    # lazy: vaultd.notes.markdown costs 36 ms at import (pulls in yaml)
    from vaultd.notes.markdown import replace_citations

    report = RefreshReport()
    metas: dict[str, MetaFile] = {}
    for path in record_store.paths(vault):
        meta = record_store.read_path(path)
        if meta is None:
            report.skipped.append(vault.rel(path))
            continue
        metas[meta.cite_key] = meta
    report.works = len(metas)
    rendered = renderer.render({k: m.work for k, m in metas.items()})
    for done, (key, meta) in enumerate(sorted(metas.items()), start=1):
        note_path = vault.note_path(key)
        if note_path.is_file():
            per = rendered.get(key, {})
            citations = renderer.note_citations(meta.work, key, per)
            text = note_path.read_text(encoding="utf-8")
            shown = NoteMeta(cite_key=key, title=meta.title, raw=meta.pdf,
                             warnings=list(meta.warnings), **trust_fields(meta))
            new = replace_citations(text, citations, shown)
            if new is None:
                report.skipped.append(vault.rel(note_path))
            elif new != text:
                atomic_write_text(note_path, new)
                report.notes_updated += 1
        if progress is not None:
            progress(done, len(metas))
    if renderer.db is not None:
        try:
            set_meta(renderer.db, STYLES_KEY, styles_fingerprint(renderer))
        except sqlite3.Error as exc:
            log.warning("cannot record the styles the notes are rendered in (%s)", exc)
    return report
