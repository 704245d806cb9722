"""`vaultd mcp`: the MCP server over stdio (default) or authenticated HTTP on 127.0.0.1."""

from __future__ import annotations

import click

from vaultd.cli import main_group
from vaultd.cli.common import app, emit_json, json_option, load_checked_settings, stderr
from vaultd.mcp.launch import serve


@main_group.group("mcp", invoke_without_command=True)
@click.option("--http", "http_port", type=click.IntRange(0, 65535), default=None,
              help="Serve streamable HTTP on 127.0.0.1:PORT (path /mcp, bearer token) "
                   "instead of stdio.")
@click.pass_context
def mcp_group(ctx: click.Context, http_port: int | None) -> None:
    """Run the MCP server for agents (cite, recall, quote, bibliography, verify, status).

    `vaultd run` also serves it over HTTP on 127.0.0.1 ([mcp] port, 7601) from the warm
    agent; `vaultd mcp token` prints the token and the client set-up.

    \b
    Examples:
      vaultd mcp                      # stdio, for Claude Desktop / Claude Code
      vaultd --vault ~/Research mcp --http 8765
      vaultd mcp token --json         # the header to give an HTTP client
    """
    if ctx.invoked_subcommand is not None:
        return

    serve(app(ctx).vault_dir, http_port)


@mcp_group.command("token")
@click.option("--reset", is_flag=True, help="Make a new token (every HTTP client must be set up again).")
@json_option
@click.pass_context
def token_command(ctx: click.Context, reset: bool, as_json: bool) -> None:
    """Print the token HTTP clients send (made on first use; <state dir>/secrets/, mode 0600)."""
    # lazy: vaultd.mcp.http costs 128 ms at import (pulls in uvicorn, asyncio, subprocess)
    from vaultd.mcp.http import MCP_PATH, client_config, mcp_token

    vault = app(ctx).vault()
    vault.require()
    token = mcp_token(vault, reset=reset)
    port = load_checked_settings(vault.config_path).mcp.port
    url = f"http://127.0.0.1:{port}{MCP_PATH}"
    if as_json:
        emit_json({"token": token, "url": url, "client_config": client_config(url, token)})
        return
    click.echo(token)
    stderr.print(f"Claude Code: claude mcp add --transport http vaultd {url} "
                 f"--header \"Authorization: Bearer {token}\"")
