"""`vaultd notes upgrade`: every paper note moved to the current layout, losing nothing."""

from __future__ import annotations

import click

from vaultd.cli import main_group
from vaultd.cli.common import app, emit_json, json_option, progress, stderr


@main_group.group("notes")
def notes_group() -> None:
    """Paper notes as a whole: move them to the current layout."""


@notes_group.command("upgrade")
@json_option
@click.pass_context
def upgrade_command(ctx: click.Context, as_json: bool) -> None:
    """Rewrite notes written by an older vaultd in the current layout.

    Quotes, hashes, ids, LLM notes and your own text stay as they are; a note is written
    only when it reads back the same and verify finds nothing new in it. Exits 1 when a
    note could not be upgraded (it is left untouched).

    \b
    Examples:
      vaultd notes upgrade
      vaultd notes upgrade --json
    """
    # lazy: vaultd.pipeline.notes_upgrade costs 212 ms at import (pulls in yaml, apsw, sqlite3, subprocess)
    from vaultd.pipeline.notes_upgrade import upgrade_notes

    a = app(ctx)
    vault = a.vault()
    vault.require()
    with progress("notes", a.quiet) as report:
        result = upgrade_notes(vault, report)
    if as_json:
        emit_json({"upgraded": result.upgraded, "current": result.current,
                   "failed": [{"path": p, "why": why} for p, why in result.failed]})
    else:
        stderr.print(f"{len(result.upgraded)} notes upgraded, {result.current} already current"
                     + (f", {len(result.failed)} left as they were" if result.failed else ""))
        for path, why in result.failed:
            stderr.print(f"{path}: {why}")
    if result.failed:
        ctx.exit(1)
