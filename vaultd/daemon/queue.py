"""The durable job queue in `the machine state directory's `state.db``: queued → running → done | failed.

One job per inbox file version (path + size + mtime): duplicate and coalesced events
produce one job. ``idem_key`` (PDF SHA-256, arXiv id, DOI) makes a paper dropped twice
one note. Transient failures go back to ``queued`` with exponential backoff (30 s doubling,
capped at 1 h) until the job is ``RETRY_WINDOW_SECONDS`` (24 h) old or has had
``MAX_ATTEMPTS`` attempts. A job left ``running`` by a process that died counts a crash;
after ``MAX_CRASHES`` the file is assumed to crash vaultd and the job fails for good.
"""

from __future__ import annotations

import functools
import json
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

MAX_ATTEMPTS = 40
RETRY_WINDOW_SECONDS = 24 * 3600.0
BACKOFF_BASE_SECONDS = 30.0
BACKOFF_MAX_SECONDS = 3600.0
MAX_CRASHES = 3
STATES = ("queued", "running", "done", "failed")

P = ParamSpec("P")
R = TypeVar("R")


def _locked(fn: Callable[P, R]) -> Callable[P, R]:
    """Serialise queue operations: worker threads share one connection."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with args[0]._lock:  # type: ignore[attr-defined]
            return fn(*args, **kwargs)

    return wrapper


@dataclass(frozen=True)
class Job:
    id: int
    path: str
    fingerprint: str
    state: str
    attempts: int
    next_at: float
    idem_key: str | None
    rule: str | None
    cite_keys: list[str]
    outcome: str | None
    error: str | None
    created_at: float = 0.0
    crashes: int = 0

    def retryable(self, now: float, max_attempts: int = MAX_ATTEMPTS,
                  retry_window: float = RETRY_WINDOW_SECONDS) -> bool:
        """Whether a transient failure of this attempt goes back to the queue."""
        return self.attempts < max_attempts and now - self.created_at < retry_window

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> Job:
        return cls(
            id=row["id"], path=row["path"], fingerprint=row["fingerprint"],
            state=row["state"], attempts=row["attempts"], next_at=row["next_at"],
            idem_key=row["idem_key"], rule=row["rule"],
            cite_keys=json.loads(row["cite_keys"]) if row["cite_keys"] else [],
            outcome=row["outcome"], error=row["error"], created_at=row["created_at"],
            crashes=row["crashes"],
        )


@dataclass(frozen=True)
class StaleJobs:
    """What :meth:`JobQueue.requeue_stale` did: jobs re-queued, jobs failed for good."""

    requeued: int
    failed: list[Job]


def backoff_seconds(attempts: int, cap: float = BACKOFF_MAX_SECONDS) -> float:
    """Delay before retry number ``attempts`` (1-based): 30 s, 60 s, 120 s, … capped at 1 h."""
    return float(min(cap, BACKOFF_BASE_SECONDS * 2 ** max(0, attempts - 1)))


class JobQueue:
    """Queue operations over an open state.db connection (shared across threads)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self._lock = threading.RLock()

    @_locked
    def enqueue(self, path: str, fingerprint: str, now: float | None = None) -> int | None:
        """Add a job for this file version; None when one already exists (dedup)."""
        now = time.time() if now is None else now
        with self.db:
            cur = self.db.execute(
                "INSERT OR IGNORE INTO daemon_jobs(path, fingerprint, created_at, updated_at) "
                "VALUES (?, ?, ?, ?)",
                (path, fingerprint, now, now),
            )
        return cur.lastrowid if cur.rowcount else None

    @_locked
    def claim(self, now: float | None = None, busy_keys: set[str] | None = None, *,
              suspects: bool = True) -> Job | None:
        """Take the oldest due job (queued → running). With ``suspects=False`` (something
        is running) a job that was running when vaultd died (``crashes`` > 0) is not taken,
        and nothing after it either: the running work drains and it runs alone next, so
        newer files cannot keep it waiting."""
        now = time.time() if now is None else now
        with self.db:
            rows = self.db.execute(
                "SELECT * FROM daemon_jobs WHERE state='queued' AND next_at <= ? "
                "ORDER BY next_at, id LIMIT 20",
                (now,),
            ).fetchall()
            for row in rows:
                if busy_keys and row["idem_key"] in busy_keys:
                    continue
                if not suspects and row["crashes"]:
                    return None
                cur = self.db.execute(
                    "UPDATE daemon_jobs SET state='running', attempts=attempts+1, updated_at=? "
                    "WHERE id=? AND state='queued'",
                    (now, row["id"]),
                )
                if cur.rowcount:
                    return self.get(row["id"])
        return None

    @_locked
    def get(self, job_id: int) -> Job:
        row = self.db.execute("SELECT * FROM daemon_jobs WHERE id=?", (job_id,)).fetchone()
        if row is None:
            raise KeyError(job_id)
        return Job.from_row(row)

    @_locked
    def set_idem_key(self, job_id: int, key: str | None, rule: str | None) -> None:
        with self.db:
            self.db.execute(
                "UPDATE daemon_jobs SET idem_key=?, rule=? WHERE id=?", (key, rule, job_id)
            )

    @_locked
    def done_with_key(self, key: str) -> Job | None:
        row = self.db.execute(
            "SELECT * FROM daemon_jobs WHERE idem_key=? AND state='done' AND cite_keys IS NOT NULL "
            "ORDER BY id LIMIT 1",
            (key,),
        ).fetchone()
        return Job.from_row(row) if row else None

    @_locked
    def finish(self, job_id: int, outcome: str, cite_keys: list[str] | None = None) -> None:
        with self.db:
            self.db.execute(
                "UPDATE daemon_jobs SET state='done', outcome=?, cite_keys=?, error=NULL, "
                "updated_at=? WHERE id=?",
                (outcome, json.dumps(cite_keys) if cite_keys else None, time.time(), job_id),
            )

    @_locked
    def fail(self, job_id: int, error: str, *, transient: bool = False,
             now: float | None = None, max_attempts: int = MAX_ATTEMPTS,
             retry_window: float = RETRY_WINDOW_SECONDS, kept_at: str | None = None) -> bool:
        """Record a failure; returns True when the job will be retried. ``kept_at``: where
        a failed file now is (``Inbox/_failed/…``), kept as the job's outcome.

        A transient failure is retried while the job is younger than ``retry_window``
        and has had fewer than ``max_attempts`` attempts, so an outage of some hours
        (network, LLM) does not send the item to ``_failed/``.
        """
        now = time.time() if now is None else now
        job = self.get(job_id)
        retry = transient and job.retryable(now, max_attempts, retry_window)
        with self.db:
            if retry:
                self.db.execute(
                    "UPDATE daemon_jobs SET state='queued', next_at=?, error=?, updated_at=? "
                    "WHERE id=?",
                    (now + backoff_seconds(job.attempts), error, now, job_id),
                )
            else:
                self.db.execute(
                    "UPDATE daemon_jobs SET state='failed', error=?, outcome=?, updated_at=? "
                    "WHERE id=?",
                    (error, kept_at, now, job_id),
                )
        return retry

    @_locked
    def requeue(self, job_id: int) -> None:
        """Put a running job back (shutdown): this attempt does not count."""
        with self.db:
            self.db.execute(
                "UPDATE daemon_jobs SET state='queued', attempts=MAX(0, attempts-1), "
                "updated_at=? WHERE id=? AND state='running'",
                (time.time(), job_id),
            )

    @_locked
    def requeue_stale(self, max_crashes: int = MAX_CRASHES,
                      now: float | None = None) -> StaleJobs:
        """At startup: jobs left running by a killed process go back to the queue.

        Each such job counts a crash; one that has now crashed vaultd ``max_crashes``
        times fails for good (returned in ``failed``) so a file that kills the process
        (segfault, out of memory) cannot make the service crash-loop.
        """
        now = time.time() if now is None else now
        with self.db:
            rows = self.db.execute(
                "SELECT id, crashes FROM daemon_jobs WHERE state='running'"
            ).fetchall()
            failed_ids: list[int] = []
            requeued = 0
            for row in rows:
                crashes = row["crashes"] + 1
                if crashes >= max_crashes:
                    self.db.execute(
                        "UPDATE daemon_jobs SET state='failed', crashes=?, error=?, updated_at=? "
                        "WHERE id=?",
                        (crashes, f"vaultd stopped while processing this file {crashes} times",
                         now, row["id"]),
                    )
                    failed_ids.append(row["id"])
                else:
                    self.db.execute(
                        "UPDATE daemon_jobs SET state='queued', crashes=?, next_at=0, "
                        "updated_at=? WHERE id=?",
                        (crashes, now, row["id"]),
                    )
                    requeued += 1
        return StaleJobs(requeued, [self.get(i) for i in failed_ids])

    @_locked
    def wake_retries(self, now: float | None = None, *, force: bool = False) -> int:
        """The scheduled retry pass: count transient retries that are due.

        Backoff decides when a retry runs (the main loop claims due jobs), so by default
        this changes nothing. ``force=True`` makes every waiting retry due now (for a
        user who knows the network or LLM is back).
        """
        now = time.time() if now is None else now
        with self.db:
            if force:
                cur = self.db.execute(
                    "UPDATE daemon_jobs SET next_at=? WHERE state='queued' AND attempts > 0 "
                    "AND next_at > ?",
                    (now, now),
                )
                return cur.rowcount
            row = self.db.execute(
                "SELECT COUNT(*) FROM daemon_jobs WHERE state='queued' AND attempts > 0 "
                "AND next_at <= ?",
                (now,),
            ).fetchone()
        return int(row[0])

    @_locked
    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(STATES, 0)
        for row in self.db.execute("SELECT state, COUNT(*) FROM daemon_jobs GROUP BY state"):
            out[row[0]] = row[1]
        return out

    @_locked
    def jobs(self, state: str | None = None, limit: int = 1000) -> list[Job]:
        if state is None:
            rows = self.db.execute("SELECT * FROM daemon_jobs ORDER BY id LIMIT ?", (limit,))
        else:
            rows = self.db.execute(
                "SELECT * FROM daemon_jobs WHERE state=? ORDER BY id DESC LIMIT ?", (state, limit)
            )
        return [Job.from_row(r) for r in rows]

    @_locked
    def active(self) -> int:
        row = self.db.execute(
            "SELECT COUNT(*) FROM daemon_jobs WHERE state IN ('queued', 'running')"
        ).fetchone()
        return int(row[0])

    @_locked
    def set_meta(self, key: str, value: Any) -> None:
        with self.db:
            self.db.execute(
                "INSERT INTO daemon_meta(key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                (key, json.dumps(value)),
            )

    @_locked
    def get_meta(self, key: str) -> Any:
        row = self.db.execute("SELECT value FROM daemon_meta WHERE key=?", (key,)).fetchone()
        return json.loads(row[0]) if row else None
