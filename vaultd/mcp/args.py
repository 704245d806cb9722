"""Tool arguments checked against the tool's JSON schema, with errors an agent can act on.

The MCP SDK validates arguments with pydantic and answers a mistake with pydantic's own
report (``1 validation error for citeArguments … https://errors.pydantic.dev/…``), and it
ignores arguments the tool does not take. ``check_arguments`` runs first, on the schema the
server advertises, and names the first problem in one sentence: an unknown argument (with
the ones the tool takes), a missing one, or a value of the wrong type (what is expected,
what came). Pure: dicts in, a sentence or None out. ``coerce_arguments`` runs before it
and reads a list a client sent as a JSON string as that list.
"""

from __future__ import annotations

import json
from typing import Any

#: JSON Schema type → how a sentence names it.
_TYPE_NAMES = {"string": "a string", "integer": "an integer", "number": "a number",
               "boolean": "true or false", "array": "a list", "object": "an object",
               "null": "null"}


def _matches(value: Any, schema: dict[str, Any]) -> bool:
    """Whether ``value`` has a type ``schema`` allows (``anyOf`` branches, list items)."""
    if "anyOf" in schema:
        return any(_matches(value, branch) for branch in schema["anyOf"])
    kind = schema.get("type")
    if kind is None:
        return True
    if isinstance(kind, list):
        return any(_matches(value, {**schema, "type": k}) for k in kind)
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "null":
        return value is None
    if kind == "object":
        return isinstance(value, dict)
    if kind == "array":
        items = schema.get("items")
        return isinstance(value, list) and (
            not isinstance(items, dict) or all(_matches(v, items) for v in value))
    return True


def expected(schema: dict[str, Any]) -> str:
    """What a schema expects, in words: ``a string``, ``a list of strings``, ``an integer or null``."""
    if "anyOf" in schema:
        return " or ".join(dict.fromkeys(expected(b) for b in schema["anyOf"]))
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(expected({**schema, "type": k}) for k in kind)
    if kind == "array" and isinstance(schema.get("items"), dict):
        inner = expected(schema["items"])
        return "a list of " + (inner.split(" ", 1)[1] + "s" if inner.startswith(("a ", "an ")) else inner)
    return _TYPE_NAMES.get(str(kind), "a value")


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "…"


def _allows(schema: dict[str, Any], kind: str) -> bool:
    if "anyOf" in schema:
        return any(_allows(branch, kind) for branch in schema["anyOf"])
    types = schema.get("type")
    return kind in types if isinstance(types, list) else types == kind


def coerce_arguments(schema: dict[str, Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """``arguments`` with a list sent as a JSON string (``'["a", "b"]'``, as some clients
    send one) read as that list, where the schema takes a list and no string."""
    props: dict[str, Any] = schema.get("properties") or {}
    out = dict(arguments)
    for name, value in arguments.items():
        prop = props.get(name)
        if not isinstance(value, str) or not isinstance(prop, dict) \
                or not _allows(prop, "array") or _allows(prop, "string"):
            continue
        try:
            parsed = json.loads(value)
        except ValueError:
            continue
        if isinstance(parsed, list):
            out[name] = parsed
    return out


def check_arguments(tool: str, schema: dict[str, Any], arguments: dict[str, Any]) -> str | None:
    """The first problem with ``arguments`` for ``tool``, as one sentence, or None."""
    props: dict[str, Any] = schema.get("properties") or {}
    takes = ", ".join(props) or "no arguments"
    for name in arguments:
        if name not in props:
            return f"{tool} has no argument {name!r}; it takes {takes}"
    for name in schema.get("required") or []:
        if name not in arguments:
            return f"{tool} needs {name!r} ({expected(props.get(name, {}))}); it takes {takes}"
    for name, value in arguments.items():
        if not _matches(value, props[name]):
            return f"{tool}: {name!r} must be {expected(props[name])}, not {_shown(value)}"
    # lazy: vaultd.citekey costs 134 ms at import
    from vaultd.citekey import key_problem  # on the first call, not at server start-up

    for name in ("cite_key", "cite_keys"):  # the key grammar; its file name is never a path
        keys = arguments.get(name)
        for key in keys if isinstance(keys, list) else [keys] if keys is not None else []:
            problem = key_problem(key) if isinstance(key, str) else None
            if problem is not None:
                return (f"{tool}: {key!r} is not a cite key ({problem}); use a key from "
                        "recall or cite")
    return None
