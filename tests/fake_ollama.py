"""A fake Ollama server on 127.0.0.1 speaking Ollama's HTTP API (docs/api.md of ollama/ollama).

Endpoints and shapes follow Ollama's API documentation: ``POST /api/chat`` and
``POST /api/generate`` (non-streamed: one JSON object with ``model``, ``created_at``,
``message``/``response``, ``done``, ``done_reason`` and the duration counters),
``GET /api/tags`` (``models`` with ``name``, ``modified_at``, ``size``, ``digest``,
``details``), ``POST /api/show`` (``modelfile``, ``parameters``, ``template``, ``details``,
``model_info`` with ``<arch>.context_length``) and ``POST /api/embed`` (``model``,
``embeddings``). Errors are ``{"error": "..."}`` with the HTTP status (404 for a model
that is not pulled: ``model "x" not found, try pulling it first``).

Controls (attributes, change them between requests): ``latency_seconds`` (added to each
generation request, /api/chat and /api/generate); ``mode``:
"ok", "not_found" (404), "server_error" (500), "hang" (never answers until the server
stops: a client timeout), "malformed" (200 with a body that is not JSON), "quote"
(answers whose ``key_sentence`` is quote text); ``answer`` (a function from the request's
chunk list to the answer object); ``models``; ``context_length``.
"""

from __future__ import annotations

import hashlib
import json
import re
import socket
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CREATED_AT = "2024-12-06T00:46:58.265747Z"

ChunkSpec = tuple[str, list[str]]  # chunk id, its numbered sentences
AnswerFn = Callable[[list[ChunkSpec]], Any]

_CHUNK_RE = re.compile(r"^### chunk (\S+) \(section: .*\)$")
_SENTENCE_RE = re.compile(r"^\[(\d+)\] (.*)$")


def chunks_in_prompt(text: str) -> list[ChunkSpec]:
    """The chunks (id, sentences) a vaultd enrichment prompt asks about."""
    out: list[ChunkSpec] = []
    for line in text.splitlines():
        if m := _CHUNK_RE.match(line):
            out.append((m.group(1), []))
        elif (m := _SENTENCE_RE.match(line)) and out:
            out[-1][1].append(m.group(2))
    return out


def good_answer(chunks: list[ChunkSpec]) -> dict[str, Any]:
    return {
        "answers": [
            {
                "id": cid,
                "paraphrase": f"In short, chunk {cid} explains its point.",
                "implication": f"So chunk {cid} matters for the argument.",
                "key_sentence": len(sentences) - 1 if sentences else None,
            }
            for cid, sentences in chunks
        ]
    }


def quote_answer(chunks: list[ChunkSpec]) -> dict[str, Any]:
    """What a disobedient model does: returns the sentence text as the key sentence."""
    return {
        "answers": [
            {
                "id": cid,
                "paraphrase": "A paraphrase.",
                "implication": "An implication.",
                "key_sentence": sentences[0] if sentences else "text",
            }
            for cid, sentences in chunks
        ]
    }


