"""Who may talk to a loopback server (the bridge, MCP over HTTP): Host and token (pure).

Each check returns ``None`` when the request may go on, else a :class:`Refusal` with the
HTTP status and one sentence saying what is wrong and what to do. What only the bridge
asks (the extension's Origin, the rate) is in `vaultd.bridge.guard`.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass


@dataclass(frozen=True)
class Refusal:
    status: int
    error: str


def check_host(host: str | None, port: int, served: str) -> Refusal | None:
    """Only ``127.0.0.1:<port>`` and ``localhost:<port>``: a page whose DNS name was
    rebound to 127.0.0.1 sends its own name here and is refused. ``served`` names the
    server in the refusal ("the bridge")."""
    if host is not None and host.lower() in {f"127.0.0.1:{port}", f"localhost:{port}"}:
        return None
    return Refusal(421, f"{served} answers only to 127.0.0.1:{port} and localhost:{port}")


def check_token(authorization: str | None, expected: str, refused: str) -> Refusal | None:
    """``Authorization: Bearer <expected>`` (compared in constant time), else a 401 whose
    message is ``refused`` (where the caller's token comes from)."""
    scheme, _, given = (authorization or "").partition(" ")
    if scheme.lower() == "bearer" and given and hmac.compare_digest(given.strip().encode(),
                                                                    expected.encode()):
        return None
    return Refusal(401, refused)
