"""`vaultd service install|uninstall|status`: run the agent at login (launchd/systemd)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from vaultd.cli import main_group
from vaultd.cli.common import app, emit_json, json_option
from vaultd.vault import Vault

if TYPE_CHECKING:
    from vaultd.daemon.service import ServicePlan


@main_group.group("service")
def service_group() -> None:
    """Install the agent as a login service (launchd on macOS, systemd --user on Linux).

    \b
    Example:
      vaultd service install --dry-run
    """


def _plan(ctx: click.Context, label: str) -> tuple[Vault, ServicePlan]:
    # lazy: vaultd.daemon.service costs 25 ms at import (pulls in subprocess, ssl)
    from vaultd.daemon import service

    vault = app(ctx).vault()
    return vault, service.plan(vault, home=Path.home(), vaultd=service.find_vaultd(), label=label)


_label = click.option("--label", default="org.vaultd.agent", show_default=True,
                      help="launchd label / systemd unit name.")
_dry = click.option("--dry-run", is_flag=True, help="Print what would be written and run.")


@service_group.command("install")
@_label
@_dry
@json_option
@click.pass_context
def install_command(ctx: click.Context, label: str, dry_run: bool, as_json: bool) -> None:
    """Write the service file and load it (starts now and at every login).

    \b
    Example:
      vaultd --vault ~/Research service install
    """
    # lazy: vaultd.daemon.service costs 25 ms at import (pulls in subprocess, ssl)
    from vaultd.daemon import service

    vault, p = _plan(ctx, label)
    cmds = service.install(p, vault, dry_run=dry_run)
    if as_json:
        emit_json({"file": str(p.path), "platform": p.platform, "commands": cmds,
                   "dry_run": dry_run, **({"content": p.content} if dry_run else {})})
        return
    if dry_run:
        click.echo(f"# would write {p.path}")
        click.echo(p.content)
        for c in cmds:
            click.echo(f"# would run: {c}")
        return
    click.echo(f"Installed {p.path} and loaded it ({p.platform}).")


@service_group.command("uninstall")
@_label
@_dry
@json_option
@click.pass_context
def uninstall_command(ctx: click.Context, label: str, dry_run: bool, as_json: bool) -> None:
    """Stop the service and remove its file (the vault is untouched).

    \b
    Example:
      vaultd service uninstall
    """
    # lazy: vaultd.daemon.service costs 25 ms at import (pulls in subprocess, ssl)
    from vaultd.daemon import service

    _, p = _plan(ctx, label)
    cmds = service.uninstall(p, dry_run=dry_run)
    if as_json:
        emit_json({"file": str(p.path), "commands": cmds, "dry_run": dry_run})
        return
    verb = "Would remove" if dry_run else "Removed"
    click.echo(f"{verb} {p.path}")
    for c in cmds:
        click.echo(f"  {'would run' if dry_run else 'ran'}: {c}")


@service_group.command("status")
@_label
@_dry
@json_option
@click.pass_context
def status_command(ctx: click.Context, label: str, dry_run: bool, as_json: bool) -> None:
    """Is the service file installed, and is it loaded?

    \b
    Example:
      vaultd service status --json
    """
    # lazy: vaultd.daemon.service costs 25 ms at import (pulls in subprocess, ssl)
    from vaultd.daemon import service

    _, p = _plan(ctx, label)
    data = service.status(p, probe=not dry_run)
    if as_json:
        emit_json(data)
        return
    loaded = {True: "loaded", False: "not loaded"}.get(data["loaded"], "unknown")  # type: ignore[call-overload]
    click.echo(f"{data['platform']}: {data['file']} "
               f"({'installed' if data['installed'] else 'not installed'}, {loaded})")
