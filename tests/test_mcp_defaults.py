"""The MCP tools agree with the CLI's defaults, read cleanly and take a client's natural types."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from _mcp_support import indexed_sample, result_text

from vaultd.cli.cite_cmd import cite_command
from vaultd.config import Settings
from vaultd.mcp.server import build_server
from vaultd.vault import Vault

KEY = "vaswani2017attention"


def _session(server: Any, calls: list[tuple[str, dict[str, Any]]]) -> tuple[list[Any], list[Any]]:
    from mcp import Client

    async def go() -> tuple[list[Any], list[Any]]:
        with anyio.fail_after(30):
            async with Client(server, read_timeout_seconds=30) as client:
                tools = (await client.list_tools()).tools
                return tools, [await client.call_tool(name, args) for name, args in calls]

    return anyio.run(go)


_text = result_text


@pytest.fixture
def indexed(vault: Vault) -> Vault:
    return indexed_sample(vault)


def test_mcp_cite_without_a_format_answers_in_the_clis_default_style(indexed: Vault) -> None:
    cli_default = next(p.default for p in cite_command.params if p.name == "style")
    tools, (bare, explicit) = _session(build_server(indexed, Settings()), [
        ("cite", {"cite_key": KEY}), ("cite", {"cite_key": KEY, "format": cli_default})])
    cite = next(t for t in tools if t.name == "cite")
    assert cite.input_schema["properties"]["format"]["default"] == cli_default == "apa"
    assert _text(bare) == _text(explicit) and not _text(bare).startswith("@")


def test_every_mcp_tool_description_reads_without_runs_of_spaces(indexed: Vault) -> None:
    tools, _ = _session(build_server(indexed, Settings()), [])
    assert tools
    for tool in tools:
        assert "  " not in (tool.description or ""), (tool.name, tool.description)
        assert "\n" not in (tool.description or ""), tool.name


def test_remember_takes_about_as_a_json_string_list(indexed: Vault) -> None:
    tools, (out,) = _session(build_server(indexed, Settings()), [
        ("remember", {"text": "The paper names its mechanism zebracorn.",
                      "about": f'["{KEY}"]'})])
    if "remember" not in {t.name for t in tools}:
        pytest.skip("remember is not offered by this server")
    assert not out.is_error, _text(out)
    assert out.structured_content["about"] == [KEY]


def test_a_string_that_is_no_json_list_is_still_refused_in_one_sentence(indexed: Vault) -> None:
    _, (out,) = _session(build_server(indexed, Settings()), [
        ("bibliography", {"cite_keys": KEY})])
    assert out.is_error
    assert _text(out) == f"bibliography: 'cite_keys' must be a list of strings, not \"{KEY}\""
