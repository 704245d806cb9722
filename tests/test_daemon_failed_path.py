"""`vaultd status` names a failed file where it now is: Inbox/_failed/."""

from __future__ import annotations

import json

from click.testing import CliRunner

from vaultd.cli import main_group
from vaultd.config import Settings
from vaultd.daemon.runner import Daemon
from vaultd.vault import Vault


def test_status_lists_a_failure_at_its_inbox_failed_path(vault: Vault) -> None:
    (vault.inbox / "junk.xyz").write_bytes(b"junk")
    daemon = Daemon(vault, Settings(), scheduler=False)
    assert daemon.queue.enqueue(str(vault.inbox / "junk.xyz"), "fp1") is not None
    job = daemon.queue.claim()
    assert job is not None
    daemon.process(job)
    daemon.db.close()
    assert (vault.failed / "junk.xyz").is_file()
    args = ["--vault", str(vault.root), "status", "--no-probe"]
    data = json.loads(CliRunner().invoke(main_group, [*args, "--json"], catch_exceptions=False).output)
    assert [f["file"] for f in data["failures"]] == ["Inbox/_failed/junk.xyz"]
    out = CliRunner().invoke(main_group, args, catch_exceptions=False).output
    assert f"  failed #{job.id}: Inbox/_failed/junk.xyz: no inbox rule matches junk.xyz" in out.splitlines()
