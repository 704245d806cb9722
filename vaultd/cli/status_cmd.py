"""`vaultd status`: is the agent running, what is queued, what failed, what is available."""

from __future__ import annotations

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
    from vaultd.daemon.status import collect_status

    a = app(ctx)
    vault = a.vault()
    data = collect_status(vault, a.settings(vault), probe_llm=not no_probe)
    if as_json:
        emit_json(data)
        return
    svc = data["service"]
    click.echo(f"vault:    {data['vault']}")
    click.echo(f"service:  {'running' if svc.get('running') else 'not running'}"
               + (f" ({svc['holder']})" if svc.get("holder") else ""))
    q = data["queue"]
    click.echo("queue:    " + ", ".join(f"{k} {v}" for k, v in q.items()))
    for f in data["failures"]:
        click.echo(f"  failed #{f['id']}: {f['file']}: {f['error']}")
    for r in data["retrying"]:
        click.echo(f"  retrying #{r['id']} (attempt {r['attempts']}): {r['file']}: {r['error']}")
    lv = data.get("last_verify")
    if lv:
        result = "OK" if lv.get("ok") else f"{lv.get('findings', '?')} finding(s)"
        click.echo(f"verify:   {lv.get('at')}: {result} ({lv.get('report', lv.get('error', ''))})")
    else:
        click.echo("verify:   not run yet")
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
    click.echo(f"embedding: {emb['provider']} ({emb['model']})")
    idx = data.get("index")
    if idx:
        click.echo("index:    " + ", ".join(f"{k} {v}" for k, v in idx.items()
                                           if not isinstance(v, dict | list)))
