"""Recall: hybrid search (keywords + vectors, fused) answered as hits, the one path
``vaultd search`` and MCP ``recall`` share. When the embedding service is down the answer
is keyword-only and says so, never an error."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from vaultd.errors import VaultdError
from vaultd.index.embed import Embedder
from vaultd.index.hits import Hit, hit_json
from vaultd.index.search import Filters, hybrid_search
from vaultd.index.store import IndexDB
from vaultd.vault import Vault

log = logging.getLogger(__name__)


@dataclass
class Recalled:
    """The hits of one query; ``warning`` when embeddings were unavailable."""

    query: str
    hits: list[Hit]
    rows: list[dict[str, Any]] = field(default_factory=list)  # each hit as JSON
    warning: str | None = None
    embedder_failed: bool = False


def recall(vault: Vault, db: IndexDB, query: str, *, limit: int, filters: Filters,
           embedder: Embedder | None, rescore: bool, warm: bool = False) -> Recalled:
    """The best ``limit`` passages for ``query`` under ``filters``."""
    warning = None
    failed = False
    try:
        hits = hybrid_search(db, query, limit=limit, filters=filters, embedder=embedder,
                             warm=warm, rescore=rescore)
    except VaultdError as exc:
        if embedder is None or not exc.transient:
            raise
        log.warning("embeddings unavailable, keyword search only: %s", exc)
        warning, failed = f"keyword search only: {exc}", True
        hits = hybrid_search(db, query, limit=limit, filters=filters, rescore=rescore)
    return Recalled(query, hits, [hit_json(vault, h) for h in hits], warning, failed)
