"""The Inbox lease of a synced vault, with a clock the test moves."""

from __future__ import annotations

import json

from vaultd.daemon.lease import LEASE_FILE, LEASE_SECONDS, RENEW_AFTER, InboxLease, read_lease
from vaultd.vault import Vault


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def _machine(vault: Vault, name: str, clock: Clock, settle: float = 0.0) -> InboxLease:
    lease = InboxLease(vault, settle_seconds=settle, check_seconds=0.0, clock=clock)
    lease.me, lease.host = name, name
    return lease


def test_one_machine_holds_the_inbox_and_the_other_takes_over_when_it_runs_out(vault: Vault) -> None:
    clock = Clock()
    a, b = _machine(vault, "a", clock), _machine(vault, "b", clock)
    assert a.held() and not b.held()
    lease = read_lease(vault)
    assert lease is not None and lease.machine == "a" and lease.until == clock.now + LEASE_SECONDS
    clock.now += LEASE_SECONDS + 1  # A's laptop slept through its renewal
    assert b.held() and not a.held()


def test_the_holder_renews_before_the_lease_runs_out_and_writes_only_then(vault: Vault) -> None:
    clock = Clock()
    a, b = _machine(vault, "a", clock), _machine(vault, "b", clock)
    assert a.held()
    path = vault.state_dir / LEASE_FILE
    written = path.read_text(encoding="utf-8")
    clock.now += RENEW_AFTER / 2
    assert a.held() and path.read_text(encoding="utf-8") == written  # no churn for the sync
    clock.now += RENEW_AFTER
    assert a.held()
    assert json.loads(path.read_text(encoding="utf-8"))["until"] == clock.now + LEASE_SECONDS
    clock.now += LEASE_SECONDS - 1  # renewed: still valid for B
    assert not b.held()


def test_release_gives_the_lease_up_but_never_removes_another_machines(vault: Vault) -> None:
    clock = Clock()
    a, b = _machine(vault, "a", clock), _machine(vault, "b", clock)
    assert a.held()
    b.release()
    assert read_lease(vault) is not None
    a.release()
    assert read_lease(vault) is None and b.held()


def test_two_machines_taking_it_at_once_settle_on_the_lease_the_sync_kept(vault: Vault) -> None:
    clock = Clock()
    a, b = _machine(vault, "a", clock, settle=5.0), _machine(vault, "b", clock, settle=5.0)
    assert not a.held()  # takes it, waits for the sync to settle
    (vault.state_dir / LEASE_FILE).unlink()  # B had not seen A's lease yet when it wrote its own
    assert not b.held()
    clock.now += 6  # the sync kept B's file
    assert not a.held() and b.held()
    assert not a.held()


def test_a_damaged_lease_file_is_free_to_take(vault: Vault) -> None:
    (vault.state_dir / LEASE_FILE).write_text("{not json", encoding="utf-8")
    assert _machine(vault, "a", Clock()).held()
