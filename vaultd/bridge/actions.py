"""Agent actions relayed to the extension: their parameters, checked here (pure), and
the link to the connected extension that carries them (docs/bridge.md, /command).

There is no eval verb. Selectors and text are data: the extension hands them to
``querySelector`` and ``value`` setters, never into code.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

RESULT_CAP = 256 * 1024
SCREENSHOT_CAP = 5 * 1024 * 1024
ACTION_TIMEOUT = 35.0


class _Params(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class NoParams(_Params):
    pass


class Navigate(_Params):
    url: str = Field(max_length=2048)

    @field_validator("url")
    @classmethod
    def _http(cls, value: str) -> str:
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("must be an http(s) URL")
        return value


class Click(_Params):
    selector: str = Field(min_length=1, max_length=512)


class Type(Click):
    text: str = Field(max_length=10_000)


class Wait(Click):
    timeout_ms: int = Field(5000, ge=0, le=30_000)


class Extract(_Params):
    selector: str | None = Field(None, min_length=1, max_length=512)


PARAMS: dict[str, type[_Params]] = {
    "ping": NoParams, "tab_info": NoParams, "screenshot": NoParams, "navigate": Navigate,
    "click": Click, "type": Type, "wait": Wait, "extract": Extract,
}
Verb = Literal["ping", "tab_info", "screenshot", "navigate", "click", "type", "wait", "extract"]


class ActionError(ValueError):
    """A command refused before it reaches the extension; ``status`` is the HTTP code."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def first_problem(exc: ValidationError) -> str:
    """One sentence from a pydantic error: the field and what it must be."""
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "the body"
    if err["type"] == "extra_forbidden":
        return f"unknown field {where!r}"
    if err["type"] == "missing":
        return f"{where!r} is required"
    return f"{where!r}: {err['msg'].removeprefix('Value error, ')}"


def parse_command(body: Any) -> tuple[str, dict[str, Any]]:
    """``{"action": verb, "params": {...}}`` checked, or ``ActionError(422)``."""
    if not isinstance(body, dict) or set(body) - {"action", "params"}:
        raise ActionError(422, 'send {"action": "<verb>", "params": {...}}')
    verb = body.get("action")
    if verb not in PARAMS:
        raise ActionError(422, f"unknown action {verb!r}; one of: {', '.join(PARAMS)}")
    try:
        params = PARAMS[verb].model_validate(body.get("params") or {})
    except ValidationError as exc:
        raise ActionError(422, f"{verb}: {first_problem(exc)}") from exc
    return verb, params.model_dump(exclude_none=True)


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


@dataclass
class ExtensionLink:
    """The connected extension: what it allows, and commands waiting for its answer."""

    send: Any  # async callable taking a str (the WebSocket's send_text)
    enabled: bool = False
    origins: frozenset[str] = frozenset()
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _waiting: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)

    def allow(self, actions: Any) -> None:
        if isinstance(actions, dict):
            self.enabled = actions.get("enabled") is True
            origins = actions.get("origins")
            if isinstance(origins, list):
                self.origins = frozenset(origin_of(o) for o in origins
                                         if isinstance(o, str) and "://" in o)

    def check(self, verb: str, params: dict[str, Any]) -> None:
        if not self.enabled:
            raise ActionError(403, "agent actions are off in the extension's options")
        if verb == "navigate" and origin_of(params["url"]) not in self.origins:
            raise ActionError(403, f"{origin_of(params['url'])} is not an allowed origin in "
                                   "the extension's options")

    async def call(self, verb: str, params: dict[str, Any],
                   timeout: float = ACTION_TIMEOUT) -> dict[str, Any]:
        ident = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = future
        try:
            await self.send(json.dumps({"type": "command", "id": ident, "action": verb,
                                        "params": params}))
            return await asyncio.wait_for(future, timeout)
        except TimeoutError as exc:
            raise ActionError(504, f"the extension did not answer {verb} in {timeout:.0f} s") from exc
        finally:
            self._waiting.pop(ident, None)

    def answer(self, message: dict[str, Any]) -> None:
        future = self._waiting.get(message.get("id"))  # type: ignore[arg-type]
        if future is not None and not future.done():
            future.set_result(message)

    def close(self) -> None:
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(ActionError(503, "the extension disconnected"))


def capped_result(verb: str, message: dict[str, Any]) -> dict[str, Any]:
    """The extension's answer as the agent gets it, over-long results refused."""
    if message.get("ok") is not True:
        error = message.get("error")
        return {"ok": False, "error": str(error)[:1000] if error else f"{verb} failed"}
    result = message.get("result")
    size = len(json.dumps(result))
    cap = SCREENSHOT_CAP if verb == "screenshot" else RESULT_CAP
    if size > cap:
        return {"ok": False, "error": f"{verb} result is {size} bytes, over the {cap}-byte cap; "
                                      "narrow the selector"}
    return {"ok": True, "result": result}
