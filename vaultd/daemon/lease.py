"""Which machine processes a synced vault's Inbox: a lease recorded in the vault.

Two laptops may run vaultd on one vault kept in sync by iCloud Drive, Dropbox, Syncthing or
the like. Each keeps its own queue and index (outside the vault), but an item dropped into
``Inbox/`` reaches both, and both capturing it would write the same note and PDF at once:
the sync tool would then keep one and make a conflict copy of the other. So one machine at
a time holds the Inbox lease, ``.vaultd/inbox-lease.json`` (synced like the rest of the
vault): ``{"machine": <id>, "host": <name>, "until": <epoch seconds>}``. The holder renews
it well before it runs out (``RENEW_AFTER``) and gives it up when it stops; another machine
takes it over once it has run out, e.g. when the holder's laptop sleeps. A machine without
the lease leaves the Inbox alone (the holder's results reach it through the sync) and
``vaultd status`` says which machine has it.

The lease narrows the window, it does not close it: a sync tool delivers the file late,
and two machines starting within one sync delay may both take a lease. Each checks again
after a settle time (``[daemon] inbox_lease_settle_seconds``) before touching the Inbox,
and gives way when the synced file names the other machine. Clocks are compared in UTC
epoch seconds; machines whose clocks differ by minutes should not share a vault.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
import uuid
from dataclasses import dataclass
from typing import Any

from vaultd.vault import Vault, atomic_write_text

LEASE_FILE = "inbox-lease.json"
#: How long a lease lasts without renewal (seconds).
LEASE_SECONDS = 600.0
#: Renew once this much of it is used: a sync delay of minutes still sees it valid.
RENEW_AFTER = 120.0


def machine_id(vault: Vault) -> str:
    """This machine's id for the vault (created once, kept in the machine state dir)."""
    path = vault.machine_dir / "machine-id"
    with contextlib.suppress(OSError):
        found = path.read_text(encoding="utf-8").strip()
        if found:
            return found
    new = uuid.uuid4().hex
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, new + "\n")
    return new


@dataclass(frozen=True)
class Holder:
    machine: str
    host: str
    until: float

    def valid(self, now: float) -> bool:
        return self.until > now


def read_lease(vault: Vault) -> Holder | None:
    """The lease as the vault has it now (None: none, or unreadable: free to take)."""
    try:
        data: Any = json.loads((vault.state_dir / LEASE_FILE).read_text(encoding="utf-8"))
        return Holder(str(data["machine"]), str(data.get("host", "")), float(data["until"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


class InboxLease:
    """This machine's side of the lease (``held`` is checked on every agent tick; it reads
    the file at most every ``check_seconds``)."""

    def __init__(self, vault: Vault, *, settle_seconds: float = 5.0, check_seconds: float = 2.0,
                 clock: Any = time.time) -> None:
        self.vault = vault
        self.me = machine_id(vault)
        self.host = socket.gethostname()
        self.check_seconds = check_seconds
        self.settle_seconds = settle_seconds
        self.clock = clock
        self._checked = -1e18
        self._held = False
        self._settling_until: float | None = None

    def _write(self, now: float) -> None:
        atomic_write_text(self.vault.state_dir / LEASE_FILE, json.dumps(
            {"machine": self.me, "host": self.host, "until": now + LEASE_SECONDS}) + "\n")

    def held(self) -> bool:
        """Whether this machine may process the Inbox now (taking or renewing the lease
        when it is free, run out or its own)."""
        now = self.clock()
        if now - self._checked < self.check_seconds:
            return self._held
        self._checked = now
        lease = read_lease(self.vault)
        mine = lease is not None and lease.machine == self.me
        if lease is not None and not mine and lease.valid(now):
            self._held, self._settling_until = False, None  # another machine has it
            return False
        if self._settling_until is not None:
            if now < self._settling_until:
                return False
            self._settling_until = None
            self._held = mine  # still ours after the settle time: the sync kept ours
            return self._held
        if not mine or lease is None or lease.until - now < LEASE_SECONDS - RENEW_AFTER:
            try:
                self._write(now)
            except OSError:  # a read-only vault: nobody can write its Inbox results either
                self._held = False
                return False
            if not mine and self.settle_seconds > 0:  # newly taken: settle before trusting it
                self._settling_until = now + self.settle_seconds
                self._held = False
                return False
        self._held = True
        return True

    def release(self) -> None:
        """Give the lease up (at shutdown), when it is still this machine's."""
        lease = read_lease(self.vault)
        if lease is not None and lease.machine == self.me:
            with contextlib.suppress(OSError):
                (self.vault.state_dir / LEASE_FILE).unlink()
        self._held = False


def lease_status(vault: Vault, now: float | None = None) -> dict[str, Any]:
    """For ``vaultd status``: who holds the Inbox lease, and whether it is this machine."""
    now = time.time() if now is None else now
    lease = read_lease(vault)
    if lease is None or not lease.valid(now):
        return {"holder": None}
    return {"holder": lease.host or lease.machine, "this_machine": lease.machine == machine_id(vault),
            "until": lease.until}
