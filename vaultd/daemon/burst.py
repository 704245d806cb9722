"""Several PDFs dropped into Inbox/ at once, compiled together (docs/import.md, "In the
running agent").

Each job is checked as a single drop is (``JobProcessor``: its rule, its idempotency
key) and captured on its own in one of the pool's workers (``pipeline.bulk_capture``:
metadata, record, cite key, through ``ingest_item``). The stages overlap, so the pool is
never left waiting on the agent: while the workers capture, the citations of the works
captured so far are rendered in one processor call (``CitationCalls``, one call at a time
for every burst; the works captured meanwhile make the next call), and the works so
rendered go through ``pipeline.ingest.finish`` with the agent's pool in groups of 8, the
largest PDFs first, each on a thread of its own (the PDFs parsed by the workers; the
group's notes indexed together; figure crops left pending for the pool to draw when the
queue is idle) while the next works are captured and rendered. Then each job of a group
gets its own outcome: the file placed beside its record, or, when its compile failed, into
Inbox/_failed/ (or retried later) as a single drop's would.

A burst never takes a file another job of it captures too (the same PDF dropped twice):
the second waits for the first and is then a duplicate; two files that turn out to be one
work (the same DOI) are compiled in one group, or the later one after every other group.
Jobs that are not a PDF to compile (link files, .bib, videos) run one by one after the
burst.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Sequence
from concurrent.futures import (
    FIRST_COMPLETED,
    CancelledError,
    Future,
    ThreadPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vaultd.config import Settings
from vaultd.daemon.jobs import Ingested, JobProcessor, Prepared
from vaultd.daemon.queue import Job
from vaultd.errors import VaultdError
from vaultd.pipeline.bulk import BulkCompiler, CompileStoppedError
from vaultd.pipeline.bulk_capture import CaptureCall, CaptureOutcome, capture_in_worker
from vaultd.pipeline.capture_store import CaptureResult
from vaultd.pipeline.ingest import IngestResult, finish, render_citations
from vaultd.vault import Vault

log = logging.getLogger("vaultd.daemon")

#: Jobs the agent claims at once for one burst. Its stages overlap (captures, citations,
#: compiles, index), so a large burst keeps the pool busy from the first capture to the
#: last compile; two bursts (two job slots) share the pool.
BURST_MAX_JOBS = 64
#: Works a burst captures before it asks for a citation call (or all of its works, when
#: fewer): a call costs ≈ 0.25 s of CPU to start each of its pandoc processes (two from 11
#: works on) plus ≈ 40 ms a work, so fewer, larger calls; the pool is busy capturing
#: meanwhile, and compiles the first call's works while the next is rendered.
CITE_MIN_WORKS = 32
#: Jobs compiled (and indexed) together once their citations are rendered: a call's works
#: go through ``finish`` in groups this large, the largest PDFs first, so the first notes
#: are indexed and placed while the pool compiles the rest (not all at the end).
FINISH_GROUP_JOBS = 8
#: Groups compiled (and indexed) at once: each waits on the pool most of its time.
FINISH_THREADS = 8

Captured = tuple[Prepared, IngestResult]
#: What a group's ``finish`` gave: the jobs done, and the jobs to run one by one (on the
#: burst's thread, which holds their keys' locks).
Finished = tuple[list[Ingested], list[Prepared]]


@dataclass
class PendingFigures:
    """Notes whose figure crops a burst left for later (``pipeline.figure_crops``): the
    agent has the pool draw them when its queue is idle."""

    keys: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, keys: Sequence[str]) -> None:
        with self.lock:
            self.keys.update(keys)

    def take(self) -> list[str]:
        with self.lock:
            keys, self.keys = sorted(self.keys), set()
        return keys


class CitationCalls:
    """The agent's citation processor calls, one at a time: the groups that bursts queue
    while a call runs are rendered together by the next (a call costs ≈ 0.25 s of start-up
    beside ≈ 40 ms a work, and two at once would only compete with the pool)."""

    def __init__(self, vault: Vault, settings: Settings) -> None:
        self.vault, self.settings = vault, settings
        self._queued: list[tuple[list[CaptureResult], Future[None]]] = []
        self._lock = threading.Lock()
        self._running = False

    def render(self, captured: list[CaptureResult]) -> Future[None]:
        """Render and store these works' citations; done when they are (or when the
        processor failed: ``finish`` then renders them again and reports it)."""
        future: Future[None] = Future()
        with self._lock:
            self._queued.append((captured, future))
            if self._running:
                return future
            self._running = True
        threading.Thread(target=self._drain, name="vaultd-citations", daemon=True).start()
        return future

    def _drain(self) -> None:
        while True:
            with self._lock:
                batch, self._queued = self._queued, []
                if not batch:
                    self._running = False
                    return
            captured = [r for group, _ in batch for r in group]
            try:
                render_citations(self.vault, self.settings, captured)
            except VaultdError as exc:
                log.debug("citations of %d works not rendered ahead: %s", len(captured), exc)
            except Exception:  # a thread's top level: the bursts wait on these futures
                log.exception("citations of %d works not rendered ahead", len(captured))
            finally:
                for _, future in batch:
                    future.set_result(None)


def process_burst(jobs: JobProcessor, batch: Sequence[Job], pool: BulkCompiler,
                  figures: PendingFigures, citations: CitationCalls) -> list[Ingested]:
    """Run ``batch`` to outcomes, its PDFs compiled together in ``pool``; what the pipeline
    made, job by job. Expected failures are recorded, never raised."""
    preps = [p for p in (jobs.prepare(job) for job in batch) if p is not None]
    together: dict[str, Prepared] = {}
    alone: list[Prepared] = []
    for p in preps:
        if p.compiles_pdf and p.key not in together:
            together[p.key] = p
        else:
            alone.append(p)
    done: list[Ingested] = []
    if len(together) > 1:
        done += _together(jobs, list(together.values()), pool, figures, citations)
    else:
        alone = [*together.values(), *alone]
    for p in alone:
        if (made := jobs.run(p)) is not None:
            done.append(made)
    return done


def _together(jobs: JobProcessor, preps: list[Prepared], pool: BulkCompiler,
              figures: PendingFigures, citations: CitationCalls) -> list[Ingested]:
    with contextlib.ExitStack() as held:
        for key in sorted(p.key for p in preps):  # in one order: no two bursts deadlock
            held.enter_context(jobs.key_lock(key))
        todo = [p for p in preps if not jobs.duplicate(p)]
        return _Pipeline(jobs, pool, figures, citations, todo).run()


class _Pipeline:
    """One burst's jobs through capture (the pool), citations (``CitationCalls``),
    compile and index (``finish`` per group, on threads), overlapped."""

    def __init__(self, jobs: JobProcessor, pool: BulkCompiler, figures: PendingFigures,
                 citations: CitationCalls, preps: list[Prepared]) -> None:
        self.jobs, self.pool, self.figures, self.preps = jobs, pool, figures, preps
        self.citations = citations
        self._order = {p.job.id: n for n, p in enumerate(preps)}  # the order dropped
        self._grouped: set[str] = set()  # cite keys already in a group
        self._later: list[Captured] = []  # a work already in a group: after every group

    def run(self) -> list[Ingested]:
        try:
            capturing = {self.pool.submit(capture_in_worker,
                                          CaptureCall(p.path, p.action, p.facts.url)): p
                         for p in self.preps}
        except CompileStoppedError as exc:
            for p in self.preps:
                self.jobs.ingest_failed(p, exc)
            return []
        done: list[Ingested] = []
        alone: list[Prepared] = []
        finishing: list[Future[Finished]] = []
        with ThreadPoolExecutor(FINISH_THREADS, thread_name_prefix="vaultd-finish") as fin:
            try:
                captured: list[Captured] = []  # waiting for a citation call
                citing: tuple[Future[None], list[Captured]] | None = None
                while capturing or captured or citing is not None:
                    watch: list[Future[Any]] = [*capturing, *([citing[0]] if citing else [])]
                    ready = wait(watch, return_when=FIRST_COMPLETED).done
                    for future in [f for f in capturing if f in ready]:
                        p = capturing.pop(future)
                        if (out := self._captured(p, future)) is not None:
                            captured.append((p, out))
                    if citing is not None and citing[0].done():
                        citing[0].result()
                        finishing += self._dispatch(fin, citing[1])
                        citing = None
                    if citing is None and captured and \
                            (len(captured) >= CITE_MIN_WORKS or not capturing):
                        group = sorted(captured, key=lambda pc: self._order[pc[0].job.id])
                        works = [r for _, out in group for r in out.captured]
                        citing, captured = (self.citations.render(works), group), []
                results = [f.result() for f in finishing]
                results += [_compile_group(self.jobs, group, self.pool, self.figures, tags,
                                           folder)
                            for (tags, folder), group in _by_rule(self._later).items()]
            finally:  # nothing of the burst still running when it returns or raises
                running: list[Future[Any]] = [*capturing, *finishing]
                wait(running)
        for ingested, left in results:
            done += ingested
            alone += left
        return done + [m for p in alone if (m := self.jobs.run(p)) is not None]

    def _captured(self, p: Prepared, future: Future[CaptureOutcome]) -> IngestResult | None:
        """A job's capture, or None when it failed (recorded); a job whose worker died is
        captured here instead (a file that kills this process too is caught by the
        queue's crash count)."""
        try:
            try:
                out = future.result().unwrap()
            except (BrokenProcessPool, CancelledError):
                if self.pool.closed:
                    raise CompileStoppedError("the agent is stopping") from None
                out = self.jobs.ingest(p, compile=False, index=False)
        except VaultdError as exc:
            self.jobs.ingest_failed(p, exc)
            return None
        return out

    def _dispatch(self, fin: ThreadPoolExecutor, group: list[Captured]
                  ) -> list[Future[Finished]]:
        """``finish`` for a rendered group's jobs, the largest PDFs first, in groups of
        ``FINISH_GROUP_JOBS`` with one note folder and tags (the rule's); a job whose work
        another job of the burst compiles waits for every group."""
        now: list[Captured] = []
        for p, out in sorted(group, key=lambda pc: -_size(pc[1].pdf)):
            keys = set(out.cite_keys)
            if keys & self._grouped:
                self._later.append((p, out))
            else:
                now.append((p, out))
                self._grouped.update(keys)
        return [fin.submit(_compile_group, self.jobs, jobs[i:i + FINISH_GROUP_JOBS], self.pool,
                           self.figures, tags, folder)
                for (tags, folder), jobs in _by_rule(now).items()
                for i in range(0, len(jobs), FINISH_GROUP_JOBS)]


def _size(path: Path | None) -> int:
    try:
        return path.stat().st_size if path is not None else 0
    except OSError:
        return 0


def _by_rule(group: list[Captured]
             ) -> dict[tuple[tuple[str, ...], str | None], list[Captured]]:
    groups: dict[tuple[tuple[str, ...], str | None], list[Captured]] = {}
    for p, out in group:
        groups.setdefault((tuple(p.rule.tags), p.rule.folder), []).append((p, out))
    return groups


def _compile_group(jobs: JobProcessor, group: list[Captured], pool: BulkCompiler,
                   figures: PendingFigures, tags: tuple[str, ...],
                   folder: str | None) -> Finished:
    works = {r.cite_key: r for _, out in group for r in out.captured}
    batch = IngestResult(captured=list(works.values()))
    try:
        finish(jobs.vault, jobs.settings, batch, pool=pool, keep_going=True, figures=False,
               tags=tags, folder=folder)
    except CompileStoppedError as exc:
        for p, _ in group:
            jobs.ingest_failed(p, exc)
        return [], []
    except VaultdError as exc:  # the batch as a whole (its index): each job alone instead
        log.warning("compiling %d PDFs together failed (%s); compiling them one by one",
                    len(group), exc)
        return [], [p for p, _ in group]
    figures.add([k for k, c in batch.compiled.items() if c.result and c.result.parser])
    done: list[Ingested] = []
    for p, out in group:
        compiled = {k: batch.compiled[k] for k in out.cite_keys if k in batch.compiled}
        failed = next((c for c in compiled.values() if c.error), None)
        if failed is not None:
            error = VaultdError(failed.error)
            error.transient = failed.transient
            jobs.ingest_failed(p, error)
            continue
        out.compiled = compiled
        done.append(jobs.complete(p, out))
    return done, []
