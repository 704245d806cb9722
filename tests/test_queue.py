from __future__ import annotations

from vaultd.daemon.queue import JobQueue, backoff_seconds
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
    jid = q.enqueue("/i/a.url", "1:1")
    assert jid is not None
    for n in range(3):
        assert q.claim(now=1e12 * (n + 1)) is not None
        retried = q.fail(jid, "down", transient=True, now=1e12 * (n + 1), max_attempts=3)
        assert retried == (n < 2)
    assert q.get(jid).state == "failed"


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
    assert q2.requeue_stale() == 1
    job = q2.claim()
    assert job is not None and job.id == jid


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
