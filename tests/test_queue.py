from __future__ import annotations

import pytest

from vaultd.daemon.queue import MAX_CRASHES, JobQueue, backoff_seconds
from vaultd.statedb import open_state_db
from vaultd.vault import Vault


def _queue(vault: Vault) -> JobQueue:
    return JobQueue(open_state_db(vault.state_db))


def test_same_file_version_enqueued_twice_makes_one_job(vault: Vault) -> None:
    q = _queue(vault)
    assert q.enqueue("/i/a.pdf", "10:1") is not None
    assert q.enqueue("/i/a.pdf", "10:1") is None
    assert q.enqueue("/i/a.pdf", "12:2") is not None  # the file changed: a new version
    assert q.counts()["queued"] == 2


def test_job_moves_queued_running_done(vault: Vault) -> None:
    q = _queue(vault)
    jid = q.enqueue("/i/a.pdf", "1:1")
    job = q.claim()
    assert job is not None and job.id == jid and job.state == "running" and job.attempts == 1
    assert q.claim() is None
    q.finish(jid, "created", ["lovelace2024verbatim"])  # type: ignore[arg-type]
    done = q.get(jid)  # type: ignore[arg-type]
    assert done.state == "done" and done.cite_keys == ["lovelace2024verbatim"]


def test_transient_failure_is_retried_with_exponential_backoff(vault: Vault) -> None:
    q = _queue(vault)
    jid = q.enqueue("/i/a.url", "1:1")
    assert jid is not None
    q.claim(now=1000.0)
    assert q.fail(jid, "network down", transient=True, now=1000.0)
    job = q.get(jid)
    assert job.state == "queued" and job.next_at == 1000.0 + backoff_seconds(1)
    assert q.claim(now=1001.0) is None  # not due yet
    assert q.claim(now=job.next_at) is not None
    assert backoff_seconds(2) == 2 * backoff_seconds(1)
    assert backoff_seconds(50) == backoff_seconds(60)  # capped


def test_transient_failure_gives_up_after_max_attempts(vault: Vault) -> None:
    q = _queue(vault)
    jid = q.enqueue("/i/a.url", "1:1", now=0.0)
    assert jid is not None
    for n in range(3):
        assert q.claim(now=float(n)) is not None
        retried = q.fail(jid, "down", transient=True, now=float(n), max_attempts=3)
        assert retried == (n < 2)
        q.wake_retries(now=float(n), force=True)
    assert q.get(jid).state == "failed"


def test_a_twelve_hour_outage_does_not_send_a_link_to_failed(vault: Vault) -> None:
    q = _queue(vault)
    clock = 1000.0
    jid = q.enqueue("/i/a.url", "1:1", now=clock)
    assert jid is not None
    while clock < 1000.0 + 12 * 3600:  # the network is down for 12 h
        job = q.claim(now=clock)
        assert job is not None, "a waiting retry must become due by itself"
        assert q.fail(jid, "network down", transient=True, now=clock)
        assert q.get(jid).next_at - clock <= 3600.0  # backoff capped at 1 h
        clock = q.get(jid).next_at
    assert q.claim(now=clock) is not None  # back: it runs
    q.finish(jid, "created", ["k"])
    assert q.get(jid).state == "done"


def test_transient_failures_give_up_after_a_day(vault: Vault) -> None:
    q = _queue(vault)
    jid = q.enqueue("/i/a.url", "1:1", now=0.0)
    assert jid is not None
    q.claim(now=0.0)
    assert q.fail(jid, "down", transient=True, now=23 * 3600.0)
    q.claim(now=1e9)
    assert not q.fail(jid, "down", transient=True, now=25 * 3600.0)
    assert q.get(jid).state == "failed"


def test_scheduled_retry_pass_does_not_override_backoff(vault: Vault) -> None:
    q = _queue(vault)
    jid = q.enqueue("/i/a.url", "1:1", now=1000.0)
    assert jid is not None
    for _ in range(4):  # four failures: the next retry waits 8 min
        job = q.claim(now=q.get(jid).next_at)
        assert job is not None
        q.fail(jid, "down", transient=True, now=job.next_at or 1000.0)
    waiting = q.get(jid).next_at
    assert q.wake_retries(now=waiting - 60) == 0
    assert q.get(jid).next_at == waiting
    assert q.claim(now=waiting - 60) is None
    assert q.wake_retries(now=waiting) == 1


def test_permanent_failure_is_not_retried(vault: Vault) -> None:
    q = _queue(vault)
    jid = q.enqueue("/i/a.pdf", "1:1")
    assert jid is not None
    q.claim()
    assert not q.fail(jid, "corrupt PDF")
    assert q.get(jid).state == "failed" and q.get(jid).error == "corrupt PDF"


def test_jobs_left_running_by_a_killed_process_are_requeued_at_startup(vault: Vault) -> None:
    q = _queue(vault)
    jid = q.enqueue("/i/a.pdf", "1:1")
    q.claim()
    q.db.close()
    q2 = _queue(vault)  # the restarted service
    stale = q2.requeue_stale()
    assert stale.requeued == 1 and stale.failed == []
    job = q2.claim()
    assert job is not None and job.id == jid and job.crashes == 1


