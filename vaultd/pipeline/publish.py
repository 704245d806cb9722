"""Publishing this vault's works to the lab library (``[library]`` in the settings).

``publication`` reads what one work publishes: its record (the Work citations are rendered
from, its identifiers and labels, every cite key the member knows it by), its note's chunks
(verbatim text, type, section, PDF page and printed label, regions, ``text_sha256``), the
vectors the local index holds for them, and, only when the settings say so, the PDF and
the member's own text. ``publish_keys`` writes them, one transaction per work; a work the
library cannot take now (unreachable server) waits in the outbox of ``state.db`` and is
retried (``retry_outbox``: the agent's schedule, ``vaultd library publish``), never lost.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import psycopg

from vaultd import record_store
from vaultd.capture.user import entered_names
from vaultd.config import Settings
from vaultd.errors import LibraryError, NoteFormatError, VaultdError
from vaultd.index.embed import unpack
from vaultd.index.rows import paper_rows
from vaultd.index.store import open_index
from vaultd.lab import publish as lab_publish
from vaultd.lab import read as lab_read
from vaultd.lab.connect import failed, open_library, where
from vaultd.lab.payload import ChunkRow, Publication
from vaultd.models import MetaFile, Note
from vaultd.notes.reader import parse_note
from vaultd.statedb import open_state_db
from vaultd.trust import record_labels, record_verified
from vaultd.vault import Vault

log = logging.getLogger(__name__)


def configured(settings: Settings) -> str:
    """The library URL, or a one-line error saying how to set one."""
    if not settings.library.url:
        raise LibraryError("no lab library is set: add `[library] url = "
                           "\"postgresql://member@host/db\"` to .vaultd/config.toml or set "
                           "VAULTD_LIBRARY_URL")
    return settings.library.url


def _note(vault: Vault, cite_key: str) -> Note | None:
    path = vault.note_path(cite_key)
    if not path.is_file():
        return None
    # named under the vault's root as given (resolving the path costs more than reading it)
    return parse_note(path.read_text(encoding="utf-8"),
                      source=path.relative_to(vault.root).as_posix())


def _chunk_rows(note: Note, *, own_text: bool) -> list[ChunkRow]:
    out = []
    for c in note.chunks:
        if not c.text.strip():
            continue
        p = c.provenance
        regions = p.regions or ([[p.page, *p.pdf_rect]] if p.pdf_rect else None)
        out.append(ChunkRow(
            chunk_id=c.id, text=c.text, text_sha256=p.text_sha256, chunk_type=p.chunk_type,
            section=p.section, page=p.page, page_label=p.page_label,
            page_label_source=p.page_label_source, page_label_status=p.page_label_status,
            regions=[[float(v) for v in r] for r in regions] if regions else None,
            text_layer=p.text_layer, start=p.start, end=p.end))
    if own_text:  # the member's notes on quotes and "My notes": only with publish_notes
        for row in paper_rows(note, "", 0.0):
            if row.kind == "note":
                out.append(ChunkRow(chunk_id=row.chunk_id, text=row.text,
                                    text_sha256=row.hash, kind="note", section=row.section,
                                    page=row.page, page_label=row.page_label))
    return out


class LocalVectors:
    """The local index's embedding model and its vectors, the index opened once for all
    the works read (a run of ``publish_keys`` reads hundreds); a context manager."""

    def __init__(self, vault: Vault) -> None:
        self._db = open_index(vault.index_db, load_vec=False) if vault.index_db.is_file() \
            else None
        self.model = self._db.get_meta("embed_model") if self._db is not None else None

    def of(self, hashes: Iterable[str]) -> tuple[str | None, dict[str, list[float]]]:
        """The model and its vectors of ``hashes`` (none without an index or vectors)."""
        if self._db is None or not self.model:
            return None, {}
        wanted = list(hashes)
        out: dict[str, list[float]] = {}
        for i in range(0, len(wanted), 500):
            part = wanted[i:i + 500]
            marks = ",".join("?" * len(part))
            for h, blob in self._db.conn.execute(
                    f"SELECT hash, vec FROM vectors WHERE model = ? AND hash IN ({marks})",
                    (self.model, *part)):
                out[str(h)] = unpack(blob)
        return self.model, out

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> LocalVectors:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def publication(vault: Vault, settings: Settings, cite_key: str,
                vectors: LocalVectors | None = None) -> Publication:
    """What ``cite_key`` publishes (its record must exist; its note may not yet);
    ``vectors``: the local index, when the caller holds it open."""
    meta = record_store.load(vault, cite_key)
    try:
        note = _note(vault, cite_key)
    except (OSError, NoteFormatError) as exc:
        raise LibraryError(f"cannot publish {cite_key}: its note cannot be read ({exc}); "
                           f"run `vaultd verify {cite_key}`") from exc
    chunks = _chunk_rows(note, own_text=settings.library.publish_notes) if note else []
    hashes = [c.text_sha256 for c in chunks if c.kind == "paper"]
    if vectors is None:
        with LocalVectors(vault) as local:
            model, found = local.of(hashes)
    else:
        model, found = vectors.of(hashes)
    work = meta.work
    pdf = None
    if settings.library.share_pdfs and meta.pdf and (vault.root / meta.pdf).is_file():
        pdf = (vault.root / meta.pdf).read_bytes()
    return Publication(
        cite_key=cite_key, aliases=sorted(set(meta.aliases) - {cite_key}),
        work=work.model_dump(mode="json", exclude_none=True), title=work.title,
        authors="; ".join(a.display for a in work.authors) or None, year=work.year,
        type=work.type, language=work.language, doi=work.doi, arxiv_id=work.arxiv_id,
        pdf_sha256=meta.pdf_sha256, labels=_labels(meta), retracted=work.retracted,
        verified=record_verified(meta), chunks=chunks, model=model, vectors=found, pdf=pdf)


def _labels(meta: MetaFile) -> list[str]:
    return record_labels(meta, entered_names(meta))


@dataclass
class PublishReport:
    published: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    queued: list[tuple[str, str]] = field(default_factory=list)  # (key, why): retried later
    failed: list[tuple[str, str]] = field(default_factory=list)  # (key, why): needs the user
    passages: int = 0
    vectors: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"published": self.published, "updated": self.updated,
                "unchanged": self.unchanged,
                "queued": [{"cite_key": k, "reason": r} for k, r in self.queued],
                "failed": [{"cite_key": k, "reason": r} for k, r in self.failed],
                "passages": self.passages, "vectors": self.vectors}


Progress = Callable[[str], None]


#: Works per transaction: large enough that a library far away is not paid per work, small
#: enough that one batch is seconds of work.
BATCH_PASSAGES = 5_000
BATCH_WORKS = 200
#: The first batch is this small, so that the server starts on it while the next ones are
#: read; each batch after it may be twice the one before (up to ``BATCH_PASSAGES``), and
#: near the end they shrink to what is left shared between the connections, so that the
#: connections finish together instead of one server process working alone at the end.
FIRST_BATCH = 500


#: Connections publishing at once: the server's text search parsing (``to_tsvector``) is
#: most of a batch's cost, and two batches in flight use two of its cores.
PARALLEL = 2
PARALLEL_FROM = 50  # works: fewer make one or two batches, not worth a second connection


def batch_limit(previous: int, left: float, connections: int) -> int:
    """Passages of the next batch: twice the ``previous`` one at most, at most
    ``BATCH_PASSAGES``, at most the ``left`` passages (an estimate) shared between the
    ``connections``, and never under ``FIRST_BATCH``."""
    return max(FIRST_BATCH, min(2 * previous, BATCH_PASSAGES, int(left / max(connections, 1))))


def _batches(vault: Vault, settings: Settings, keys: list[str], report: PublishReport,
             vectors: LocalVectors, connections: int,
             lock: threading.Lock) -> Iterator[list[Publication]]:
    batch: list[Publication] = []
    limit, size, passages = FIRST_BATCH, 0, 0
    for i, key in enumerate(keys):
        try:
            pub = publication(vault, settings, key, vectors)
        except VaultdError as exc:
            with lock:
                report.failed.append((key, str(exc)))
        else:
            batch.append(pub)
            size += len(pub.chunks)
            passages += len(pub.chunks)
        if batch and (len(batch) >= BATCH_WORKS or size >= limit):
            yield batch
            left = (len(keys) - i - 1) * passages / (i + 1)  # at this far's mean a work
            limit, batch, size = batch_limit(limit, left, connections), [], 0
    if batch:
        yield batch


def publish_keys(vault: Vault, settings: Settings, keys: Iterable[str], *,
                 progress: Progress | None = None) -> PublishReport:
    """Publish ``keys`` to the configured library as this member, in batches (each one
    transaction; two in flight on two connections when there are several). An unreachable
    library queues every key not yet written (transient); a work that cannot be read, or
    that the library refuses, fails alone."""
    url = configured(settings)
    group = settings.library.name
    keys = list(dict.fromkeys(keys))
    report = PublishReport()
    try:
        conns = [open_library(url)]
    except LibraryError as exc:
        if not exc.transient:
            raise
        _queue(vault, [(k, str(exc)) for k in keys])
        report.queued = [(k, str(exc)) for k in keys]
        return report
    lock = threading.Lock()
    gone = threading.Event()
    vectors = LocalVectors(vault)
    # One thread reads the notes (this process's part) while the connections send the
    # batches already read: the server works on one batch as the next is read.
    ready: queue.Queue[list[Publication] | None] = queue.Queue(maxsize=PARALLEL)
    broke: list[BaseException] = []

    def offer(item: list[Publication] | None) -> bool:
        while not gone.is_set():
            with contextlib.suppress(queue.Full):
                ready.put(item, timeout=0.05)
                return True
        return False

    def read() -> None:
        try:
            for batch in _batches(vault, settings, keys, report, vectors, len(conns), lock):
                if not offer(batch):
                    return
        except BaseException as exc:  # a bug: reported by publish_keys, never a hang
            broke.append(exc)
            gone.set()
        finally:
            for _ in conns:
                offer(None)

    def send(conn: psycopg.Connection[Any]) -> None:
        while not gone.is_set():
            try:
                batch = ready.get(timeout=0.05)
            except queue.Empty:
                continue
            if batch is None:
                return
            if not _send(vault, conn, batch, group, report, progress, lock):
                gone.set()

    try:
        if len(keys) > PARALLEL_FROM:  # several batches (a paper is ~50-100 passages)
            with contextlib.suppress(LibraryError):  # one connection is enough to go on
                conns += [open_library(url) for _ in range(PARALLEL - 1)]
        threads = [threading.Thread(target=read, daemon=True)]
        threads += [threading.Thread(target=send, args=(c,), daemon=True) for c in conns]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        for c in conns:
            c.close()
        vectors.close()
    if gone.is_set():
        settled = {k for k in [*report.published, *report.updated, *report.unchanged]}
        settled |= {k for k, _ in [*report.failed, *report.queued]}
        why = report.queued[0][1] if report.queued else \
            f"publishing stopped ({broke[0]!r})" if broke else "the library went away"
        rest = [(k, why) for k in keys if k not in settled]
        _queue(vault, rest)
        report.queued += rest
    if broke:  # the keys not published are queued first: nothing is lost
        raise broke[0]
    return report


def _send(vault: Vault, conn: psycopg.Connection[Any], batch: list[Publication], group: str,
          report: PublishReport, progress: Progress | None, lock: threading.Lock) -> bool:
    """Publish one batch; False when the library went away (the batch is queued). A batch
    the library refuses is sent again work by work, so only the bad work fails."""
    try:
        done = lab_publish.publish_batch(conn, batch, group)
    except psycopg.Error as exc:
        err = failed(exc, f"publishing {batch[0].cite_key}")
        if err.transient:
            with lock:
                report.queued += [(p.cite_key, str(err)) for p in batch]
                _queue(vault, [(p.cite_key, str(err)) for p in batch])
            return False
        if len(batch) == 1:
            with lock:
                report.failed.append((batch[0].cite_key, str(err)))
            return True
        return all([_send(vault, conn, [p], group, report, progress, lock) for p in batch])
    with lock:
        for d in done:
            getattr(report, d.outcome).append(d.cite_key)
            report.passages += d.chunks
            report.vectors += d.vectors
            if progress:
                progress(d.cite_key)
        _dequeue(vault, [d.cite_key for d in done])
    return True


def index_vectors(settings: Settings, *, seconds: float = 60.0,
                  progress: Callable[[int, int], None] | None = None) -> tuple[int, int]:
    """Move vectors waiting in the library into its HNSW index for at most ``seconds``
    (batches of 2,000); (moved, still waiting)."""
    conn = open_library(configured(settings))
    moved = 0
    try:
        waiting = lab_publish.waiting_for_index(conn)
        total = waiting
        start = time.monotonic()
        while waiting and time.monotonic() - start < seconds:
            moved += lab_publish.index_new(conn, 2_000)
            waiting = lab_publish.waiting_for_index(conn)
            if progress:
                progress(moved, total)
    except psycopg.Error as exc:
        raise failed(exc, "indexing the vectors") from exc
    finally:
        conn.close()
    return moved, waiting


def publish_after(vault: Vault, settings: Settings, keys: list[str]) -> str | None:
    """The agent's publish after a compile: never raises (local work goes on); a warning
    line when the works were queued or refused, else None."""
    if not settings.library.url or not settings.library.publish or not keys:
        return None
    try:
        report = publish_keys(vault, settings, keys)
    except VaultdError as exc:
        _queue(vault, [(k, str(exc)) for k in keys])
        return f"lab library: {exc} (queued: {', '.join(keys)})"
    if report.queued:
        return f"lab library unreachable; queued {len(report.queued)} work(s) to publish later"
    if report.failed:
        return "lab library: " + "; ".join(f"{k}: {why}" for k, why in report.failed)
    return None


def retry_outbox(vault: Vault, settings: Settings) -> PublishReport | None:
    """Publish what waits in the outbox (None when nothing waits or no library is set)."""
    waiting = outbox(vault)
    if not waiting or not settings.library.url:
        return None
    return publish_keys(vault, settings, [k for k, _, _ in waiting])


def library_upkeep(vault: Vault, settings: Settings) -> str | None:
    """The agent's retry pass: send the outbox, then move up to a minute of waiting vectors
    into the library's HNSW index. A line to log, or None when nothing was done."""
    sent = retry_outbox(vault, settings)
    moved, waiting = index_vectors(settings, seconds=60.0)
    parts = []
    if sent is not None:
        parts.append(f"{len(sent.published) + len(sent.updated)} published, "
                     f"{len(sent.queued)} still queued")
    if moved:
        parts.append(f"{moved} vectors indexed, {waiting} waiting")
    return "lab library: " + "; ".join(parts) if parts else None


