"""`vaultd verify`: re-hash every quote (and, with --source, re-check the source PDFs);
with --draft, check a manuscript's quotes and citations against the vault."""

from __future__ import annotations

from pathlib import Path

import click

from vaultd.cli import main_group
from vaultd.cli.common import CITE_KEY, app, emit_json, json_option, load_checked_settings
from vaultd.errors import VaultdError
from vaultd.index.store import open_index
from vaultd.models import Finding, VerifyReport
from vaultd.vault import Vault
from vaultd.verify import verify_notes


def _line(f: Finding) -> str:
    if f.kind == "DRIFT":
        line = f"DRIFT: {f.cite_key} chunk {f.chunk_id} expected {f.expected} actual {f.actual}"
        if f.fix:  # the changed words, and the source's words to restore
            changed = f.message.partition("recorded hash: ")[2].rpartition("; restore")[0]
            line += f"\n  changed: {changed}\n  restore: “{f.fix}”"
        return line
    return f"{f.kind}: {f.message}"


@main_group.command("verify")
@click.argument("cite_key", required=False, type=CITE_KEY)
@click.option("--source", "check_source", is_flag=True,
              help="Also re-extract from the PDFs: report STALE quotes and PDF CHANGED sources.")
@click.option("--draft", "drafts", multiple=True, type=click.Path(path_type=Path),
              help="Check a draft (.tex, .md, .qmd, or a folder of them) against the vault; "
                   "repeat for several.")
@click.option("--all", "show_all", is_flag=True, help="With --draft: list the OK quotes too.")
@click.option("--library", "against_library", is_flag=True,
              help="Check what the lab library holds of your works against your notes.")
@click.option("--fix", is_flag=True,
              help="With --draft: rewrite misquoted quotes to the source's words and add "
                   "provenance comments to checked quotes (a .bak copy is written first).")
@json_option
@click.pass_context
def verify_command(ctx: click.Context, cite_key: str | None, check_source: bool,
                   drafts: tuple[Path, ...], show_all: bool, against_library: bool, fix: bool,
                   as_json: bool) -> None:
    """Check that every quote in wiki/ still matches its recorded SHA-256.

    Re-wrapping a quote is fine; changing any character is DRIFT. Exit 0 when clean,
    1 on any drift or problem. With --draft, check a manuscript instead: every quote
    against the work it cites, pages, provenance comments and references (exit 1 when
    any finding is not OK).

    \b
    Examples:
      vaultd verify
      vaultd verify vaswani2017attention --source
      vaultd verify --json
      vaultd verify --draft paper.tex
      vaultd verify --draft chapters/ --draft notes.md --json
      vaultd verify --draft paper.tex --fix
      vaultd verify --library
    """
    vault = app(ctx).vault()
    if vault.exists():  # a broken config fails here too, with its one line, not later

        load_checked_settings(vault.config_path)
    if drafts:
        if cite_key or check_source:
            raise click.UsageError("--draft checks a manuscript; give it without CITE_KEY or --source")
        _verify_drafts(vault, list(drafts), as_json, show_all, fix)
        return
    if fix:
        raise click.UsageError("--fix works with --draft")
    if against_library:
        from vaultd.pipeline.verify_library import verify_library  # lazy: psycopg

        report = verify_library(vault, app(ctx).settings(vault), cite_key)
    else:
        report = verify_notes(vault, cite_key)
    if check_source:
        # Lazy: source checks load the PDF stack, which plain verify never needs.
        # lazy: vaultd.pipeline.verify_source costs 157 ms at import (pulls in rapidfuzz, plistlib)
        from vaultd.pipeline.verify_source import verify_sources

        extra: VerifyReport = verify_sources(vault, cite_key)
        # Both passes read the notes; a note broken for one is broken for the other.
        seen = {(f.kind, f.path, f.chunk_id) for f in report.findings}
        report.findings.extend(f for f in extra.findings if (f.kind, f.path, f.chunk_id) not in seen)
    drifts = sum(1 for f in report.findings if f.kind == "DRIFT")
    others = len(report.findings) - drifts
    if as_json:
        emit_json({"ok": report.ok, "drifts": drifts, **report.model_dump(mode="json")})
    else:
        for finding in report.findings:
            click.echo(_line(finding))
        click.echo(f"Verified {report.chunks} chunks, {drifts} drift(s) detected.")
        if others:
            click.echo(f"{others} other problem(s) found (see above).")
    if not report.ok:
        # SystemExit, not ctx.exit: run_command drops the code click returns for ctx.exit
        # under standalone_mode=False, and drift must exit 1.
        raise SystemExit(1)


def _verify_drafts(vault: Vault, paths: list[Path], as_json: bool, show_all: bool,
                   fix: bool) -> None:
    # lazy: vaultd.verify.draft costs 201 ms at import (pulls in plistlib)
    from vaultd.verify.draft import check_drafts

    db = None
    if vault.index_db.is_file():  # finds a quote's real source faster; not needed
        try:
            db = open_index(vault.index_db, load_vec=False)
        except VaultdError:
            db = None
    try:
        report = check_drafts(vault, paths, index_db=db)
        if fix and report.edits:
            # lazy: vaultd.verify.draft costs 201 ms at import (pulls in plistlib)
            from vaultd.verify.draft import apply_fixes

            rewritten = sum(1 for e in report.edits if e.end > e.start)
            for path, backup in apply_fixes(report):
                click.echo(f"fixed {path} (the original is in {backup.name})", err=True)
            click.echo(f"{rewritten} quote(s) rewritten to the source's words, "
                       f"{len(report.edits) - rewritten} provenance comment(s) added; "
                       "checking again", err=True)
            report = check_drafts(vault, paths, index_db=db)
    finally:
        if db is not None:
            db.close()
    if as_json:
        emit_json(report.to_json())
    else:
        for f in report.findings:
            if show_all or f.kind != "OK":
                click.echo(f.line_text())
        click.echo(report.summary())
    if not report.ok:
        raise SystemExit(1)
