"""`vaultd mcp`: the MCP server over stdio (default) or streamable HTTP on 127.0.0.1."""

from __future__ import annotations

import click

from vaultd.cli import main_group
from vaultd.cli.common import app


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
    from vaultd.mcp_launch import serve

    serve(app(ctx).vault_dir, http_port)
