"""One agent per vault: the lock `vaultd run` takes and the probe status and MCP use."""

from __future__ import annotations

import os

import pytest

from vaultd.errors import VaultError
from vaultd.service_lock import LOCK_FILE, service_running, vault_lock
from vaultd.vault import Vault


def test_second_lock_on_the_same_vault_is_refused(vault: Vault) -> None:
    with vault_lock(vault), pytest.raises(VaultError, match="in use by pid"), vault_lock(vault):
        pass
    with vault_lock(vault):  # released on exit
        assert (vault.machine_dir / LOCK_FILE).read_text().strip() == f"pid {os.getpid()}"


def test_the_probe_names_the_holder_only_while_the_lock_is_held(vault: Vault) -> None:
    assert service_running(vault) == {"running": False}  # no lock file yet
    with vault_lock(vault):
        # flock locks belong to the open file: the probe's own open file is refused.
        assert service_running(vault) == {"running": True, "holder": f"pid {os.getpid()}"}
    assert service_running(vault) == {"running": False}


def test_the_probe_never_keeps_the_agent_from_starting(vault: Vault) -> None:
    with vault_lock(vault):
        pass
    assert service_running(vault) == {"running": False}
    with vault_lock(vault):  # the probe let go of its shared lock
        pass
