"""Install `vaultd run` as a login service: a launchd agent on macOS, a systemd user unit
on Linux. ``plan_*`` functions are pure (what file, what content, which commands) so
tests and ``--dry-run`` see exactly what install would do."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from string import Template
from typing import Literal
from xml.sax.saxutils import escape

from vaultd.errors import VaultdError
from vaultd.vault import Vault, atomic_write_text

DEFAULT_LABEL = "org.vaultd.agent"
SYSTEMD_UNIT = "vaultd.service"
EXTRA_PATH = ("/opt/homebrew/bin", "/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin")
Platform = Literal["launchd", "systemd"]


class ServiceError(VaultdError):
    pass


@dataclass
class ServicePlan:
    platform: Platform
    label: str
    path: Path
    content: str
    install_commands: list[list[str]] = field(default_factory=list)
    uninstall_commands: list[list[str]] = field(default_factory=list)
    status_command: list[str] = field(default_factory=list)


def templates_dir() -> Path:
    here = Path(__file__).resolve().parent
    for candidate in (here / "launchd", here.parents[1] / "launchd"):
        if candidate.is_dir():
            return candidate
    raise ServiceError(f"service templates not found next to {here}; reinstall vaultd")


def find_vaultd() -> Path:
    """Absolute path of the installed `vaultd` (the one launchd/systemd will start)."""
    beside = Path(sys.executable).parent / "vaultd"
    if beside.is_file():
        return beside.resolve()
    found = shutil.which("vaultd")
    if found:
        return Path(found).resolve()
    raise ServiceError("cannot find the `vaultd` executable; install vaultd (scripts/install.sh)")


def service_path(vaultd: Path) -> str:
    parts = [str(vaultd.parent), *EXTRA_PATH]
    return ":".join(dict.fromkeys(parts))


def current_platform() -> Platform:
    return "launchd" if sys.platform == "darwin" else "systemd"


def _fields(vault: Vault, vaultd: Path, label: str) -> dict[str, str]:
    return {
        "label": label,
        "vaultd": str(vaultd),
        "vault": str(vault.root),
        "path": service_path(vaultd),
        "stdout_log": str(vault.logs_dir / "service.out.log"),
        "stderr_log": str(vault.logs_dir / "service.err.log"),
    }


def _systemd_quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def plan(vault: Vault, *, home: Path, vaultd: Path, label: str = DEFAULT_LABEL,
         platform: Platform | None = None, uid: int | None = None) -> ServicePlan:
    platform = platform or current_platform()
    uid = os.getuid() if uid is None else uid
    values = _fields(vault, vaultd, label)
    if platform == "launchd":
        text = (templates_dir() / "org.vaultd.agent.plist.template").read_text(encoding="utf-8")
        content = Template(text).substitute({k: escape(v) for k, v in values.items()})
        path = home / "Library" / "LaunchAgents" / f"{label}.plist"
        domain = f"gui/{uid}"
        return ServicePlan(
            platform, label, path, content,
            install_commands=[["launchctl", "bootout", f"{domain}/{label}"],
                              ["launchctl", "bootstrap", domain, str(path)]],
            uninstall_commands=[["launchctl", "bootout", f"{domain}/{label}"]],
            status_command=["launchctl", "print", f"{domain}/{label}"],
        )
    text = (templates_dir() / "vaultd.service.template").read_text(encoding="utf-8")
    values["vaultd_q"] = _systemd_quote(values["vaultd"])
    values["vault_q"] = _systemd_quote(values["vault"])
    values["path_env_q"] = _systemd_quote(f"PATH={values['path']}")
    values["vault_env_q"] = _systemd_quote(f"VAULTD_VAULT={values['vault']}")
    content = Template(text).substitute(values)
    config = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config")
    unit = SYSTEMD_UNIT if label == DEFAULT_LABEL else f"{label}.service"
    path = config / "systemd" / "user" / unit
    return ServicePlan(
        platform, label, path, content,
        install_commands=[["systemctl", "--user", "daemon-reload"],
                          ["systemctl", "--user", "enable", "--now", unit]],
        uninstall_commands=[["systemctl", "--user", "disable", "--now", unit],
                            ["systemctl", "--user", "daemon-reload"]],
        status_command=["systemctl", "--user", "is-active", unit],
    )


def _run(cmd: list[str], check: bool) -> subprocess.CompletedProcess[str]:
    try:
        result = subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ServiceError(f"`{shlex.join(cmd)}` could not run: {exc}; "
                           "is this a desktop session with launchd/systemd?") from exc
    if check and result.returncode != 0:
        err = (result.stderr or result.stdout).strip().splitlines()
        raise ServiceError(f"`{shlex.join(cmd)}` failed: {err[-1] if err else result.returncode}; "
                           "see `vaultd service status`")
    return result


def install(p: ServicePlan, vault: Vault, *, dry_run: bool = False) -> list[str]:
    """Write the service file and load it; returns the commands run (or to run)."""
    cmds = [shlex.join(c) for c in p.install_commands]
    if dry_run:
        return cmds
    vault.logs_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_text(p.path, p.content)
    for i, cmd in enumerate(p.install_commands):
        # launchd: the first bootout only clears an older copy; it fails when none is loaded.
        _run(cmd, check=not (p.platform == "launchd" and i == 0))
    return cmds


def uninstall(p: ServicePlan, *, dry_run: bool = False) -> list[str]:
    cmds = [shlex.join(c) for c in p.uninstall_commands]
    if dry_run:
        return cmds
    for cmd in p.uninstall_commands:
        _run(cmd, check=False)
    if p.path.exists():
        p.path.unlink()
    return cmds


def status(p: ServicePlan, *, probe: bool = True) -> dict[str, object]:
    out: dict[str, object] = {"platform": p.platform, "label": p.label,
                              "file": str(p.path), "installed": p.path.is_file()}
    if probe and shutil.which(p.status_command[0]):
        result = _run(p.status_command, check=False)
        out["loaded"] = result.returncode == 0
    else:
        out["loaded"] = None
    return out
