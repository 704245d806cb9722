"""The MCP ``browser`` tool: agent actions in the user's browser tab, relayed by the
running bridge to the vaultd extension (only with ``[bridge] agent_actions``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from mcp.server.mcpserver.exceptions import ToolError

from vaultd.config import Settings
from vaultd.errors import VaultdError
from vaultd.vault import Vault

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer


def browser_tool(server: MCPServer, vault: Vault, settings: Settings) -> None:
    """Agent actions in the user's browser, through the bridge and the extension (only
    when ``[bridge] agent_actions`` is on; the extension must allow them and the origin)."""

    @server.tool()
    def browser(action: Literal["ping", "tab_info", "navigate", "click", "type", "wait",
                                "extract", "screenshot"],
                url: str | None = None, selector: str | None = None, text: str | None = None,
                timeout_ms: int | None = None) -> dict[str, Any]:
        """Drive the user's browser tab through the vaultd extension: navigate (url),
        click/type/wait (CSS selector; text for type), extract (text of selector or the
        page), screenshot, tab_info, ping. Only on origins the user allowed."""
        # lazy: vaultd.loopback.client costs 1733 ms at import (pulls in httpx, uvicorn, asyncio, subprocess)
        from vaultd.loopback.client import send_command

        given = {"url": url, "selector": selector, "text": text, "timeout_ms": timeout_ms}
        params = {k: v for k, v in given.items() if v is not None}
        try:
            return send_command(vault, settings, action, params)
        except VaultdError as exc:
            raise ToolError(str(exc)) from exc
