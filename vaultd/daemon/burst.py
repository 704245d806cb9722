"""Several PDFs dropped into Inbox/ at once, compiled together (docs/import.md, "In the
running agent").

Each job is checked as a single drop is (``JobProcessor``: its rule, its idempotency
key) and captured on its own in one of the pool's workers (``pipeline.bulk_capture``:
metadata, record, cite key, through ``ingest_item``); then the captured works go through one
``pipeline.ingest.finish`` with the agent's pool of compile workers: their citations
rendered in one processor call, the PDFs parsed by the workers (the largest first), the
notes indexed together, figure crops left pending for the pool to draw when the queue is
idle. Then each job gets its own outcome: the file placed beside its record, or, when its
compile failed, into Inbox/_failed/ (or retried later) as a single drop's would.

A burst never takes a file another job of it captures too (the same PDF dropped twice):
the second waits for the first and is then a duplicate. Jobs that are not a PDF to compile
(link files, .bib, videos) run one by one after the burst.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Sequence
from concurrent.futures import CancelledError, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from vaultd.daemon.jobs import Ingested, JobProcessor, Prepared
from vaultd.daemon.queue import Job
from vaultd.errors import VaultdError
from vaultd.pipeline.bulk import BulkCompiler, CompileStoppedError
from vaultd.pipeline.bulk_capture import CaptureCall, capture_in_worker
from vaultd.pipeline.ingest import IngestResult, finish

log = logging.getLogger("vaultd.daemon")

#: Jobs the agent claims at once for one burst: big enough that one processor call renders
#: many citations, small enough that the next burst's captures overlap this one's compile.
BURST_MAX_JOBS = 8


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


def process_burst(jobs: JobProcessor, batch: Sequence[Job], pool: BulkCompiler,
                  figures: PendingFigures) -> list[Ingested]:
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
        done += _together(jobs, list(together.values()), pool, figures)
    else:
        alone = [*together.values(), *alone]
    for p in alone:
        if (made := jobs.run(p)) is not None:
            done.append(made)
    return done


def _together(jobs: JobProcessor, preps: list[Prepared], pool: BulkCompiler,
              figures: PendingFigures) -> list[Ingested]:
    done: list[Ingested] = []
    with contextlib.ExitStack() as held:
        for key in sorted(p.key for p in preps):  # in one order: no two bursts deadlock
            held.enter_context(jobs.key_lock(key))
        captured = _capture(jobs, [p for p in preps if not jobs.duplicate(p)], pool)
        groups: dict[tuple[tuple[str, ...], str | None], list[tuple[Prepared, IngestResult]]]
        groups = {}
        for p, out in captured:  # one finish per note folder and tags (the rule's)
            groups.setdefault((tuple(p.rule.tags), p.rule.folder), []).append((p, out))
        for (tags, folder), group in groups.items():
            done += _compile_group(jobs, group, pool, figures, tags, folder)
    return done


def _capture(jobs: JobProcessor, preps: list[Prepared], pool: BulkCompiler
             ) -> list[tuple[Prepared, IngestResult]]:
    """Each job's capture, in the pool's workers (``pipeline.bulk_capture``); a job whose
    worker died is captured here instead (a file that kills this process too is caught by
    the queue's crash count)."""
    captured: list[tuple[Prepared, IngestResult]] = []
    try:
        futures = {pool.submit(capture_in_worker, CaptureCall(p.path, p.action, p.facts.url)): p
                   for p in preps}
    except CompileStoppedError as exc:
        for p in preps:
            jobs.ingest_failed(p, exc)
        return []
    for future in as_completed(futures):
        p = futures[future]
        try:
            try:
                out = future.result().unwrap()
            except (BrokenProcessPool, CancelledError):
                if pool.closed:
                    raise CompileStoppedError("the agent is stopping") from None
                out = jobs.ingest(p, compile=False, index=False)
        except VaultdError as exc:
            jobs.ingest_failed(p, exc)
            continue
        captured.append((p, out))
    captured.sort(key=lambda pc: preps.index(pc[0]))  # in the order dropped
    return captured


def _compile_group(jobs: JobProcessor, group: list[tuple[Prepared, IngestResult]],
                   pool: BulkCompiler, figures: PendingFigures, tags: tuple[str, ...],
                   folder: str | None) -> list[Ingested]:
    works = {r.cite_key: r for _, out in group for r in out.captured}
    batch = IngestResult(captured=list(works.values()))
    try:
        finish(jobs.vault, jobs.settings, batch, pool=pool, keep_going=True, figures=False,
               tags=tags, folder=folder)
    except CompileStoppedError as exc:
        for p, _ in group:
            jobs.ingest_failed(p, exc)
        return []
    except VaultdError as exc:  # the batch as a whole (its index): each job alone instead
        log.warning("compiling %d PDFs together failed (%s); compiling them one by one",
                    len(group), exc)
        return [made for p, _ in group if (made := jobs.run(p)) is not None]
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
    return done
