"""Compiling many notes at once: a pool of worker processes started once and reused.

Parsing a PDF is CPU-bound Python (PyMuPDF, the layout rules), so threads do not help; a
process per core does. Workers are started with the "spawn" method (a fresh interpreter,
safe on macOS, where forking a process that runs threads is not) and set up once: each
imports the compile stage and opens the vault's citation renderer when it starts, not per
paper. The caller renders the batch's citations first (one processor call for every work:
``finish`` does), so each worker finds them stored.

``pipeline.ingest.finish(…, pool=BulkCompiler(…))`` is the way in: `vaultd import` uses it,
and the agent can hand one pool to every ``finish``/``process`` call it makes (the pool is
safe to share between threads). A job whose record has no PDF (a citation-only note) is
compiled in the calling process: it parses nothing.
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from vaultd import record_store
from vaultd.config import Settings
from vaultd.errors import ParseError, VaultdError
from vaultd.pipeline.citations import renderer_for
from vaultd.pipeline.compile import compile_note
from vaultd.pipeline.compiled import CompileResult
from vaultd.pipeline.figure_crops import render_pending_figures
from vaultd.vault import Vault

log = logging.getLogger(__name__)
A = TypeVar("A")
R = TypeVar("R")


@dataclass(frozen=True)
class CompileJob:
    """One note to compile: its key, and where and with which tags its note goes."""

    cite_key: str
    parser: str = "auto"
    folder: str | None = None
    tags: tuple[str, ...] = ()
    has_pdf: bool | None = None  # None: read from the record
    figures: bool = True  # False: figure crops left pending (``figure_crops``)


@dataclass
class JobOutcome:
    """What one job gave: the result, or the error (its class name and whether retrying
    later may help, as ``VaultdError.transient`` says)."""

    cite_key: str
    result: CompileResult | None = None
    error: str | None = None
    error_type: str | None = None
    transient: bool = False

    def raise_error(self) -> None:
        """Raise the job's error in the caller (a worker's exception is not sent whole:
        not every error pickles)."""
        if self.error is None:
            return
        exc = (ParseError if self.error_type == "ParseError" else VaultdError)(self.error)
        exc.transient = self.transient
        raise exc


class CompileStoppedError(VaultdError):
    """The pool was closed (the agent stopping) before a job's compile finished: nothing
    is wrong with the item; it is compiled again at the next start."""

    transient = True


#: The worker's vault, settings and renderer, set once when it starts.
_WORKER: dict[str, Any] = {}


def _start_worker(vault: Vault, settings: Settings, preload: tuple[str, ...] = ()) -> None:
    # Ctrl-C in a terminal reaches the whole process group: the parent stops the workers
    # (``close``); a worker interrupted on its own would only print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER.update(vault=vault, settings=settings, citer=renderer_for(vault, settings))
    for module in preload:  # at start, not on the first job that needs it
        importlib.import_module(module)


def worker_state() -> tuple[Vault, Settings]:
    """In a worker process: the vault and settings it was started for (for a function
    handed to ``BulkCompiler.submit``)."""
    return _WORKER["vault"], _WORKER["settings"]


def _run_job(job: CompileJob) -> JobOutcome:
    return _compile_one(_WORKER["vault"], _WORKER["settings"], job, _WORKER["citer"])


def _draw_figures(cite_key: str) -> int:
    try:
        return render_pending_figures(_WORKER["vault"], cite_key)
    except Exception:  # a crop is derived data: the next compile draws it
        log.exception("figure crops of %s not drawn", cite_key)
        return 0


def _compile_one(vault: Vault, settings: Settings, job: CompileJob, citer: Any) -> JobOutcome:
    try:
        result = compile_note(vault, settings, job.cite_key, parser=job.parser,
                              folder=job.folder, citer=citer, tags=job.tags,
                              figures=job.figures)
    except VaultdError as exc:
        return JobOutcome(job.cite_key, error=str(exc), error_type=type(exc).__name__,
                          transient=exc.transient)
    except Exception as exc:  # a worker survives any one paper: it is a loop's top level
        log.exception("compile of %s crashed", job.cite_key)
        return JobOutcome(job.cite_key, error=f"internal error while compiling: {exc}",
                          error_type=type(exc).__name__)
    return JobOutcome(job.cite_key, result)


class BulkCompiler:
    """Worker processes for one vault, started on first use and kept until ``close``."""

    def __init__(self, vault: Vault, settings: Settings, *, workers: int | None = None,
                 preload: Sequence[str] = ()) -> None:
        self.vault, self.settings = vault, settings
        self.workers = max(1, workers or os.cpu_count() or 2)
        #: modules each worker imports when it starts (the agent's: the capture stage)
        self.preload = tuple(preload)
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._closed = False

    def __enter__(self) -> BulkCompiler:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def _pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._closed:
                raise CompileStoppedError("the compile workers were stopped; the item is "
                                          "compiled at the next start")
            if self._executor is None:
                self._executor = ProcessPoolExecutor(
                    max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker,
                    initargs=(self.vault, self.settings, self.preload))
            return self._executor

    def start(self, *, wait: bool = True) -> None:
        """Start the workers now (they start on first use otherwise), so their start-up
        (a fresh interpreter importing the compile stage, seconds) overlaps the caller's
        own work when ``wait`` is false."""
        pool = self._pool()
        started = [pool.submit(os.getpid) for _ in range(self.workers)]
        for future in started if wait else ():
            future.result()

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self, timeout: float | None = None) -> None:
        """Stop the workers: jobs not started are cancelled; running ones are waited for,
        at most ``timeout`` seconds when given (then the workers are terminated: a note is
        written whole or not at all, so nothing is left half-written). Callers waiting on a
        job get ``CompileStoppedError``. The pool cannot be used again."""
        with self._lock:
            executor, self._executor = self._executor, None
            self._closed = True
        if executor is None:
            return
        if timeout is None:
            executor.shutdown(wait=True, cancel_futures=True)
            return
        workers = multiprocessing.active_children()  # the pool's (the agent starts no other)
        executor.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + timeout
        for proc in workers:
            proc.join(max(0.0, deadline - time.monotonic()))
        for proc in workers:
            if proc.is_alive():
                log.info("compile worker %s stopped mid-compile", proc.pid)
                proc.terminate()
                proc.join(2.0)

    def _restart(self, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._executor is broken:
                self._executor = None
        broken.shutdown(wait=False, cancel_futures=True)

    def compile(self, jobs: Sequence[CompileJob], citer: Any) -> Iterator[JobOutcome]:
        """Each job's outcome as it completes: PDFs in the workers (the largest first, so
        no worker is left with a long one at the end), citation-only notes here (with
        ``citer``) while the workers parse. A worker that dies (a PDF that crashes MuPDF) fails the jobs it took down; they are
        tried again one at a time in a fresh pool, then reported failed."""
        pdf = [j for j in jobs if (j.has_pdf if j.has_pdf is not None
                                   else _has_pdf(self.vault, j.cite_key))]
        pdf.sort(key=lambda j: -_size(self.vault.pdf_path(j.cite_key)))
        in_pool = {j.cite_key for j in pdf}
        futures = self._submit(pdf)
        for job in jobs:
            if job.cite_key not in in_pool:
                yield _compile_one(self.vault, self.settings, job, citer)
        retry: list[CompileJob] = []
        yield from self._collect(futures, retry)
        for job in retry:  # one at a time: the one that kills a worker is found
            yield from self._collect(self._submit([job]), None)

    def submit(self, fn: Callable[[A], R], arg: A) -> Future[R]:
        """Run ``fn(arg)`` (a module-level function: it is pickled by name) in a worker,
        which may read its vault and settings with ``worker_state``. A pool a crash broke is
        replaced; a closed one raises ``CompileStoppedError``."""
        pool = self._pool()
        try:
            return pool.submit(fn, arg)
        except BrokenProcessPool:
            self._restart(pool)
            return self._pool().submit(fn, arg)
        except RuntimeError as exc:  # "cannot schedule new futures after shutdown"
            if self._closed:
                raise CompileStoppedError(str(exc)) from None
            raise

    def draw_figures(self, cite_keys: Sequence[str]) -> int:
        """Draw the figure crops compiles left pending, in the workers; how many."""
        if not cite_keys or self._closed:
            return 0
        try:
            pool = self._pool()
            futures = [pool.submit(_draw_figures, k) for k in cite_keys]
        except (CompileStoppedError, RuntimeError):  # closed meanwhile: drawn next compile
            return 0
        drawn = 0
        for future in as_completed(futures):
            try:
                drawn += future.result()
            except (BrokenProcessPool, CancelledError):
                if not self._closed:
                    self._restart(pool)
                break
        return drawn

    def _submit(self, jobs: Sequence[CompileJob]) -> dict[Future[JobOutcome], CompileJob]:
        if not jobs:
            return {}
        pool = self._pool()
        try:
            return {pool.submit(_run_job, j): j for j in jobs}
        except RuntimeError as exc:  # "cannot schedule new futures after shutdown"
            if self._closed:
                raise CompileStoppedError(str(exc)) from None
            raise

    def _collect(self, futures: dict[Future[JobOutcome], CompileJob],
                 retry: list[CompileJob] | None) -> Iterator[JobOutcome]:
        broken: ProcessPoolExecutor | None = None
        for future in as_completed(futures):
            job = futures[future]
            try:
                outcome = future.result()
            except (BrokenProcessPool, CancelledError):
                if self._closed:  # stopped, not crashed: the item is not at fault
                    raise CompileStoppedError(
                        f"{job.cite_key}: the compile workers were stopped; it is compiled "
                        "at the next start") from None
                broken = self._executor
                if retry is not None:
                    retry.append(job)
                else:
                    pdf = self.vault.rel(self.vault.pdf_path(job.cite_key))
                    yield JobOutcome(job.cite_key, error=f"{pdf}: the PDF crashed the parser; "
                                     "check that it opens in a PDF viewer and download it "
                                     "again", error_type="ParseError")
            else:
                yield outcome
        if broken is not None:
            self._restart(broken)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _has_pdf(vault: Vault, cite_key: str) -> bool:
    meta = record_store.get(vault, cite_key)
    return meta is not None and meta.pdf is not None and meta.video is None
