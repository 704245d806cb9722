"""Two machines, one synced vault: a script syncs two copies of a vault between steps, as
iCloud Drive, Dropbox or Syncthing would, while vaultd runs on each copy with its own
machine state. Only the machine holding the Inbox lease processes the Inbox; the other's
notes arrive through the sync; no file is written by both and no conflict copy appears."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from test_daemon_support import jobs_at, sample_bytes, sample_variant, wait_for

from vaultd.config import default_config_toml
from vaultd.daemon.lease import LEASE_FILE, read_lease
from vaultd.daemon.queue import Job
from vaultd.vault import Vault


@dataclass
class Machine:
    name: str
    vault: Vault
    state_home: Path
    proc: subprocess.Popen[bytes] | None = None
    log: Path = field(default_factory=Path)

    @property
    def state_db(self) -> Path:
        vault_id = (self.vault.state_dir / "vault-id").read_text(encoding="utf-8").strip()
        return self.state_home / vault_id / "state.db"

    def jobs(self) -> list[Job]:
        return jobs_at(self.state_db)

    def start(self, settle: float = 1.0) -> None:
        self.log = self.state_home.parent / f"{self.name}-{time.monotonic_ns()}.log"
        env = {**os.environ, "VAULTD_STATE_DIR": str(self.state_home),
               "VAULTD_DAEMON_INBOX_LEASE_SETTLE_SECONDS": str(settle),
               "VAULTD_CAPTURE_MAX_RETRIES": "0"}
        with self.log.open("wb") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "vaultd", "--vault", str(self.vault.root), "run",
                 "--debounce", "0.2", "--no-schedule"],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, env=env)
        wait_for(lambda: b"vaultd running on" in self.log.read_bytes(), 30, f"{self.name} to start")

    def stop(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(15)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)


def _files(root: Path) -> dict[str, float]:
    return {p.relative_to(root).as_posix(): p.stat().st_mtime for p in root.rglob("*")
            if p.is_file() and ".vaultd/staging" not in p.as_posix()}


class Sync:
    """A two-way file sync with a base snapshot: newer files win, deletions propagate.
    Like the real tools it copies whole files one by one, outside vaultd's control."""

    def __init__(self, a: Path, b: Path) -> None:
        self.a, self.b = a, b
        self.base: set[str] = set(_files(a)) & set(_files(b))

    def __call__(self) -> None:
        fa, fb = _files(self.a), _files(self.b)
        for rel in set(fa) | set(fb):
            in_a, in_b = rel in fa, rel in fb
            if in_a and in_b:
                if abs(fa[rel] - fb[rel]) < 1e-6:
                    continue
                src, dst = (self.a, self.b) if fa[rel] > fb[rel] else (self.b, self.a)
            elif rel in self.base:  # deleted on one side since the last sync
                (self.b if in_b else self.a).joinpath(rel).unlink(missing_ok=True)
                continue
            else:
                src, dst = (self.a, self.b) if in_a else (self.b, self.a)
            target = dst / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                shutil.copy2(src / rel, target)
            except FileNotFoundError:
                continue  # gone since the listing (a temp file renamed): the next round has it
        self.base = set(_files(self.a)) & set(_files(self.b))


def _drop(inbox: Path, name: str, data: bytes) -> None:
    staging = inbox.parent / ".vaultd" / f"staging-{name}"
    staging.write_bytes(data)
    staging.replace(inbox / name)


def _done(machine: Machine, n: int) -> bool:
    js = machine.jobs()
    return len(js) >= n and all(j.state == "done" for j in js)


def test_two_machines_share_a_synced_vault_one_inbox_at_a_time(tmp_path: Path) -> None:
    a = Machine("laptop-a", Vault(tmp_path / "a" / "vault"), tmp_path / "a" / "state")
    a.vault.init(default_config_toml())
    shutil.copytree(a.vault.root, tmp_path / "b" / "vault")  # the first sync
    b = Machine("laptop-b", Vault(tmp_path / "b" / "vault"), tmp_path / "b" / "state")
    sync = Sync(a.vault.root, b.vault.root)
    base = sample_bytes(tmp_path)
    try:
        a.start()
        wait_for(lambda: (lease := read_lease(a.vault)) is not None and lease.host != "",
                 15, "laptop A to take the Inbox lease")
        sync()
        b.start()
        time.sleep(2.5)  # B has had time to look at the lease and settle
        for i in range(3):  # the user drops papers on laptop B
            _drop(b.vault.inbox, f"paper{i}.pdf", sample_variant(base, i))
        time.sleep(1.0)
        assert b.jobs() == []  # B leaves the Inbox to the lease holder
        sync()
        wait_for(lambda: _done(a, 3), 60, "laptop A to process the three papers")
        sync()  # notes and PDFs reach B; the Inbox items leave B's Inbox
        assert b.jobs() == [] and not list(b.vault.inbox.glob("*.pdf"))
        assert len(b.vault.paper_notes()) == 3

        assert a.stop() == 0  # A's vaultd stops and gives the lease up
        assert read_lease(a.vault) is None
        sync()
        for i in range(3, 5):  # now dropped on laptop A, whose vaultd is off
            _drop(a.vault.inbox, f"paper{i}.pdf", sample_variant(base, i))
        sync()
        wait_for(lambda: _done(b, 2), 60, "laptop B to take the lease and process two papers")
        assert b.stop() == 0
        sync()
    finally:
        a.kill()
        b.kill()
    for m in (a, b):
        assert len(m.vault.paper_notes()) == 5, m.name
        assert m.vault.sync_conflicts() == []
        assert not (m.vault.state_dir / LEASE_FILE).exists()
        assert not list(m.vault.inbox.glob("*.pdf"))
    assert len(a.jobs()) == 3 and len(b.jobs()) == 2  # each paper captured by one machine only
    assert sorted(p.read_bytes() for p in a.vault.raw.glob("*.pdf")) == \
        sorted(p.read_bytes() for p in b.vault.raw.glob("*.pdf"))
