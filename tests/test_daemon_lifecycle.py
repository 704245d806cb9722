"""The agent as a user meets it: crash loops, wiki edits, limits, a second instance."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner
from test_daemon_support import agent, drop, jobs, settled, wait_for

from vaultd.cli import main_group
from vaultd.daemon.queue import MAX_CRASHES, JobQueue
from vaultd.daemon.watcher import stat_file
from vaultd.statedb import open_state_db
from vaultd.vault import Vault

# Bounded waits are generous: on a loaded machine the debounce and the index write take
# longer; a passing run returns as soon as the condition holds.
KEYWORDS_ONLY = {"VAULTD_EMBEDDING_PROVIDER": "none"}


def _search_paths(vault: Vault, query: str) -> set[str]:
    result = CliRunner().invoke(main_group, ["--vault", str(vault.root), "search", query,
                                             "--keywords-only", "--json"])
    if result.exit_code != 0:
        return set()
    return {h["path"] for h in json.loads(result.output)["hits"]}


def test_a_file_that_kills_vaultd_three_times_lands_in_failed_instead_of_a_crash_loop(
        vault: Vault) -> None:
    item = drop(vault.inbox, "crasher.pdf", b"%PDF-1.4 pretend this segfaults the parser\n")
    st = stat_file(item)
    assert st is not None
    # The service died MAX_CRASHES - 1 times while processing it (what launchd's KeepAlive
    # restarts would record): the real queue API, as the killed processes left it.
    q = JobQueue(open_state_db(vault.state_db))
    q.enqueue(str(item), st.fingerprint)
    for _ in range(MAX_CRASHES - 1):
        assert q.claim() is not None
        q.requeue_stale()
    assert q.claim() is not None  # the last run, killed mid-job
    q.db.close()
    with agent(vault) as a:
        wait_for(lambda: (vault.failed / "crasher.pdf.error.md").is_file(), 20,
                 "the crashing file in _failed/")
        note = (vault.failed / "crasher.pdf.error.md").read_text(encoding="utf-8")
        assert "vaultd stopped while processing crasher.pdf" in note
        assert (vault.failed / "crasher.pdf").is_file() and not item.exists()
        (job,) = jobs(vault)
        assert job.state == "failed"
        assert a.proc.poll() is None  # still running, not crash-looping
        assert a.stop() == 0


def test_a_wiki_note_becomes_searchable_and_leaves_search_when_deleted_or_renamed(
        vault: Vault) -> None:
    with agent(vault, env=KEYWORDS_ONLY) as a:
        idea = vault.wiki / "myidea.md"
        idea.write_text("# My idea\n\nZorblaxian lattices tile the plane.\n", encoding="utf-8")
        wait_for(lambda: _search_paths(vault, "zorblaxian") == {"wiki/myidea.md"}, 45,
                 "the new note in search")
        idea.unlink()
        wait_for(lambda: _search_paths(vault, "zorblaxian") == set(), 45,
                 "the deleted note to leave search")
        other = vault.wiki / "other.md"
        other.write_text("# Other\n\nQuuxable monoids.\n", encoding="utf-8")
        wait_for(lambda: _search_paths(vault, "quuxable") == {"wiki/other.md"}, 45, "other.md")
        other.rename(vault.wiki / "renamed.md")
        wait_for(lambda: _search_paths(vault, "quuxable") == {"wiki/renamed.md"}, 45,
                 "the rename in search")
        assert a.stop() == 0
    # Edits made while the agent was down are reconciled at startup.
    (vault.wiki / "renamed.md").unlink()
    (vault.wiki / "offline.md").write_text("# Offline\n\nFrobnicated sheaves.\n",
                                           encoding="utf-8")
    with agent(vault, env=KEYWORDS_ONLY) as b:
        wait_for(lambda: _search_paths(vault, "frobnicated") == {"wiki/offline.md"}, 45,
                 "the startup reconcile")
        assert _search_paths(vault, "quuxable") == set()
        assert b.stop() == 0


def test_a_file_over_the_size_limit_lands_in_failed_with_an_error_note(vault: Vault) -> None:
    with agent(vault, env={"VAULTD_DAEMON_MAX_FILE_MB": "1"}) as a:
        drop(vault.inbox, "huge.pdf", b"%PDF-1.4\n" + b"0" * (2 * 1024 * 1024))
        wait_for(lambda: settled(vault, 1), 45, "the oversized job")
        wait_for(lambda: (vault.failed / "huge.pdf.error.md").is_file(), 10, "the error note")
        note = (vault.failed / "huge.pdf.error.md").read_text(encoding="utf-8")
        assert "larger than the 1 MB limit" in note and "daemon.max_file_mb" in note
        assert (vault.failed / "huge.pdf").is_file()
        assert a.stop() == 0


def test_a_second_vaultd_run_on_the_same_vault_exits_1_naming_the_pid(vault: Vault) -> None:
    with agent(vault) as a:
        second = subprocess.run(
            [sys.executable, "-m", "vaultd", "--vault", str(vault.root), "run", "--no-schedule"],
            capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
        assert second.returncode == 1
        assert f"pid {a.proc.pid}" in second.stderr
        assert a.proc.poll() is None
        assert a.stop() == 0




def test_status_of_a_stopped_service_shows_no_stale_pid(vault: Vault) -> None:
    from vaultd.config import Settings
    from vaultd.daemon.status import collect_status

    q = JobQueue(open_state_db(vault.state_db))
    q.set_meta("service", {"pid": 424242, "started_at": 1.0})  # left by a stopped run
    q.db.close()
    data = collect_status(vault, Settings(), probe_llm=False)
    assert data["service"] == {"running": False}
    result = CliRunner().invoke(main_group, ["--vault", str(vault.root), "status", "--no-probe"])
    assert "424242" not in result.output


def test_status_says_whether_the_embedding_provider_is_usable(vault: Vault) -> None:
    import importlib.util

    from vaultd.config import Settings
    from vaultd.daemon.status import _embedding

    none = Settings.model_validate({"index": {"embedding_provider": "none"}})
    assert _embedding(none, None)["available"] is False
    st = Settings.model_validate({"index": {"embedding_provider": "sentence-transformers"}})
    assert _embedding(st, None)["available"] is (
        importlib.util.find_spec("sentence_transformers") is not None)
    ollama = Settings()
    assert _embedding(ollama, ["nomic-embed-text:latest"])["available"] is True
    missing = _embedding(ollama, ["llama3.2:3b"])
    assert missing["available"] is False and "ollama pull nomic-embed-text" in missing["reason"]
    assert _embedding(ollama, "ConnectError")["available"] is False
    result = CliRunner().invoke(main_group, ["--vault", str(vault.root), "status"],
                                env={"VAULTD_EMBEDDING_PROVIDER": "none"})
    assert "embedding: none (nomic-embed-text) unavailable: disabled" in result.output
