"""The console script's fast path to the MCP server agrees with the full CLI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import vaultd.mcp_launch
from vaultd.cli import main_group
from vaultd.entry import mcp_fast_args


@pytest.mark.parametrize(("argv", "expected"), [
    (["mcp"], (None, None)),
    (["--vault", "/v", "mcp"], ("/v", None)),
    (["--vault=/v", "-q", "mcp", "--http", "8765"], ("/v", 8765)),
    (["--vault", "/a", "--vault", "/b", "mcp", "--http=1"], ("/b", 1)),
    (["-q", "--quiet", "mcp"], (None, None)),
])
def test_plain_mcp_invocations_take_the_fast_path(argv: list[str], expected: Any) -> None:
    assert mcp_fast_args(argv) == expected


@pytest.mark.parametrize("argv", [
    [], ["search", "mcp"], ["mcp", "--help"], ["--help", "mcp"], ["-h", "mcp"],
    ["mcp", "--http"], ["mcp", "--http", "0"], ["mcp", "--http", "65536"],
    ["mcp", "--http", "port"], ["mcp", "--http", "٣"], ["--vault"], ["--version", "mcp"],
    ["mcp", "extra"], ["--unknown", "mcp"], ["mcp", "mcp"],
])
def test_anything_unusual_is_left_to_the_full_cli(argv: list[str]) -> None:
    assert mcp_fast_args(argv) is None


def test_the_vault_comes_from_the_environment_unless_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VAULTD_VAULT", "/env/vault")
    assert mcp_fast_args(["mcp"]) == ("/env/vault", None)
    assert mcp_fast_args(["--vault", "/flag", "mcp"]) == ("/flag", None)


TOKENS = ["mcp", "--vault", "--vault=/x", "/y", "-q", "--quiet", "--http", "--http=80", "8765",
          "0", "65536", "70000", "--help", "-h", "search", "--json", "--version", "=", "-"]


@settings(max_examples=300, deadline=None)
@given(argv=st.lists(st.sampled_from(TOKENS), max_size=6), env=st.sampled_from([None, "/env"]))
def test_whenever_the_fast_path_runs_the_cli_would_serve_the_same_vault_and_port(
        argv: list[str], env: str | None) -> None:
    fast = mcp_fast_args(argv) if env is None else _with_env(env, argv)
    served: list[tuple[str | None, int | None]] = []
    original = vaultd.mcp_launch.serve
    vaultd.mcp_launch.serve = lambda vault, port: served.append((vault, port))  # type: ignore[assignment]
    try:
        result = CliRunner().invoke(main_group, argv, env={"VAULTD_VAULT": env})
    finally:
        vaultd.mcp_launch.serve = original  # type: ignore[assignment]
    if fast is not None:
        assert result.exit_code == 0, result.output
        assert served == [fast]


def _with_env(env: str, argv: list[str]) -> tuple[str | None, int | None] | None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("VAULTD_VAULT", env)
        return mcp_fast_args(argv)


def test_the_fast_path_serves_without_loading_the_cli_framework(vault: Any, tmp_path: Path) -> None:
    # stdin at EOF: the server starts, finds no client and exits cleanly
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "vaultd", "--vault",
                           str(vault.root), "mcp"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    imported = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines()
                if line.startswith("import time:")}
    assert "mcp.server.mcpserver" in imported and "vaultd.mcp_server" in imported
    # (the SDK itself loads click and rich: uvicorn and its logging set-up)
    assert not imported & {"vaultd.cli", "vaultd.cli.common", "rich.progress"}


def test_mcp_help_still_comes_from_the_cli() -> None:
    proc = subprocess.run([sys.executable, "-m", "vaultd", "mcp", "--help"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0 and "--http INTEGER RANGE" in proc.stdout
