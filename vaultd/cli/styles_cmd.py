"""`vaultd styles`: which CSL styles citations use, which are installed, and re-rendering
every note's citations after the styles (or the locale) changed."""

from __future__ import annotations

import time

import click

from vaultd.cli import main_group
from vaultd.cli.common import app, emit_json, json_option, progress, stderr


@main_group.group("styles", invoke_without_command=True)
@click.option("--all", "show_all", is_flag=True, help="List every installed official style.")
@json_option
@click.pass_context
def styles_group(ctx: click.Context, show_all: bool, as_json: bool) -> None:
    """Citation styles: the configured ones, every installed one, or re-render notes.

    Configure them in .vaultd/config.toml, e.g. `[citations] styles = ["apa", "nature",
    "styles/lab.csl"]`, then run `vaultd styles refresh`.

    \b
    Examples:
      vaultd styles                 # the styles notes, cite and MCP use
      vaultd styles --all | grep -i harvard
      vaultd styles refresh         # re-render every note's citations
    """
    if ctx.invoked_subcommand is not None:
        return
    # lazy: vaultd.formats.styles costs 228 ms at import (pulls in sqlite3, subprocess)
    from vaultd.formats.styles import installed_names

    # lazy: vaultd.pipeline.citations costs 240 ms at import (pulls in sqlite3, subprocess)
    from vaultd.pipeline.citations import renderer_for

    a = app(ctx)
    vault = a.vault()
    if show_all:
        names = installed_names()
        if as_json:
            emit_json({"installed": names})
        else:
            click.echo("\n".join(names))
        return
    citer = renderer_for(vault, a.settings(vault), stored=False)
    rows = [{"name": s.name, "title": s.title, "heading": s.label, "path": str(s.path)}
            for s in citer.styles]
    if as_json:
        emit_json({"styles": rows, "lang": citer.lang})
        return
    for row in rows:
        click.echo(f"{row['name']:<10} {row['title']}  ({row['path']})")


@styles_group.command("refresh")
@json_option
@click.pass_context
def refresh_command(ctx: click.Context, as_json: bool) -> None:
    """Re-render the citations of every note in the configured styles (one batch)."""
    # lazy: vaultd.pipeline.citations costs 240 ms at import (pulls in sqlite3, subprocess)
    from vaultd.pipeline.citations import refresh_notes, renderer_for

    a = app(ctx)
    vault = a.vault()
    citer = renderer_for(vault, a.settings(vault))
    t0 = time.perf_counter()
    with progress("citations", a.quiet) as report:
        result = refresh_notes(vault, citer, report)
    seconds = round(time.perf_counter() - t0, 2)
    if as_json:
        emit_json({"works": result.works, "notes_updated": result.notes_updated,
                   "skipped": result.skipped, "seconds": seconds})
        return
    stderr.print(f"{result.works} works in {len(citer.styles)} styles, "
                 f"{result.notes_updated} notes updated in {seconds} s")
    for path in result.skipped:
        stderr.print(f"skipped {path} (unreadable record or no citations region)")
