"""What the MCP ``status`` tool says of the agent: whether it runs, its last verify, and
where its MCP endpoint and browser bridge listen (read-only)."""

from __future__ import annotations

from typing import Any

from vaultd.config import Settings
from vaultd.vault import Vault


def agent_state(vault: Vault, settings: Settings | None) -> dict[str, Any]:
    """Whether the agent runs, its last verify, and where its MCP endpoint and browser
    bridge listen (read-only: nothing here starts or locks anything)."""
    # lazy: vaultd.service_lock costs 1 ms at import; only the status tool needs it
    from vaultd.service_lock import service_running

    # lazy: vaultd.statedb costs 15 ms at import (pulls in sqlite3)
    from vaultd.statedb import daemon_meta

    running = bool(service_running(vault)["running"])
    meta = daemon_meta(vault.state_db, ["service", "last_verify", "mcp"])
    mcp = meta.get("mcp") if running else None
    return {"running": running, "last_verify": meta.get("last_verify"),
            "mcp": mcp.get("url") if isinstance(mcp, dict) else None,
            "bridge": (f"http://127.0.0.1:{settings.bridge.port}"
                       if running and settings is not None and settings.bridge.enabled else None)}
