"""One Inbox job, from its file to an outcome: the checks, the rule, the pipeline, and
where the file goes (archived, placed beside its record, or into Inbox/_failed/ with a note
saying what failed and what to do). The agent (`runner`) runs jobs on its worker threads.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from vaultd.config import Settings
from vaultd.daemon import outcomes
from vaultd.daemon.queue import Job, JobQueue
from vaultd.daemon.rules import LINK_EXTENSIONS, FileFacts, LoadedRule, Rule, decide, read_facts
from vaultd.daemon.watcher import stat_file
from vaultd.errors import DiskError, VaultdError
from vaultd.pipeline.bulk import BulkCompiler, CompileStoppedError
from vaultd.pipeline.ingest import (
    Action,
    IngestResult,
    idempotency_key,
    ingest_item,
    partial_summary,
    write_partial_report,
)
from vaultd.pipeline.web_source import save_web_page
from vaultd.vault import Vault

log = logging.getLogger("vaultd.daemon")

RETRY_TODO = "fix the file and drop it into Inbox/ again, or capture it with `vaultd capture`"


def _shown_path(vault: Vault, path: Path | None) -> str | None:
    """``path`` relative to the vault (``Inbox/_failed/x.pdf``), or as is outside it."""
    if path is None:
        return None
    try:
        return vault.rel(path)
    except ValueError:
        return str(path)


@dataclass(frozen=True)
class Prepared:
    """A job past its checks: its file, what the rules read of it, the rule it meets and
    its idempotency key (what it captures: PDF SHA-256, arXiv id, DOI, URL)."""

    job: Job
    path: Path
    facts: FileFacts
    rule: Rule
    key: str

    @property
    def action(self) -> Action:
        return "import_bib" if self.rule.action == "import_bib" else "capture"  # as prepared

    @property
    def compiles_pdf(self) -> bool:
        """A PDF captured and compiled: what a burst compiles together (``burst``)."""
        return (self.rule.action == "capture" and self.rule.compile
                and self.facts.url is None and self.facts.head.startswith(b"%PDF-"))


@dataclass(frozen=True)
class Ingested:
    """A job the pipeline turned into notes: their cite keys, and whether the rule asks
    for enrichment."""

    cite_keys: list[str]
    enrich: bool


class JobProcessor:
    """Runs jobs of one vault's queue; safe to call from several worker threads."""

    def __init__(self, vault: Vault, settings: Settings, rules: list[LoadedRule],
                 queue: JobQueue, pool: BulkCompiler | None = None) -> None:
        self.vault, self.settings, self.rules, self.queue = vault, settings, rules, queue
        #: the agent's compile workers (``pipeline.bulk``); None: compiled in the job thread
        self.pool = pool
        self._key_locks: dict[str, threading.RLock] = {}
        self._key_locks_guard = threading.Lock()

    def key_lock(self, key: str) -> threading.RLock:
        """The lock of one idempotency key: one job at a time captures a given file or
        link (re-entrant: a burst holding its keys may run one of its jobs alone)."""
        with self._key_locks_guard:
            return self._key_locks.setdefault(key, threading.RLock())

    def fail(self, job: Job, path: Path, what: str, todo: str = RETRY_TODO,
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

    def fail_crashed(self, job: Job) -> None:
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

    def prepare(self, job: Job) -> Prepared | None:
        """A job's checks and rule: what the pipeline is to do with its file, or None when
        the job already has its outcome (vanished, too large, unreadable, no rule, ignored,
        a web page saved)."""
        path = Path(job.path)
        if not path.exists() and not path.is_symlink():
            self.queue.finish(job.id, "vanished")
            return None
        st = stat_file(path)
        limit = self.settings.daemon.max_file_mb
        if st is not None and st.size > limit * 1024 * 1024:
            self.fail(job, path, f"{path.name} is larger than the {limit} MB limit",
                      "raise `daemon.max_file_mb` in .vaultd/config.toml and drop it again")
            return None
        try:
            facts = read_facts(path)
        except OSError as exc:
            self.fail(job, path, f"cannot read {path.name}: {exc.strerror or exc}",
                      "check the file's permissions and drop a readable copy into Inbox/")
            return None
        if st is not None and st.size == 0:
            self.fail(job, path, f"{path.name} is empty", "drop the complete file again")
            return None
        decision = decide(self.rules, facts)
        if decision.rule is None:
            if facts.suffix in LINK_EXTENSIONS and facts.url is None:
                self.fail(job, path, f"no URL found in {path.name}",
                          "put the link (https://…) in the file and drop it again")
            elif facts.suffix == ".pdf":  # named like a PDF, but its bytes are not one
                self.fail(job, path, f"{path.name} is not a PDF: it does not start with "
                          "%PDF- (a download interrupted, or an HTML page saved as .pdf)",
                          "download the PDF again and drop it into Inbox/")
            else:
                self.fail(job, path, f"no inbox rule matches {path.name}",
                          "add a rule in .vaultd/rules/ (see `vaultd rules test FILE`) "
                          "or capture it with `vaultd capture`")
            return None
        rule = decision.rule.rule
        if rule.action == "ignore":
            self.queue.finish(job.id, f"ignored by rule {rule.name}")
            return None
        if rule.action == "save_web":
            self._save_web(job, path)
            return None
        key = idempotency_key(path, facts.url)
        self.queue.set_idem_key(job.id, key, rule.name)
        return Prepared(job, path, facts, rule, key)

    def process(self, job: Job) -> Ingested | None:
        """Run one job to an outcome. Expected failures are recorded, never raised; what
        the pipeline made is returned (None: nothing new in the vault)."""
        prep = self.prepare(job)
        return None if prep is None else self.run(prep)

    def run(self, prep: Prepared) -> Ingested | None:
        """A prepared job through the whole pipeline (its compile in the pool, if any)."""
        with self.key_lock(prep.key):
            if self.duplicate(prep):
                return None
            try:
                result = self.ingest(prep, pool=self.pool)
            except VaultdError as exc:
                self.ingest_failed(prep, exc)
                return None
            return self.complete(prep, result)

    def ingest(self, prep: Prepared, *, compile: bool = True, index: bool = True,
               pool: BulkCompiler | None = None) -> IngestResult:
        rule = prep.rule
        return ingest_item(self.vault, self.settings, prep.path, action=prep.action,
                           url=prep.facts.url, compile=compile and rule.compile,
                           tags=rule.tags, folder=rule.folder, index=index, pool=pool)

    def duplicate(self, prep: Prepared) -> bool:
        """Whether the job's file is already in the vault (its idempotency key done): then
        the drop is archived and the job done. Call it holding ``key_lock(prep.key)``."""
        dup = self.queue.done_with_key(prep.key)
        if dup is None or not all(self.vault.note_path(k).is_file() for k in dup.cite_keys):
            return False
        path, job = prep.path, prep.job
        where = (outcomes.archive_video_files(self.vault, path)
                 if path.name.lower().endswith(".info.json")
                 else outcomes.archive(self.vault, path))
        self.queue.finish(job.id, f"duplicate of job {dup.id}; kept at "
                          f"{self.vault.rel(where)}", dup.cite_keys)
        log.info("job %d: %s is already in the vault as %s; the drop is kept at %s",
                 job.id, path.name, ", ".join(dup.cite_keys), self.vault.rel(where))
        return True

    def ingest_failed(self, prep: Prepared, exc: VaultdError) -> None:
        """The pipeline refused the job's file: retried later when the error may pass,
        left queued when the agent is stopping, else into Inbox/_failed/ with its note."""
        job = prep.job
        if isinstance(exc, CompileStoppedError):
            self.queue.requeue(job.id)  # the file stays in Inbox/; compiled at next start
            log.info("job %d: stopped mid-compile; left in the queue", job.id)
        elif exc.transient and job.retryable(time.time()):
            self.queue.fail(job.id, str(exc), transient=True)
            log.info("job %d: transient failure, will retry: %s", job.id, exc)
        else:
            self.fail(job, prep.path, str(exc))

    def complete(self, prep: Prepared, result: IngestResult) -> Ingested:
        """The job's file placed (beside its record, or archived) and the job done."""
        path, job, rule = prep.path, prep.job, prep.rule
        if path.name.lower().endswith(".info.json"):
            where = outcomes.archive_video_files(self.vault, path)
        elif prep.facts.url is None and rule.action == "capture" and result.cite_keys:
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
        return Ingested(result.cite_keys, rule.enrich)

    def _save_web(self, job: Job, path: Path) -> None:
        try:
            page = save_web_page(self.vault, path)
        except VaultdError as exc:
            self.fail(job, path, str(exc))
            return
        self.queue.finish(job.id, f"web page saved, not compiled: {self.vault.rel(page.html)}")
        log.info("job %d done: %s → %s", job.id, path.name, self.vault.rel(page.html))

    def crashed(self, job: Job, exc: Exception) -> None:
        log.exception("job %d crashed on %s", job.id, job.path)
        with contextlib.suppress(Exception):
            self.fail(job, Path(job.path), f"internal error: {exc}",
                      f"report this with the log {self.vault.logs_dir / 'vaultd.log'}; "
                      "then drop the file again")

    def disk_refused(self, job: Job, disk: DiskError) -> None:
        """A full disk: the item stays in Inbox/ and the job is retried later (``vaultd
        status`` lists it with the reason); a read-only one: failed, the item left where it
        is (it cannot be moved)."""
        if disk.transient and job.retryable(time.time()):
            self.queue.fail(job.id, str(disk), transient=True)
            log.warning("job %d waits for disk space, will retry: %s", job.id, disk)
            return
        with contextlib.suppress(OSError):
            self.fail(job, Path(job.path), str(disk), "make room or make the vault writable, "
                      "then drop the file into Inbox/ again")
