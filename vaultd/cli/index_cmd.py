"""`vaultd index [--rebuild]`: bring the search index up to date with the vault."""

from __future__ import annotations

from dataclasses import asdict

import click

from vaultd.cli import main_group
from vaultd.cli.common import app, emit_json, json_option, progress


@main_group.command("index")
@click.option("--rebuild", is_flag=True, help="Build a new index from every note beside the old one, then swap it in.")
@json_option
@click.pass_context
def index_command(ctx: click.Context, rebuild: bool, as_json: bool) -> None:
    """Index paper notes and your own Markdown notes for `vaultd search` and MCP recall.

    Incremental: unchanged files are skipped, changed notes re-index only changed
    passages, deleted or renamed notes are dropped. Vectors come from the configured
    embedding provider (index.embedding_provider); without one, search is keyword-only.

    \b
    Examples:
      vaultd index
      vaultd index --rebuild --json
    """
    # lazy: vaultd.pipeline.index costs 155 ms at import (pulls in apsw)
    from vaultd.pipeline.index import index_vault

    a = app(ctx)
    vault = a.vault()
    settings = a.settings(vault)
    with progress("Indexing", a.quiet) as step:
        stats = index_vault(vault, settings, rebuild=rebuild, progress=step)
    if as_json:
        emit_json(asdict(stats))
        return
    click.echo(f"Indexed {stats.files} files ({stats.changed} changed, {stats.removed} removed): "
               f"+{stats.chunks_added} -{stats.chunks_removed} passages, {stats.chunks_total} "
               f"total; {stats.embedded} embedded ({stats.provider}) in {stats.seconds:.1f}s")
    for w in stats.warnings:
        click.echo(f"warning: {w}", err=True)