def test_a_file_that_keeps_crashing_the_service_fails_for_good(vault: Vault) -> None:
    q = _queue(vault)
    jid = q.enqueue("/i/segfault.pdf", "1:1")
    assert jid is not None and q.claim() is not None
    for restart in range(1, MAX_CRASHES + 1):
        q.db.close()
        q = _queue(vault)  # the service died while processing the file, then restarted
        stale = q.requeue_stale()
        if restart < MAX_CRASHES:
            assert stale.requeued == 1
            assert q.claim() is not None
        else:
            assert stale.requeued == 0 and [j.id for j in stale.failed] == [jid]
    job = q.get(jid)
    assert job.state == "failed" and "vaultd stopped while processing" in (job.error or "")
    assert q.claim() is None


def test_idempotency_key_finds_the_earlier_done_job(vault: Vault) -> None:
    q = _queue(vault)
    a = q.enqueue("/i/a.pdf", "1:1")
    b = q.enqueue("/i/b.pdf", "1:1")
    assert a and b
    q.claim()
    q.set_idem_key(a, "sha256:abc", "pdf")
    q.finish(a, "created", ["k"])
    assert q.done_with_key("sha256:abc") is not None
    assert q.done_with_key("sha256:zzz") is None


def test_running_job_with_a_busy_key_is_skipped(vault: Vault) -> None:
    q = _queue(vault)
    a = q.enqueue("/i/a.pdf", "1:1")
    b = q.enqueue("/i/b.pdf", "1:1")
    assert a and b
    q.set_idem_key(a, "sha256:abc", "pdf")
    job = q.claim(busy_keys={"sha256:abc"})
    assert job is not None and job.id == b


def test_a_bad_item_that_cannot_be_moved_to_failed_is_still_marked_failed(
        vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only or full disk must not leave the job `running` (it would block the file
    and count as a crash at the next start)."""
    from vaultd.config import Settings
    from vaultd.daemon import outcomes
    from vaultd.daemon.runner import Daemon

    empty = vault.inbox / "empty.pdf"
    empty.write_bytes(b"")
    daemon = Daemon(vault, Settings(), rules=[], scheduler=False)
    daemon.queue.enqueue(str(empty), "0:1")
    job = daemon.queue.claim()
    assert job is not None

    def read_only(src: object, dst: object) -> object:
        raise PermissionError(13, "Read-only file system")

    monkeypatch.setattr(outcomes, "move_file", read_only)
    with pytest.raises(PermissionError):
        daemon.process(job)
    after = daemon.queue.get(job.id)
    assert after.state == "failed" and "is empty" in (after.error or "")
    assert empty.exists()  # nothing lost


class _NoWatcher:
    def poll(self, now: float) -> list[object]:
        return []

    def rescan(self) -> None:
        pass


def test_after_a_crash_the_jobs_that_were_running_are_retried_one_at_a_time(
        vault: Vault) -> None:
    """With two jobs running when vaultd died, either may be the culprit: each runs alone
    next time, so only the file that really crashes vaultd gets its crashes counted."""
    from vaultd.config import Settings
    from vaultd.daemon.runner import Daemon

    q = _queue(vault)
    for name in ("a.pdf", "b.pdf", "c.pdf"):
        q.enqueue(f"/i/{name}", "1:1")
    first, second = q.claim(), q.claim()
    assert first is not None and second is not None
    assert q.requeue_stale().requeued == 2  # the process died with both running
    settings = Settings()
    settings.daemon.inbox_lease_settle_seconds = 0  # one machine: the Inbox lease at once
    assert settings.daemon.concurrency >= 2
    daemon = Daemon(vault, settings, rules=[], scheduler=False)
    daemon._tick(_NoWatcher())  # type: ignore[arg-type]
    assert list(daemon._running) == [first.id]  # a suspect, alone
    daemon._release(first.id)
    daemon._tick(_NoWatcher())  # type: ignore[arg-type]
    assert list(daemon._running) == [second.id]  # the other suspect, alone too
    daemon._release(second.id)
    daemon._tick(_NoWatcher())  # type: ignore[arg-type]
    assert len(daemon._running) == 1  # c.pdf; nothing else is queued


def test_a_suspect_is_not_claimed_beside_a_running_job_nor_overtaken(vault: Vault) -> None:
    q = _queue(vault)
    q.enqueue("/i/a.pdf", "1:1")
    assert q.claim() is not None
    q.requeue_stale()
    q.enqueue("/i/b.pdf", "1:1")
    # Beside running work the suspect (oldest) is not taken, and newer files do not
    # overtake it either, or a steady stream of them would keep it waiting for good.
    assert q.claim(suspects=False) is None
    suspect = q.claim()
    assert suspect is not None and suspect.path == "/i/a.pdf" and suspect.crashes == 1
    fresh = q.claim(suspects=False)
    assert fresh is not None and fresh.path == "/i/b.pdf"


def test_a_file_named_pdf_that_is_not_one_says_so_and_what_to_do(vault: Vault) -> None:
    """The Inbox user is told what is wrong with the file, not to write a rule."""
    from vaultd.config import Settings
    from vaultd.daemon.rules import load_rules
    from vaultd.daemon.runner import Daemon

    junk = vault.inbox / "paper.pdf"
    junk.write_bytes(b"<html><body>Sign in to read</body></html>")
    daemon = Daemon(vault, Settings(), rules=load_rules(vault.rules_dir), scheduler=False)
    daemon.queue.enqueue(str(junk), "0:1")
    job = daemon.queue.claim()
    assert job is not None
    daemon.process(job)
    error = (vault.failed / "paper.pdf.error.md").read_text(encoding="utf-8")
    assert "paper.pdf is not a PDF: it does not start with %PDF-" in error
    assert "download the PDF again" in error and "rule" not in error
    assert (vault.failed / "paper.pdf").read_bytes().startswith(b"<html>")  # kept
