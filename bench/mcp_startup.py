"""MCP cold start: spawn `vaultd mcp` over stdio on a 10,000-note vault, initialise, and
time the first `recall` answer, beside the floor: the smallest server the same SDK can run
(one tool, no vault), spawned the same way in the same run. Target: vaultd within the
floor + 100 ms.

    python3 bench/mcp_startup.py [--notes 10000] [--runs 5] [--keep DIR]

The vault (SciFact abstracts as paper notes, BM25 index) is built once; `--keep DIR`
reuses it across invocations. Also prints the import cost of the server's modules.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from search import load_scifact, make_vault  # noqa: E402

from vaultd.config import Settings  # noqa: E402
from vaultd.vault import Vault  # noqa: E402

CLIENT = """
import json, sys, time, anyio
from mcp import Client, StdioServerParameters

ARGS, ENV, TOOL, TOOL_ARGS = json.loads(sys.argv[1])

async def go():
    p = StdioServerParameters(command=sys.executable, args=ARGS, env=ENV)
    t0 = time.perf_counter()
    async with Client(p) as c:
        t1 = time.perf_counter()
        r = await c.call_tool(TOOL, TOOL_ARGS)
        t2 = time.perf_counter()
        assert not r.is_error, r
        print(f"{(t1 - t0) * 1000:.0f} {(t2 - t1) * 1000:.0f} {(t2 - t0) * 1000:.0f}")

anyio.run(go)
"""

#: The floor: the smallest server the same SDK can run (one tool, no vault, no index).
HELLO_SERVER = """
from mcp.server.mcpserver import MCPServer

server = MCPServer("hello")

@server.tool()
def echo(text: str) -> str:
    return text

server.run("stdio")
"""


def build(root: Path, notes: int) -> Vault:
    from vaultd.pipeline.index import index_vault

    vault = Vault(root)
    if vault.index_db.exists():
        return vault
    corpus, _, _ = load_scifact()
    t0 = time.perf_counter()
    vault = make_vault(root, corpus, notes, 3)
    stats = index_vault(vault, Settings(), embedder=None)
    print(f"vault: {notes} notes, {stats.chunks_total} passages "
          f"(written + indexed in {time.perf_counter() - t0:.0f} s)")
    return vault


def import_ms(module: str) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; " \
           "print((time.perf_counter() - t) * 1000)"
    runs = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                 check=True).stdout) for _ in range(3)]
    return min(runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--notes", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keep", type=Path, default=None, help="build/reuse the vault here")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        vault = build(args.keep or Path(tmp) / "v", args.notes)
        for module in ("vaultd.cli", "vaultd.mcp.server", "mcp.server.mcpserver", "pydantic"):
            print(f"import {module}: {import_ms(module):.0f} ms")
        hello = Path(tmp) / "hello_server.py"
        hello.write_text(HELLO_SERVER, encoding="utf-8")
        env = {"VAULTD_EMBEDDING_PROVIDER": "none", "PATH": "/usr/bin:/bin"}
        recall = ("recall", {"query": "tumour suppressor gene mutation"})
        vault_args = ["--vault", str(vault.root), "mcp"]
        cases = {
            "vaultd mcp": (["-m", "vaultd", *vault_args], env, *recall),
            "floor: one-tool MCPServer, same SDK": ([str(hello)], env, "echo", {"text": "hi"}),
        }
        runs: dict[str, list[list[float]]] = {label: [] for label in cases}
        for _ in range(args.runs):  # interleaved, so load drifts hit every case alike
            for label, case in cases.items():
                out = subprocess.run([sys.executable, "-c", CLIENT, json.dumps(case)],
                                     capture_output=True, text=True, timeout=120,
                                     check=True).stdout.split()
                runs[label].append([float(x) for x in out])
        print(f"MCP cold start at {args.notes} notes (spawn → initialised → first answer), "
              f"p50 of {args.runs}:")
        totals = {}
        for label, rs in runs.items():
            p50 = [statistics.median(r[i] for r in rs) for i in range(3)]
            totals[label] = p50[2]
            print(f"  {label:40s} handshake {p50[0]:4.0f} ms + first call {p50[1]:4.0f} ms "
                  f"= {p50[2]:4.0f} ms (min {min(r[2] for r in rs):.0f}, "
                  f"max {max(r[2] for r in rs):.0f})")
        over = totals["vaultd mcp"] - totals["floor: one-tool MCPServer, same SDK"]
        print(f"  vaultd over the floor: {over:+.0f} ms (target ≤ +100 ms)")


if __name__ == "__main__":
    main()
