from __future__ import annotations

import os
from pathlib import Path

import pytest

from vaultd.errors import VaultError
from vaultd.vault import Vault, atomic_write_text, remember_default_vault, resolve_vault, vault_lock


def test_init_creates_the_design_layout_and_is_idempotent(tmp_path: Path) -> None:
    v = Vault(tmp_path / "v")
    created = v.init("# config\n")
    for rel in ("Inbox", "Inbox/_failed", "raw", "wiki", ".vaultd", ".vaultd/config.toml"):
        assert (v.root / rel).exists(), rel
    assert created
    (v.config_path).write_text("# mine\n")
    assert v.init("# config\n") == []
    assert v.config_path.read_text() == "# mine\n"


def test_vault_choice_prefers_flag_then_env_then_remembered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    remember_default_vault(tmp_path / "remembered")
    assert resolve_vault(None).root == (tmp_path / "remembered").resolve()
    monkeypatch.setenv("VAULTD_VAULT", str(tmp_path / "env"))
    assert resolve_vault(None).root == (tmp_path / "env").resolve()
    assert resolve_vault(str(tmp_path / "flag")).root == (tmp_path / "flag").resolve()


def test_no_vault_anywhere_says_which_flag_to_use() -> None:
    with pytest.raises(VaultError, match="--vault"):
        resolve_vault(None)


def test_require_on_a_plain_directory_says_to_run_init(tmp_path: Path) -> None:
    with pytest.raises(VaultError, match="vaultd init"):
        Vault(tmp_path).require()


def test_atomic_write_leaves_no_temp_files_and_replaces_content(tmp_path: Path) -> None:
    target = tmp_path / "a" / "note.md"
    atomic_write_text(target, "one")
    atomic_write_text(target, "two")
    assert target.read_text() == "two"
    assert sorted(p.name for p in target.parent.iterdir()) == ["note.md"]


def test_atomic_write_failure_keeps_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "note.md"
    atomic_write_text(target, "old")

    class Boom(str):
        def encode(self, *a: object, **k: object) -> bytes:
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        atomic_write_text(target, Boom("new"))
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["note.md"]


def test_second_lock_on_the_same_vault_is_refused(vault: Vault) -> None:
    with vault_lock(vault), pytest.raises(VaultError, match="in use by pid"), vault_lock(vault):
        pass
    with vault_lock(vault):  # released on exit
        assert (vault.state_dir / "vaultd.lock").read_text().strip() == f"pid {os.getpid()}"
