"""Several chunks per LLM request, a bounded number of requests in flight.

Batches are consecutive chunks (neighbours share context) limited both by a chunk count
and by a token budget derived from the model's context window. An invalid answer is
asked again once (in one retry request for all the chunks a batch got wrong); after
that the chunk stays pending with the reason. The first ``LLMUnavailableError`` stops
new requests: every chunk not yet answered stays pending and the error's one-line hint
is returned.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from vaultd.enrich.contract import (
    EnrichItem,
    ValidatedAnswer,
    answer_schema,
    build_messages,
    validate_batch,
)
from vaultd.enrich.ollama import LLM
from vaultd.errors import LLMUnavailableError

#: Rough characters per token for English prose (Llama-family tokenizers).
CHARS_PER_TOKEN = 3.5
#: Tokens reserved for the instructions and JSON framing of one request.
PROMPT_OVERHEAD_TOKENS = 400
#: Tokens the answer for one chunk needs (paraphrase + implication + JSON).
ANSWER_TOKENS_PER_CHUNK = 180


@dataclass
class BatchOutcome:
    answers: dict[str, ValidatedAnswer] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    unavailable: str | None = None
    requests: int = 0


def item_tokens(item: EnrichItem) -> int:
    """Estimated tokens an item costs a request: its prompt text plus its answer."""
    return int((item.chars + 12 * len(item.sentences) + 40) / CHARS_PER_TOKEN) + (
        ANSWER_TOKENS_PER_CHUNK
    )


def plan_batches(
    items: list[EnrichItem], max_chunks: int, context_tokens: int
) -> list[list[EnrichItem]]:
    """Consecutive groups of at most ``max_chunks`` items fitting ``context_tokens``.

    A single item larger than the budget still gets its own request (Ollama truncates
    the prompt; the answer is validated like any other).
    """
    budget = max(context_tokens - PROMPT_OVERHEAD_TOKENS, 1)
    batches: list[list[EnrichItem]] = []
    current: list[EnrichItem] = []
    used = 0
    for item in items:
        cost = item_tokens(item)
        if current and (len(current) >= max_chunks or used + cost > budget):
            batches.append(current)
            current, used = [], 0
        current.append(item)
        used += cost
    if current:
        batches.append(current)
    return batches


async def run_batches(
    llm: LLM,
    items: list[EnrichItem],
    *,
    max_chunks: int,
    concurrency: int,
    on_done: Callable[[int], None] | None = None,
) -> BatchOutcome:
    """Ask the LLM about every item; never raises for LLM trouble (see module doc)."""
    outcome = BatchOutcome()
    if not items:
        return outcome
    try:
        context = await llm.context_tokens()
    except LLMUnavailableError as exc:
        outcome.unavailable = str(exc)
        return outcome
    batches = plan_batches(items, max_chunks, context)
    limit = asyncio.Semaphore(concurrency)
    schema = answer_schema()

    async def ask(batch: list[EnrichItem]) -> tuple[dict[str, ValidatedAnswer], dict[str, str]]:
        outcome.requests += 1
        raw = await llm.complete(build_messages(batch), schema)
        return validate_batch(raw, batch)

    async def one(batch: list[EnrichItem]) -> None:
        async with limit:
            if outcome.unavailable:
                return
            try:
                answers, reasons = await ask(batch)
                if reasons and not outcome.unavailable:
                    retry = [i for i in batch if i.chunk_id in reasons]
                    again, reasons = await ask(retry)
                    answers.update(again)
            except LLMUnavailableError as exc:
                outcome.unavailable = outcome.unavailable or str(exc)
                return
        outcome.answers.update(answers)
        outcome.reasons.update(reasons)
        if on_done is not None:
            on_done(len(batch))

    await asyncio.gather(*(one(b) for b in batches))
    return outcome
