"""`vaultd demo`: the main job end to end, offline — a demo vault, the agent, a paper."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import click

from vaultd.cli import main_group
from vaultd.cli.common import app, emit_json, json_option, stderr
from vaultd.config import default_config_toml
from vaultd.daemon.queue import JobQueue
from vaultd.errors import VaultdError
from vaultd.samplepdf import write_sample_paper
from vaultd.statedb import open_state_db
from vaultd.vault import Vault

POLL_SECONDS = 0.1
# A question the generated sample paper answers (in its Method section).
DEMO_QUERY = "what happens when a paragraph reaches the bottom of a column"
PASSAGE_TYPES = ("paragraph", "list")
# The sample paper is generated here; the ids printed in its references are not its own,
# so the demo agent looks nothing up: every metadata source points at a closed local port.
_CLOSED = "http://127.0.0.1:9"
OFFLINE_ENV = {
    "VAULTD_ARXIV_API_URL": _CLOSED, "VAULTD_ARXIV_PDF_URL": _CLOSED,
    "VAULTD_CROSSREF_URL": _CLOSED, "VAULTD_OPENALEX_URL": _CLOSED,
    "VAULTD_UNPAYWALL_URL": _CLOSED, "VAULTD_CAPTURE_MAX_RETRIES": "0",
}
STOP_TIMEOUT_SECONDS = 15.0


class DemoError(VaultdError):
    pass


def _demo_dir(directory: str | None) -> Path:
    if directory:
        return Path(directory).expanduser().resolve()
    default = Path.cwd() / "vaultd-demo"
    if not default.exists():
        return default
    return Path(tempfile.mkdtemp(prefix="vaultd-demo-"))


def _job_states(vault: Vault) -> list[tuple[str, str | None, str | None]]:
    db = open_state_db(vault.state_db)
    try:
        return [(j.state, j.error, ",".join(j.cite_keys) or None) for j in JobQueue(db).jobs()]
    finally:
        db.close()


def _search(vault: Vault, query: str) -> dict[str, Any] | None:
    # lazy: vaultd.index.search costs 186 ms at import (pulls in apsw, logging)
    from vaultd.index.search import hybrid_search

    # lazy: vaultd.index.store costs 10 ms at import (pulls in apsw)
    from vaultd.index.store import open_index

    db = open_index(vault.index_db)
    try:
        hits = hybrid_search(db, query, limit=5)
    finally:
        db.close()
    if not hits:
        return None
    # The demo shows a passage that answers the query (a caption names it, a passage says it).
    hit = next((h for h in hits if h.chunk_type in PASSAGE_TYPES), hits[0])
    return {**hit.to_dict(), "locator": hit.locator}


def last_error_line(log: Path) -> str | None:
    """The last non-blank line a dead agent wrote to its stderr (its own error message)."""
    try:
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    last = next((line.strip() for line in reversed(lines) if line.strip()), None)
    return last.removeprefix("Error: ") if last else None


def agent_command(*args: str) -> list[str]:
    """This interpreter running vaultd with *args*. ``-P`` keeps the current folder off the
    import path, so a folder named ``vaultd`` where the user stands is never imported."""
    return [sys.executable, "-P", "-m", "vaultd", *args]


def _stop(proc: subprocess.Popen[bytes]) -> int:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(STOP_TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.wait()


@main_group.command("demo")
@click.argument("directory", required=False, type=click.Path(file_okay=False))
@click.option("--timeout", type=float, default=120.0, show_default=True,
              help="Seconds to wait for the note.")
@json_option
@click.pass_context
def demo_command(ctx: click.Context, directory: str | None, timeout: float, as_json: bool) -> None:
    """Create a demo vault, start the agent, drop a generated paper into its Inbox/, and
    show the note it becomes plus one search hit. Offline; no LLM needed.

    \b
    Example:
      vaultd demo            # ./vaultd-demo, or a new temp dir if that exists
      vaultd demo /tmp/try-vaultd
    """
    quiet = app(ctx).quiet
    vault = Vault(_demo_dir(directory))
    vault.init(default_config_toml())
    env = {**os.environ, "VAULTD_VAULT": str(vault.root), **OFFLINE_ENV}
    cmd = agent_command("--vault", str(vault.root), "--quiet", "run",
                        "--debounce", "0.3", "--no-schedule")
    if not quiet:
        stderr.print(f"demo vault: {vault.root}\nstarting the agent…")
    vault.logs_dir.mkdir(parents=True, exist_ok=True)
    agent_log = vault.logs_dir / "demo-agent.err"
    with agent_log.open("wb") as log:
        proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=log)
    try:
        staging = vault.state_dir / "demo-sample.pdf"
        paper = write_sample_paper(staging)
        target = vault.inbox / "sample-paper.pdf"
        staging.replace(target)  # one rename: the watcher never sees half a file
        if not quiet:
            stderr.print(f"dropped {vault.rel(target)}; waiting for the note…")
        deadline = time.monotonic() + timeout
        keys: str | None = None
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                why = last_error_line(agent_log) or "it printed nothing"
                raise DemoError(f"the agent exited with code {proc.returncode}: {why}")
            states = _job_states(vault)
            done = [s for s in states if s[0] == "done" and s[2]]
            failed = [s for s in states if s[0] == "failed"]
            if failed:
                raise DemoError(f"the sample paper failed: {failed[0][1]}; "
                                f"see {vault.failed}")
            if done:
                keys = done[0][2]
                break
            time.sleep(POLL_SECONDS)
        if keys is None:
            raise DemoError(f"no note after {timeout:.0f} s; the agent's output is in {agent_log}")
        key = keys.split(",")[0]
        note = vault.note_path(key)
        hit = _search(vault, DEMO_QUERY)
    finally:
        code = _stop(proc)
    data = {"vault": str(vault.root), "cite_key": key, "note": str(note),
            "title": paper.title, "search_hit": hit, "agent_exit": code}
    if as_json:
        emit_json(data)
        return
    click.echo(f"note:   {note}")
    if hit:
        where = str(hit.get("locator") or "")
        text = str(hit.get("text") or hit.get("excerpt") or hit.get("snippet") or "")[:160]
        click.echo(f"search: vaultd search \"{DEMO_QUERY}\" → "
                   f"[{hit.get('cite_key')}] {where} {hit.get('chunk_id')}")
        if text:
            click.echo(f"        {text}")
    else:
        click.echo("search: no hit (the index module is not available)")
    click.echo(f"Next: open {vault.root} in Obsidian, or try `vaultd --vault {vault.root} status`.")
