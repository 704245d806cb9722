"""`vaultd import`: a user's library (Zotero, Better BibTeX JSON, CSL-JSON, RIS) into the
vault, through the one pipeline: each work's record written (its fields the user's, from
the library; ``import_records``), its PDF copied to ``raw/<key>.pdf``, then ``finish``
compiles every note (PDFs in the bulk pool, citation-only notes for the rest) and indexes
them, after the library's notes are placed under "My notes" (``notes.imported``).

Idempotent: a re-import finds each item's record again (``import_plan``), updates what the
library changed, adds what is new, and never writes a note twice or over the user's text.
Nothing under the library's folder is written; ``dry_run`` writes nothing anywhere.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from vaultd import record_store
from vaultd.capture import records
from vaultd.config import Settings
from vaultd.errors import NoteFormatError, VaultdError
from vaultd.importers import Attachment, ImportedItem, ImportResult
from vaultd.library_bib import export_library_bib
from vaultd.models import Highlight, MetaFile
from vaultd.notes.imported import LibraryNote, with_library_notes
from vaultd.notes.markdown import render_note
from vaultd.notes.reader import parse_note
from vaultd.pipeline.bulk import BulkCompiler
from vaultd.pipeline.capture_store import CaptureResult, Status
from vaultd.pipeline.highlights import highlights_of
from vaultd.pipeline.import_plan import ItemPlan, Sourced, VaultEntry, plan
from vaultd.pipeline.import_records import RecordChange, new_record, update_record, with_library
from vaultd.pipeline.ingest import IngestResult, finish, process
from vaultd.pipeline.record_edit import rerender_note
from vaultd.statedb import open_state_db
from vaultd.vault import Vault, atomic_copy, atomic_write_text, file_sha256, synced_at_end

log = logging.getLogger(__name__)

Progress = Callable[[int, int], None]
#: Why an item's note has no quotes (the report's "skipped" reasons).
NO_ATTACHMENT, UNREADABLE_PDF, UNSUPPORTED = "no attachment", "unreadable PDF", "unsupported type"
UNREADABLE_ENTRY = "unreadable entry"
PDF_MAGIC_BYTES = 1024  # where a PDF's %PDF- header may stand


@dataclass
class ItemOutcome:
    """What the import did (or, dry, would do) with one work."""

    key: str
    action: str  # imported, updated, unchanged, failed
    title: str | None
    items: list[str]  # the library items, as messages name them
    fields: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    other: list[str] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    pdf: str | None = None  # the PDF brought in (its path in the library)
    compiled: bool = False
    skipped: str | None = None  # why the note has no quotes
    notes_added: int = 0
    highlights: int = 0
    messages: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return asdict(self)


@dataclass
class ImportReport:
    source: str
    dry_run: bool
    outcomes: list[ItemOutcome] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # entries the reader could not read
    left_out: dict[str, int] = field(default_factory=dict)  # trash, feeds, standalone notes
    unreadable: int = 0  # entries skipped by the reader
    orphans: int = 0  # PDFs without a parent item, captured (with a dry run: to capture)
    seconds: dict[str, float] = field(default_factory=dict)  # planning, records, notes

    def count(self, action: str) -> int:
        return sum(1 for o in self.outcomes if o.action == action)

    @property
    def skipped(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for o in self.outcomes:  # of the works brought in or changed now
            if o.skipped and o.action in ("imported", "updated"):
                out[o.skipped] = out.get(o.skipped, 0) + 1
        if self.unreadable:
            out[UNREADABLE_ENTRY] = self.unreadable
        return out

    def to_json(self) -> dict[str, object]:
        return {"source": self.source, "dry_run": self.dry_run,
                "imported": self.count("imported"), "updated": self.count("updated"),
                "unchanged": self.count("unchanged"), "failed": self.count("failed"),
                "compiled": sum(o.compiled for o in self.outcomes), "skipped": self.skipped,
                "orphans": self.orphans,
                "left_out": self.left_out, "problems": self.problems, "seconds": self.seconds,
                "items": [o.to_json() for o in self.outcomes]}


def origin_of(result: ImportResult, item: ImportedItem) -> tuple[str, str]:
    """(the name the item's values are entered under, the reader's name)."""
    if item.key_source in ("better-bibtex-json", "csl-json", "ris"):
        return Path(result.source).name, str(item.key_source)
    if item.origin.library is None:
        return Path(result.source).name, "library"
    return f"Zotero ({item.origin.library})", "zotero"


def _pdf_sha(path: Path) -> str | None:
    """The PDF's SHA-256, or None when it is not a readable PDF."""
    try:
        with path.open("rb") as fh:
            if b"%PDF-" not in fh.read(PDF_MAGIC_BYTES):
                return None
        return file_sha256(path)
    except OSError:
        return None


