"""`vaultd capture`: any input → raw/<key>.pdf + raw/<key>.meta.json, then compile."""

from __future__ import annotations

from typing import Any

import click

from vaultd.cli import main_group
from vaultd.cli.common import app, emit_json, json_option, stderr


def _result_json(res: Any, compiled: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "cite_key": res.cite_key,
        "status": res.status,
        "pdf": str(res.pdf) if res.pdf else None,
        "reconciled": res.meta.reconciled,
        "needs_retry": res.needs_retry,
        "warnings": res.warnings,
        "notes": res.notes,
        "meta": res.meta.model_dump(mode="json", by_alias=True),
        "compile": compiled,
    }


@main_group.command("capture")
@click.argument("input_text", metavar="[INPUT]", required=False)
@click.option("--doi", help="Use this DOI for the item (e.g. for a PDF printing none).")
@click.option("--cite-key", help="Cite key to use instead of the configured pattern.")
@click.option("--refresh", is_flag=True, help="Re-ask every source; the cite key is kept.")
@click.option("--no-compile", is_flag=True, help="Only capture; do not compile the note.")
@click.option("--retry-pending", is_flag=True,
              help="Instead of INPUT: ask the sources again for every PDF saved while they "
                   "were all down (needs_retry); keys are kept.")
@json_option
@click.pass_context
def capture_command(ctx: click.Context, input_text: str | None, doi: str | None,
                    cite_key: str | None, refresh: bool, no_compile: bool,
                    retry_pending: bool, as_json: bool) -> None:
    """Capture INPUT: a PDF, an arXiv id/URL, a DOI, a PDF URL, a .url/.webloc/.txt/.md
    link file, or a .bib, .ris, CSL-JSON or Better BibTeX JSON file. Prints the cite
    key(s). With --retry-pending instead of INPUT: ask the sources again for PDFs saved
    while they were all down.

    \b
    Examples:
      vaultd capture https://arxiv.org/abs/1706.03762
      vaultd capture 10.1073/pnas.1414271111 --json
      vaultd capture ~/Downloads/paper.pdf --doi 10.1186/s12984-016-0129-6
      vaultd capture library.bib --no-compile
      vaultd capture refs.ris
      vaultd capture --retry-pending
    """
    # lazy: asyncio costs 114 ms at import
    import asyncio

    # lazy: vaultd.pipeline.capture costs 1169 ms at import (pulls in httpx, yaml, asyncio, sqlite3)
    from vaultd.pipeline.capture import retry_pending as retry_all

    # lazy: vaultd.pipeline.ingest costs 27 ms at import (pulls in logging)
    from vaultd.pipeline.ingest import IngestResult, finish, process

    if retry_pending == (input_text is not None):
        raise click.UsageError("give INPUT or --retry-pending (not both)")
    if retry_pending and (doi or cite_key):
        raise click.UsageError("--doi and --cite-key need INPUT, not --retry-pending")
    a = app(ctx)
    vault = a.vault()
    settings = a.settings(vault)
    if input_text is None:
        retried = asyncio.run(retry_all(vault, settings))
        if not retried and not getattr(retried, "failed", None) and not a.quiet:
            stderr.print("no record is waiting for a retry", markup=False)
        out = finish(vault, settings,
                     IngestResult(captured=list(retried),
                                  failed=list(getattr(retried, "failed", []))),
                     refresh=True, compile=not no_compile, keep_going=True)
    else:
        def waiting(message: str) -> None:  # a slow or offline network is never silent
            stderr.print(message, markup=False, soft_wrap=True)

        out = process(vault, settings, input_text, doi=doi, cite_key=cite_key,
                      refresh=refresh, compile=not no_compile, keep_going=True,
                      on_wait=None if a.quiet else waiting)
    compiled = {k: _compile_json(c) for k, c in out.compiled.items()}
    for key, c in out.compiled.items():
        if c.error:
            stderr.print(f"Error: compile of {key} failed: {c.error}", markup=False)
    # Items of a link file or .bib that failed (the others were captured): one line each.
    for item, message in out.failed:
        stderr.print(f"Error: {item}: {message}", markup=False, soft_wrap=True)
    if as_json:
        emit_json([*(_result_json(r, compiled.get(r.cite_key)) for r in out.captured),
                   *({"cite_key": None, "status": "failed", "input": item, "error": message}
                     for item, message in out.failed)])
        _enrich_hint(settings, compiled, a.quiet)
        if out.failed:
            ctx.exit(1)
        return
    for res in out.captured:
        click.echo(res.cite_key)
        if not a.quiet:
            state = res.status + ("" if res.meta.reconciled else " (unreconciled)") \
                + (", will retry" if res.needs_retry else "")
            stderr.print(f"{res.cite_key}: {state}", markup=False, soft_wrap=True)
            for line in [*res.notes, *res.warnings]:
                stderr.print(f"  {line}", markup=False, soft_wrap=True)
    _enrich_hint(settings, compiled, a.quiet)
    if out.failed or any(c.error for c in out.compiled.values()):
        ctx.exit(1)


def _compile_json(c: Any) -> dict[str, Any] | None:
    """One work's compile as `--json` reports it (None: its note was kept as it was)."""
    if c.skipped:
        return None
    if c.error is not None:
        return {"error": c.error}
    r = c.result
    return {"note": str(r.note_path), "chunks": r.chunks, "pages": r.pages,
            "warnings": list(r.warnings), "enrichment_pending": r.pending}


def _enrich_hint(settings: Any, compiled: dict[str, dict[str, Any] | None], quiet: bool) -> None:
    """Compiling never waits for the LLM: one stderr line says what fills pending chunks."""
    # lazy: vaultd.enrich.pending costs 161 ms at import
    from vaultd.enrich.pending import pending_hint

    counts = {k: c["enrichment_pending"] for k, c in compiled.items()
              if c and "enrichment_pending" in c}
    hint = pending_hint(settings, counts)
    if hint and not quiet:
        click.echo(hint, err=True)
