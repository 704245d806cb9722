#!/usr/bin/env python3
"""MCP from the warm agent: a client connects over HTTP to a running `vaultd run` on a
10,000-note vault and asks `recall` (target: first tool answer ≤ 50 ms).

Prints, medians of the runs: a new client's connect + initialise, its first `recall`
answer, and later answers on the same session; beside them, in the same run, the same
first answer from a fresh `vaultd mcp` over stdio (spawn → answer), which is what an
agent pays without the warm agent.

    python3 bench/mcp_warm.py [--notes 10000] [--runs 10] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mcp_startup import build

QUERY = {"query": "tumour suppressor gene mutation"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def one_client(url: str, token: str, later: int) -> tuple[float, float, list[float]]:
    from mcp import Client
    from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

    t0 = time.perf_counter()
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    async with Client(streamable_http_client(url, http_client=http)) as client:
        t1 = time.perf_counter()
        await client.call_tool("recall", QUERY)
        t2 = time.perf_counter()
        rest = []
        for _ in range(later):
            t = time.perf_counter()
            await client.call_tool("recall", QUERY)
            rest.append(time.perf_counter() - t)
    return t1 - t0, t2 - t1, rest


def stdio_once(vault: Path) -> float:
    from mcp import Client, StdioServerParameters

    async def go() -> float:
        params = StdioServerParameters(command=sys.executable,
                                       args=["-m", "vaultd", "--vault", str(vault), "mcp"],
                                       env={**os.environ, "VAULTD_INDEX_EMBEDDING_PROVIDER": "none"})
        t = time.perf_counter()
        async with Client(params) as client:
            await client.call_tool("recall", QUERY)
        return time.perf_counter() - t

    return anyio.run(go)


def main() -> None:
    from vaultd.mcp.http import mcp_token

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--notes", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--keep", type=Path, default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        vault = build(args.keep or Path(tmp) / "v", args.notes)
        port = free_port()
        env = {**os.environ, "VAULTD_MCP_ENABLED": "true", "VAULTD_MCP_PORT": str(port),
               "VAULTD_BRIDGE_ENABLED": "false", "VAULTD_INDEX_EMBEDDING_PROVIDER": "none",
               "OLLAMA_HOST": "http://127.0.0.1:9"}
        agent = subprocess.Popen([sys.executable, "-m", "vaultd", "--vault", str(vault.root), "run",
                                  "--no-schedule"], env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        url, token = f"http://127.0.0.1:{port}/mcp", mcp_token(vault)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                with socket.socket() as probe:
                    if probe.connect_ex(("127.0.0.1", port)) == 0:
                        break
                time.sleep(0.1)
            anyio.run(one_client, url, token, 0)  # the agent's own first call warms it
            runs = [anyio.run(one_client, url, token, 5) for _ in range(args.runs)]
            stdio = [stdio_once(vault.root) for _ in range(3)]
        finally:
            agent.terminate()
            agent.wait(20)
    ms = 1000.0
    print(f"MCP over HTTP from a running `vaultd run`, {args.notes} notes, medians of {args.runs}:")
    print(f"  new client connect + initialise {statistics.median(r[0] for r in runs) * ms:.0f} ms; "
          f"first recall {statistics.median(r[1] for r in runs) * ms:.0f} ms (target ≤ 50 ms); "
          f"later recalls {statistics.median(x for r in runs for x in r[2]) * ms:.0f} ms")
    print(f"  same first answer from a fresh `vaultd mcp` over stdio (spawn → answer): "
          f"{statistics.median(stdio) * ms:.0f} ms (median of 3)")


if __name__ == "__main__":
    main()
