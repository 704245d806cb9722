"""The `vaultd` command: a thin layer over the library (one module per command group).

Data goes to stdout (``--json`` on every command that reports), progress and logs to
stderr. Exit codes: 0 success, 1 failure or drift, 2 usage, 130/143 on SIGINT/SIGTERM.
"""

from __future__ import annotations

import importlib
import sys

import click

from vaultd import __version__
from vaultd.cli.common import AppContext, run_command

# Each module registers its commands on `main` when imported. Add new command groups here.
COMMAND_MODULES = [
    "vaultd.cli.init_cmd",
    "vaultd.cli.capture_cmd",
    "vaultd.cli.run_cmd",
    "vaultd.cli.status_cmd",
    "vaultd.cli.service_cmd",
    "vaultd.cli.rules_cmd",
    "vaultd.cli.demo_cmd",
    "vaultd.cli.index_cmd",
    "vaultd.cli.search_cmd",
    "vaultd.cli.cite_cmd",
    "vaultd.cli.mcp_cmd",
    "vaultd.cli.enrich_cmd",
    "vaultd.cli.verify_cmd",
    "vaultd.cli.compile_cmd",
]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="vaultd")
@click.option(
    "--vault",
    "vault_dir",
    type=click.Path(file_okay=False),
    envvar="VAULTD_VAULT",
    help="Vault directory (else $VAULTD_VAULT, else the vault given to `vaultd init`).",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress output on stderr.")
@click.pass_context
def main_group(ctx: click.Context, vault_dir: str | None, quiet: bool) -> None:
    """vaultd: a research vault whose citations are never wrong.

    \b
    Examples:
      vaultd init ~/Research
      vaultd capture https://arxiv.org/abs/1706.03762
      vaultd search "scaled dot-product attention"
      vaultd verify --json
    """
    ctx.obj = AppContext(vault_dir=vault_dir, quiet=quiet)


for _name in COMMAND_MODULES:
    importlib.import_module(_name)


def main() -> None:
    sys.exit(run_command(main_group))
