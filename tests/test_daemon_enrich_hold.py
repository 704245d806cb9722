"""The agent's enrichment thread: while the LLM is known to be down, new notes wait for an
idle queue and then go through one pass together (docs/daemon.md)."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

import pytest

from tests.test_daemon_support import wait_for
from vaultd.config import Settings
from vaultd.daemon import runner
from vaultd.daemon.runner import ENRICH_POLL_SECONDS, Daemon
from vaultd.pipeline.enrich_pass import EnrichPass
from vaultd.vault import Vault


def test_notes_wait_for_an_idle_queue_while_the_llm_is_down(
        vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    passes: list[list[str]] = []
    down = [True]

    def one_pass(_vault: Vault, _settings: Settings, keys: Sequence[str]) -> EnrichPass:
        passes.append(list(keys))
        return EnrichPass([f"{k}: Ollama is not reachable" for k in keys], unavailable=down[0])

    monkeypatch.setattr(runner, "enrich_notes", one_pass)
    daemon = Daemon(vault, Settings(), scheduler=False)
    thread = threading.Thread(target=daemon._enricher, daemon=True)
    thread.start()
    try:
        daemon._enrich.put(["first2020a"])  # the LLM not yet known down: at once
        wait_for(lambda: passes == [["first2020a"]], 10, "the first pass")
        with daemon._running_lock:
            daemon._running[1] = time.monotonic()  # a job (a burst) is running
        daemon._enrich.put(["second2020b"])
        daemon._enrich.put(["third2020c", "second2020b"])
        time.sleep(4 * ENRICH_POLL_SECONDS)
        assert passes == [["first2020a"]]  # held: the pass would only mark chunks pending
        down[0] = False
        daemon._release(1)  # the queue is idle: one pass over both jobs' notes
        wait_for(lambda: len(passes) == 2, 10, "the held pass")
        assert passes[1] == ["second2020b", "third2020c"]
        with daemon._running_lock:
            daemon._running[2] = time.monotonic()
        daemon._enrich.put(["fourth2020d"])  # the LLM answered: no longer held
        wait_for(lambda: len(passes) == 3, 10, "a pass beside a running job")
        assert passes[2] == ["fourth2020d"]
    finally:
        daemon._enrich.put(None)
        thread.join(10)
        daemon.db.close()
