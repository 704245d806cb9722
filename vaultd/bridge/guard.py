"""Who may talk to the bridge, beyond the Host and token every loopback server checks
(`vaultd.loopback.guard`): the extension's Origin, pairing and the rate (pure; no I/O).

Each check returns ``None`` when the request may go on, else a
:class:`~vaultd.loopback.guard.Refusal` with the HTTP status and one sentence saying what
is wrong and what to do.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from vaultd.loopback.guard import Refusal

EXTENSION_SCHEME = "chrome-extension://"
SERVED = "the bridge"
TOKEN_REFUSED = ("missing or wrong bridge token: pair with `vaultd bridge token` "
                 "(paste it in the extension's options)")


def check_origin(origin: str | None, paired: str | None) -> Refusal | None:
    """No ``Origin`` (a local program) is fine; a browser origin must be the paired
    extension's, or, while nothing is paired, some extension's (the token then pairs it)."""
    if origin is None:
        return None
    if paired is not None:
        if origin == paired:
            return None
        return Refusal(403, f"origin {origin} is not the paired extension; re-pair with "
                            "`vaultd bridge token --reset` if you reinstalled it")
    if origin.startswith(EXTENSION_SCHEME) and len(origin) > len(EXTENSION_SCHEME):
        return None
    return Refusal(403, f"origin {origin} may not use the bridge: only the vaultd extension may")


def pairs(origin: str | None, paired: str | None) -> bool:
    """Whether an authenticated request from ``origin`` pairs its extension now."""
    return paired is None and origin is not None and origin.startswith(EXTENSION_SCHEME)


@dataclass
class RateLimiter:
    """A token bucket per client: ``per_minute`` requests, refilled continuously."""

    per_minute: int
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[str, tuple[float, float]] = field(default_factory=dict)

    def check(self, client: str) -> Refusal | None:
        now = self.clock()
        level, then = self._buckets.get(client, (float(self.per_minute), now))
        level = min(float(self.per_minute), level + (now - then) * self.per_minute / 60.0)
        if level < 1.0:
            self._buckets[client] = (level, now)
            wait = (1.0 - level) * 60.0 / self.per_minute
            return Refusal(429, f"too many requests; try again in {wait:.0f} s")
        self._buckets[client] = (level - 1.0, now)
        if len(self._buckets) > 1024:  # forget idle clients; a flood of names stays bounded
            self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < 60.0}
        return None

    def retry_after(self, client: str) -> int:
        level, _ = self._buckets.get(client, (0.0, 0.0))
        return max(1, round((1.0 - level) * 60.0 / self.per_minute))
