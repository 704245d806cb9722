"""Agent actions sent to the running bridge by a local program (the MCP `browser` tool):
the client side of the loopback, so MCP reaches the bridge without importing it."""

from __future__ import annotations

from typing import Any

import httpx

from vaultd.config import Settings
from vaultd.errors import VaultdError
from vaultd.secrets import bridge_token
from vaultd.vault import Vault


class BridgeActionError(VaultdError):
    """The bridge did not carry out the action; the message says why and what to do."""


def send_command(vault: Vault, settings: Settings, action: str, params: dict[str, Any],
                 *, timeout: float = 40.0) -> dict[str, Any]:
    """POST ``/command`` to this vault's bridge; the extension's answer, or an error."""
    url = f"http://127.0.0.1:{settings.bridge.port}/command"
    try:
        r = httpx.post(url, json={"action": action, "params": params}, timeout=timeout,
                       headers={"Authorization": f"Bearer {bridge_token(vault)}"})
    except httpx.HTTPError as exc:
        raise BridgeActionError(f"no bridge answers on {url} ({exc}); start `vaultd run`") from exc
    try:
        body = r.json()
    except ValueError:
        body = {}
    if r.status_code != 200:
        raise BridgeActionError(str(body.get("error") or f"the bridge answered {r.status_code}"))
    if body.get("ok") is not True:
        raise BridgeActionError(f"{action}: {body.get('error') or 'failed in the extension'}")
    return {"result": body.get("result")}