def outbox(vault: Vault) -> list[tuple[str, int, str | None]]:
    """(cite key, attempts, last error) of every work waiting to be published."""
    db = open_state_db(vault.state_db)
    try:
        return [(str(k), int(a), e) for k, a, e in db.execute(
            "SELECT cite_key, attempts, last_error FROM library_outbox ORDER BY queued_at")]
    finally:
        db.close()


def _queue(vault: Vault, items: list[tuple[str, str]]) -> None:
    db = open_state_db(vault.state_db)
    try:
        with db:
            db.executemany(
                "INSERT INTO library_outbox (cite_key, attempts, last_error) VALUES (?, 1, ?) "
                "ON CONFLICT(cite_key) DO UPDATE SET attempts = attempts + 1, "
                "last_error = excluded.last_error", items)
    finally:
        db.close()


def _dequeue(vault: Vault, keys: list[str]) -> None:
    db: sqlite3.Connection = open_state_db(vault.state_db)
    try:
        with db:
            db.executemany("DELETE FROM library_outbox WHERE cite_key = ?",
                           [(k,) for k in keys])
    finally:
        db.close()


@dataclass
class LibraryStatus:
    url: str
    group: str
    member: str
    published: int = 0
    behind: list[str] = field(default_factory=list)  # changed here since published
    unpublished: list[str] = field(default_factory=list)  # never published
    gone: list[str] = field(default_factory=list)  # published, no longer in this vault
    queued: list[tuple[str, int, str | None]] = field(default_factory=list)
    vectors_waiting: int = 0  # published, not yet in the HNSW index (searched exactly)

    def to_json(self) -> dict[str, Any]:
        return {"url": self.url, "group": self.group, "member": self.member,
                "published": self.published, "vectors_waiting": self.vectors_waiting,
                "behind": self.behind,
                "unpublished": self.unpublished, "gone": self.gone,
                "queued": [{"cite_key": k, "attempts": a, "last_error": e}
                           for k, a, e in self.queued]}


def status(vault: Vault, settings: Settings) -> LibraryStatus:
    """What this member has published to the group and what is behind: works changed here
    since they were published, works never published, and the outbox."""
    url = configured(settings)
    conn = open_library(url)
    try:
        member = str(conn.execute("SELECT session_user").fetchone()[0])  # type: ignore[index]
        mine = lab_read.mine(conn, settings.library.name)
        waiting = lab_publish.waiting_for_index(conn)
    except psycopg.Error as exc:
        raise failed(exc, "reading what this member published") from exc
    finally:
        conn.close()
    out = LibraryStatus(where(url), settings.library.name, member, published=len(mine),
                        queued=outbox(vault), vectors_waiting=waiting)
    local = [meta.cite_key for meta in record_store.iter_records(vault)]
    with LocalVectors(vault) as vectors:
        for key in local:
            have = mine.get(key)
            if have is None:
                out.unpublished.append(key)
                continue
            try:
                if publication(vault, settings, key, vectors).fingerprint != have.fingerprint:
                    out.behind.append(key)
            except VaultdError:
                out.behind.append(key)
    out.gone = sorted(set(mine) - set(local))
    return out
