"""`vaultd mcp`: the MCP server over stdio (default) or streamable HTTP on 127.0.0.1."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

import click

from vaultd.cli import main_group
from vaultd.cli.common import app
from vaultd.config import Settings, load_settings
from vaultd.errors import VaultdError
from vaultd.vault import Vault, resolve_vault


@main_group.command("mcp")
@click.option("--http", "http_port", type=click.IntRange(1, 65535), default=None,
              help="Serve streamable HTTP on 127.0.0.1:PORT (path /mcp) instead of stdio.")
@click.pass_context
def mcp_command(ctx: click.Context, http_port: int | None) -> None:
    """Run the MCP server for agents (cite, recall, quote, bibliography, verify, status).

    \b
    Examples:
      vaultd mcp                      # stdio, for Claude Desktop / Claude Code
      vaultd --vault ~/Research mcp --http 8765
    """
    from vaultd.mcp_server import build_server, prepare_fast_start

    if os.environ.get("VAULTD_MCP_FAST_START", "1") != "0":  # 0: plain SDK imports
        prepare_fast_start()

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING,
                        format="vaultd-mcp %(levelname)s %(message)s")
    a = app(ctx)
    settings: Settings | None = None
    try:
        vault = resolve_vault(a.vault_dir)
    except VaultdError as exc:
        # Still serve: every tool answers with the hint instead of the agent seeing a crash.
        logging.getLogger("vaultd.mcp").warning("%s", exc)
        vault = Vault(Path("/nonexistent/vaultd-vault-not-configured"))
    if vault.exists():
        settings = load_settings(vault.config_path)
    server = build_server(vault, settings)
    if http_port is None:
        server.run("stdio")
    else:
        click.echo(f"vaultd MCP on http://127.0.0.1:{http_port}/mcp", err=True)
        server.run("streamable-http", host="127.0.0.1", port=http_port)
