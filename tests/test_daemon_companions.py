"""The servers `vaultd run` hands the agent: started once it holds the vault, stopped at
shutdown, and a server that cannot start never stops the agent."""

from __future__ import annotations

import logging
import os
from typing import Any

import pytest

from vaultd.cli.run_cmd import companions
from vaultd.config import Settings
from vaultd.daemon.companions import Companion, Server, start_companions
from vaultd.errors import VaultdError
from vaultd.vault import Vault


class FakeServer:
    def __init__(self, url: str, log: list[str]) -> None:
        self.url, self.log = url, log

    def start(self) -> None:
        self.log.append(f"start {self.url}")

    def stop(self) -> None:
        self.log.append(f"stop {self.url}")


def test_a_server_that_cannot_start_is_named_and_the_others_start(
        caplog: pytest.LogCaptureFixture) -> None:
    calls: list[str] = []
    meta: dict[str, Any] = {}

    def taken() -> Server:
        raise VaultdError("cannot listen on 127.0.0.1:7600: Address already in use")

    started = start_companions(
        [Companion("browser bridge", taken),
         Companion("MCP over HTTP", lambda: FakeServer("http://127.0.0.1:7601/mcp", calls),
                   meta_key="mcp")],
        meta.__setitem__)
    assert [s.url for s in started] == ["http://127.0.0.1:7601/mcp"]
    assert calls == ["start http://127.0.0.1:7601/mcp"]
    assert meta == {"mcp": {"url": "http://127.0.0.1:7601/mcp", "pid": os.getpid()}}
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (logging.WARNING, "browser bridge not started: cannot listen on 127.0.0.1:7600: "
                          "Address already in use")]


def test_vaultd_run_hands_the_agent_only_the_servers_its_settings_enable(vault: Vault) -> None:
    both = Settings.model_validate({"bridge": {"enabled": True}, "mcp": {"enabled": True}})
    made = companions(vault, both)
    assert [(c.label, c.meta_key) for c in made] == [("browser bridge", None),
                                                     ("MCP over HTTP", "mcp")]
    none = Settings.model_validate({"bridge": {"enabled": False}, "mcp": {"enabled": False}})
    assert companions(vault, none) == []
