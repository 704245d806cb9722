"""The MCP server through real clients: in-memory and `vaultd mcp` spawned over stdio."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from _mcp_support import indexed_sample, result_text

from vaultd.config import Settings
from vaultd.mcp.server import INSTRUCTIONS, build_server
from vaultd.pipeline.index import index_vault
from vaultd.vault import Vault

KEY = "vaswani2017attention"


def _call_all(server_or_params: Any, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    from mcp import Client

    async def go() -> list[Any]:
        async with Client(server_or_params, read_timeout_seconds=30) as client:
            return [await client.call_tool(name, args) for name, args in calls]

    return anyio.run(go)


_text = result_text


@pytest.fixture
def indexed(vault: Vault) -> Vault:
    return indexed_sample(vault)


def test_recall_then_quote_then_cite_round_trip(indexed: Vault) -> None:
    server = build_server(indexed, None)
    recall, = _call_all(server, [("recall", {"query": "scaled dot-product attention"})])
    assert not recall.is_error
    top = recall.structured_content["hits"][0]
    assert (top["cite_key"], top["chunk_id"], top["page"]) == (KEY, "p3s2c1", 3)
    assert top["link"] == f"raw/{KEY}.pdf#page=3"
    quote, apa, bib = _call_all(server, [
        ("quote", {"cite_key": KEY, "chunk_id": top["chunk_id"]}),
        ("cite", {"cite_key": KEY, "format": "apa"}),
        ("bibliography", {"cite_keys": [KEY, "srivastava2014dropout", "nosuch2020x"]}),
    ])
    q = quote.structured_content
    assert q["text"].startswith("We call our particular attention Scaled Dot-Product Attention.")
    assert len(q["text_sha256"]) == 64 and q["locator"] == "p. 103"
    assert "advisory" in q["advisory"] and "never" in q["advisory"]
    assert "Vaswani" in _text(apa) and "2017" in _text(apa)
    b = bib.structured_content
    assert b["text"].count("@") == 2 and "vaswani2017attention" in b["text"]
    assert [u["cite_key"] for u in b["unknown"]] == ["nosuch2020x"]


def test_instructions_state_the_quoting_contract() -> None:
    assert "quote(cite_key, chunk_id)" in INSTRUCTIONS and "advisory" in INSTRUCTIONS


def test_error_paths_are_error_results_with_a_way_forward(indexed: Vault) -> None:
    server = build_server(indexed, None)
    results = _call_all(server, [
        ("cite", {"cite_key": "vaswani2017atention"}),
        ("quote", {"cite_key": KEY, "chunk_id": "p99s9c9"}),
        ("cite", {"cite_key": KEY, "format": "harvrd"}),
        ("recall", {"query": "  "}),
        ("recall", {"query": "attention", "limit": 50}),
        ("bibliography", {"cite_keys": []}),
    ])
    assert all(r.is_error for r in results)
    unknown, chunk, fmt, empty, limit, nokeys = (_text(r) for r in results)
    # Each suggestion is exactly `key — title`: authors help the match but are not printed.
    assert unknown.split("did you mean: ", 1)[1].split("; ")[0] == \
        f"{KEY} — Attention Is All You Need"
    assert "p3s2c1" in chunk
    assert "apa" in fmt and "bibtex" in fmt and "csl-json" in fmt
    assert "empty query" in empty
    assert "1..20" in limit
    assert "no cite keys" in nokeys


def test_quote_refuses_a_chunk_whose_text_was_edited(indexed: Vault) -> None:
    path = indexed.note_path(KEY)
    path.write_text(path.read_text().replace("Scaled Dot-Product", "Scaled Dot Product"))
    result, verify = _call_all(build_server(indexed, None),
                               [("quote", {"cite_key": KEY, "chunk_id": "p3s2c1"}),
                                ("verify", {"cite_key": KEY})])
    assert result.is_error and "hash mismatch" in _text(result)
    report = verify.structured_content
    assert report["ok"] is False and report["findings"][0]["chunk_id"] == "p3s2c1"


def test_missing_vault_and_missing_index_give_helpful_errors(tmp_path: Path, vault: Vault) -> None:
    none, = _call_all(build_server(Vault(tmp_path / "nowhere"), None),
                      [("recall", {"query": "x"})])
    assert none.is_error and "vaultd init" in _text(none)
    empty, status = _call_all(build_server(vault, None),
                              [("recall", {"query": "x"}), ("status", {})])
    assert empty.is_error and "vaultd index" in _text(empty)
    assert not status.is_error and status.structured_content["exists"] is False


def test_status_reports_pending_and_failed_daemon_jobs(indexed: Vault) -> None:
    import vaultd.daemon.queue  # noqa: F401  (registers the job table's migrations)
    from vaultd.statedb import open_state_db

    none, = _call_all(build_server(indexed, None), [("status", {})])
    assert none.structured_content["jobs"] == {"queued": 0, "running": 0, "failed": 0}
    db = open_state_db(indexed.state_db)
    for i, state in enumerate(("queued", "queued", "running", "failed", "done")):
        db.execute("INSERT INTO daemon_jobs(path, fingerprint, state, created_at, updated_at) "
                   "VALUES (?, ?, ?, 0, 0)", (f"Inbox/{i}.pdf", str(i), state))
    db.commit()
    db.close()
    status, = _call_all(build_server(indexed, None), [("status", {})])
    s = status.structured_content
    assert s["jobs"] == {"queued": 2, "running": 1, "failed": 1} and s["jobs_pending"] == 3


def test_spawned_stdio_server_answers_every_tool(indexed: Vault) -> None:
    from mcp import StdioServerParameters

    env = {k: v for k, v in os.environ.items() if k != "VAULTD_VAULT"}
    env["VAULTD_EMBEDDING_PROVIDER"] = "none"
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "vaultd", "--vault", str(indexed.root), "mcp"],
        env=env)
    t0 = time.perf_counter()
    results = _call_all(params, [
        ("recall", {"query": "randomly drop units", "limit": 3}),
        ("cite", {"cite_key": KEY, "format": "bibtex"}),
        ("quote", {"cite_key": "srivastava2014dropout", "chunk_id": "p2s2c1"}),
        ("bibliography", {"cite_keys": [KEY], "format": "mla"}),
        ("verify", {}),
        ("status", {}),
    ])
    assert time.perf_counter() - t0 < 30
    recall, cite, quote, bib, verify, status = results
    assert recall.structured_content["hits"][0]["cite_key"] == "srivastava2014dropout"
    # The test record was never confirmed by a source: labelled, as a BibTeX comment.
    label, entry = _text(cite).split("\n", 1)
    assert label == "% UNVERIFIED (no source confirmed it)"
    assert entry.startswith("@") and KEY in entry
    assert quote.structured_content["text"].startswith("The key idea is to randomly drop units")
    assert "Attention Is All You Need" in bib.structured_content["text"]
    assert verify.structured_content["ok"] is True and verify.structured_content["notes"] == 2
    s = status.structured_content
    assert (s["papers"], s["chunks"], s["provider"]) == (2, 8, "none")


def test_http_transport_serves_the_same_tools_on_loopback(indexed: Vault) -> None:
    import socket
    import subprocess

    from mcp import Client

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "VAULTD_EMBEDDING_PROVIDER": "none"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "vaultd", "--vault", str(indexed.root), "mcp", "--http", str(port)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert proc.poll() is None, "server exited"
            time.sleep(0.05)

        from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

        from vaultd.mcp.http import mcp_token

        async def go() -> Any:
            http = create_mcp_http_client(headers={"Authorization": f"Bearer {mcp_token(indexed)}"})
            async with Client(streamable_http_client(f"http://127.0.0.1:{port}/mcp",
                                                     http_client=http)) as client:
                return await client.call_tool("recall", {"query": "scaled dot-product attention"})

        result = anyio.run(go)
        assert result.structured_content["hits"][0]["chunk_id"] == "p3s2c1"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_wrong_missing_and_unknown_arguments_get_one_sentence(indexed: Vault) -> None:
    results = _call_all(build_server(indexed, None), [
        ("cite", {"cite_key": 42}),
        ("recall", {"query": "attention", "limit": "five"}),
        ("quote", {"cite_key": KEY}),
        ("cite", {"cite_key": KEY, "style": "apa"}),
        ("bibliography", {"cite_keys": KEY}),
    ])
    assert all(r.is_error for r in results)
    texts = [_text(r) for r in results]
    assert texts == [
        "cite: 'cite_key' must be a string, not 42",
        "recall: 'limit' must be an integer, not \"five\"",
        "quote needs 'chunk_id' (a string); it takes cite_key, chunk_id",
        "cite has no argument 'style'; it takes cite_key, format, page, time",
        "bibliography: 'cite_keys' must be a list of strings, not \"vaswani2017attention\"",
    ]
    assert not any("pydantic" in t or "\n" in t for t in texts)


def test_a_running_server_answers_from_the_rebuilt_index_and_no_reader_loses_its_file(
        indexed: Vault) -> None:
    from mcp import Client

    from vaultd.index.store import open_index
    from vaultd.vault import atomic_write_text

    server = build_server(indexed, None)
    first_path = indexed.index_db
    reader = open_index(first_path)  # a CLI search or agent that opened the index before

    async def go() -> tuple[Any, Any]:
        async with Client(server, read_timeout_seconds=30) as client:
            before = await client.call_tool("recall", {"query": "marmalade quorum"})
            atomic_write_text(indexed.root / "Projects" / "jam.md",
                              "# Jam\n\nThe marmalade quorum met on Tuesday to taste.\n")
            await anyio.to_thread.run_sync(
                lambda: index_vault(indexed, Settings(), rebuild=True, embedder=None))
            after = await client.call_tool("recall", {"query": "marmalade quorum"})
            return before, after

    before, after = anyio.run(go)
    assert not any("jam" in h["path"] for h in before.structured_content["hits"])
    assert any(h["path"] == "Projects/jam.md" for h in after.structured_content["hits"])
    # the rebuild built a new file and swapped it in: the old one is still there for the
    # reader that had it open, which is told to reopen
    assert indexed.index_db != first_path and first_path.is_file()
    assert not reader.current() and reader.scalar("SELECT count(*) FROM docs") > 0
    reader.close()
    index_vault(indexed, Settings(), rebuild=True, embedder=None)  # a second rebuild
    assert not first_path.exists()  # generations before the previous one are removed
    leftovers = sorted(p.name for p in indexed.machine_dir.glob("index*"))
    assert len([n for n in leftovers if n.endswith(".db")]) == 2 and "index.current" in leftovers
