"""Per-vault secrets (bridge and MCP tokens): files of mode 0600 in a 0700 directory.

They live in ``<state dir>/secrets/``, beside the vault's other machine state, never in
``wiki/``, ``raw/`` or ``Inbox/``. A token is made on first use from ``secrets``'s CSPRNG.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets as csprng
import stat
from pathlib import Path

from vaultd.errors import VaultdError
from vaultd.vault import Vault

log = logging.getLogger("vaultd")

TOKEN_BYTES = 32


def secrets_dir(vault: Vault) -> Path:
    path = vault.machine_dir / "secrets"
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(OSError):  # a directory made by an older vaultd
        path.chmod(0o700)
    return path


def _write_private(path: Path, text: str, *, first: bool = False) -> bool:
    """Write ``text`` to ``path`` atomically, readable by this user only. ``first``: only
    when no file is there yet (two processes making a token on first use at once: one
    wins, and the other reads its token); returns whether this call wrote it."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{csprng.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        if not first:
            tmp.replace(path)
            return True
        try:
            os.link(tmp, path)  # fails when the file exists: the whole file or none
        except FileExistsError:
            return False
        finally:
            tmp.unlink(missing_ok=True)
        return True
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _tighten(path: Path) -> None:
    """A token readable by others (loosened by hand, a copy, a sync tool) is made private
    again, and the change is logged; one that cannot be is refused."""
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        try:
            path.chmod(0o600)
        except OSError as exc:
            raise VaultdError(f"{path} is readable by other users (mode {mode:o}) and cannot be "
                              f"made private ({exc.strerror}); run `chmod 600 {path}`") from exc
        log.warning("%s was readable by other users (mode %o); made private (600)", path, mode)


def token(vault: Vault, name: str, *, reset: bool = False) -> str:
    """The secret ``name`` of this vault, made on first use (or anew with ``reset``)."""
    path = secrets_dir(vault) / f"{name}.token"
    if not reset:
        with contextlib.suppress(FileNotFoundError):
            _tighten(path)
            value = path.read_text(encoding="utf-8").strip()
            if value:
                return value
    value = csprng.token_urlsafe(TOKEN_BYTES)
    if not reset:
        if _write_private(path, value + "\n", first=True):
            return value
        # Another process made it meanwhile (a server starting as its client reads the
        # token): that one holds. An empty file left by hand is replaced.
        made = path.read_text(encoding="utf-8").strip()
        if made:
            return made
    _write_private(path, value + "\n")
    return value


def bridge_token(vault: Vault, *, reset: bool = False) -> str:
    if reset:
        forget_paired(vault)
    return token(vault, "bridge", reset=reset)


def _paired_path(vault: Vault) -> Path:
    return secrets_dir(vault) / "bridge-paired.json"


def paired_origin(vault: Vault) -> str | None:
    """The ``chrome-extension://<id>`` origin paired with this vault's bridge, if any."""
    try:
        data = json.loads(_paired_path(vault).read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return None
    origin = data.get("origin") if isinstance(data, dict) else None
    return origin if isinstance(origin, str) else None


def pair(vault: Vault, origin: str) -> None:
    _write_private(_paired_path(vault), json.dumps({"origin": origin}) + "\n")


def forget_paired(vault: Vault) -> None:
    _paired_path(vault).unlink(missing_ok=True)
