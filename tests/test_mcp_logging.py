"""`vaultd run` with the HTTP MCP server up prints each log line once (one handler)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from vaultd.daemon.runner import setup_logging
from vaultd.mcp.server import build_server
from vaultd.vault import Vault


@pytest.fixture
def bare_root_logger() -> Iterator[logging.Logger]:
    """The root logger, its handlers and those of ``vaultd`` restored after the test."""
    root, ours = logging.getLogger(), logging.getLogger("vaultd")
    saved = (list(root.handlers), root.level, list(ours.handlers), ours.level)
    try:
        yield root
    finally:
        for logger, handlers, level in ((root, saved[0], saved[1]), (ours, saved[2], saved[3])):
            for h in list(logger.handlers):
                if h not in handlers:
                    logger.removeHandler(h)
            for h in handlers:
                if h not in logger.handlers:
                    logger.addHandler(h)
            logger.setLevel(level)


def test_a_log_line_prints_once_when_the_mcp_server_is_built_after_the_agents_logging(
        vault: Vault, capsys: pytest.CaptureFixture[str], bare_root_logger: logging.Logger) -> None:
    for h in list(bare_root_logger.handlers):  # pytest adds its own around the test call
        bare_root_logger.removeHandler(h)
    setup_logging(vault)
    build_server(vault, None)
    assert bare_root_logger.handlers == []  # the SDK added no handler of its own
    logging.getLogger("vaultd.daemon").warning("job 1 failed: printed once")
    err = capsys.readouterr().err
    assert err.count("job 1 failed: printed once") == 1, err