def closed_port_url() -> str:
    """A loopback URL where nothing listens (connection refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        # Clients that time out or close early reset the connection: expected here.
        return None


class FakeOllama:
    def __init__(self, model: str = "llama3.2:3b") -> None:
        self.models = [model]
        self.mode = "ok"
        self.latency_seconds = 0.0
        self.context_length = 131072
        self.answer: AnswerFn = good_answer
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.in_flight = 0
        self.max_in_flight = 0  # most generation requests served at the same time
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server = _QuietServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def chat_requests(self) -> list[dict[str, Any]]:
        with self._lock:
            return [body for path, body in self.requests if path == "/api/chat"]

    def __enter__(self) -> FakeOllama:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return None

            def do_GET(self) -> None:
                fake._record(self.path, {})
                if self.path == "/api/tags":
                    self._json(200, {"models": [fake._model_entry(m) for m in fake.models]})
                else:
                    self._json(404, {"error": "404 page not found"})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                fake._record(self.path, body)
                if fake.mode == "hang":
                    fake._stopping.wait(30)
                    return
                if self.path in ("/api/chat", "/api/generate"):
                    with fake._lock:
                        fake.in_flight += 1
                        fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
                    fake._stopping.wait(fake.latency_seconds)
                    with fake._lock:
                        fake.in_flight -= 1
                if fake.mode == "server_error":
                    self._json(
                        500, {"error": "llama runner process has terminated: signal: killed"}
                    )
                    return
                model = body.get("model", "")
                if self.path in ("/api/chat", "/api/generate", "/api/show", "/api/embed") and (
                    fake.mode == "not_found" or not fake._known(model)
                ):
                    self._json(404, {"error": f'model "{model}" not found, try pulling it first'})
                    return
                if fake.mode == "malformed":
                    self._raw(200, b'{"model": "' + model.encode() + b'", "message": {"role": ')
                    return
                routes = {
                    "/api/chat": fake._chat,
                    "/api/generate": fake._generate,
                    "/api/show": fake._show,
                    "/api/embed": fake._embed,
                }
                route = routes.get(self.path)
                if route is None:
                    self._json(404, {"error": "404 page not found"})
                else:
                    self._json(200, route(body))

            def _json(self, status: int, data: dict[str, Any]) -> None:
                self._raw(status, json.dumps(data).encode())

            def _raw(self, status: int, data: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler

    def _record(self, path: str, body: dict[str, Any]) -> None:
        with self._lock:
            self.requests.append((path, body))

    def _known(self, model: str) -> bool:
        names = set(self.models) | {m.split(":")[0] for m in self.models if m.endswith(":latest")}
        return model in names

    def _model_entry(self, name: str) -> dict[str, Any]:
        return {
            "name": name,
            "model": name,
            "modified_at": "2024-12-06T00:40:00.000000Z",
            "size": 2019393189,
            "digest": hashlib.sha256(name.encode()).hexdigest(),
            "details": self._details(),
        }

    @staticmethod
    def _details() -> dict[str, Any]:
        return {
            "parent_model": "",
            "format": "gguf",
            "family": "llama",
            "families": ["llama"],
            "parameter_size": "3.2B",
            "quantization_level": "Q4_K_M",
        }

    def _content(self, prompt: str) -> str:
        chunks = chunks_in_prompt(prompt)
        answer = quote_answer(chunks) if self.mode == "quote" else self.answer(chunks)
        return answer if isinstance(answer, str) else json.dumps(answer)

    @staticmethod
    def _stats() -> dict[str, Any]:
        return {
            "done_reason": "stop",
            "done": True,
            "total_duration": 2254970291,
            "load_duration": 574751416,
            "prompt_eval_count": 34,
            "prompt_eval_duration": 1502000000,
            "eval_count": 12,
            "eval_duration": 175000000,
        }

    def _chat(self, body: dict[str, Any]) -> dict[str, Any]:
        prompt = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
        return {
            "model": body["model"],
            "created_at": CREATED_AT,
            "message": {"role": "assistant", "content": self._content(prompt)},
            **self._stats(),
        }

    def _generate(self, body: dict[str, Any]) -> dict[str, Any]:
        return {
            "model": body["model"],
            "created_at": CREATED_AT,
            "response": self._content(str(body.get("prompt", ""))),
            **self._stats(),
        }

    def _show(self, body: dict[str, Any]) -> dict[str, Any]:
        return {
            "modelfile": f'# Modelfile generated by "ollama show"\nFROM {body["model"]}\n',
            "parameters": 'stop                           "<|eot_id|>"',
            "template": "{{ .Prompt }}",
            "details": self._details(),
            "model_info": {
                "general.architecture": "llama",
                "general.parameter_count": 3212749888,
                "llama.context_length": self.context_length,
                "llama.embedding_length": 3072,
            },
        }

    def _embed(self, body: dict[str, Any]) -> dict[str, Any]:
        texts = body.get("input", "")
        texts = [texts] if isinstance(texts, str) else list(texts)
        return {
            "model": body["model"],
            "embeddings": [embedding(t) for t in texts],
            "total_duration": 14143917,
            "load_duration": 1019500,
            "prompt_eval_count": sum(len(t.split()) for t in texts),
        }


def embedding(text: str, dims: int = 8) -> list[float]:
    """A deterministic unit-length vector for ``text`` (same text, same vector)."""
    digest = hashlib.sha256(text.encode()).digest()
    raw = [(b - 127.5) / 127.5 for b in digest[:dims]]
    norm = sum(x * x for x in raw) ** 0.5 or 1.0
    return [x / norm for x in raw]


def wait_until(predicate: Callable[[], bool], timeout_seconds: float = 5.0) -> bool:
    """Bounded wait for ``predicate`` (tests never sleep blindly)."""
    deadline = time.monotonic() + timeout_seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()
