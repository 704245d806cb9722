"""Where a captured work lands: its cite key, the record it joins, the files it writes.

``raw/<key>.pdf`` and ``raw/<key>.meta.json`` are written atomically and recorded in the
state database; the key is chosen (or checked) against every key already taken.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from vaultd import citekey, record_store
from vaultd.capture import records
from vaultd.capture.http import Fetcher
from vaultd.capture.metadata import Gathered
from vaultd.capture.reconcile import family_key, normalise_title, titles_match
from vaultd.capture.record_view import is_guess
from vaultd.capture.user import apply_user, rebased
from vaultd.config import Settings
from vaultd.errors import InputError
from vaultd.models import MetaFile, Work
from vaultd.vault import Vault, atomic_copy, atomic_write_bytes, file_sha256

Status = Literal["created", "existing", "refreshed", "metadata-only", "completed"]
DROP_PDF_HINT = ("no open PDF found; drop the PDF into the Inbox and it will attach to "
                 "this record by DOI")
# When a PDF link was tried and failed (404, host unreachable): the warning before says why.
UNFETCHED_PDF_HINT = ("the PDF could not be downloaded (its host refused it or did not "
                      "answer); drop the PDF into the Inbox and it will attach to this record "
                      "by its DOI or arXiv id")
_NO_PDF_HINTS = (DROP_PDF_HINT, UNFETCHED_PDF_HINT)


@dataclass
class CaptureResult:
    cite_key: str
    status: Status
    pdf: Path | None
    meta: MetaFile
    warnings: list[str] = field(default_factory=list)
    needs_retry: bool = False
    notes: list[str] = field(default_factory=list)


@dataclass
class CaptureRun:
    """What one `capture` call shares across its items: vault, settings, fetcher, state
    database, and the lock that serialises cite-key choice."""

    vault: Vault
    settings: Settings
    fetcher: Fetcher
    db: sqlite3.Connection
    refresh: bool
    key_lock: asyncio.Lock
    #: normalised title → cite keys, read once when a .bib entry is first looked up
    titles: dict[str, list[str]] | None = None


def unique(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))


def same_paper(run: CaptureRun, key: str, work: Work, *, guessed: bool = False) -> str | None:
    """The record of the paper ``work`` describes (same title) under ``key`` or a
    suffixed form of it (``keya``, ``key_27``), if any. With ``guessed``, also the record
    under ``key`` itself whose title is missing or only read off the PDF. A record whose
    DOI or arXiv id names another work is never the same paper."""
    low = citekey.fold_key(key)
    suffixed = sorted(k for k in records.taken_keys(run.vault, run.db)
                      if re.fullmatch(rf"{re.escape(low)}(?:[a-z]|_\d+)", citekey.fold_key(k)))
    for candidate in [key, *suffixed]:
        meta = record_store.get(run.vault, candidate)
        if meta is None or ids_differ(meta.work, work):
            continue
        if titles_match(meta.work.title, work.title) or not (meta.work.title or work.title):
            return candidate
        if guessed and candidate == key and is_guess(meta, "title"):
            return candidate
    return None


def ids_differ(a: Work, b: Work) -> bool:
    """``a`` and ``b`` carry DOIs (or arXiv ids) that name different works."""
    return bool(a.doi and b.doi and a.doi.lower() != b.doi.lower()) or \
        bool(a.arxiv_id and b.arxiv_id and a.arxiv_id != b.arxiv_id)


def same_work(run: CaptureRun, work: Work) -> str | None:
    """The record of another key holding the same title, first author and year."""
    if not work.title or work.year is None:
        return None
    if run.titles is None:
        run.titles = {}
        for path in record_store.paths(run.vault):
            if (meta := record_store.read_path(path)) is not None:
                _index_title(run, meta)
    for key in run.titles.get(normalise_title(work.title), []):
        meta = record_store.get(run.vault, key)
        if meta is None or meta.work.year != work.year or ids_differ(meta.work, work):
            continue
        first = [family_key(w.authors[0]) if w.authors else "" for w in (meta.work, work)]
        if first[0] == first[1]:
            return key
    return None


def _index_title(run: CaptureRun, meta: MetaFile) -> None:
    if run.titles is not None and meta.work.title:
        keys = run.titles.setdefault(normalise_title(meta.work.title), [])
        if meta.cite_key not in keys:
            keys.append(meta.cite_key)


def new_key(run: CaptureRun, work: Work, cite_key: str | None, *,
             suffix_if_taken: bool = False) -> str:
    taken = records.taken_keys(run.vault, run.db)
    if cite_key and suffix_if_taken:
        return citekey.unique_key(cite_key, taken)
    if cite_key:
        # Keys are file names; macOS/Windows file systems ignore case (as unique_key does).
        if citekey.fold_key(cite_key) in {citekey.fold_key(k) for k in taken}:
            raise InputError(f"cite key {cite_key!r} already belongs to another record; "
                             "choose another --cite-key")
        return cite_key
    base = citekey.make_key(work, run.settings.citekey.pattern)
    return citekey.unique_key(base, taken, max_chars=citekey.MAX_KEY_CHARS)


def existing_record(run: CaptureRun, key: str, pdf_file: Path | None,
              pdf_sha: str | None) -> CaptureResult | None:
    """The existing record; a new PDF attaches to a metadata-only record (None = go on)."""
    meta = record_store.get(run.vault, key)
    if meta is None:
        return None  # index is stale; recapture under the same key
    if pdf_file is not None and meta.pdf is None:
        atomic_copy(pdf_file, run.vault.pdf_path(key))
        meta.pdf = run.vault.rel(run.vault.pdf_path(key))
        meta.pdf_sha256 = pdf_sha
        meta.warnings = [w for w in meta.warnings if w not in _NO_PDF_HINTS]
        meta.work.warnings = [w for w in meta.work.warnings if w not in _NO_PDF_HINTS]
        record_store.write(run.vault, meta)
        records.record(run.db, meta)
        return CaptureResult(key, "refreshed", run.vault.pdf_path(key), meta,
                             list(meta.warnings), meta.needs_retry,
                             ["PDF attached to the existing metadata-only record"])
    pdf = run.vault.pdf_path(key) if meta.pdf else None
    return CaptureResult(key, "existing", pdf, meta, list(meta.warnings), meta.needs_retry)


def write_record(run: CaptureRun, key: str, work: Work, pdf_file: Path | None, pdf_sha: str | None,
           fetched: tuple[bytes | None, list[str]], got: Gathered | None, notes: list[str], *,
           refreshed: bool, needs_retry: bool,
           field_sources: dict[str, list[str]] | None = None,
           agreed: list[str] | None = None) -> CaptureResult:
    """Write the record of ``work`` under ``key``; a refreshed record keeps the fields the
    user entered (laid over the sources' fresh answer)."""
    vault = run.vault
    fields = dict(field_sources or {})
    old = record_store.get(vault, key) if refreshed else None
    user = rebased(old.user, work, fields) if old is not None else {}
    if user:
        work, fields = apply_user(work, fields, user)
    pdf_path = vault.pdf_path(key)
    warnings = list(work.warnings)
    # Why each PDF location failed is reported now, not kept in the record.
    transient: list[str] = []
    if pdf_file is not None:
        atomic_copy(pdf_file, pdf_path)
    elif refreshed and pdf_path.is_file():
        pdf_sha = file_sha256(pdf_path)
    elif fetched[0] is not None:
        atomic_write_bytes(pdf_path, fetched[0])
        pdf_sha = hashlib.sha256(fetched[0]).hexdigest()
    else:
        transient = fetched[1]
    has_pdf = pdf_path.is_file()
    if not has_pdf:
        warnings.append(UNFETCHED_PDF_HINT if transient else DROP_PDF_HINT)
    work.warnings = unique(warnings)
    now = datetime.now(UTC).replace(microsecond=0).isoformat()
    meta = MetaFile.from_work(key, work, pdf=vault.rel(pdf_path) if has_pdf else None,
                              pdf_sha256=pdf_sha if has_pdf else None, captured_at=now,
                              needs_retry=needs_retry, notes=list(notes),
                              field_sources=fields, agreed=list(agreed or []), user=user)
    record_store.write(vault, meta)
    records.record(run.db, meta)
    _index_title(run, meta)
    status: Status = "refreshed" if refreshed else ("created" if has_pdf else "metadata-only")
    notices = list(got.notices) if got else []
    return CaptureResult(key, status, pdf_path if has_pdf else None, meta,
                         [*transient, *work.warnings], needs_retry, [*notes, *notices])
