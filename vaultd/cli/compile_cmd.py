"""`vaultd compile`: parse a captured PDF into its wiki note."""

from __future__ import annotations

import click

from vaultd.cli import main_group
from vaultd.cli.common import CITE_KEY, app, emit_json, json_option, progress, stderr


@main_group.command("compile")
@click.argument("cite_key", type=CITE_KEY)
@click.option(
    "--parser",
    type=click.Choice(["auto", "pymupdf", "marker", "pdftotext"]),
    default=None,
    help="Parser tier (default: the vault's parse.parser setting, normally auto = PyMuPDF).",
)
@json_option
@click.pass_context
def compile_command(ctx: click.Context, cite_key: str, parser: str | None, as_json: bool) -> None:
    """Parse raw/CITE_KEY.pdf and write wiki/CITE_KEY.md (verbatim, hashed chunks).

    Re-compiling keeps your own sections and the enrichment of unchanged chunks.

    \b
    Examples:
      vaultd compile vaswani2017attention
      vaultd compile vaswani2017attention --parser pdftotext --json
    """
    # lazy: vaultd.pipeline.compile costs 928 ms at import (pulls in yaml, rispy, sqlite3, subprocess)
    from vaultd.pipeline.compile import compile_note

    obj = app(ctx)
    vault = obj.vault()
    settings = obj.settings(vault)
    tier = parser or settings.parse.parser
    with progress(f"compile {cite_key}", obj.quiet) as on_page:
        result = compile_note(vault, settings, cite_key, parser=tier, progress=on_page)
    # lazy: vaultd.pipeline.index costs 92 ms at import (pulls in apsw)
    from vaultd.pipeline.index import index_after_compile

    result.warnings.extend(index_after_compile(vault, settings, [result.note_path]))
    # lazy: vaultd.enrich.pending costs 156 ms at import
    from vaultd.enrich.pending import pending_hint

    # Compiling never waits for the LLM: say what fills the pending chunks instead.
    pending = result.pending
    hint = pending_hint(settings, {result.cite_key: pending})
    if as_json:
        emit_json({
            "cite_key": result.cite_key,
            "note": vault.rel(result.note_path),
            "parser": result.parser,
            "pages": result.pages,
            "chunks": result.chunks,
            "enrichment_pending": pending,
            "warnings": result.warnings,
        })
    else:
        for warning in result.warnings:
            stderr.print(f"[yellow]warning:[/] {warning}")
        used = result.parser or "none (metadata only)"
        click.echo(f"{vault.rel(result.note_path)}: {result.chunks} chunks from "
                   f"{result.pages} pages (parser: {used})")
    if hint and not obj.quiet:
        click.echo(hint, err=True)
