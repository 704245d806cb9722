"""`vaultd meta`: show a record's fields with their sources, and correct them."""

from __future__ import annotations

from typing import Any

import click

from vaultd.cli import main_group
from vaultd.cli.common import CITE_KEY, UsageLineError, app, emit_json, json_option, stderr
from vaultd.errors import FieldValueError

_VALUE_CHARS = 60  # a longer value (an abstract) is cut in the table, never in --json


@main_group.command("meta")
@click.argument("cite_key", type=CITE_KEY)
@click.option("--set", "sets", multiple=True, metavar="FIELD=VALUE",
              help="Enter a field's value (repeat --set author=… for each author, in order).")
@click.option("--unset", "unsets", multiple=True, metavar="FIELD",
              help="Return a field you entered to what the sources give.")
@click.option("--edit", is_flag=True, help="Edit the fields in $EDITOR (YAML), checked on save.")
@json_option
@click.pass_context
def meta_command(ctx: click.Context, cite_key: str, sets: tuple[str, ...],
                 unsets: tuple[str, ...], edit: bool, as_json: bool) -> None:
    """Show the record of CITE_KEY: every field with its source(s) and, for title,
    author and year, whether two sources agree. With --set, --unset or --edit, correct
    it: your values are "entered by you", win over every source, survive a refresh and
    a recompile, and the note, its citations and library.bib follow.

    \b
    Fields: title, author, year, type, container-title, editor, volume, issue, page,
    number, publisher, publisher-place, edition, genre, event, collection-title,
    collection-number, doi, arxiv, isbn, issn, url, language, abstract.

    \b
    Examples:
      vaultd meta smith2020scanned
      vaultd meta smith2020scanned --set title="A Survey of Scans" \\
          --set author="Smith, Jane" --set author="Doe, John" --set year=2019 --set type=report
      vaultd meta smith2020scanned --unset year
      vaultd meta smith2020scanned --edit
      vaultd meta smith2020scanned --json
    """
    # lazy: vaultd.capture.user costs 150 ms at import (pulls in plistlib)
    from vaultd.capture.user import NAMES, parse_sets, parse_unsets

    # lazy: vaultd.lookup costs 233 ms at import (pulls in apsw, sqlite3, subprocess)
    from vaultd.lookup import load_meta

    # lazy: vaultd.pipeline.record_edit costs 221 ms at import (pulls in sqlite3, logging)
    from vaultd.pipeline.record_edit import set_fields

    if edit and (sets or unsets):
        raise click.UsageError("give --edit or --set/--unset, not both")
    a = app(ctx)
    vault = a.vault()
    meta = load_meta(vault, cite_key)
    try:
        values = parse_sets(sets)
        unset = parse_unsets(unsets)
        if edit:
            values = _edited(meta)
    except FieldValueError as exc:
        raise UsageLineError(str(exc)) from exc
    both = sorted(NAMES[f] for f in set(values) & set(unset))
    if both:
        raise UsageLineError(f"{both[0]}: given to --set and --unset; give it to one")
    changed: list[str] = []
    if values or unset:
        not_yours = [NAMES[f] for f in unset if f not in meta.user]
        if not_yours and not a.quiet:
            stderr.print(f"{cite_key}: {', '.join(not_yours)} not entered by you; left as "
                         "the sources give", markup=False, soft_wrap=True)
        result = set_fields(vault, a.settings(vault), cite_key, values, unset)
        meta, changed = result.meta, result.changed
        if not a.quiet:
            for line in _report(cite_key, result):
                stderr.print(line, markup=False, soft_wrap=True)
    _show(meta, changed, as_json)


def _edited(meta: Any) -> dict[str, Any]:
    """The fields changed in $EDITOR; FieldValueError (nothing written) when the saved
    text cannot be read."""
    # lazy: vaultd.capture.record_view costs 319 ms at import (pulls in yaml, rapidfuzz, plistlib)
    from vaultd.capture.record_view import edit_text, read_edit

    text = click.edit(edit_text(meta), extension=".yaml", require_save=True)
    return {} if text is None else read_edit(text, meta)


def _report(cite_key: str, result: Any) -> list[str]:
    if not result.changed:
        return [f"{cite_key}: nothing changed"]
    where = [w for w, done in (("the note", result.note), ("library.bib", result.library_bib))
             if done]
    lines = [f"{cite_key}: {', '.join(result.changed)} changed"
             + (f"; {' and '.join(where)} updated" if where else "")]
    return lines + [f"warning: {w}" for w in result.warnings]


def _show(meta: Any, changed: list[str], as_json: bool) -> None:
    # lazy: vaultd.capture.record_view costs 319 ms at import (pulls in yaml, rapidfuzz, plistlib)
    from vaultd.capture.record_view import field_rows

    # lazy: vaultd.capture.user costs 150 ms at import (pulls in plistlib)
    from vaultd.capture.user import entered_names

    # lazy: vaultd.trust costs 142 ms at import
    from vaultd.trust import record_labels, record_verified

    rows = field_rows(meta)
    labels = record_labels(meta, entered_names(meta))
    if as_json:
        emit_json({"cite_key": meta.cite_key, "verified": record_verified(meta),
                   "reconciled": meta.reconciled, "labels": labels, "changed": changed,
                   "sources": meta.sources, "warnings": meta.warnings,
                   "fields": [r.to_json() for r in rows]})
        return
    click.echo(f"{meta.cite_key}: " + ("; ".join(labels) if labels else
                                       "verified (two sources agree)"))
    width = max(len(r.name) for r in rows)
    for r in rows:
        value = "; ".join(r.value) if isinstance(r.value, list) else \
            "—" if r.value is None else str(r.value)
        value = " ".join(value.split())
        if len(value) > _VALUE_CHARS:
            value = value[: _VALUE_CHARS - 1] + "…"
        if r.entered is not None:
            where = f"entered by you ({r.entered.origin})"
        else:
            where = ", ".join(r.sources) or "no source"
            if r.agreement in ("agreed", "disagree", "unconfirmed"):
                where += f"; {r.agreement}"
        click.echo(f"  {r.name.ljust(width)}  {value}  [{where}]")
    for warning in meta.warnings:
        click.echo(f"  warning: {warning}")
