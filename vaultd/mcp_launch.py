"""Start the MCP server process: vault, settings, logging, then the transport.

Shared by the click command (`vaultd mcp --help` and every unusual invocation) and the
console script's fast path (vaultd.entry), which comes here without loading the CLI
framework: an agent host spawns `vaultd mcp` for each session and waits for it.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
from pathlib import Path

from vaultd.errors import VaultdError

#: ``VAULTD_MCP_FAST_START=0`` turns off the lean SDK start-up (see prepare_fast_start).
FAST_START_ENV = "VAULTD_MCP_FAST_START"


def _on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(143)


def serve(vault_dir: str | None, http_port: int | None) -> None:
    """Serve MCP over stdio (``http_port`` None) or streamable HTTP on 127.0.0.1."""
    if os.environ.get(FAST_START_ENV, "1") != "0":
        from vaultd.mcp_server import prepare_fast_start

        prepare_fast_start()  # before pydantic models (ours too) are defined
    from vaultd.config import Settings, load_settings
    from vaultd.mcp_server import build_server
    from vaultd.vault import Vault, resolve_vault

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING,
                        format="vaultd-mcp %(levelname)s %(message)s")
    settings: Settings | None = None
    try:
        vault = resolve_vault(vault_dir)
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
        print(f"vaultd MCP on http://127.0.0.1:{http_port}/mcp", file=sys.stderr, flush=True)
        server.run("streamable-http", host="127.0.0.1", port=http_port)


def run_fast(vault_dir: str | None, http_port: int | None) -> int:
    """`vaultd mcp` without the CLI framework, with the CLI's exit codes."""
    signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        serve(vault_dir, http_port)
    except KeyboardInterrupt:
        return 130
    except VaultdError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    return 0
