"""MCP reports the fields the user entered as theirs (issue 33): in cite, bibliography
and quote, beside or instead of UNVERIFIED."""

from __future__ import annotations

from typing import Any

import anyio
from _mcp_support import indexed_sample, result_text

from vaultd.config import Settings
from vaultd.mcp.server import build_server
from vaultd.pipeline.record_edit import set_fields
from vaultd.vault import Vault

KEY = "vaswani2017attention"


def _calls(server: Any, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    from mcp import Client

    async def go() -> list[Any]:
        with anyio.fail_after(30):
            async with Client(server, read_timeout_seconds=30) as client:
                return [await client.call_tool(name, args) for name, args in calls]

    return anyio.run(go)


def test_mcp_names_the_fields_the_user_entered(vault: Vault) -> None:
    indexed_sample(vault)
    set_fields(vault, None, KEY, {"title": "Attention Is All You Need", "authors": [
        {"family": "Vaswani", "given": "Ashish"}], "issued": [2017]})
    cite, bib, quote = _calls(build_server(vault, Settings()), [
        ("cite", {"cite_key": KEY, "format": "bibtex"}),
        ("bibliography", {"cite_keys": [KEY]}),
        ("quote", {"cite_key": KEY, "chunk_id": "p3s2c1"})])
    assert result_text(cite).split("\n", 1)[0] == "% ENTERED BY YOU (title, author, year)"
    assert bib.structured_content["warnings"] == [f"{KEY}: ENTERED BY YOU (title, author, year)"]
    data = quote.structured_content
    assert data["metadata_verified"] is True
    assert data["labels"] == ["ENTERED BY YOU (title, author, year)"]
