"""Embedding providers against a real loopback fake of Ollama's /api/embed."""

from __future__ import annotations

import pytest
from fake_ollama import FakeOllama, closed_port_url, embedding

from vaultd.errors import ConfigError, LLMUnavailableError
from vaultd.index.embed import BATCH_SIZE, OllamaEmbedder, make_embedder
from vaultd.vault import Vault


def test_ollama_embeds_in_batches_with_nomic_task_prefixes() -> None:
    with FakeOllama(model="nomic-embed-text") as fake:
        emb = OllamaEmbedder(fake.url, "nomic-embed-text")
        texts = [f"passage {i}" for i in range(BATCH_SIZE + 3)]
        vecs = emb.embed_documents(texts)
        query = emb.embed_query("what is attention")
    bodies = [b for path, b in fake.requests if path == "/api/embed"]
    assert [len(b["input"]) for b in bodies] == [BATCH_SIZE, 3, 1]
    assert bodies[0]["input"][0] == "search_document: passage 0"
    assert bodies[-1]["input"] == ["search_query: what is attention"]
    assert vecs[0] == pytest.approx(embedding("search_document: passage 0"))
    assert sum(x * x for x in query) == pytest.approx(1.0)


def test_missing_model_and_dead_server_are_llm_unavailable_with_the_fix() -> None:
    with FakeOllama(model="llama3.2:3b") as fake, \
            pytest.raises(LLMUnavailableError, match="ollama pull nomic-embed-text"):
        OllamaEmbedder(fake.url).embed_query("x")
    with pytest.raises(LLMUnavailableError, match="ollama serve"):
        OllamaEmbedder(closed_port_url()).embed_query("x")


def test_provider_none_means_no_embedder_and_unknown_provider_is_a_config_error() -> None:
    assert make_embedder("none", "nomic-embed-text", ollama_host="http://127.0.0.1:9") is None
    with pytest.raises(ConfigError, match="ollama, sentence-transformers or none"):
        make_embedder("openai", "x", ollama_host="http://127.0.0.1:9")


def test_a_rebuild_embeds_nothing_it_had_embedded_before(vault: Vault) -> None:
    from test_index_support import sample_vault

    from vaultd.config import Settings
    from vaultd.pipeline.index import index_vault

    sample_vault(vault)
    with FakeOllama(model="nomic-embed-text") as fake:
        emb = OllamaEmbedder(fake.url, "nomic-embed-text")
        first = index_vault(vault, Settings(), embedder=emb)
        sent = len(fake.requests)
        again = index_vault(vault, Settings(), rebuild=True, embedder=emb)
        # the new index got the old one's vectors: no passage went to the model again
        assert first.embedded == first.chunks_total > 0 and again.embedded == 0
        assert [p for p, _ in fake.requests[sent:]] == []
