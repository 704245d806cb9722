"""`vaultd enrich`: advisory paraphrase / implication per chunk from the local LLM."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import click

from vaultd.cli import main_group
from vaultd.cli.common import CITE_KEY, app, emit_json, json_option


def _progress_printer(label: str, quiet: bool) -> Callable[[int, int], None]:
    """Chunks done / total and rate on stderr (one rewritten line on a terminal)."""
    started = time.monotonic()
    tty = sys.stderr.isatty()

    def show(done: int, total: int) -> None:
        if quiet or total == 0:
            return
        elapsed = max(time.monotonic() - started, 1e-6)
        rate = done / elapsed
        line = f"{label}: {done}/{total} chunks ({rate:.1f} chunks/s)"
        if tty:
            click.echo("\r" + line + ("\n" if done >= total else ""), err=True, nl=False)
        else:
            click.echo(line, err=True)

    return show


@main_group.command("enrich")
@click.argument("cite_key", required=False, type=CITE_KEY)
@click.option("--force", is_flag=True, help="Ask the LLM again even for enriched or cached chunks.")
@click.option("--pending", "pending", is_flag=True, help="Fill pending chunks of every note.")
@json_option
@click.pass_context
def enrich_command(
    ctx: click.Context, cite_key: str | None, force: bool, pending: bool, as_json: bool
) -> None:
    """Add the local LLM's paraphrase and implication to each content chunk of a note.

    LLM text is advisory: quotes are never touched, and the key sentence is an index
    into the quote's own sentences. When Ollama is down or the model is missing, chunks
    stay `pending` and one line says what to run; `--pending` fills them later.

    \b
    Examples:
      vaultd enrich vaswani2017attention
      vaultd enrich vaswani2017attention --force --json
      vaultd enrich --pending
    """
    # lazy: vaultd.pipeline.enrich costs 275 ms at import (pulls in asyncio, sqlite3)
    from vaultd.pipeline.enrich import enrich_note, enrich_pending

    if bool(cite_key) == pending:
        raise click.UsageError("give either CITE_KEY or --pending (not both)")
    if pending and force:
        raise click.UsageError("--force applies to one CITE_KEY, not --pending")
    a = app(ctx)
    vault = a.vault()
    settings = a.settings(vault)
    quiet = a.quiet or as_json
    if cite_key:
        results = [
            enrich_note(
                vault, settings, cite_key, force=force, progress=_progress_printer(cite_key, quiet)
            )
        ]
    else:
        results = enrich_pending(vault, settings, progress=_progress_printer("pending", quiet))
    hint = next((r.hint for r in results if r.hint), None)
    if as_json:
        emit_json({"results": [r.to_json() for r in results], "hint": hint})
    else:
        if not results:
            click.echo("No notes with pending chunks.")
        for r in results:
            click.echo(
                f"{r.cite_key}: {r.enriched} enriched, {r.cached} from cache, "
                f"{r.already} already done, {r.pending} pending, {r.skipped} skipped "
                f"({r.requests} LLM requests, {r.seconds:.1f}s)"
            )
            for cid, reason in sorted(r.reasons.items()):
                click.echo(f"  {cid}: pending: {reason}")
    if hint:
        click.echo(f"Error: {hint}", err=True)
    if any(not r.ok for r in results):
        ctx.exit(1)
