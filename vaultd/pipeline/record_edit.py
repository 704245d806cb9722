"""The user's corrections to a record: written to ``raw/<key>.meta.json`` (source
``user``), then the note's metadata and citations, ``library.bib`` and the index follow.

A note is not compiled again for a correction: its quotes do not change, so only its
frontmatter, title and citations are rendered anew (the PDF is not parsed).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from vaultd import record_store
from vaultd.capture import records
from vaultd.capture.user import NAMES, apply_user, entered, without_user
from vaultd.config import Settings
from vaultd.errors import InputError, NoteFormatError
from vaultd.models import NOTE_FORMAT, MetaFile, Work
from vaultd.statedb import open_state_db
from vaultd.vault import Vault, atomic_write_text

log = logging.getLogger(__name__)

#: The origin of values set on the command line.
META_COMMAND = "vaultd meta"


@dataclass
class EditResult:
    meta: MetaFile
    changed: list[str]  # the fields set or returned to the sources, as the user names them
    note: Path | None = None  # the note rendered anew
    library_bib: bool = False  # library.bib rewritten
    warnings: list[str] = field(default_factory=list)


def read_record(vault: Vault, cite_key: str) -> MetaFile:
    meta = record_store.get(vault, cite_key)
    if meta is None:
        if vault.meta_path(cite_key).is_file():
            raise InputError(f"cannot read {vault.rel(vault.meta_path(cite_key))}; capture "
                             f"it again (`vaultd capture --refresh …`)")
        raise InputError(f"unknown cite key {cite_key!r}; list keys with `vaultd search`")
    return meta


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def corrected(meta: MetaFile, values: Mapping[str, Any], unset: Sequence[str], *,
              origin: str, at: str | None) -> MetaFile:
    """``meta`` with ``values`` (Work field → value) entered by the user and the fields
    ``unset`` returned to the sources (pure)."""
    work, fields = without_user(meta.work, meta.field_sources, meta.user, unset)
    user = {a: uv for a, uv in meta.user.items() if a not in unset}
    base = meta.model_copy(update={"work": work, "field_sources": fields, "user": user})
    user = entered(base, values, origin=origin, at=at)
    work, fields = apply_user(work, fields, user)
    return base.with_work(work).model_copy(update={"field_sources": fields, "user": user})


def edit_record(vault: Vault, cite_key: str, values: Mapping[str, Any],
                unset: Sequence[str] = (), *, origin: str = META_COMMAND) -> tuple[MetaFile, list[str]]:
    """Write the user's values into the record (under the capture lock, so no capture
    writes it meanwhile); returns the record and the names of the fields that changed.
    Nothing is written when nothing changes."""
    with records.capture_lock(vault):
        meta = read_record(vault, cite_key)
        new = corrected(meta, values, [a for a in unset if a in meta.user], origin=origin,
                        at=_now())
        changed = [NAMES[a] for a in NAMES if a in values or a in unset
                   if getattr(new.work, a) != getattr(meta.work, a)
                   or (a in new.user) != (a in meta.user)]
        if not changed:
            return meta, []
        record_store.write(vault, new)
        db = open_state_db(vault.state_db)
        try:
            records.record(db, new)  # a DOI or arXiv id the user gave finds the record
        finally:
            db.close()
    return new, changed


def rerender_note(vault: Vault, settings: Settings | None, meta: MetaFile,
                  citer: Any = None) -> Path | None:
    """The note of ``meta`` with its metadata, title and citations rendered from the
    record again (quotes, the user's text and enrichment untouched); None when there is
    no note, or it cannot be read (a recompile writes it then)."""
    # lazy: vaultd.notes.markdown costs 43 ms at import (pulls in yaml, subprocess, difflib)
    from vaultd.notes.markdown import render_note

    # lazy: vaultd.notes.reader costs 43 ms at import (pulls in yaml, subprocess, difflib)
    from vaultd.notes.reader import parse_note

    # lazy: vaultd.pipeline.citations costs 20 ms at import (pulls in subprocess, difflib)
    from vaultd.pipeline import citations as citations_mod

    path = vault.note_path(meta.cite_key)
    if not path.is_file():
        return None
    try:
        note = parse_note(path.read_text(encoding="utf-8"), source=vault.rel(path))
    except NoteFormatError as exc:
        log.warning("%s not rendered again: %s", vault.rel(path), exc)
        return None
    if note.meta.note_format < NOTE_FORMAT:
        # An older layout is moved to the current one only by a compile (or `vaultd notes
        # upgrade`, which checks the move), never as a side effect of a correction.
        # lazy: vaultd.pipeline.compile costs 187 ms at import (pulls in yaml, rispy, subprocess, difflib)
        from vaultd.pipeline.compile import compile_note

        return compile_note(vault, settings or Settings(), meta.cite_key, citer=citer).note_path
    own = citer is None
    citer = citer or citations_mod.renderer_for(vault, settings)
    try:
        citations = citer.for_note(meta.work, meta.cite_key)
    finally:
        if own:
            citer.close()
    fields = citations_mod.record_fields(meta)
    old_title = " ".join((note.meta.title or "").split())
    title = " ".join((meta.title or "").split())
    aliases = [a for a in note.meta.aliases if a != old_title]
    fields["aliases"] = list(dict.fromkeys([title, *aliases] if title else aliases))
    note = note.model_copy(update={"meta": note.meta.model_copy(update=fields),
                                   "citations": citations})
    atomic_write_text(path, render_note(note))
    return path


def follow_record(vault: Vault, settings: Settings | None, meta: MetaFile) -> EditResult:
    """After a record changed: its note, ``library.bib`` and the index follow it."""
    # lazy: vaultd.library_bib costs 19 ms at import (pulls in subprocess, difflib)
    from vaultd.library_bib import export_library_bib

    result = EditResult(meta, [])
    result.note = rerender_note(vault, settings, meta)
    result.library_bib = export_library_bib(vault)
    if result.note is not None and settings is not None and vault.index_db.exists():
        # lazy: vaultd.pipeline.index costs 19 ms at import (pulls in apsw)
        from vaultd.pipeline.index import index_after_compile

        result.warnings += index_after_compile(vault, settings, [result.note])
    return result


def set_fields(vault: Vault, settings: Settings | None, cite_key: str,
               values: Mapping[str, Any], unset: Sequence[str] = (), *,
               origin: str = META_COMMAND) -> EditResult:
    """Enter ``values`` (Work field → value, as ``capture.user.parse_sets`` reads them) and
    return the fields ``unset`` to the sources; then the note, library.bib and the index
    follow. Nothing is written when nothing changes."""
    meta, changed = edit_record(vault, cite_key, values, unset, origin=origin)
    if not changed:
        return EditResult(meta, [])
    result = follow_record(vault, settings, meta)
    result.changed = changed
    return result


def complete_record(vault: Vault, cite_key: str, given: Work, *, origin: str
                    ) -> tuple[MetaFile, list[str], list[str]]:
    """Complete a record with what a .bib entry gives (``record_view.completion``): the
    record, the fields completed and the fields kept because a source gave another value."""
    # lazy: vaultd.capture.record_view costs 42 ms at import (pulls in yaml, rapidfuzz)
    from vaultd.capture.record_view import completion

    meta = read_record(vault, cite_key)
    values, kept = completion(meta, given)
    if not values:
        return meta, [], kept
    meta, changed = edit_record(vault, cite_key, values, origin=origin)
    return meta, changed, kept
