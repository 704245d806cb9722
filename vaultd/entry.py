"""The `vaultd` console script.

A plain ``vaultd [--vault DIR] [-q] mcp [--http PORT]`` goes straight to the MCP server
(vaultd.mcp_launch) without importing the CLI framework and its terminal UI, which would
otherwise be a fifth of the server's start-up. Everything else, including any help flag,
an unknown option or a bad value, is the full CLI's, with its messages and exit codes.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

_VALUE_FLAGS = {"--vault": "vault", "--http": "http"}


def _split(argv: Sequence[str]) -> list[tuple[str, str | None]] | None:
    """``--flag VALUE`` / ``--flag=VALUE`` pairs and bare words; None on a dangling flag."""
    out: list[tuple[str, str | None]] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        name, eq, value = arg.partition("=")
        if name in _VALUE_FLAGS and eq:
            out.append((name, value))
        elif arg in _VALUE_FLAGS:
            if i + 1 >= len(argv):
                return None
            out.append((arg, argv[i + 1]))
            i += 1
        else:
            out.append((arg, None))
        i += 1
    return out


def mcp_fast_args(argv: Sequence[str]) -> tuple[str | None, int | None] | None:
    """(vault dir or None, HTTP port or None) for a plain `vaultd … mcp …` call, else None.

    Mirrors the click CLI for the forms it accepts: ``--vault`` (last one wins, else
    $VAULTD_VAULT, empty meaning unset) and ``-q/--quiet`` before ``mcp``, ``--http
    PORT`` (1–65535) after it. Anything else returns None so the full CLI handles it.
    """
    parts = _split(argv)
    if parts is None:
        return None
    words = [w for w, v in parts if v is None]
    if "mcp" not in words:
        return None
    at = next(i for i, (w, v) in enumerate(parts) if w == "mcp" and v is None)
    vault: str | None = os.environ.get("VAULTD_VAULT") or None
    for flag, value in parts[:at]:
        if flag == "--vault" and value is not None:
            vault = value or None
        elif flag not in ("-q", "--quiet") or value is not None:
            return None
    port: int | None = None
    for flag, value in parts[at + 1 :]:
        if flag != "--http" or value is None or not value.isascii() or not value.isdigit():
            return None
        port = int(value)
        if not 1 <= port <= 65535:
            return None
    return vault, port


def main() -> None:
    fast = mcp_fast_args(sys.argv[1:])
    if fast is not None:
        from vaultd.mcp_launch import run_fast

        sys.exit(run_fast(*fast))
    from vaultd.cli import main as cli_main

    cli_main()
