"""What of a note still awaits enrichment, and the one line that says what fills it."""

from __future__ import annotations

from collections.abc import Iterable

from vaultd.config import Settings
from vaultd.enrich.contract import skip_reason
from vaultd.models import Chunk


def pending_chunks(chunks: Iterable[Chunk]) -> int:
    """How many of ``chunks`` are content still waiting for enrichment (headings,
    references and tiny chunks are never sent to the LLM: ``skip_reason``)."""
    return sum(1 for c in chunks if c.enrichment == "pending" and skip_reason(c) is None)


def pending_hint(settings: Settings, counts: dict[str, int]) -> str | None:
    """One line saying what fills the pending chunks of freshly compiled notes, or None
    when nothing is pending or enrichment is turned off."""
    waiting = {k: n for k, n in counts.items() if n}
    if not waiting or not settings.enrich.enabled:
        return None
    total = sum(waiting.values())
    chunks = f"{total} chunk{'s' if total != 1 else ''}"
    if len(waiting) == 1:
        key = next(iter(waiting))
        what, run = f"{chunks} of {key} await", f"vaultd enrich {key}"
    else:
        what, run = f"{chunks} in {len(waiting)} notes await", "vaultd enrich --pending"
    return (
        f"{what} enrichment (LLM paraphrase); run `{run}`, or the agent (`vaultd run`) "
        f"fills them when Ollama is up at {settings.enrich.ollama_host}"
    )
