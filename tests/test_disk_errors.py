"""Read-only and full disks: one line naming the path and the cause, exit 1, nothing half
written, and the work done once the disk takes writes again.

A real read-only bind mount and a real small tmpfs (``mount`` needs root: elsewhere
these tests skip and say so)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_compile import KEY, _meta

from vaultd.config import default_config_toml
from vaultd.errors import DiskError, database_disk_error, disk_error
from vaultd.samplepdf import write_sample_paper
from vaultd.vault import Vault


def _mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True)


def _can_mount(tmp: Path) -> bool:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    probe = tmp / "probe"
    probe.mkdir()
    try:
        _mount("-t", "tmpfs", "-o", "size=64k", "tmpfs", str(probe))
    except subprocess.CalledProcessError:
        return False
    subprocess.run(["umount", str(probe)], check=False)
    return True


@pytest.fixture
def mounts(tmp_path: Path) -> Iterator[list[Path]]:
    if not _can_mount(tmp_path):
        pytest.skip("needs root and mount(8) for a real read-only bind mount and tmpfs")
    mounted: list[Path] = []
    yield mounted
    for target in reversed(mounted):
        subprocess.run(["umount", "-l", str(target)], check=False)


def _tmpfs(where: Path, size: str, mounts: list[Path]) -> Path:
    """A real tmpfs of ``size`` mounted at ``where`` (unmounted by the ``mounts`` fixture)."""
    where.mkdir()
    _mount("-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where))
    mounts.append(where)
    return where


def _cli(vault_root: Path, *args: str) -> tuple[int, str]:
    """The real command, as a user runs it (its entry point maps the errors)."""
    proc = subprocess.run([sys.executable, "-m", "vaultd", "--vault", str(vault_root), *args],
                          capture_output=True, text=True, timeout=120, check=False)
    return proc.returncode, proc.stdout + proc.stderr


def _paper_vault(root: Path) -> Vault:
    vault = Vault(root)
    vault.init(default_config_toml())
    write_sample_paper(vault.pdf_path(KEY))
    _meta(vault)
    return vault


def test_a_read_only_vault_gives_one_line_with_the_path_and_writes_nothing(
        tmp_path: Path, mounts: list[Path]) -> None:
    vault = _paper_vault(tmp_path / "vault")
    _mount("--bind", str(vault.root), str(vault.root))
    mounts.append(vault.root)
    _mount("-o", "remount,bind,ro", str(vault.root))
    code, out = _cli(vault.root, "compile", KEY)
    assert code == 1
    [line] = out.strip().splitlines()
    assert line.startswith("Error: ") and "read-only" in line and str(vault.root) in line
    assert "Traceback" not in out
    assert not vault.note_path(KEY).exists()
    code, out = _cli(tmp_path / "vault" / "sub", "init")  # a new vault on the read-only disk
    assert code == 1 and "read-only" in out and len(out.strip().splitlines()) == 1


def test_a_full_disk_leaves_no_partial_note_and_the_next_run_writes_it(
        tmp_path: Path, mounts: list[Path]) -> None:
    disk = _tmpfs(tmp_path / "disk", "640k", mounts)
    vault = _paper_vault(disk / "vault")
    free = shutil.disk_usage(disk).free
    filler = disk / "filler"
    filler.write_bytes(b"\0" * max(0, free - 4096))  # about one page left: no room for a note
    code, out = _cli(vault.root, "compile", KEY)
    assert code == 1, out
    [line] = out.strip().splitlines()
    assert "no space left" in line and "Traceback" not in out
    assert not vault.note_path(KEY).exists()
    assert not [p for p in vault.wiki.iterdir() if p.name.endswith(".tmp")]  # nothing half-written
    filler.unlink()  # space comes back
    code, out = _cli(vault.root, "compile", KEY)
    assert code == 0, out
    assert vault.note_path(KEY).read_text(encoding="utf-8").startswith("---\ncite_key: ")


@pytest.mark.parametrize(("errno_name", "cause", "transient"), [
    ("EROFS", "read-only", False), ("ENOSPC", "no space left", True),
    ("EDQUOT", "quota exceeded", True), ("EACCES", "permission denied", False),
])
def test_disk_errors_name_the_path_the_cause_and_what_to_do(
        errno_name: str, cause: str, transient: bool) -> None:
    import errno

    exc = OSError(getattr(errno, errno_name), os.strerror(getattr(errno, errno_name)),
                  "/v/wiki/k.md")
    found = disk_error(exc)
    assert isinstance(found, DiskError) and found.cause == cause and found.transient is transient
    assert str(found).startswith(f"/v/wiki/k.md: {cause} (") and "; " in str(found)
    assert disk_error(FileNotFoundError(2, "No such file or directory", "/x")) is None


def test_sqlite_disk_failures_read_as_disk_errors() -> None:
    ro = database_disk_error("/s/index.db", "attempt to write a readonly database")
    full = database_disk_error("/s/index.db", "database or disk is full")
    assert ro is not None and ro.cause == "read-only" and not ro.transient
    assert full is not None and full.cause == "no space left" and full.transient
    assert database_disk_error("/s/index.db", "no such table: docs") is None


def test_the_agent_on_a_full_disk_keeps_the_item_says_why_and_finishes_when_space_returns(
        tmp_path: Path, mounts: list[Path]) -> None:
    from test_daemon_support import agent, drop, jobs, sample_bytes, settled, wait_for

    from vaultd.daemon.queue import JobQueue
    from vaultd.statedb import open_state_db

    disk = _tmpfs(tmp_path / "disk", "1m", mounts)
    vault = Vault(disk / "vault")
    vault.init(default_config_toml())
    pdf = sample_bytes(tmp_path)
    with agent(vault) as a:
        filler = disk / "filler"
        # room for the dropped file, not for its copy in raw/ and its note
        filler.write_bytes(b"\0" * max(0, shutil.disk_usage(disk).free - len(pdf) - 8192))
        drop(vault.inbox, "paper.pdf", pdf)
        wait_for(lambda: any(j.state == "queued" and "no space left" in (j.error or "")
                             for j in jobs(vault)), 30, "a retry for lack of space")
        assert (vault.inbox / "paper.pdf").read_bytes() == pdf  # kept, not moved or lost
        assert a.proc.poll() is None  # still running
        status = subprocess.run([sys.executable, "-m", "vaultd", "--vault", str(vault.root),
                                 "status"], capture_output=True, text=True, check=False)
        assert "retrying" in status.stdout and "no space left" in status.stdout
        filler.unlink()
        db = open_state_db(vault.state_db)
        JobQueue(db).wake_retries(force=True)
        db.close()
        wait_for(lambda: settled(vault, 1), 30, "the job once space is back")
        (job,) = jobs(vault)
        assert job.state == "done", job.error
        assert vault.note_path(job.cite_keys[0]).is_file()
        assert a.stop() == 0