def _why_no_pdf(p: ItemPlan) -> str:
    files = [a for s in p.members for a in s.item.attachments if a.kind != "url"]
    if any(a.is_pdf for a in files):
        return UNREADABLE_PDF
    return UNSUPPORTED if files else NO_ATTACHMENT


def _note_id(key: str | None, markdown: str) -> tuple[str, str]:
    sha = hashlib.sha256(markdown.encode("utf-8")).hexdigest()
    return key or sha[:16], sha


@dataclass
class _Work:
    """One plan carried through the import: the record as it will be, what to tell."""

    plan: ItemPlan
    change: RecordChange
    outcome: ItemOutcome
    status: Status
    library_notes: list[LibraryNote]
    copy_pdf: Path | None = None


def import_library(vault: Vault, settings: Settings, result: ImportResult, *,
                   dry_run: bool = False, pool: BulkCompiler | None = None,
                   index: bool = True, progress: Progress | None = None) -> ImportReport:
    """Bring ``result`` (a reader's items) into ``vault``; ``pool`` compiles the PDFs
    (without one, they are compiled here, one after another)."""
    report = ImportReport(result.source, dry_run, left_out=dict(result.skipped),
                          problems=[str(p) for p in result.problems],
                          unreadable=sum(p.skipped for p in result.problems))
    orphans = [a for a in result.orphans
               if a.is_pdf and a.path is not None and not a.missing]  # captured alone
    if len(result.orphans) > len(orphans):
        report.left_out["attachment without an item"] = len(result.orphans) - len(orphans)
    report.orphans = len(orphans)
    started = time.monotonic()
    sourced = [Sourced(item, *origin_of(result, item)) for item in result.items]
    shas = {a.path: _pdf_sha(a.path) for s in sourced for a in s.item.pdfs if a.path}
    metas = {m.cite_key: m for m in record_store.iter_records(vault)}
    plans = plan(sourced, shas, [VaultEntry.of(m) for m in metas.values()],
                 records.taken_keys(vault, None), settings.citekey.pattern)
    now = datetime.now(UTC).replace(microsecond=0).isoformat()
    works = [_decide(vault, p, metas.get(p.key), now, shas) for p in plans]
    report.outcomes = [w.outcome for w in works]
    report.seconds["plan"] = round(time.monotonic() - started, 2)
    if dry_run:
        return report
    with synced_at_end():
        started = time.monotonic()
        captured = _write(vault, works, progress)
        captured += _capture_orphans(vault, settings, orphans, captured, report)
        report.seconds["records"] = round(time.monotonic() - started, 2)
        started = time.monotonic()
        out = IngestResult(captured=captured)
        finish(vault, settings, out, refresh=False, index=index, keep_going=True, pool=pool,
               progress=progress, after_compile=lambda o: _touch_up(vault, settings, works, o),
               figures=pool is None)  # a pool draws the crops once every note is written
        export_library_bib(vault)
    report.seconds["notes"] = round(time.monotonic() - started, 2)
    if pool is not None:
        started = time.monotonic()
        pool.draw_figures([k for k, c in out.compiled.items() if c.result and c.result.parser])
        report.seconds["figures"] = round(time.monotonic() - started, 2)
    for w in works:
        done = out.compiled.get(w.outcome.key)
        if done is not None and done.result is not None:
            w.outcome.compiled = done.result.parser is not None
        elif done is not None and done.error:
            w.outcome.messages.append(done.error)
            w.outcome.skipped = UNREADABLE_PDF if w.change.meta.pdf else w.outcome.skipped
    for o in report.outcomes[len(works):]:  # the PDFs without an item
        if (done := out.compiled.get(o.key)) is not None and done.result is not None:
            o.compiled = done.result.parser is not None
        elif done is not None and done.error:
            o.messages.append(done.error)
            o.skipped = UNREADABLE_PDF
    return report


