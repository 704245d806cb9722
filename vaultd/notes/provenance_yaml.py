"""YAML for wiki notes: PyYAML dumpers (frontmatter, provenance blocks) and a fast path.

The provenance block of every chunk is written and read here; ``note`` composes it into the
note. Pure: strings in, strings out.
"""

from __future__ import annotations

import functools
import math
import re
from typing import Any

import yaml

_SAFE_DUMPER: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
SAFE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class FrontDumper(_SAFE_DUMPER):  # type: ignore[misc]
    """Multi-line strings double-quoted, so every value stays on one line."""


class BlockDumper(_SAFE_DUMPER):  # type: ignore[misc]
    """Multi-line strings (Markdown tables) as readable literal blocks where YAML allows."""


def _str_quoted(dumper: Any, value: str) -> Any:
    style = '"' if "\n" in value or "\r" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _str_block(dumper: Any, value: str) -> Any:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _list_flow(dumper: Any, value: list[Any]) -> Any:
    flow = bool(value) and all(isinstance(v, int | float) for v in value)  # bbox, char_range
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flow)


FrontDumper.add_representer(str, _str_quoted)
BlockDumper.add_representer(str, _str_block)
BlockDumper.add_representer(list, _list_flow)


def dump_yaml(data: dict[str, Any], dumper: Any) -> str:
    return str(yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True, width=2**31 - 1))


# --- fast provenance YAML ----------------------------------------------------------------
# The provenance block of every chunk is a flat mapping of scalars and short lists. PyYAML
# (even with the C emitter) spends most of its time in its Python representer, so these
# blocks are written here directly, byte-identical to ``dump_yaml(data, BlockDumper)``
# (tests/test_note.py checks this on arbitrary values). Anything else (strings that need
# quoting or a literal block, unusual keys) is still dumped by PyYAML, one key at a time
# and cached: a top-level block mapping's entries are emitted independently of each other.

_RESOLVER: Any = yaml.resolver.Resolver()
_STR_TAG = "tag:yaml.org,2002:str"
_PLAIN_RE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./() -]*(?<! )")
_KEY_RE = re.compile(r"[a-z_][a-z0-9_]*")
_INT_RE = re.compile(r"-?(?:0|[1-9][0-9]*)")
_FLOAT_RE = re.compile(r"-?[0-9]+\.[0-9]+(?:e[-+][0-9]+)?")
_LIST_LINE_RE = re.compile(r"([a-z_][a-z0-9_]*): \[(.*)\]")


@functools.lru_cache(maxsize=8192)  # keys and most values repeat in every chunk's block
def _is_plain_str(value: str) -> bool:
    """Whether PyYAML writes ``value`` as a plain (unquoted) string scalar."""
    return (_PLAIN_RE.fullmatch(value) is not None
            and _RESOLVER.resolve(yaml.ScalarNode, value, (True, False)) == _STR_TAG)


@functools.lru_cache(maxsize=1024)  # a chunk's dozen keys are the same in every chunk
def _plain_key(key: str) -> bool:
    return _KEY_RE.fullmatch(key) is not None and _is_plain_str(key)


def _yaml_float(value: float) -> str:
    """PyYAML's SafeRepresenter.represent_float."""
    if value != value:
        return ".nan"
    if value in (math.inf, -math.inf):
        return ".inf" if value > 0 else "-.inf"
    text = repr(value).lower()
    return text.replace("e", ".0e", 1) if "." not in text and "e" in text else text


def _yaml_number(value: Any) -> str | None:
    kind = type(value)
    if kind is float:  # boxes and rects: most of a chunk's numbers
        text = repr(value)
        # no exponent, inf or nan: PyYAML writes repr as it is (see _yaml_float)
        return text if "e" not in text and "n" not in text else _yaml_float(value)
    if kind is int:
        return str(value)
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _yaml_float(value)
    return None


@functools.lru_cache(maxsize=4096)
def _pair_yaml(key: str, value: Any) -> str | None:
    """PyYAML's block-style entry for one key (None: it would end the document, '...')."""
    out = dump_yaml({key: list(value) if isinstance(value, tuple) else value}, BlockDumper)
    return None if out.endswith("...\n") else out


def _number_list(values: list[Any]) -> str | None:
    nums = [_yaml_number(v) for v in values]
    return None if any(n is None for n in nums) else f"[{', '.join(nums)}]"  # type: ignore[arg-type]


