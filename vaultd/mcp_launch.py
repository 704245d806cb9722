"""Start the MCP server process: vault, settings, logging, then the transport.

What `vaultd mcp` runs once click has parsed its options; kept apart from the CLI so the
server's start-up order (lean SDK start-up before any pydantic model is defined) is in
one place and can be driven without the command line.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from vaultd.errors import VaultdError

#: ``VAULTD_MCP_FAST_START=0`` turns off the lean SDK start-up (see prepare_fast_start).
FAST_START_ENV = "VAULTD_MCP_FAST_START"


def serve(vault_dir: str | None, http_port: int | None) -> None:
    """Serve MCP over stdio (``http_port`` None) or streamable HTTP on 127.0.0.1."""
    if os.environ.get(FAST_START_ENV, "1") != "0":
        from vaultd.mcp_server import prepare_fast_start

        prepare_fast_start()  # before the SDK is imported
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
