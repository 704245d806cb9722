"""The LLM pass over freshly written notes (the agent's enrichment thread, ``vaultd
capture``): every note of the pass in one event loop with one LLM client, and whether the
LLM was found unavailable (the agent then holds its next notes until its queue is idle:
with the LLM down a pass only marks the chunks pending, docs/daemon.md).

Never raises because the LLM is down: the chunks stay ``pending`` with the reason, and the
messages say what to run.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vaultd.config import Settings
from vaultd.errors import VaultdError
from vaultd.vault import Vault

if TYPE_CHECKING:
    from vaultd.enrich.ollama import LLM
    from vaultd.pipeline.enrich import EnrichResult

log = logging.getLogger(__name__)


@dataclass
class EnrichPass:
    """What a pass said (one line per note with a hint) and whether the LLM was down."""

    messages: list[str] = field(default_factory=list)
    unavailable: bool = False


def enrich_notes(vault: Vault, settings: Settings, cite_keys: Sequence[str]) -> EnrichPass:
    """Enrich the notes of ``cite_keys`` (one note that fails is named in the messages and
    the others go on) and index the notes it rewrote."""
    done = EnrichPass()
    if not settings.enrich.enabled or not cite_keys:
        return done
    try:
        # lazy: vaultd.pipeline.enrich costs 124 ms at import (pulls in asyncio, sqlite3)
        from vaultd.pipeline.enrich import build_llm
    except ImportError:
        done.messages.append("enrichment module not installed; chunks stay pending")
        return done
    llm = build_llm(settings)  # one client for the pass: its TLS set-up costs 0.1-0.2 s
    results = asyncio.run(_each(vault, settings, list(dict.fromkeys(cite_keys)), llm, done))
    for key, result in results:
        if result.hint:
            done.messages.append(f"{key}: {result.hint}")
            done.unavailable = done.unavailable or not result.enriched
    # Every note the pass rewrote (its LLM text, or its chunks marked pending or skipped)
    # is indexed now, not when the watcher sees it: the index agrees with the notes when
    # the pass ends. Notes it left unchanged are skipped by their size and mtime.
    paths = [vault.note_path(k) for k, _ in results if vault.note_path(k).is_file()]
    if paths:
        # lazy: vaultd.pipeline.index costs 72 ms at import (pulls in apsw)
        from vaultd.pipeline.index import index_after_compile

        for warning in index_after_compile(vault, settings, paths):
            log.warning("index: %s", warning)
    return done


async def _each(vault: Vault, settings: Settings, keys: list[str], llm: LLM,
                done: EnrichPass) -> list[tuple[str, EnrichResult]]:
    # lazy: vaultd.pipeline.enrich costs 124 ms at import (pulls in asyncio, sqlite3)
    from vaultd.pipeline.enrich import enrich_note_async

    out: list[tuple[str, EnrichResult]] = []
    try:
        for key in keys:
            try:
                out.append((key, await enrich_note_async(vault, settings, key, llm=llm)))
            except VaultdError as exc:
                done.messages.append(f"{key}: {exc}")
    finally:
        closer = getattr(llm, "aclose", None)
        if closer is not None:
            await closer()
    return out