def _decide(vault: Vault, p: ItemPlan, old: MetaFile | None, at: str,
            shas: Mapping[Path, str | None]) -> _Work:
    """What the import does to one work (nothing written yet)."""
    if old is None:
        change = RecordChange(new_record(p.key, p.first, at))
        action: str = "imported"
    else:
        change = RecordChange(old)
        for s in p.members:
            step = update_record(change.meta, s, at)
            change = RecordChange(step.meta, [*change.fields, *step.fields],
                                  [*change.kept, *step.kept])
        action = "updated"
    meta = change.meta
    copy_pdf: Path | None = None
    if not meta.pdf and p.pdf is not None and p.pdf.path is not None:
        copy_pdf = p.pdf.path
        meta = meta.model_copy(update={"pdf": vault.rel(vault.pdf_path(p.key)),
                                       "pdf_sha256": p.pdf_sha})
    marks: list[Highlight] = []
    read: set[str] = set()  # the libraries whose annotations of the vault's PDF are read
    sha = meta.pdf_sha256
    for s in p.members:  # positions hold on the very PDF they were made on
        for a in s.item.attachments:
            if a.path is not None and sha is not None and shas.get(a.path) == sha:
                read.add(s.origin)
                marks += [h.model_copy(update={"origin": s.origin})
                          for h in highlights_of(a.annotations, "zotero")]
    if old is not None and old.pdf and p.pdf_sha and p.pdf_sha != old.pdf_sha256:
        p.notes.append("kept the vault's PDF: the library's differs from it")
    notes, known = _library_notes(p, meta)
    change = with_library(RecordChange(meta, change.fields, change.kept), p, marks, known,
                          read)
    if copy_pdf is not None:
        change.other.append("pdf")
    if old is not None and not change.changed and not notes \
            and vault.note_path(p.key).is_file():
        action = "unchanged"
    outcome = ItemOutcome(
        p.key, action, change.meta.title, [s.item.label for s in p.members],
        fields=change.fields, kept=change.kept,
        other=change.other, aliases=list(change.meta.aliases),
        pdf=str(p.pdf.path) if p.pdf is not None and p.pdf.path else None,
        skipped=None if change.meta.pdf else _why_no_pdf(p), notes_added=len(notes),
        highlights=len(change.meta.highlights), messages=list(p.notes))
    if change.kept:
        outcome.messages.append(f"kept your {', '.join(change.kept)} (entered with `vaultd "
                                f"meta` or a .bib; the library gives another value)")
    status: Status = "created" if old is None else "existing"
    needs_compile = copy_pdf is not None or ("highlights" in change.other and bool(meta.pdf))
    if old is not None and (needs_compile or not vault.note_path(p.key).is_file()):
        status = "refreshed"
    return _Work(p, change, outcome, status, notes, copy_pdf)


def _library_notes(p: ItemPlan, meta: MetaFile
                   ) -> tuple[list[LibraryNote], dict[tuple[str, str | None], dict[str, str]]]:
    """The items' notes not brought in yet (or changed since), and every note's id → hash
    by item, as the record will remember them."""
    before = {(o.origin, o.item_key or o.key): o.notes for o in meta.imported}
    new: list[LibraryNote] = []
    known: dict[tuple[str, str | None], dict[str, str]] = {}
    for s in p.members:
        ident = (s.origin, s.item.origin.item_key or s.item.key)
        seen = dict(before.get(ident, {}))
        for n in s.item.notes:
            if not n.markdown.strip():
                continue
            nid, sha = _note_id(n.key, n.markdown)
            if seen.get(nid) != sha:
                new.append(LibraryNote(s.origin, n.markdown, updated=nid in seen))
                seen[nid] = sha
        known[ident] = seen
    return new, known


