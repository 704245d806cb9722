"""`vaultd import zotero|file`: bring a library into the vault (docs/import.md).

A thin caller: the importers read the library, ``pipeline.library_import`` writes the
records and PDFs and ``finish`` compiles and indexes the notes (PDFs in a pool of worker
processes). ``--dry-run`` lists what would change and writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import click

from vaultd.cli import main_group
from vaultd.cli.common import app, emit_json, json_option, progress
from vaultd.importers import ImportResult, default_data_dir, read_library_file
from vaultd.importers import read_zotero as read_zotero_library
from vaultd.pipeline.bulk import BulkCompiler
from vaultd.pipeline.library_import import ImportReport, ItemOutcome, import_library

_WORKERS_HELP = ("Processes compiling PDFs at once (default: one per core; 1: in this "
                 "process).")
_VERBS = {"imported": "new", "updated": "update", "unchanged": "same", "failed": "failed"}


@main_group.group("import")
def import_group() -> None:
    """Bring a library in: Zotero itself, or a Better BibTeX JSON, CSL-JSON or RIS file."""


def _line(o: ItemOutcome, dry_run: bool) -> str:
    what: list[str] = []
    if o.action == "imported":
        what.append("PDF" if o.pdf and not o.skipped else f"no quotes: {o.skipped}")
    else:
        what += ["fields: " + ", ".join(o.fields)] if o.fields else []
        what += ["PDF"] if "pdf" in o.other else []
        what += ["tags"] if "tags" in o.other else []
    if o.aliases and (o.action == "imported" or "aliases" in o.other):
        what.append("aliases: " + ", ".join(o.aliases))
    if o.notes_added:
        what.append(f"{o.notes_added} notes")
    if o.highlights and (o.action == "imported" or "highlights" in o.other):
        what.append(f"{o.highlights} highlights")
    verb = _VERBS[o.action] if dry_run else o.action
    return f"{verb}\t@{o.key}\t{o.title or 'untitled'}\t{'; '.join(what)}".rstrip("\t")


def _summary(r: ImportReport) -> str:
    skipped = r.skipped
    parts = [f"{r.count('imported')} {'to import' if r.dry_run else 'imported'}",
             f"{r.count('updated')} {'to update' if r.dry_run else 'updated'}",
             f"{r.count('unchanged')} unchanged"]
    if not r.dry_run:
        compiled = sum(o.compiled for o in r.outcomes)
        parts += [f"{r.count('failed')} failed",
                  f"{compiled} PDF{'' if compiled == 1 else 's'} compiled"]
    if r.orphans:
        parts.append(f"{r.orphans} PDF{'' if r.orphans == 1 else 's'} without an item "
                     + ("to capture" if r.dry_run else "captured"))
    if skipped:
        parts.append(f"skipped {sum(skipped.values())} ("
                     + ", ".join(f"{why} {n}" for why, n in skipped.items()) + ")")
    tail = "; nothing written (dry run)" if r.dry_run else ""
    return f"{r.source}: " + ", ".join(parts) + tail


def _run(ctx: click.Context, results: Sequence[Callable[[], ImportResult]], dry_run: bool,
         as_json: bool, workers: int | None) -> None:
    """Read and import each library in turn, with one pool of compile workers."""
    a = app(ctx)
    vault = a.vault()
    settings = a.settings(vault)
    pool = BulkCompiler(vault, settings, workers=workers) if workers != 1 else None
    reports: list[ImportReport] = []
    try:
        for read in results:
            result = read()
            with progress(f"Importing {Path(result.source).name}",
                          a.quiet or as_json) as report_progress:
                reports.append(import_library(vault, settings, result, dry_run=dry_run,
                                              pool=pool, progress=report_progress))
    finally:
        if pool is not None:
            pool.close()
    if as_json:
        data = [r.to_json() for r in reports]
        emit_json(data[0] if len(data) == 1 else data)
        return
    for report in reports:
        for o in report.outcomes:
            click.echo(_line(o, dry_run))
            for message in o.messages:
                click.echo(f"  {o.key}: {message}", err=True)
        for problem in report.problems:
            click.echo(problem, err=True)
        click.echo(_summary(report), err=True)


@import_group.command("zotero")
@click.argument("data_dir", required=False, type=click.Path(path_type=Path))
@click.option("--library", "library", help="Only this library ('My Library' or a group's name).")
@click.option("--attachments-base", type=click.Path(path_type=Path, file_okay=False),
              help="Zotero's linked attachment base directory (for relative linked files).")
@click.option("--dry-run", is_flag=True, help="List what would change; write nothing.")
@click.option("--workers", type=click.IntRange(min=1), default=None, help=_WORKERS_HELP)
@json_option
@click.pass_context
def zotero_command(ctx: click.Context, data_dir: Path | None, library: str | None,
                   attachments_base: Path | None, dry_run: bool, workers: int | None,
                   as_json: bool) -> None:
    """Import Zotero's libraries (default data folder ~/Zotero) without writing to it.

    Keys stay exactly as Better BibTeX or Zotero has them; PDFs are compiled, items
    without one get a citation-only note; child notes go under "My notes", collections
    become tags, highlights are shown under the quotes they mark. Running it again
    updates what changed and never overwrites what you wrote or entered.

    \b
    Examples:
      vaultd import zotero --dry-run
      vaultd import zotero
      vaultd import zotero ~/Zotero --library "Lab group" --json
    """
    folder = data_dir or default_data_dir()
    _run(ctx, [partial(read_zotero_library, folder, library=library,
                       attachments_base=attachments_base)], dry_run, as_json, workers)


@import_group.command("file")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--dry-run", is_flag=True, help="List what would change; write nothing.")
@click.option("--workers", type=click.IntRange(min=1), default=None, help=_WORKERS_HELP)
@json_option
@click.pass_context
def file_command(ctx: click.Context, paths: tuple[Path, ...], dry_run: bool,
                 workers: int | None, as_json: bool) -> None:
    """Import Better BibTeX JSON, CSL-JSON (.json) or RIS (.ris) files.

    \b
    Examples:
      vaultd import file library.json --dry-run
      vaultd import file refs.ris --json
    """
    _run(ctx, [partial(read_library_file, path) for path in paths], dry_run, as_json, workers)
