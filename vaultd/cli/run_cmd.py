"""`vaultd run`: the agent in the foreground (what launchd/systemd start).

The composition root of the long-running interfaces: it builds the agent (``daemon/``),
the browser bridge (``bridge/``) and MCP over HTTP (``mcp/``), and hands the two servers
to the agent, which starts them once it holds the vault. None of the three imports another.
"""

from __future__ import annotations

import logging
import os
from typing import Any

import click

from vaultd.cli import main_group
from vaultd.cli.common import app, load_checked_settings
from vaultd.config import Settings
from vaultd.daemon.companions import Companion, Server
from vaultd.vault import Vault


def companions(vault: Vault, settings: Settings) -> list[Companion]:
    """The servers the agent runs beside it, each when its settings enable it: the browser
    extension's bridge (docs/bridge.md) and MCP over HTTP, warm (docs/mcp.md)."""
    out: list[Companion] = []
    if settings.bridge.enabled:
        def bridge() -> Server:
            # lazy: vaultd.bridge.server costs 274 ms at import (pulls in uvicorn, anyio, asyncio, subprocess)
            from vaultd.bridge.server import BridgeServer  # starlette + uvicorn: only when on

            return BridgeServer(vault, settings, agent=True)

        out.append(Companion("browser bridge", bridge))
    if settings.mcp.enabled:
        def mcp() -> Server:
            # lazy: vaultd.mcp.http costs 128 ms at import (pulls in uvicorn, asyncio, subprocess)
            from vaultd.mcp.http import McpHttpServer  # the MCP SDK: only when on

            return McpHttpServer(vault, settings, warm=True)

        out.append(Companion("MCP over HTTP", mcp, meta_key="mcp"))
    return out


@main_group.command("run")
@click.option("--debounce", type=float, default=None,
              help="Seconds a file must stay unchanged before it is read (daemon.debounce_seconds).")
@click.option("--concurrency", type=int, default=None, help="Jobs run at once (daemon.concurrency).")
@click.option("--no-schedule", is_flag=True, help="Do not start the scheduled tasks (verify, retries…).")
@click.pass_context
def run_command(ctx: click.Context, debounce: float | None, concurrency: int | None,
                no_schedule: bool) -> None:
    """Watch the vault's Inbox/ and turn what lands there into compiled, indexed notes.

    Runs until SIGTERM/SIGINT (Ctrl-C); the running job finishes or is re-queued and the
    process exits 0. Logs go to <state dir>/logs/vaultd.log and stderr.

    \b
    Example:
      vaultd --vault ~/Research run
    """
    # lazy: vaultd.daemon.rules costs 21 ms at import (pulls in plistlib)
    from vaultd.daemon.rules import load_rules

    # lazy: vaultd.daemon.runner costs 840 ms at import (pulls in yaml, rispy, sqlite3, subprocess)
    from vaultd.daemon.runner import Daemon, setup_logging

    a = app(ctx)
    vault = a.vault()
    daemon_over: dict[str, Any] = {}
    if debounce is not None:
        daemon_over["debounce_seconds"] = debounce
    if concurrency is not None:
        daemon_over["concurrency"] = concurrency
    settings = load_checked_settings(vault.config_path, overrides={"daemon": daemon_over} if daemon_over else None)
    rules = load_rules(vault.rules_dir)  # an invalid rule stops startup with one line
    setup_logging(vault, verbose=not a.quiet)
    daemon = Daemon(vault, settings, rules, scheduler=not no_schedule,
                    companions=companions(vault, settings))
    code = daemon.run()
    logging.shutdown()
    if daemon.abandoned:
        # A worker thread still inside a stage: its job is re-queued; do not wait for it.
        os._exit(code)
    ctx.exit(code)
