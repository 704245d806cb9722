"""`vaultd init`: create a vault (idempotent)."""

from __future__ import annotations

from pathlib import Path

import click

from vaultd.cli import main_group
from vaultd.cli.common import app, emit_json, json_option, load_checked_settings
from vaultd.config import default_config_toml
from vaultd.vault import Vault, default_vault, remember_default_vault


@main_group.command("init")
@click.argument("directory", required=False, type=click.Path(file_okay=False))
@click.option("--default", "make_default", is_flag=True,
              help="Make this vault the default even when another one is.")
@json_option
@click.pass_context
def init_command(ctx: click.Context, directory: str | None, make_default: bool,
                 as_json: bool) -> None:
    """Create a vault in DIRECTORY (default: --vault, else the current directory).

    Safe to run again: existing files are left alone. The first vault becomes the default
    for commands run without --vault; it stays the default until `vaultd init --default`
    names another.

    \b
    Examples:
      vaultd init ~/Research
      vaultd init --default ~/Thesis
    """
    target = directory or app(ctx).vault_dir or "."
    vault = Vault(Path(target).expanduser().resolve())
    created = vault.init(default_config_toml())
    load_checked_settings(vault.config_path)  # fail now, not later, if an existing config is bad
    is_default = remember_default_vault(vault.root, replace=make_default)
    if as_json:
        emit_json({"vault": str(vault.root), "created": [vault.rel(p) for p in created],
                   "default": is_default})
        return
    state = "Created" if created else "Already a vault:"
    click.echo(f"{state} {vault.root}")
    for path in created:
        click.echo(f"  + {vault.rel(path)}")
    if is_default:
        click.echo(f"Default vault: {vault.root}")
    else:
        click.echo(f"The default vault stays {default_vault()}; "
                   f"`vaultd init --default {vault.root}` makes this one the default")