def _write(vault: Vault, works: Sequence[_Work], progress: Progress | None
           ) -> list[CaptureResult]:
    """Each changed record written (and its PDF copied), under the capture lock item by
    item (the agent may capture meanwhile)."""
    out: list[CaptureResult] = []
    db = open_state_db(vault.state_db)
    try:
        records.sync(vault, db)
        for done, w in enumerate(works, start=1):
            meta = w.change.meta
            try:
                if w.change.changed or w.status != "existing":
                    with records.capture_lock(vault):
                        if w.copy_pdf is not None:
                            atomic_copy(w.copy_pdf, vault.pdf_path(meta.cite_key))
                        record_store.write(vault, meta)
                        records.record(db, meta)
            except OSError as exc:
                w.outcome.action = "failed"
                w.outcome.messages.append(f"cannot write its record: {exc}")
                continue
            pdf = vault.pdf_path(meta.cite_key) if meta.pdf else None
            out.append(CaptureResult(meta.cite_key, w.status, pdf, meta))
            if progress is not None:
                progress(done, len(works))
    finally:
        db.close()
    return out


def _capture_orphans(vault: Vault, settings: Settings, orphans: Sequence[Attachment],
                     captured: Sequence[CaptureResult], report: ImportReport
                     ) -> list[CaptureResult]:
    """Each PDF without a parent item captured as a dropped PDF is (its first page, the
    identifiers it prints asked of the sources; ``ingest.process``), compiled with the
    rest. A PDF already in the vault is found again, not captured twice."""
    out: list[CaptureResult] = []
    seen = {r.cite_key for r in captured}
    for a in orphans:
        assert a.path is not None
        label = f"PDF without an item: {a.path.name}"
        try:
            got = process(vault, settings, str(a.path), compile=False, index=False)
        except VaultdError as exc:
            report.outcomes.append(ItemOutcome(a.path.name, "failed", None, [label],
                                               pdf=str(a.path), messages=[str(exc)]))
            continue
        for r in got.captured:
            if r.cite_key in seen:
                continue
            seen.add(r.cite_key)
            out.append(r)
            action = "imported" if r.status == "created" else "unchanged"
            report.outcomes.append(ItemOutcome(
                r.cite_key, action, r.meta.title, [label], pdf=str(a.path),
                messages=["no item in the library: its metadata is the PDF's and the "
                          f"sources'; correct it with `vaultd meta {r.cite_key} --set …`"]))
    return out


def _touch_up(vault: Vault, settings: Settings, works: Sequence[_Work],
              out: IngestResult) -> list[Path]:
    """After compiling: a note not compiled again gets its record's new metadata; every
    note gets the library's tags and the notes not brought in yet. Returns the notes
    changed."""
    touched: list[Path] = []
    for w in works:
        key = w.change.meta.cite_key
        if w.outcome.action == "failed":
            continue
        done = out.compiled.get(key)
        fresh = done is not None and done.result is not None  # compiled now: up to date
        if w.change.fields and not fresh \
                and (path := rerender_note(vault, settings, w.change.meta)) is not None:
            touched.append(path)
        path = vault.note_path(key)
        if not path.is_file() or not (w.library_notes or ("tags" in w.change.other
                                                          and not fresh)):
            continue
        try:
            note = parse_note(path.read_text(encoding="utf-8"), source=vault.rel(path))
        except NoteFormatError as exc:
            w.outcome.messages.append(f"notes not added: {exc}")
            continue
        tags = list(dict.fromkeys([*note.meta.tags, *w.change.meta.tags]))
        new = with_library_notes(note, w.library_notes)
        new = new.model_copy(update={"meta": new.meta.model_copy(update={"tags": tags})})
        if new != note:
            atomic_write_text(path, render_note(new))
            touched.append(path)
    return touched
