"""`vaultd status`: is the agent running, what is queued, what failed, what is available."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import click

from vaultd.cli import main_group
from vaultd.cli.common import app, emit_json, json_option


@main_group.command("status")
@click.option("--no-probe", is_flag=True, help="Do not contact the LLM server.")
@json_option
@click.pass_context
def status_command(ctx: click.Context, no_probe: bool, as_json: bool) -> None:
    """Show the agent's state: service, queue counts, failures, last verify, providers.

    \b
    Example:
      vaultd status --json
    """
    # lazy: vaultd.daemon.status costs 90 ms at import (pulls in sqlite3, logging)
    from vaultd.daemon.status import collect_status

    a = app(ctx)
    vault = a.vault()
    data = collect_status(vault, a.settings(vault), probe_llm=not no_probe)
    if as_json:
        emit_json(data)
        return
    svc = data["service"]
    click.echo(f"vault:    {data['vault']}")
    sync = f"in {data['synced_by']}: " if data.get("synced_by") else ""
    click.echo(f"state:    {sync}databases, index, logs and secrets kept on this machine in "
               f"{data['machine_state']} (not synced)")
    started = ""
    if svc.get("running") and svc.get("started_at"):
        started = ", since " + datetime.fromtimestamp(svc["started_at"]).astimezone().isoformat(
            timespec="seconds")
    click.echo(f"service:  {'running' if svc.get('running') else 'not running'}"
               + (f" ({svc['holder']}{started})" if svc.get("holder") else ""))
    q = data["queue"]
    click.echo("queue:    " + ", ".join(f"{k} {v}" for k, v in q.items()))
    for f in data["failures"]:
        click.echo(f"  failed #{f['id']}: {f['file']}: {f['error']}")
    for r in data["retrying"]:
        click.echo(f"  retrying #{r['id']} (attempt {r['attempts']}): {r['file']}: {r['error']}")
    lease = data.get("inbox_lease") or {}
    if lease.get("holder") and not lease.get("this_machine"):
        click.echo(f"inbox:    processed by {lease['holder']} (this machine leaves it alone "
                   "while that machine's vaultd runs)")
    for c in data.get("sync_conflicts", []):
        click.echo(f"  sync conflict: {c['copy']} is a conflict copy of {c['of']} (not indexed; "
                   "keep the right one and delete the other)")
    for d in data.get("duplicates", []):
        click.echo(f"  already in the vault #{d['id']}: {Path(d['file']).name} is "
                   f"{', '.join(d['cite_keys']) or 'a known item'} ({d['outcome']})")
    lv = data.get("last_verify")
    if lv:
        result = "OK" if lv.get("ok") else f"{lv.get('findings', '?')} finding(s)"
        click.echo(f"verify:   {lv.get('at')}: {result} ({lv.get('report', lv.get('error', ''))})")
    else:
        click.echo("verify:   no scheduled run yet (the agent verifies daily; "
                   "`vaultd verify --source` checks now)")
    prov = data["providers"]
    tiers = [k for k, v in prov["parser"]["tiers"].items() if v]
    click.echo(f"parser:   {prov['parser']['setting']} (available: {', '.join(tiers) or 'none'})")
    llm = prov["llm"]
    if "reachable" in llm:
        state = "reachable" if llm["reachable"] else "not reachable (enrichment stays pending)"
        click.echo(f"llm:      {llm['host']} {state}")
    else:
        click.echo(f"llm:      {'enabled' if llm.get('enabled') else 'disabled'}")
    emb = prov["embedding"]
    if emb.get("available") is True:
        emb_state = "available"
    elif emb.get("available") is None:
        emb_state = "not checked (--no-probe)"
    else:
        emb_state = f"unavailable: {emb.get('reason')}"
    click.echo(f"embedding: {emb['provider']} ({emb['model']}) {emb_state}")
    click.echo(f"index:    {_index_line(data.get('index') or {})}")


def _index_line(idx: dict[str, Any]) -> str:
    if idx.get("error"):
        return f"unreadable ({idx['error']}); rebuild it with `vaultd index --rebuild`"
    if not idx.get("exists"):
        return "none yet; `vaultd index` builds it (capture and compile also do)"
    line = (f"{idx.get('papers', 0)} paper note(s), {idx.get('user_notes', 0)} of your notes, "
            f"{idx.get('chunks', 0)} passages, {idx.get('vectors', 0)} vectors")
    if not idx.get("vec_available", True):
        line += f"; keyword search only ({idx.get('vec_error') or 'sqlite-vec not loaded'})"
    if idx.get("enrichment_pending"):
        line += f"; {idx['enrichment_pending']} passages await enrichment"
    if idx.get("last_indexed"):
        line += f"; updated {idx['last_indexed']}"
    return line
