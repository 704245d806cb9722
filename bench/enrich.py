"""Benchmark enrichment against the fake Ollama at a fixed 300 ms per generation request.

Prints: LLM requests per 100 content chunks (batched vs one request per chunk), and the
wall time to enrich a 50-chunk paper at the default concurrency vs one request at a time.

    python3 bench/enrich.py
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fake_ollama import FakeOllama
from vaultd.canonical import text_sha256
from vaultd.config import Settings, default_config_toml, load_settings
from vaultd.models import Chunk, Note, NoteMeta, Provenance
from vaultd.notes.markdown import render_note
from vaultd.pipeline.enrich import EnrichResult, enrich_note
from vaultd.vault import Vault

LATENCY_SECONDS = 0.3
MODEL = "llama3.2:3b"
KEY = "bench2024paper"
WORDS = [
    "attention",
    "model",
    "layer",
    "token",
    "sequence",
    "encoder",
    "decoder",
    "training",
    "loss",
    "gradient",
    "batch",
    "translation",
    "parallel",
    "recurrent",
    "convolution",
    "embedding",
    "position",
    "head",
    "softmax",
    "weight",
]


def paragraph(rng: random.Random) -> str:
    """A paragraph of 4-7 sentences, 80-160 words: the size of a typical paper chunk."""
    sentences = []
    for _ in range(rng.randint(4, 7)):
        words = [rng.choice(WORDS) for _ in range(rng.randint(14, 24))]
        sentences.append(" ".join(words).capitalize() + ".")
    return " ".join(sentences)


def make_note(n: int, seed: int) -> Note:
    rng = random.Random(seed)
    chunks = []
    for k in range(n):
        text = paragraph(rng)
        chunks.append(
            Chunk(
                id=f"p{k // 6 + 1}s1c{k}",
                text=text,
                provenance=Provenance(
                    page=k // 6 + 1,
                    section="2 Method",
                    text_sha256=text_sha256(text),
                    char_range=[0, len(text)],
                    chunk_type="paragraph",
                    parser="pymupdf",
                ),
            )
        )
    return Note(meta=NoteMeta(cite_key=KEY, chunks=n), chunks=chunks)


def run(fake: FakeOllama, n: int, seed: int, **enrich: object) -> tuple[EnrichResult, float]:
    with tempfile.TemporaryDirectory() as tmp:
        vault = Vault(Path(tmp) / "vault")
        vault.init(default_config_toml())
        vault.note_path(KEY).write_text(render_note(make_note(n, seed)), encoding="utf-8")
        settings: Settings = load_settings(
            vault.config_path, environ={}, overrides={"enrich": {"ollama_host": fake.url, **enrich}}
        )
        started = time.monotonic()
        result = enrich_note(vault, settings, KEY)
        return result, time.monotonic() - started


def main() -> None:
    with FakeOllama(MODEL) as fake:
        fake.latency_seconds = LATENCY_SECONDS
        defaults = Settings().enrich
        print(
            f"fake Ollama: {LATENCY_SECONDS * 1000:.0f} ms per request; defaults: "
            f"batch_size={defaults.batch_size}, concurrency={defaults.concurrency}"
        )
        batched, _ = run(fake, 100, seed=1)
        assert batched.enriched == 100, batched
        print(
            f"LLM requests per 100 content chunks: {batched.requests} batched "
            f"(baseline one per chunk: 100; target <= 20)"
        )
        rows = [
            ("default (batched, concurrency 2)", {}),
            ("batched, one request at a time", {"concurrency": 1}),
            ("one chunk per request, one at a time", {"batch_size": 1, "concurrency": 1}),
        ]
        print("50-chunk paper:")
        for label, overrides in rows:
            result, seconds = run(fake, 50, seed=2, **overrides)
            assert result.enriched == 50, result
            print(f"  {label:<38} {seconds:6.2f} s  ({result.requests} requests)")


if __name__ == "__main__":
    main()
