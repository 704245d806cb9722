"""vaultd's Ollama adapter and batching, through the official client, against a fake Ollama."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import ollama
import pytest

from tests.fake_ollama import FakeOllama, closed_port_url, good_answer
from vaultd.canonical import text_sha256
from vaultd.enrich.batch import BatchOutcome, plan_batches, run_batches
from vaultd.enrich.cache import EnrichCache
from vaultd.enrich.contract import PROMPT_VERSION, EnrichItem, ValidatedAnswer
from vaultd.enrich.ollama import OllamaLLM
from vaultd.errors import LLMUnavailableError
from vaultd.statedb import open_state_db
from vaultd.vault import Vault

MODEL = "llama3.2:3b"


def items(n: int) -> list[EnrichItem]:
    return [
        EnrichItem(
            chunk_id=f"p1s1c{k}",
            text_sha256=text_sha256(f"chunk {k}"),
            section="1 Intro",
            sentences=(f"Sentence one of chunk {k} says a thing.", "Sentence two adds more."),
        )
        for k in range(n)
    ]


@pytest.fixture
def fake() -> Iterator[FakeOllama]:
    with FakeOllama(MODEL) as server:
        yield server


def run(llm: OllamaLLM, todo: list[EnrichItem], **kw: Any) -> BatchOutcome:
    async def go() -> BatchOutcome:
        try:
            return await run_batches(
                llm, todo, max_chunks=kw.get("max_chunks", 8), concurrency=kw.get("concurrency", 2)
            )
        finally:
            await llm.aclose()

    return asyncio.run(go())


def test_fake_server_speaks_the_api_the_official_client_reads(fake: FakeOllama) -> None:
    client = ollama.Client(host=fake.url)
    assert [m.model for m in client.list().models] == [MODEL]
    shown = client.show(MODEL)
    assert shown.modelinfo is not None and shown.modelinfo["llama.context_length"] == 131072
    assert len(client.embed(model=MODEL, input=["a", "b"]).embeddings) == 2
    assert client.generate(model=MODEL, prompt="hi", stream=False).done is True
    chat = client.chat(model=MODEL, messages=[{"role": "user", "content": "hi"}], stream=False)
    assert json.loads(chat.message.content or "") == {"answers": []}


def test_batches_several_chunks_per_request_with_structured_output(fake: FakeOllama) -> None:
    outcome = run(OllamaLLM(fake.url, MODEL, timeout_seconds=5), items(20))
    assert outcome.unavailable is None and outcome.reasons == {}
    assert len(outcome.answers) == 20
    chats = fake.chat_requests()
    assert len(chats) == outcome.requests == 3  # 8 + 8 + 4
    assert chats[0]["format"]["properties"]["answers"]["type"] == "array"
    assert chats[0]["stream"] is False
    assert chats[0]["options"]["num_ctx"] == 8192


def test_batches_shrink_to_fit_a_small_context_window() -> None:
    assert [len(b) for b in plan_batches(items(10), 8, 8192)] == [8, 2]
    assert max(len(b) for b in plan_batches(items(10), 8, 1000)) <= 2


def test_requests_run_concurrently_up_to_the_limit(fake: FakeOllama) -> None:
    fake.latency_seconds = 0.1
    outcome = run(OllamaLLM(fake.url, MODEL, timeout_seconds=5), items(40), concurrency=2)
    assert outcome.requests == 5 and len(outcome.answers) == 40
    assert fake.max_in_flight == 2
    fake.max_in_flight = 0
    run(OllamaLLM(fake.url, MODEL, timeout_seconds=5), items(24), concurrency=1)
    assert fake.max_in_flight == 1


def test_connection_refused_says_to_run_ollama_serve() -> None:
    outcome = run(OllamaLLM(closed_port_url(), MODEL, timeout_seconds=2), items(3))
    assert outcome.answers == {}
    assert outcome.unavailable is not None and "`ollama serve`" in outcome.unavailable


def test_model_not_pulled_says_to_pull_it(fake: FakeOllama) -> None:
    fake.models = ["mistral:latest"]
    outcome = run(OllamaLLM(fake.url, MODEL, timeout_seconds=2), items(3))
    assert outcome.unavailable == (
        f"model {MODEL} is not pulled in Ollama at {fake.url}; run `ollama pull {MODEL}`"
    )


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("server_error", "failed (500: llama runner process has terminated"),
        ("malformed", "malformed response"),
        ("hang", "did not answer within 0.3s"),
    ],
)
def test_server_failures_become_one_line_llm_unavailable(
    fake: FakeOllama, mode: str, expected: str
) -> None:
    fake.mode = mode
    llm = OllamaLLM(fake.url, MODEL, timeout_seconds=0.3)
    with pytest.raises(LLMUnavailableError) as info:
        asyncio.run(llm.context_tokens())
    message = str(info.value)
    assert expected in message and "\n" not in message and "ollama serve" in message


def test_failure_mid_run_leaves_unanswered_chunks_out(fake: FakeOllama) -> None:
    llm = OllamaLLM(fake.url, MODEL, timeout_seconds=2)

    async def go() -> BatchOutcome:
        await llm.context_tokens()  # the model is there...
        fake.mode = "server_error"  # ...then the runner dies
        try:
            return await run_batches(llm, items(5), max_chunks=2, concurrency=1)
        finally:
            await llm.aclose()

    outcome = asyncio.run(go())
    assert outcome.answers == {} and outcome.requests == 1
    assert outcome.unavailable is not None and "500" in outcome.unavailable


def test_quote_text_answer_is_retried_once_then_left_pending_with_the_reason(
    fake: FakeOllama,
) -> None:
    fake.mode = "quote"
    outcome = run(OllamaLLM(fake.url, MODEL, timeout_seconds=2), items(3))
    assert outcome.answers == {}
    assert outcome.requests == 2 and len(fake.chat_requests()) == 2
    assert all("quote text" in r for r in outcome.reasons.values())


def test_invalid_answer_that_is_right_on_retry_is_accepted(fake: FakeOllama) -> None:
    calls: list[int] = []

    def flaky(chunks: list[tuple[str, list[str]]]) -> Any:
        calls.append(1)
        return "{broken" if len(calls) == 1 else good_answer(chunks)

    fake.answer = flaky
    outcome = run(OllamaLLM(fake.url, MODEL, timeout_seconds=2), items(4))
    assert len(outcome.answers) == 4 and outcome.reasons == {} and outcome.requests == 2


def test_cache_is_keyed_by_text_hash_model_and_prompt_version(vault: Vault) -> None:
    db = open_state_db(vault.state_db)
    answer = ValidatedAnswer("p", "i", 1)
    EnrichCache(db, MODEL, PROMPT_VERSION).put("abc", answer)
    assert EnrichCache(db, MODEL, PROMPT_VERSION).get("abc") == answer
    assert EnrichCache(db, "qwen2.5:7b", PROMPT_VERSION).get("abc") is None
    assert EnrichCache(db, MODEL, "enrich-v0").get("abc") is None
    db.close()
