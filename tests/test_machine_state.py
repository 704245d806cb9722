"""Machine state lives outside the (synced) vault; an older vault's state moves there."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from vaultd import machine
from vaultd.config import default_config_toml
from vaultd.daemon.queue import JobQueue
from vaultd.statedb import open_state_db
from vaultd.vault import Vault


def test_a_new_vault_holds_no_database_log_or_secret(vault: Vault) -> None:
    from vaultd.secrets import bridge_token

    db = open_state_db(vault.state_db)
    JobQueue(db).enqueue(str(vault.inbox / "a.pdf"), "0:1")
    db.close()
    bridge_token(vault)
    vault.logs_dir.mkdir(parents=True, exist_ok=True)
    inside = {p.relative_to(vault.root).as_posix() for p in vault.root.rglob("*") if p.is_file()}
    assert inside == {".vaultd/config.toml", ".vaultd/vault-id"}
    assert not vault.machine_dir.is_relative_to(vault.root)
    assert vault.state_db.is_file() and vault.machine_dir.name == (
        vault.state_dir / "vault-id").read_text().strip()


def test_an_older_vaults_state_moves_out_with_its_queue_and_token(tmp_path: Path) -> None:
    root = tmp_path / "old"
    old = root / ".vaultd"
    (old / "logs").mkdir(parents=True)
    (old / "config.toml").write_text(default_config_toml(), encoding="utf-8")
    (old / "logs" / "vaultd.log").write_text("earlier run\n", encoding="utf-8")
    (old / "secrets").mkdir()
    (old / "secrets" / "bridge.token").write_text("tok\n", encoding="utf-8")
    db = open_state_db(old / "state.db")  # the queue as an older vaultd left it
    JobQueue(db).enqueue(str(root / "Inbox" / "paper.pdf"), "1:2")
    db.close()
    vault = Vault(root)
    moved = vault.state_db
    assert moved.is_file() and not (old / "state.db").exists()
    with sqlite3.connect(moved) as conn:
        assert conn.execute("SELECT count(*) FROM daemon_jobs").fetchone()[0] == 1
    assert (vault.logs_dir / "vaultd.log").read_text() == "earlier run\n"
    from vaultd.secrets import bridge_token

    assert bridge_token(vault) == "tok"
    assert (old / "config.toml").is_file()  # what syncs safely stays


def test_the_same_synced_vault_on_two_machines_keeps_two_states(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    vault = Vault(tmp_path / "vault")
    vault.init(default_config_toml())
    first = vault.state_db
    monkeypatch.setenv(machine.STATE_ENV, str(tmp_path / "other-machine"))
    machine.forget_cache()
    second = vault.state_db
    assert first != second and second.is_relative_to(tmp_path / "other-machine")
    assert first.parent.name == second.parent.name  # one vault id, synced with the vault


@pytest.mark.parametrize(("parts", "tool"), [
    (("Library", "Mobile Documents", "iCloud~md~obsidian", "Documents"), "iCloud Drive"),
    (("Dropbox", "Research"), "Dropbox"),
    (("OneDrive - University", "Research"), "OneDrive"),
])
def test_a_vault_in_a_sync_folder_is_named(tmp_path: Path, parts: tuple[str, ...], tool: str) -> None:
    root = tmp_path.joinpath(*parts)
    root.mkdir(parents=True)
    assert machine.synced_by(root) == tool


def test_syncthing_and_obsidian_sync_are_recognised_and_a_plain_folder_is_not(tmp_path: Path) -> None:
    plain = tmp_path / "plain" / "vault"
    plain.mkdir(parents=True)
    assert machine.synced_by(plain) is None
    (tmp_path / "plain" / ".stfolder").mkdir()
    assert machine.synced_by(plain) == "Syncthing"
    obs = tmp_path / "obs"
    (obs / ".obsidian").mkdir(parents=True)
    (obs / ".obsidian" / "sync.json").write_text("{}")
    assert machine.synced_by(obs) == "Obsidian Sync"
