"""The lab library behind the MCP tools: ``recall(scope="library")`` searches it, and
``cite``/``quote`` fall back to it for a key this vault does not hold. Every answer from
the library says so and names the member(s) who published the work."""

from __future__ import annotations

import threading
from typing import Any

import psycopg

from vaultd.config import Settings
from vaultd.errors import LibraryError
from vaultd.formats import CitationRenderer
from vaultd.index.embed import Embedder
from vaultd.lab.connect import open_library
from vaultd.lab.search import LibraryFilters
from vaultd.lookup import library


class LibraryLink:
    """One member connection, opened on first use and again after it drops."""

    def __init__(self, settings: Settings | None) -> None:
        self.settings = settings
        self._conn: psycopg.Connection[Any] | None = None
        self._lock = threading.Lock()

    @property
    def configured(self) -> bool:
        return bool(self.settings and self.settings.library.url)

    @property
    def group(self) -> str:
        return self.settings.library.name if self.settings else "lab"

    def conn(self) -> psycopg.Connection[Any]:
        if not self.configured or self.settings is None or not self.settings.library.url:
            raise LibraryError("no lab library is set for this vault: the user adds "
                               "[library] url to .vaultd/config.toml (docs/library.md)")
        with self._lock:
            if self._conn is not None and self._conn.closed:
                self._conn = None
            if self._conn is None:
                self._conn = open_library(self.settings.library.url)
            return self._conn

    def reset(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
            self._conn = None

    def recall(self, query: str, *, limit: int, filters: LibraryFilters,
               embedder: Embedder | None) -> dict[str, Any]:
        qvec, model, warning = None, None, None
        if embedder is not None:
            try:
                qvec = embedder.embed_query(query)
                model = f"{getattr(embedder, 'provider', '')}:{getattr(embedder, 'model', '')}"
            except Exception as exc:  # keyword search still answers
                warning = f"keyword search only: {exc}"
        try:
            hits = library.recall(self.conn(), self.group, query, limit=limit,
                                  filters=filters, qvec=qvec, model=model)
        except LibraryError as exc:
            if exc.transient:
                self.reset()
            raise
        out: dict[str, Any] = {
            "query": query, "scope": "library", "hits": [library.hit_json(h) for h in hits],
            "note": "From the lab library: quote via quote(cite_key, chunk_id); each hit "
                    "names the members who published it."}
        if warning:
            out["warning"] = warning
        return out

    def cite(self, key: str, style: str, renderer: CitationRenderer,
             page: str | None) -> tuple[Any, dict[str, Any]]:
        return library.citation(self.conn(), self.group, key, style, renderer=renderer,
                                page=page)

    def quote(self, key: str, chunk_id: str,
              renderer: CitationRenderer | None) -> dict[str, Any]:
        return library.quote(self.conn(), self.group, key, chunk_id, renderer=renderer)
