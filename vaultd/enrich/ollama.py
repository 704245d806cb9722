"""Ollama through the official ``ollama`` client: the one place enrichment does I/O.

Every failure of the client (connection refused, model not pulled, server error,
timeout, a body that is not JSON) becomes ``LLMUnavailableError`` whose one-line message
says what to run. ``ollama`` is imported lazily: only commands that talk to the LLM pay
for it.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Protocol

from vaultd.errors import LLMUnavailableError

#: Context used when the model does not report one (Ollama's own default window).
DEFAULT_CONTEXT_TOKENS = 4096
#: Larger windows cost memory and latency on a laptop; batches never need more.
MAX_CONTEXT_TOKENS = 8192


class LLM(Protocol):
    """What batching needs from a model: one structured chat call, and its window."""

    async def context_tokens(self) -> int: ...

    async def complete(self, messages: list[dict[str, str]], schema: dict[str, Any]) -> str: ...


class OllamaLLM:
    """One model on one Ollama server, with a per-request timeout."""

    def __init__(self, host: str, model: str, *, timeout_seconds: float) -> None:
        # lazy: ollama costs 787 ms at import
        import ollama

        self.host = host
        self.model = model
        self.timeout_seconds = timeout_seconds
        self._client = ollama.AsyncClient(host=host, timeout=timeout_seconds)
        self._context: int | None = None
        self.requests = 0

    async def aclose(self) -> None:
        await self._client._client.aclose()

    async def context_tokens(self) -> int:
        """The window to use: the model's own context length, capped; checks the model."""
        if self._context is None:
            show = await self._call(self._client.show(self.model))
            info = dict(getattr(show, "modelinfo", None) or {})
            found = [v for k, v in info.items() if k.endswith(".context_length")]
            length = int(found[0]) if found and isinstance(found[0], int) else None
            self._context = min(length or DEFAULT_CONTEXT_TOKENS, MAX_CONTEXT_TOKENS)
        return self._context

    async def complete(self, messages: list[dict[str, str]], schema: dict[str, Any]) -> str:
        """The assistant's message content for one non-streamed, schema-constrained chat."""
        num_ctx = await self.context_tokens()
        self.requests += 1
        response = await self._call(
            self._client.chat(
                model=self.model,
                messages=messages,
                format=schema,
                stream=False,
                options={"temperature": 0, "num_ctx": num_ctx},
            )
        )
        return response.message.content or ""

    async def _call(self, awaitable: Any) -> Any:
        # lazy: httpx costs 315 ms at import
        import httpx

        # lazy: ollama costs 787 ms at import
        import ollama

        try:
            # The client's httpx timeout bounds each read; wait_for bounds the whole call.
            return await asyncio.wait_for(awaitable, self.timeout_seconds + 1.0)
        except ConnectionError as exc:
            raise LLMUnavailableError(
                f"Ollama is not reachable at {self.host}; run `ollama serve` "
                f"(then `vaultd enrich --pending`)"
            ) from exc
        except ollama.ResponseError as exc:
            if exc.status_code == 404:
                raise LLMUnavailableError(
                    f"model {self.model} is not pulled in Ollama at {self.host}; "
                    f"run `ollama pull {self.model}`"
                ) from exc
            raise LLMUnavailableError(
                f"Ollama at {self.host} failed ({exc.status_code}: {_first_line(exc.error)}); "
                f"check `ollama serve` and retry with `vaultd enrich --pending`"
            ) from exc
        except (TimeoutError, httpx.TimeoutException) as exc:
            raise LLMUnavailableError(
                f"Ollama at {self.host} did not answer within {self.timeout_seconds:g}s; "
                f"check `ollama serve`, raise enrich.timeout_seconds, or retry later "
                f"with `vaultd enrich --pending`"
            ) from exc
        except (json.JSONDecodeError, ValueError, TypeError) as exc:
            raise LLMUnavailableError(
                f"Ollama at {self.host} sent a malformed response; is it really Ollama? "
                f"check OLLAMA_HOST and `ollama serve`"
            ) from exc
        except httpx.HTTPError as exc:
            raise LLMUnavailableError(
                f"Ollama at {self.host} broke off ({type(exc).__name__}); "
                f"check `ollama serve` and retry with `vaultd enrich --pending`"
            ) from exc


def _first_line(text: str) -> str:
    lines = str(text).strip().splitlines()
    return lines[0][:200] if lines else "no detail"