def fast_block_yaml(data: dict[str, Any]) -> str | None:
    """``data`` as ``dump_yaml(data, BlockDumper)`` writes it, or None when not a flat mapping."""
    out: list[str] = []
    for key, value in data.items():
        if not isinstance(key, str) or not _plain_key(key):
            return None
        if value is None:
            out.append(f"{key}: null\n")
        elif isinstance(value, str):
            if _is_plain_str(value):
                out.append(f"{key}: {value}\n")
            else:
                pair = _pair_yaml(key, value)
                if pair is None:
                    return None
                out.append(pair)
        elif isinstance(value, list):
            if not value:
                out.append(f"{key}: []\n")
                continue
            nums = [_yaml_number(v) for v in value]
            if all(n is not None for n in nums):
                out.append(f"{key}: [{', '.join(nums)}]\n")  # type: ignore[arg-type]
            elif all(isinstance(v, list) and v for v in value):  # regions: number lists
                rows = [_number_list(v) for v in value]
                if any(row is None for row in rows):
                    return None
                out.append(f"{key}:\n" + "".join(f"- {row}\n" for row in rows))
            elif all(isinstance(v, str) for v in value):
                pair = _pair_yaml(key, tuple(value))
                if pair is None:
                    return None
                out.append(pair)
            else:
                return None
        else:
            num = _yaml_number(value)
            if num is None:
                return None
            out.append(f"{key}: {num}\n")
    return "".join(out) if out else None


_QUOTED_RE = re.compile(r"'((?:[ -&(-~]|'')*)'")
_READ_PLAIN_RE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./() :-]*")


#: The first characters PyYAML tries implicit types (null, bool, numbers, dates …) for: a
#: plain scalar starting with any other is a string, as ``Resolver.resolve`` decides (it
#: looks its implicit resolvers up by the first character). None: every scalar is asked.
_IMPLICIT_FIRST: frozenset[str] | None = (
    frozenset(_RESOLVER.yaml_implicit_resolvers)
    if None not in _RESOLVER.yaml_implicit_resolvers and not _RESOLVER.yaml_path_resolvers
    else None)


@functools.lru_cache(maxsize=4096)  # sections, parsers, page labels repeat chunk after chunk
def _fast_scalar(text: str) -> tuple[bool, Any]:
    if text == "null":
        return True, None
    if text in ("true", "false"):
        return True, text == "true"
    if _INT_RE.fullmatch(text):
        return True, int(text)
    if _FLOAT_RE.fullmatch(text):
        return True, float(text)
    quoted = _QUOTED_RE.fullmatch(text)
    if quoted is not None:
        return True, quoted.group(1).replace("''", "'")
    if (_READ_PLAIN_RE.fullmatch(text) and ": " not in text and text[-1] not in ": "
            and ((_IMPLICIT_FIRST is not None and text[0] not in _IMPLICIT_FIRST)
                 or _RESOLVER.resolve(yaml.ScalarNode, text, (True, False)) == _STR_TAG)):
        return True, text
    return False, None


def _read_numbers(text: str) -> list[Any] | None:
    """The items of a flow list of numbers (``1, 2.5``), or None for anything else."""
    items: list[Any] = []
    if text:
        for part in text.split(", "):
            if _INT_RE.fullmatch(part):
                items.append(int(part))
            elif _FLOAT_RE.fullmatch(part):
                items.append(float(part))
            else:
                return None
    return items


def fast_block_mapping(text: str) -> dict[str, Any] | None:
    """What ``yaml.load`` reads from a flat block mapping of the kind ``fast_block_yaml``
    writes (scalars, number lists, lists of simple strings), or None for anything else
    (then PyYAML reads it)."""
    data: dict[str, Any] = {}
    seq: list[Any] | None = None
    for line in text.split("\n"):
        if not line:
            continue
        if line.startswith("- "):
            if line.startswith("- [") and line.endswith("]"):
                ok, parsed = True, _read_numbers(line[3:-1])
                ok = parsed is not None
            else:
                ok, parsed = _fast_scalar(line[2:])
            if seq is None or not ok:
                return None
            seq.append(parsed)
            continue
        if seq is not None and not seq:
            return None  # "key:" with nothing under it
        seq = None
        m = _LIST_LINE_RE.fullmatch(line) if line[-1] == "]" else None
        if m is not None and _plain_key(m.group(1)):
            items = _read_numbers(m.group(2))
            if items is None:
                return None
            data[m.group(1)] = items
            continue
        if line.endswith(":") and _plain_key(line[:-1]):
            seq = data[line[:-1]] = []
            continue
        key, sep, value = line.partition(": ")
        if not sep or not _plain_key(key):
            return None
        ok, parsed = _fast_scalar(value)
        if not ok:
            return None
        data[key] = parsed
    if seq is not None and not seq:
        return None
    return data or None
