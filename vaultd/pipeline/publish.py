"""Publishing this vault's works to the lab library (``[library]`` in the settings).

``publish_keys`` sends what ``pipeline.publication`` reads, in batches of works (one
transaction each, two connections when there are several) while a thread reads the next
notes; a work the library cannot take now (unreachable server) waits in the outbox
(``pipeline.outbox``) and is retried (``retry_outbox``: the agent's schedule, ``vaultd
library publish``), never lost.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import psycopg

from vaultd.config import Settings
from vaultd.errors import LibraryError, VaultdError
from vaultd.lab import publish as lab_publish
from vaultd.lab.connect import failed, open_library
from vaultd.lab.payload import Publication
from vaultd.pipeline.outbox import dequeue, enqueue, outbox
from vaultd.pipeline.publication import LocalVectors, configured, publication
from vaultd.vault import Vault


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
        enqueue(vault, [(k, str(exc)) for k in keys])
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
        enqueue(vault, rest)
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
                enqueue(vault, [(p.cite_key, str(err)) for p in batch])
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
        dequeue(vault, [d.cite_key for d in done])
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
        enqueue(vault, [(k, str(exc)) for k in keys])
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
