from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from vaultd.errors import VaultError
from vaultd.vault import (
    Vault,
    atomic_copy,
    atomic_write_text,
    remember_default_vault,
    resolve_vault,
)


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


@pytest.fixture
def umask_022() -> object:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def test_a_new_note_is_readable_by_group_and_others_under_umask_022(
    tmp_path: Path, umask_022: object
) -> None:
    note = tmp_path / "wiki" / "vaswani2017attention.md"
    atomic_write_text(note, "# Attention\n")
    copied = tmp_path / "raw" / "vaswani2017attention.pdf"
    atomic_copy(note, copied)
    assert stat.S_IMODE(note.stat().st_mode) == 0o644
    assert stat.S_IMODE(copied.stat().st_mode) == 0o644


def test_a_users_chmod_on_an_existing_note_survives_a_rewrite(
    tmp_path: Path, umask_022: object
) -> None:
    note = tmp_path / "note.md"
    atomic_write_text(note, "v1\n")
    note.chmod(0o640)
    atomic_write_text(note, "v2\n")
    assert note.read_text() == "v2\n"
    assert stat.S_IMODE(note.stat().st_mode) == 0o640
    pdf = tmp_path / "paper.pdf"
    atomic_copy(note, pdf)
    pdf.chmod(0o600)
    atomic_copy(note, pdf)
    assert stat.S_IMODE(pdf.stat().st_mode) == 0o600
