"""The agent `vaultd run` starts (``cli/run_cmd`` builds it and hands it its companions).

Threads: the main loop (debounce → enqueue → dispatch), ``concurrency`` job workers, one
enrichment thread (the LLM never holds a job slot), one maintenance thread (wiki
re-index, library.bib export, figure crops left pending), watchdog's observer,
APScheduler's scheduler, and the servers handed in as companions (the browser bridge, MCP
over HTTP). Processes: a pool of compile workers (``pipeline.bulk``, spawn-started once,
on the first PDF), closed at shutdown. Several PDFs claimed at once are one burst
(``burst``): captured one by one, compiled together.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import logging.handlers
import os
import queue as stdqueue
import signal
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import Any

from vaultd.config import Settings
from vaultd.daemon.burst import BURST_MAX_JOBS, CitationCalls, PendingFigures, process_burst
from vaultd.daemon.companions import Companion, start_companions
from vaultd.daemon.jobs import Ingested, JobProcessor
from vaultd.daemon.lease import LEASE_FILE, InboxLease
from vaultd.daemon.queue import Job, JobQueue
from vaultd.daemon.rules import LoadedRule, load_rules
from vaultd.daemon.scheduler import index_reconcile, start_scheduler
from vaultd.daemon.watcher import Debouncer, InboxWatcher, stat_file
from vaultd.errors import disk_error
from vaultd.library_bib import export_library_bib
from vaultd.pipeline.bulk import BulkCompiler
from vaultd.pipeline.enrich_pass import enrich_notes
from vaultd.service_lock import vault_lock
from vaultd.statedb import open_state_db
from vaultd.vault import Vault

log = logging.getLogger("vaultd.daemon")

SHUTDOWN_GRACE_SECONDS = 7.0
#: After a pass found the LLM unavailable, new notes wait this long for the queue to be
#: idle before the next pass asks again (a pass while it is down only marks chunks
#: pending, and would parse and rewrite every note while the bursts compile).
LLM_DOWN_HOLD_SECONDS = 300.0
#: library.bib is exported when the queue is idle, or at the latest this long after a job
#: changed the records (a long import still updates it as it goes).
BIB_EXPORT_MAX_DELAY_SECONDS = 60.0
ENRICH_POLL_SECONDS = 0.5
#: Compile workers by default: one per core, at most this many (each holds 130-150 MiB).
MAX_COMPILE_WORKERS = 4
PIPELINE_MODULES = ("vaultd.pipeline.capture", "vaultd.pipeline.compile",
                    "vaultd.pipeline.enrich", "vaultd.pipeline.index")


def setup_logging(vault: Vault, verbose: bool = True) -> list[logging.Handler]:
    """Rotating <state dir>/logs/vaultd.log plus stderr, on the ``vaultd`` logger."""
    vault.logs_dir.mkdir(parents=True, exist_ok=True)
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    file_handler = logging.handlers.RotatingFileHandler(
        vault.logs_dir / "vaultd.log", maxBytes=5 * 1024 * 1024, backupCount=3, encoding="utf-8"
    )
    stream = logging.StreamHandler()
    handlers: list[logging.Handler] = [file_handler, stream]
    stream.setLevel(logging.INFO if verbose else logging.WARNING)
    root = logging.getLogger("vaultd")
    for h in handlers:
        h.setFormatter(fmt)
        root.addHandler(h)
    root.setLevel(logging.INFO)
    return handlers


class Daemon:
    def __init__(self, vault: Vault, settings: Settings, rules: list[LoadedRule] | None = None,
                 *, scheduler: bool = True, companions: Sequence[Companion] = ()) -> None:
        self.vault = vault
        self.companions = tuple(companions)
        self.settings = settings
        self.rules = rules if rules is not None else load_rules(vault.rules_dir)
        self.use_scheduler = scheduler
        self.stop_event = threading.Event()
        # Import the stages first so their state.db migrations are applied here, once,
        # not raced by two workers opening the database for the first time.
        for module in PIPELINE_MODULES:
            try:
                importlib.import_module(module)
            except ImportError as exc:
                log.warning("%s not available: %s", module, exc)
        self.db = open_state_db(vault.state_db)
        self.queue = JobQueue(self.db)
        self.jobs = JobProcessor(vault, settings, self.rules, self.queue)
        self._work: stdqueue.Queue[list[Job] | None] = stdqueue.Queue()
        self._enrich: stdqueue.Queue[list[str] | None] = stdqueue.Queue()
        self._maint: stdqueue.Queue[Callable[[], Any] | None] = stdqueue.Queue()
        self._running: dict[int, float] = {}
        self._batch_of: dict[int, int] = {}  # running job -> its batch's first job
        self.pool: BulkCompiler | None = None  # made once the vault lock is held
        self.figures = PendingFigures()
        self.citations = CitationCalls(vault, settings)  # the bursts' citation calls
        self._drawing = threading.Event()
        # A job that was running when vaultd died runs alone: with two jobs running at a
        # crash, either file may be the culprit, and only a crash while one runs alone
        # tells which (so an innocent file never reaches MAX_CRASHES by keeping company).
        self._solo: int | None = None
        self._running_lock = threading.Lock()
        self._wiki_debounce = Debouncer(max(1.0, settings.daemon.debounce_seconds))
        self._wiki_lock = threading.Lock()
        self._bib_dirty = threading.Event()
        self._bib_dirty_since: float | None = None
        self._llm_down_at: float | None = None  # monotonic: a pass found the LLM down
        self._threads: list[threading.Thread] = []
        self.lease = InboxLease(vault, settle_seconds=settings.daemon.inbox_lease_settle_seconds)
        self._had_lease = False

    # -- job processing -------------------------------------------------------------------

    def process(self, job: Job) -> None:
        """Run one job to an outcome (`jobs`); what it made is re-exported and enriched."""
        self._made(self.jobs.process(job))

    def process_batch(self, batch: list[Job]) -> None:
        """Run the jobs claimed together: one alone, several as a burst (their PDFs
        compiled together in the pool). A burst that breaks unexpectedly leaves its jobs
        still running to run one by one, so only a file at fault fails."""
        if len(batch) == 1 or self.pool is None:
            for job in batch:
                self._guarded(job)
            return
        try:
            for made in process_burst(self.jobs, batch, self.pool, self.figures,
                                      self.citations):
                self._made(made)
        except Exception:
            log.exception("burst of %d jobs failed; running them one by one", len(batch))
            for job in batch:
                if self.queue.get(job.id).state == "running":
                    self._guarded(job)

    def _made(self, done: Ingested | None) -> None:
        if done is None:
            return
        self._bib_dirty.set()
        if done.enrich and done.cite_keys:
            self._enrich.put(done.cite_keys)

    def _guarded(self, job: Job) -> None:
        try:
            self.process(job)
        except OSError as exc:
            disk = disk_error(exc)
            if disk is None:
                self.jobs.crashed(job, exc)
            else:
                self.jobs.disk_refused(job, disk)
        except Exception as exc:  # the service survives any single bad item
            self.jobs.crashed(job, exc)

    def _release(self, job_id: int) -> None:
        """A job no longer runs here (finished, or put back at shutdown)."""
        with self._running_lock:
            self._running.pop(job_id, None)
            self._batch_of.pop(job_id, None)
            if self._solo == job_id:
                self._solo = None

    def _worker(self) -> None:
        while True:
            batch = self._work.get()
            if batch is None:
                return
            try:
                self.process_batch(batch)
            finally:
                for job in batch:
                    self._release(job.id)

    def _draw_figures(self, keys: list[str]) -> None:
        """Figure crops the bursts left pending, drawn by the pool (the queue is idle)."""
        try:
            if self.pool is not None:
                drawn = self.pool.draw_figures(keys)
                log.info("figure crops drawn for %d note(s): %d", len(keys), drawn)
        finally:
            self._drawing.clear()

    def _idle(self) -> bool:
        with self._running_lock:
            return not self._running

    def _enricher(self) -> None:
        """Enrichment passes over the notes jobs made. While the LLM is known to be down
        (a pass found it so less than ``LLM_DOWN_HOLD_SECONDS`` ago) new notes are held
        until the queue is idle: the pass then only marks their chunks pending, and the
        same notes end up written as they would be at once."""
        held: dict[str, None] = {}
        while True:
            try:
                keys = self._enrich.get(timeout=ENRICH_POLL_SECONDS)
            except stdqueue.Empty:
                keys = []
            if keys is None:
                return
            held.update(dict.fromkeys(keys))
            down = self._llm_down_at is not None and \
                time.monotonic() - self._llm_down_at < LLM_DOWN_HOLD_SECONDS
            if not held or (down and not self._idle()):
                continue
            batch, held = list(held), {}
            try:
                done = enrich_notes(self.vault, self.settings, batch)
            except Exception:
                log.exception("enrichment of %s failed", batch)
                continue
            self._llm_down_at = time.monotonic() if done.unavailable else None
            for message in done.messages:
                log.info("enrich: %s", message)
            log.info("enrichment pass over %d note(s) done", len(batch))

    def _maintenance(self) -> None:
        while True:
            task = self._maint.get()
            if task is None:
                return
            try:
                task()
            except Exception:
                log.exception("maintenance task failed")

    # -- loop -----------------------------------------------------------------------------

    def _on_wiki_change(self, path: Path) -> None:
        with self._wiki_lock:
            self._wiki_debounce.touch(path)

    def _reindex_wiki(self, paths: list[Path]) -> None:
        try:
            # lazy: vaultd.pipeline.index costs 33 ms at import (pulls in apsw)
            from vaultd.pipeline.index import index_paths
        except ImportError:
            return
        index_paths(self.vault, self.settings, paths)

    def _reconcile_index(self) -> None:
        """Startup: catch up with wiki/ edits and deletions made while vaultd was down."""
        index_reconcile(self.vault, self.settings)
        log.info("index reconciled with the vault")

    def export_bib(self) -> None:
        if export_library_bib(self.vault):
            log.info("library.bib re-exported")

    def _tick(self, watcher: InboxWatcher) -> None:
        now = time.monotonic()
        inbox = self.lease.held()  # a synced vault's Inbox is one machine's at a time
        if inbox and not self._had_lease:
            log.info("this machine processes the Inbox now (lease %s)", self.vault.state_dir /
                     LEASE_FILE)
            watcher.rescan()  # what arrived while another machine had it
        elif self._had_lease and not inbox:
            log.info("another machine processes the Inbox now; leaving it alone")
        self._had_lease = inbox
        for path, st in watcher.poll(now) if inbox else ():
            job_id = self.queue.enqueue(str(path), st.fingerprint)
            if job_id is not None:
                log.info("queued job %d: %s", job_id, path.name)
        with self._wiki_lock:
            wiki_paths = list(self._wiki_debounce.pending)
        if wiki_paths:
            stats = {p: stat_file(p) for p in wiki_paths}
            with self._wiki_lock:
                ready = [p for p, _ in self._wiki_debounce.step(stats, now)]
            # Deleted or renamed-away notes leave the index now, not at the next reconcile.
            ready += [p for p, st in stats.items() if st is None]
            if ready:
                self._maint.put(lambda: self._reindex_wiki(ready))
        while inbox:
            with self._running_lock:
                busy = len(set(self._batch_of.values()))  # a single job or a burst: one slot
                if busy >= self.settings.daemon.concurrency or self._solo is not None:
                    break
                job = self.queue.claim(suspects=not self._running)
                if job is None:
                    break
                batch = [job]
                if job.crashes:
                    self._solo = job.id
                elif self.pool is not None:  # what else is due joins it: one burst
                    while len(batch) < BURST_MAX_JOBS and \
                            (more := self.queue.claim(suspects=False)) is not None:
                        batch.append(more)
                for claimed in batch:
                    self._running[claimed.id] = time.monotonic()
                    self._batch_of[claimed.id] = job.id
            self._work.put(batch)
        idle = self._idle()
        if self._bib_dirty.is_set():  # once the queue is idle, or a minute at the latest
            if self._bib_dirty_since is None:
                self._bib_dirty_since = now
            if idle or now - self._bib_dirty_since >= BIB_EXPORT_MAX_DELAY_SECONDS:
                self._bib_dirty.clear()
                self._bib_dirty_since = None
                self._maint.put(self.export_bib)
        if idle and inbox and not self._drawing.is_set() and (keys := self.figures.take()):
            self._drawing.set()
            self._maint.put(lambda: self._draw_figures(keys))

    def _start_thread(self, target: Callable[[], None], name: str) -> None:
        t = threading.Thread(target=target, name=name, daemon=True)
        t.start()
        self._threads.append(t)

    def request_stop(self, signum: int | None = None, frame: FrameType | None = None) -> None:
        log.info("stopping (signal %s)", signum)
        self.stop_event.set()

    def run(self, *, install_signals: bool = True, ready: Callable[[], None] | None = None) -> int:
        """Run until stopped. Returns 0; leaves running jobs re-queued if they overrun."""
        with vault_lock(self.vault):
            if install_signals:
                signal.signal(signal.SIGTERM, self.request_stop)
                signal.signal(signal.SIGINT, self.request_stop)
            stale = self.queue.requeue_stale()
            if stale.requeued:
                log.info("re-queued %d job(s) left running by a previous process",
                         stale.requeued)
            for job in stale.failed:
                self.jobs.fail_crashed(job)
            workers = self.settings.daemon.compile_workers
            if workers is None:
                workers = min(os.cpu_count() or 2, MAX_COMPILE_WORKERS)
            if workers:  # started on the first PDF, then kept until shutdown
                # A burst captures in the workers: they import the capture stage (0.5 s)
                # when they start, not on a burst's first captures.
                self.pool = self.jobs.pool = BulkCompiler(
                    self.vault, self.settings, workers=workers,
                    preload=("vaultd.pipeline.capture",))
            self.queue.set_meta("service", {"pid": os.getpid(), "started_at": time.time()})
            for i in range(self.settings.daemon.concurrency):
                self._start_thread(self._worker, f"vaultd-job-{i}")
            self._start_thread(self._enricher, "vaultd-enrich")
            self._start_thread(self._maintenance, "vaultd-maint")
            # In the background (maintenance thread): never delays the inbox.
            if self.vault.index_db.exists():  # none yet: the first compile builds it
                self._maint.put(self._reconcile_index)
            watcher = InboxWatcher(self.vault.inbox, self.vault.wiki,
                                   self.settings.daemon.debounce_seconds, self._on_wiki_change)
            watcher.start()
            sched = None
            if self.use_scheduler:
                sched = start_scheduler(self)
            servers = start_companions(self.companions, self.queue.set_meta)
            log.info("vaultd running on %s (%d rules, %d workers)", self.vault.root,
                     len(self.rules), self.settings.daemon.concurrency)
            if ready:
                ready()
            tick = max(0.05, min(0.5, self.settings.daemon.debounce_seconds / 4))
            while not self.stop_event.is_set():
                try:
                    self._tick(watcher)
                except Exception:
                    log.exception("main loop error (continuing)")
                self.stop_event.wait(tick)
            watcher.stop()
            self.lease.release()
            for server in servers:
                server.stop()
            if sched is not None:
                sched.shutdown(wait=False)
            return self._shutdown()

    def _shutdown(self) -> int:
        deadline = time.monotonic() + SHUTDOWN_GRACE_SECONDS
        # Jobs not yet picked up by a worker go back to the queue untouched.
        while True:
            try:
                job = self._work.get_nowait()
            except stdqueue.Empty:
                break
            for queued in job or ():
                self.queue.requeue(queued.id)
                self._release(queued.id)
        while time.monotonic() < deadline:
            with self._running_lock:
                if not self._running:
                    break
            time.sleep(0.05)
        if self.pool is not None:  # a compile still running is stopped; its job re-queued
            self.pool.close(timeout=max(1.0, deadline - time.monotonic()))
        with self._running_lock:
            left = list(self._running)
        for job_id in left:
            self.queue.requeue(job_id)
            log.info("job %d re-queued at shutdown", job_id)
        # Queued enrichment is dropped: those chunks stay pending for the backlog pass.
        for q in (self._enrich, self._maint):
            with contextlib.suppress(stdqueue.Empty):
                while True:
                    q.get_nowait()
        for q2 in (self._work, self._enrich, self._maint):
            for _ in range(len(self._threads)):
                q2.put(None)
        # Let the enrichment and maintenance threads finish the note they are writing.
        for t in self._threads:
            t.join(max(0.0, deadline + 1.0 - time.monotonic()))
        self.abandoned = bool(left) or any(t.is_alive() for t in self._threads)
        log.info("vaultd stopped")
        return 0

    abandoned: bool = False
