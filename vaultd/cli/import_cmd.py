"""`vaultd import zotero|file … --dry-run`: what a library would bring, listed (docs/import.md).

Reading only: the pipeline that turns these items into notes is not wired to this command
yet, so ``--dry-run`` is required and nothing is written anywhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from vaultd.cli import main_group
from vaultd.cli.common import UsageLineError, emit_json, json_option
from vaultd.importers import ImportedItem, ImportResult, default_data_dir, read_library_file
from vaultd.importers import read_zotero as read_zotero_library

_NOT_WIRED = ("importing into the vault is not wired yet; add --dry-run to list what would "
              "be imported")


@main_group.group("import")
def import_group() -> None:
    """Bring a library in: Zotero itself, or a Better BibTeX JSON, CSL-JSON or RIS file."""


def _item_json(item: ImportedItem) -> dict[str, Any]:
    return {
        "key": item.key, "key_source": item.key_source, "aliases": list(item.aliases),
        "title": item.work.title, "type": item.work.type, "year": item.work.year,
        "doi": item.work.doi, "library": item.origin.library, "item_key": item.origin.item_key,
        "tags": list(item.tags),
        "pdfs": [str(a.path) for a in item.pdfs],
        "missing": [str(a.path) for a in item.attachments if a.missing and a.path],
        "notes": len(item.notes), "annotations": len(item.annotations),
        "warnings": list(item.warnings),
    }


def _report(result: ImportResult, as_json: bool) -> None:
    if as_json:
        emit_json({"source": result.source, "libraries": result.libraries,
                   "items": [_item_json(i) for i in result.items],
                   "problems": [{"item": p.item, "reason": p.reason, "skipped": p.skipped}
                                for p in result.problems],
                   "skipped": result.skipped,
                   "orphans": [str(a.path) for a in result.orphans if a.path]})
        return
    for item in result.items:
        year = f" ({item.work.year})" if item.work.year else ""
        parts = [f"{len(item.pdfs)} PDF"]
        if item.notes:
            parts.append(f"{len(item.notes)} notes")
        if item.annotations:
            parts.append(f"{len(item.annotations)} highlights")
        key = f"@{item.key}" if item.key else "(no key)"
        click.echo(f"{key}\t{item.work.title or 'untitled'}{year}\t{', '.join(parts)}")
    for problem in result.problems:
        click.echo(str(problem), err=True)
    skipped = sum(result.skipped.values()) + sum(p.skipped for p in result.problems)
    click.echo(f"{len(result.items)} items would be imported, {skipped} skipped "
               f"({result.source})", err=True)


@import_group.command("zotero")
@click.argument("data_dir", required=False, type=click.Path(path_type=Path))
@click.option("--library", "library", help="Only this library ('My Library' or a group's name).")
@click.option("--attachments-base", type=click.Path(path_type=Path, file_okay=False),
              help="Zotero's linked attachment base directory (for relative linked files).")
@click.option("--dry-run", is_flag=True, help="List what would be imported; write nothing.")
@json_option
def zotero_command(data_dir: Path | None, library: str | None, attachments_base: Path | None,
                   dry_run: bool, as_json: bool) -> None:
    """Read Zotero's data folder (default ~/Zotero) without writing to it.

    \b
    Examples:
      vaultd import zotero --dry-run
      vaultd import zotero ~/Zotero --library "Lab group" --dry-run --json
    """
    if not dry_run:
        raise UsageLineError(_NOT_WIRED)
    result = read_zotero_library(data_dir or default_data_dir(), library=library,
                                 attachments_base=attachments_base)
    _report(result, as_json)


@import_group.command("file")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--dry-run", is_flag=True, help="List what would be imported; write nothing.")
@json_option
def file_command(paths: tuple[Path, ...], dry_run: bool, as_json: bool) -> None:
    """Read Better BibTeX JSON, CSL-JSON (.json) or RIS (.ris) files.

    \b
    Examples:
      vaultd import file library.json --dry-run
      vaultd import file refs.ris --dry-run --json
    """
    if not dry_run:
        raise UsageLineError(_NOT_WIRED)
    for path in paths:
        _report(read_library_file(path), as_json)
