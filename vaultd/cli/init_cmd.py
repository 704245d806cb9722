"""`vaultd init`: create a vault (idempotent)."""

from __future__ import annotations

from pathlib import Path

import click

from vaultd.cli import main_group
from vaultd.cli.common import app, emit_json, json_option, load_checked_settings
from vaultd.config import default_config_toml
from vaultd.vault import Vault, remember_default_vault


@main_group.command("init")
@click.argument("directory", required=False, type=click.Path(file_okay=False))
@json_option
@click.pass_context
def init_command(ctx: click.Context, directory: str | None, as_json: bool) -> None:
    """Create a vault in DIRECTORY (default: --vault, else the current directory).

    Safe to run again: existing files are left alone. The directory becomes the default
    vault for later commands.

    \b
    Example:
      vaultd init ~/Research
    """
    target = directory or app(ctx).vault_dir or "."
    vault = Vault(Path(target).expanduser().resolve())
    created = vault.init(default_config_toml())
    load_checked_settings(vault.config_path)  # fail now, not later, if an existing config is bad
    remember_default_vault(vault.root)
    if as_json:
        emit_json({"vault": str(vault.root), "created": [vault.rel(p) for p in created]})
        return
    state = "Created" if created else "Already a vault:"
    click.echo(f"{state} {vault.root}")
    for path in created:
        click.echo(f"  + {vault.rel(path)}")
