"""``vaultd library status``: what this member has published to the group and what is
behind (works changed here since, works never published, the outbox, vectors waiting for
the library's HNSW index)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import psycopg

from vaultd import record_store
from vaultd.config import Settings
from vaultd.errors import VaultdError
from vaultd.lab import publish as lab_publish
from vaultd.lab import read as lab_read
from vaultd.lab.connect import failed, open_library, where
from vaultd.pipeline.outbox import outbox
from vaultd.pipeline.publication import LocalVectors, configured, publication
from vaultd.vault import Vault


@dataclass
class LibraryStatus:
    url: str
    group: str
    member: str
    published: int = 0
    behind: list[str] = field(default_factory=list)  # changed here since published
    unpublished: list[str] = field(default_factory=list)  # never published
    gone: list[str] = field(default_factory=list)  # published, no longer in this vault
    queued: list[tuple[str, int, str | None]] = field(default_factory=list)
    vectors_waiting: int = 0  # published, not yet in the HNSW index (searched exactly)

    def to_json(self) -> dict[str, Any]:
        return {"url": self.url, "group": self.group, "member": self.member,
                "published": self.published, "vectors_waiting": self.vectors_waiting,
                "behind": self.behind,
                "unpublished": self.unpublished, "gone": self.gone,
                "queued": [{"cite_key": k, "attempts": a, "last_error": e}
                           for k, a, e in self.queued]}


def status(vault: Vault, settings: Settings) -> LibraryStatus:
    """What this member has published to the group and what is behind: works changed here
    since they were published, works never published, and the outbox."""
    url = configured(settings)
    conn = open_library(url)
    try:
        member = str(conn.execute("SELECT session_user").fetchone()[0])  # type: ignore[index]
        mine = lab_read.mine(conn, settings.library.name)
        waiting = lab_publish.waiting_for_index(conn)
    except psycopg.Error as exc:
        raise failed(exc, "reading what this member published") from exc
    finally:
        conn.close()
    out = LibraryStatus(where(url), settings.library.name, member, published=len(mine),
                        queued=outbox(vault), vectors_waiting=waiting)
    local = [meta.cite_key for meta in record_store.iter_records(vault)]
    with LocalVectors(vault) as vectors:
        for key in local:
            have = mine.get(key)
            if have is None:
                out.unpublished.append(key)
                continue
            try:
                if publication(vault, settings, key, vectors).fingerprint != have.fingerprint:
                    out.behind.append(key)
            except VaultdError:
                out.behind.append(key)
    out.gone = sorted(set(mine) - set(local))
    return out
