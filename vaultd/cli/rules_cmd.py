"""`vaultd rules test FILE`: which inbox rule handles a file, and why."""

from __future__ import annotations

from pathlib import Path

import click

from vaultd.cli import main_group
from vaultd.cli.common import app, emit_json, json_option
from vaultd.errors import VaultError


@main_group.group("rules")
def rules_group() -> None:
    """Inbox rules: user rules in .vaultd/rules/*.toml, then the shipped defaults.

    \b
    Example:
      vaultd rules test ~/Downloads/paper.pdf
    """


def _user_dir(ctx: click.Context) -> Path | None:
    try:
        return app(ctx).vault().rules_dir
    except VaultError:
        return None  # no vault: the shipped defaults alone


@rules_group.command("test")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@json_option
@click.pass_context
def test_command(ctx: click.Context, file: Path, as_json: bool) -> None:
    """Show which rule matches FILE and why (exit 1 when none does).

    \b
    Example:
      vaultd rules test Inbox/attention.url
    """
    # lazy: vaultd.daemon.rules costs 49 ms at import (pulls in plistlib)
    from vaultd.daemon.rules import decide, load_rules, read_facts

    rules = load_rules(_user_dir(ctx))
    facts = read_facts(file)
    d = decide(rules, facts)
    data = {
        "file": str(file),
        "url": facts.url,
        "rule": d.rule.rule.name if d.rule else None,
        "rule_file": str(d.rule.origin) if d.rule else None,
        "action": d.action,
        "because": d.reasons,
        "skipped": [{"rule": name, "because": why} for name, why in d.rejected],
    }
    if as_json:
        emit_json(data)
    else:
        for name, why in d.rejected:
            click.echo(f"  skip {name}: {why}")
        if d.rule:
            click.echo(f"{file.name}: rule '{d.rule.rule.name}' ({d.rule.origin}) → {d.action}")
            for why in d.reasons:
                click.echo(f"  because {why}")
        else:
            click.echo(f"{file.name}: no rule matches; the agent would move it to Inbox/_failed/")
    if d.rule is None:
        ctx.exit(1)


@rules_group.command("list")
@json_option
@click.pass_context
def list_command(ctx: click.Context, as_json: bool) -> None:
    """List the rules in the order they are tried.

    \b
    Example:
      vaultd rules list --json
    """
    # lazy: vaultd.daemon.rules costs 49 ms at import (pulls in plistlib)
    from vaultd.daemon.rules import load_rules

    rules = load_rules(_user_dir(ctx))
    rows = [{"rule": r.rule.name, "action": r.rule.action, "file": str(r.origin),
             "match": r.rule.match.model_dump(exclude_none=True)} for r in rules]
    if as_json:
        emit_json(rows)
        return
    for row in rows:
        click.echo(f"{row['rule']:<16} {row['action']:<11} {row['match']}  ({row['file']})")
