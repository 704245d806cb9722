"""Start the MCP server process: vault, settings, logging, then the transport.

What `vaultd mcp` runs once click has parsed its options; kept apart from the CLI so it
can be driven without the command line. Start-up is the SDK's own: nothing of vaultd's
beyond the vault's settings is read before the first tool call (the index is opened then).
"""

from __future__ import annotations

import logging
import signal
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from vaultd.errors import VaultdError

if TYPE_CHECKING:
    from vaultd.config import Settings
    from vaultd.vault import Vault


def serve(vault_dir: str | None, http_port: int | None) -> None:
    """Serve MCP over stdio (``http_port`` None) or streamable HTTP on 127.0.0.1."""
    # lazy: vaultd.config costs 146 ms at import (pulls in pydantic)
    from vaultd.config import load_settings

    # lazy: vaultd.mcp.server costs 30 ms at import (pulls in platformdirs)
    from vaultd.mcp.server import build_server

    # lazy: vaultd.vault costs 27 ms at import (pulls in platformdirs)
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
    if http_port is None:
        build_server(vault, settings).run("stdio")
        return
    _serve_http(vault, settings, http_port)


def _serve_http(vault: Vault, settings: Settings | None, port: int) -> None:
    """The authenticated HTTP endpoint in the foreground until SIGINT/SIGTERM."""
    # lazy: vaultd.mcp.http costs 263 ms at import (pulls in uvicorn, pydantic, asyncio, subprocess)
    from vaultd.mcp.http import McpHttpServer

    if not vault.exists():
        raise VaultdError(f"{vault.root}: not a vaultd vault; MCP over HTTP needs one "
                          "(vaultd init, or --vault)")
    server = McpHttpServer(vault, settings, port=port)
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    server.start()
    print(f"vaultd MCP on {server.url} (header 'Authorization: Bearer <token>': "
          "vaultd mcp token)", file=sys.stderr, flush=True)
    stop.wait()
    server.stop()
