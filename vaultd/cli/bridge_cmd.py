"""`vaultd bridge`: the browser extension's loopback bridge, alone; its token; its state."""

from __future__ import annotations

import signal
import threading
from typing import Any

import click

from vaultd.cli import main_group
from vaultd.cli.common import app, emit_json, json_option, load_checked_settings, stderr
from vaultd.secrets import bridge_token


@main_group.group("bridge", invoke_without_command=True)
@click.option("--port", type=click.IntRange(1, 65535), default=None,
              help="Listen on 127.0.0.1:PORT (default: [bridge] port, 7600).")
@click.pass_context
def bridge_group(ctx: click.Context, port: int | None) -> None:
    """The browser extension's bridge on 127.0.0.1 (docs/bridge.md).

    Without a subcommand, runs the bridge alone in the foreground until Ctrl-C
    (`vaultd run` starts it too). Captures land in Inbox/ for the agent.

    \b
    Examples:
      vaultd bridge token        # pair the extension: paste this in its options
      vaultd bridge              # the bridge alone
      vaultd bridge status --json
    """
    if ctx.invoked_subcommand is not None:
        return
    # lazy: vaultd.bridge.server costs 610 ms at import (pulls in uvicorn, anyio, asyncio, subprocess)
    from vaultd.bridge.server import BridgeServer

    vault = app(ctx).vault()
    vault.require()
    settings = load_checked_settings(vault.config_path)
    server = BridgeServer(vault, settings, port=port)
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    server.start()
    stderr.print(f"bridge on 127.0.0.1:{server.port} for {vault.root} (Ctrl-C stops it)")
    stop.wait()
    server.stop()


@bridge_group.command("token")
@click.option("--reset", is_flag=True,
              help="Make a new token and forget the paired extension (pair it again).")
@click.pass_context
def token_command(ctx: click.Context, reset: bool) -> None:
    """Print the bridge token (made on first use; kept in <state dir>/secrets/, mode 0600)."""
    vault = app(ctx).vault()
    vault.require()
    click.echo(bridge_token(vault, reset=reset))
    if reset:
        stderr.print("new token made; paste it in the extension's options to pair it again "
                     "(a running bridge picks it up when restarted)")


@bridge_group.command("status")
@json_option
@click.pass_context
def status_command(ctx: click.Context, as_json: bool) -> None:
    """Whether a bridge answers on the configured port, and what it reports. Exit 1 if none."""
    # lazy: httpx costs 315 ms at import
    import httpx


    vault = app(ctx).vault()
    vault.require()
    port = load_checked_settings(vault.config_path).bridge.port
    url = f"http://127.0.0.1:{port}/status"
    answer: dict[str, Any]
    try:
        r = httpx.get(url, headers={"Authorization": f"Bearer {bridge_token(vault)}"}, timeout=3)
        answer = {"running": True, "port": port, **r.json()} if r.status_code == 200 else {
            "running": True, "port": port, "error": r.json().get("error", r.reason_phrase)}
    except (httpx.HTTPError, ValueError) as exc:
        answer = {"running": False, "port": port, "error": f"nothing answers on {url}: {exc}"}
    if as_json:
        emit_json(answer)
    elif not answer["running"]:
        stderr.print(f"no bridge on 127.0.0.1:{port}: start `vaultd run` (or `vaultd bridge`)")
    elif "error" in answer:
        stderr.print(f"something on 127.0.0.1:{port} refused this vault's token: "
                     f"{answer['error']} (another vault's bridge?)")
    else:
        click.echo(f"bridge on 127.0.0.1:{port} for vault {answer['vault']}: "
                   f"{'paired' if answer['paired'] else 'not paired'}, extension "
                   f"{'connected' if answer['extension_connected'] else 'not connected'}, "
                   f"agent {'running' if answer['agent'] else 'not running'}, agent actions "
                   f"{'on' if answer['agent_actions'] else 'off'}")
    if not answer["running"] or "error" in answer:
        ctx.exit(1)
