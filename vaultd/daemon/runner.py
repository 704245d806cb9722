"""The agent `vaultd run` starts (``cli/run_cmd`` builds it and hands it its companions).

Threads: the main loop (debounce → enqueue → dispatch), ``concurrency`` job workers, one
enrichment thread (the LLM never holds a job slot), one maintenance thread (wiki
re-index, library.bib export), watchdog's observer, APScheduler's scheduler, and the
servers handed in as companions (the browser bridge, MCP over HTTP).
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
from vaultd.daemon import outcomes
from vaultd.daemon.companions import Companion, start_companions
from vaultd.daemon.lease import LEASE_FILE, InboxLease
from vaultd.daemon.queue import Job, JobQueue
from vaultd.daemon.rules import LINK_EXTENSIONS, LoadedRule, decide, load_rules, read_facts
from vaultd.daemon.watcher import Debouncer, InboxWatcher, stat_file
from vaultd.errors import DiskError, VaultdError, disk_error
from vaultd.service_lock import vault_lock
from vaultd.statedb import open_state_db
from vaultd.vault import Vault

log = logging.getLogger("vaultd.daemon")

SHUTDOWN_GRACE_SECONDS = 7.0
PIPELINE_MODULES = ("vaultd.pipeline.capture", "vaultd.pipeline.compile",
                    "vaultd.pipeline.enrich", "vaultd.pipeline.index")
RETRY_TODO = "fix the file and drop it into Inbox/ again, or capture it with `vaultd capture`"


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


def _shown_path(vault: Vault, path: Path | None) -> str | None:
    """``path`` relative to the vault (``Inbox/_failed/x.pdf``), or as is outside it."""
    if path is None:
        return None
    try:
        return vault.rel(path)
    except ValueError:
        return str(path)


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
        self._work: stdqueue.Queue[Job | None] = stdqueue.Queue()
        self._enrich: stdqueue.Queue[list[str] | None] = stdqueue.Queue()
        self._maint: stdqueue.Queue[Callable[[], Any] | None] = stdqueue.Queue()
        self._running: dict[int, float] = {}
        # A job that was running when vaultd died runs alone: with two jobs running at a
        # crash, either file may be the culprit, and only a crash while one runs alone
        # tells which (so an innocent file never reaches MAX_CRASHES by keeping company).
        self._solo: int | None = None
        self._running_lock = threading.Lock()
        self._key_locks: dict[str, threading.Lock] = {}
        self._key_locks_guard = threading.Lock()
        self._wiki_debounce = Debouncer(max(1.0, settings.daemon.debounce_seconds))
        self._wiki_lock = threading.Lock()
        self._bib_dirty = threading.Event()
        self._threads: list[threading.Thread] = []
        self.lease = InboxLease(vault, settle_seconds=settings.daemon.inbox_lease_settle_seconds)
        self._had_lease = False

    # -- job processing -------------------------------------------------------------------

    def _key_lock(self, key: str) -> threading.Lock:
        with self._key_locks_guard:
            return self._key_locks.setdefault(key, threading.Lock())

    def _fail(self, job: Job, path: Path, what: str, todo: str = RETRY_TODO,
              detail: str | None = None) -> None:
        # Move first: while the job is still `running` no second job can be queued for this
        # file version, and once it is in _failed/ the watcher no longer sees it.
        note: Path | None = None
        try:
            note = outcomes.fail_item(self.vault, path, what, todo, detail)
        finally:  # even when the move fails (read-only inbox, disk full): never left running
            kept = note.with_name(note.name.removesuffix(".error.md")) if note else None
            self.queue.fail(job.id, what, kept_at=_shown_path(self.vault, kept))
        log.warning("job %d failed: %s (see %s)", job.id, what, note)

    def _fail_crashed(self, job: Job) -> None:
        """A file that stopped vaultd MAX_CRASHES times goes to _failed/ (no crash loop)."""
        path = Path(job.path)
        if not path.exists():
            return
        what = (f"vaultd stopped while processing {path.name} ({job.crashes} times: "
                "the process crashed or was killed, e.g. out of memory)")
        todo = ("check the file opens in another app; try `vaultd capture FILE` in a terminal "
                "to see the error; if it is a valid file, report it with "
                f"{self.vault.logs_dir / 'vaultd.log'}, then drop it into Inbox/ again")
        note = outcomes.fail_item(self.vault, path, what, todo)
        log.warning("job %d failed for good: %s (see %s)", job.id, what, note)

    def process(self, job: Job) -> None:
        """Run one job to an outcome. Expected failures are recorded, never raised."""
        path = Path(job.path)
        if not path.exists() and not path.is_symlink():
            self.queue.finish(job.id, "vanished")
            return
        st = stat_file(path)
        limit = self.settings.daemon.max_file_mb
        if st is not None and st.size > limit * 1024 * 1024:
            self._fail(job, path, f"{path.name} is larger than the {limit} MB limit",
                       "raise `daemon.max_file_mb` in .vaultd/config.toml and drop it again")
            return
        try:
            facts = read_facts(path)
        except OSError as exc:
            self._fail(job, path, f"cannot read {path.name}: {exc.strerror or exc}",
                       "check the file's permissions and drop a readable copy into Inbox/")
            return
        if st is not None and st.size == 0:
            self._fail(job, path, f"{path.name} is empty", "drop the complete file again")
            return
        decision = decide(self.rules, facts)
        if decision.rule is None:
            if facts.suffix in LINK_EXTENSIONS and facts.url is None:
                self._fail(job, path, f"no URL found in {path.name}",
                           "put the link (https://…) in the file and drop it again")
            elif facts.suffix == ".pdf":  # named like a PDF, but its bytes are not one
                self._fail(job, path, f"{path.name} is not a PDF: it does not start with "
                           "%PDF- (a download interrupted, or an HTML page saved as .pdf)",
                           "download the PDF again and drop it into Inbox/")
            else:
                self._fail(job, path, f"no inbox rule matches {path.name}",
                           "add a rule in .vaultd/rules/ (see `vaultd rules test FILE`) "
                           "or capture it with `vaultd capture`")
            return
        rule = decision.rule.rule
        if rule.action == "ignore":
            self.queue.finish(job.id, f"ignored by rule {rule.name}")
            return
        if rule.action == "save_web":
            self._save_web(job, path)
            return
        from vaultd.pipeline.ingest import (
            idempotency_key,
            ingest_item,
            partial_summary,
            write_partial_report,
        )

        key = idempotency_key(path, facts.url)
        self.queue.set_idem_key(job.id, key, rule.name)
        with self._key_lock(key):
            dup = self.queue.done_with_key(key)
            if dup is not None and all(self.vault.note_path(k).is_file() for k in dup.cite_keys):
                where = (outcomes.archive_video_files(self.vault, path)
                         if path.name.lower().endswith(".info.json")
                         else outcomes.archive(self.vault, path))
                self.queue.finish(job.id, f"duplicate of job {dup.id}; kept at "
                                  f"{self.vault.rel(where)}", dup.cite_keys)
                log.info("job %d: %s is already in the vault as %s; the drop is kept at %s",
                         job.id, path.name, ", ".join(dup.cite_keys), self.vault.rel(where))
                return
            try:
                result = ingest_item(self.vault, self.settings, path, action=rule.action,
                                     url=facts.url, compile=rule.compile, tags=rule.tags,
                                     folder=rule.folder)
            except VaultdError as exc:
                if exc.transient and job.retryable(time.time()):
                    self.queue.fail(job.id, str(exc), transient=True)
                    log.info("job %d: transient failure, will retry: %s", job.id, exc)
                else:
                    self._fail(job, path, str(exc))
                return
            if path.name.lower().endswith(".info.json"):
                where = outcomes.archive_video_files(self.vault, path)
            elif facts.url is None and rule.action == "capture" and result.cite_keys:
                where = outcomes.place_processed_pdf(self.vault, path, result.cite_keys[0])
            else:
                where = outcomes.archive(self.vault, path)
            partial = ""
            if result.failed:  # some items of a link file / .bib failed: name each
                write_partial_report(self.vault, path.name, self.vault.rel(where), result)
                partial = f"; {partial_summary(result)}"
            self.queue.finish(job.id, f"{'/'.join(result.statuses)}; file at "
                              f"{self.vault.rel(where)}{partial}", result.cite_keys)
        log.info("job %d done: %s → %s", job.id, path.name, ", ".join(result.cite_keys))
        self._bib_dirty.set()
        if rule.enrich and result.cite_keys:
            self._enrich.put(result.cite_keys)

    def _save_web(self, job: Job, path: Path) -> None:
        from vaultd.pipeline.web_source import save_web_page

        try:
            page = save_web_page(self.vault, path)
        except VaultdError as exc:
            self._fail(job, path, str(exc))
            return
        self.queue.finish(job.id, f"web page saved, not compiled: {self.vault.rel(page.html)}")
        log.info("job %d done: %s → %s", job.id, path.name, self.vault.rel(page.html))

    def _release(self, job_id: int) -> None:
        """A job no longer runs here (finished, or put back at shutdown)."""
        with self._running_lock:
            self._running.pop(job_id, None)
            if self._solo == job_id:
                self._solo = None

    def _worker(self) -> None:
        while True:
            job = self._work.get()
            if job is None:
                return
            try:
                self.process(job)
            except OSError as exc:
                disk = disk_error(exc)
                if disk is None:
                    self._crashed(job, exc)
                else:
                    self._disk_refused(job, disk)
            except Exception as exc:  # the service survives any single bad item
                self._crashed(job, exc)
            finally:
                self._release(job.id)

    def _crashed(self, job: Job, exc: Exception) -> None:
        log.exception("job %d crashed on %s", job.id, job.path)
        with contextlib.suppress(Exception):
            self._fail(job, Path(job.path), f"internal error: {exc}",
                       f"report this with the log {self.vault.logs_dir / 'vaultd.log'}; "
                       "then drop the file again")

    def _disk_refused(self, job: Job, disk: DiskError) -> None:
        """A full disk: the item stays in Inbox/ and the job is retried later (``vaultd
        status`` lists it with the reason); a read-only one: failed, the item left where it
        is (it cannot be moved)."""
        if disk.transient and job.retryable(time.time()):
            self.queue.fail(job.id, str(disk), transient=True)
            log.warning("job %d waits for disk space, will retry: %s", job.id, disk)
            return
        with contextlib.suppress(OSError):
            self._fail(job, Path(job.path), str(disk), "make room or make the vault writable, "
                       "then drop the file into Inbox/ again")

    def _enricher(self) -> None:
        from vaultd.pipeline.ingest import enrich_after

        while True:
            keys = self._enrich.get()
            if keys is None:
                return
            try:
                for message in enrich_after(self.vault, self.settings, keys):
                    log.info("enrich: %s", message)
            except Exception:
                log.exception("enrichment of %s failed", keys)

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
            from vaultd.pipeline.index import index_paths
        except ImportError:
            return
        index_paths(self.vault, self.settings, paths)

    def _reconcile_index(self) -> None:
        """Startup: catch up with wiki/ edits and deletions made while vaultd was down."""
        try:
            from vaultd.daemon.scheduler import index_reconcile

            index_reconcile(self.vault, self.settings)
        except ImportError:
            return
        log.info("index reconciled with the vault")

    def export_bib(self) -> None:
        from vaultd.library_bib import export_library_bib

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
        if self._bib_dirty.is_set():
            self._bib_dirty.clear()
            self._maint.put(self.export_bib)
        while inbox:
            with self._running_lock:
                if len(self._running) >= self.settings.daemon.concurrency or self._solo is not None:
                    break
                job = self.queue.claim(suspects=not self._running)
                if job is None:
                    break
                self._running[job.id] = time.monotonic()
                if job.crashes:
                    self._solo = job.id
            self._work.put(job)

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
                self._fail_crashed(job)
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
                from vaultd.daemon.scheduler import start_scheduler

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
            if job is not None:
                self.queue.requeue(job.id)
                self._release(job.id)
        while time.monotonic() < deadline:
            with self._running_lock:
                if not self._running:
                    break
            time.sleep(0.05)
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
