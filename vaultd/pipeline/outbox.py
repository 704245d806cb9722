"""The outbox of works waiting to be published to the lab library (``state.db``): a work
the library cannot take now (unreachable server) waits here and is retried by the agent's
schedule or ``vaultd library publish``, never lost."""

from __future__ import annotations

from vaultd.statedb import open_state_db
from vaultd.vault import Vault


def outbox(vault: Vault) -> list[tuple[str, int, str | None]]:
    """(cite key, attempts, last error) of every work waiting to be published."""
    db = open_state_db(vault.state_db)
    try:
        return [(str(k), int(a), e) for k, a, e in db.execute(
            "SELECT cite_key, attempts, last_error FROM library_outbox ORDER BY queued_at")]
    finally:
        db.close()


def enqueue(vault: Vault, items: list[tuple[str, str]]) -> None:
    """Queue (cite key, why) items; a key already waiting counts one more attempt."""
    db = open_state_db(vault.state_db)
    try:
        with db:
            db.executemany(
                "INSERT INTO library_outbox (cite_key, attempts, last_error) VALUES (?, 1, ?) "
                "ON CONFLICT(cite_key) DO UPDATE SET attempts = attempts + 1, "
                "last_error = excluded.last_error", items)
    finally:
        db.close()


def dequeue(vault: Vault, keys: list[str]) -> None:
    """Take ``keys`` out of the outbox (published, or no longer to publish)."""
    db = open_state_db(vault.state_db)
    try:
        with db:
            db.executemany("DELETE FROM library_outbox WHERE cite_key = ?",
                           [(k,) for k in keys])
    finally:
        db.close()
