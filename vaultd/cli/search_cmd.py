"""`vaultd search QUERY`: the CLI twin of MCP recall."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from vaultd.cli import main_group
from vaultd.cli.common import app, emit_json, json_option
from vaultd.errors import VaultdError, VaultError
from vaultd.index.embed import make_embedder

if TYPE_CHECKING:
    from vaultd.config import Settings
    from vaultd.lab.search import LibraryFilters


@main_group.command("search")
@click.argument("query")
@click.option("--limit", "-n", type=click.IntRange(1, 20), default=5, show_default=True)
@click.option("--key", "cite_key", help="Only this paper (cite key).")
@click.option("--author", help="Author name contains this text.")
@click.option("--year-min", type=int, help="Published in or after this year.")
@click.option("--year-max", type=int, help="Published in or before this year.")
@click.option("--kind", type=click.Choice(["paper", "note"]), help="Papers or your own notes.")
@click.option("--type", "chunk_type",
              type=click.Choice(["paragraph", "list", "figure", "table", "equation", "code", "reference",
                                 "heading", "front", "page", "footnote"]),
              help="Only passages of this type (e.g. reference: bibliography entries).")
@click.option("--keywords-only", is_flag=True, help="Skip the embedding provider (BM25 only).")
@click.option("--no-recency", is_flag=True,
              help="Do not boost recently edited notes of your own (pure relevance order).")
@click.option("--library", "in_library", is_flag=True,
              help="Search the lab library (every member's published works) instead.")
@json_option
@click.pass_context
def search_command(ctx: click.Context, query: str, limit: int, cite_key: str | None,
                   author: str | None, year_min: int | None, year_max: int | None,
                   kind: str | None, chunk_type: str | None, keywords_only: bool, no_recency: bool,
                   in_library: bool, as_json: bool) -> None:
    """Search papers and your notes (keywords + vectors, fused).

    \b
    Examples:
      vaultd search "scaled dot-product attention"
      vaultd search "why layer norm" --kind paper --year-min 2017 --json
      vaultd search "Attention is all you need" --type reference

    Passages of the paper's prose, figures, tables and your own notes rank above
    headings, reference entries and short fragments that match as well, unless the
    query reads like a reference or --type asks for one kind.
    """
    # lazy: vaultd.index.search costs 197 ms at import (pulls in apsw, logging)
    from vaultd.index.search import Filters

    # lazy: vaultd.index.store costs 5 ms at import (pulls in apsw)
    from vaultd.index.store import open_index

    # lazy: vaultd.lookup.recall costs 289 ms at import (pulls in apsw, sqlite3, subprocess)
    from vaultd.lookup.recall import recall

    a = app(ctx)
    vault = a.vault()
    settings = a.settings(vault)
    if in_library:
        from vaultd.lab.search import LibraryFilters  # lazy: psycopg only for --library

        _search_library(settings, query, limit, keywords_only, as_json, LibraryFilters(
            cite_key=cite_key, author=author, year_min=year_min, year_max=year_max,
            chunk_type=chunk_type, kind=kind))
        return
    if not vault.index_db.is_file():
        raise VaultError(f"no search index in {vault.root}; run `vaultd index` first")
    db = open_index(vault.index_db)
    embedder = None if keywords_only else make_embedder(
        settings.index.embedding_provider, settings.index.embedding_model,
        ollama_host=settings.enrich.ollama_host)
    filters = Filters(cite_key=cite_key, author=author, year_min=year_min, year_max=year_max,
                      kind=kind, chunk_type=chunk_type,
                      recency_half_life_days=None if no_recency
                      else settings.index.recency_half_life_days or None)
    try:
        found = recall(vault, db, query, limit=limit, filters=filters, embedder=embedder,
                       rescore=settings.index.rescore)
    finally:
        db.close()
    if found.warning:
        click.echo(f"warning: {found.warning}", err=True)
    hits = found.hits
    rows = found.rows
    if as_json:
        emit_json({"query": query, "hits": rows})
        return
    if not hits:
        click.echo("No matches.")
    for i, (h, row) in enumerate(zip(hits, rows, strict=True), 1):
        if h.kind == "paper":
            where = f"{h.cite_key} {h.locator or ''} {h.chunk_id}"
        else:
            where = f"{h.path}:{h.line_start or ''} {h.section or ''}".strip()
        click.echo(f"{i}. [{where}] {h.title or ''}")
        click.echo(f"   {h.excerpt}")
        click.echo(f"   {row['link']}")


def _search_library(settings: Settings, query: str, limit: int, keywords_only: bool,
                    as_json: bool, filters: LibraryFilters) -> None:
    """`vaultd search --library`: the lab library's passages, each with its publishers."""
    # lazy: vaultd.lab.connect costs 561 ms at import (psycopg, asyncio); only --library needs it
    from vaultd.lab.connect import open_library

    # lazy: vaultd.lookup.library costs 615 ms at import (psycopg, sqlite3); only --library needs it
    from vaultd.lookup import library

    # lazy: vaultd.pipeline.publish costs 1084 ms at import (psycopg, sqlite3); only --library needs it
    from vaultd.pipeline.publication import configured

    embedder = None if keywords_only else make_embedder(
        settings.index.embedding_provider, settings.index.embedding_model,
        ollama_host=settings.enrich.ollama_host)
    qvec, model = None, None
    if embedder is not None:
        try:
            qvec = embedder.embed_query(query)
            model = f"{getattr(embedder, 'provider', '')}:{getattr(embedder, 'model', '')}"
        except VaultdError as exc:
            if not exc.transient:
                raise
            click.echo(f"warning: keyword search only: {exc}", err=True)
    conn = open_library(configured(settings))
    try:
        hits = library.recall(conn, settings.library.name, query, limit=limit,
                              filters=filters, qvec=qvec, model=model)
    finally:
        conn.close()
    rows = [library.hit_json(h) for h in hits]
    if as_json:
        emit_json({"query": query, "library": settings.library.name, "hits": rows})
        return
    if not hits:
        click.echo("No matches.")
    for i, (h, row) in enumerate(zip(hits, rows, strict=True), 1):
        click.echo(f"{i}. [{h.cite_key} {row.get('locator', '')} {h.chunk_id}] {h.title or ''}")
        click.echo(f"   {row['excerpt']}")
        click.echo(f"   published by {', '.join(h.members)}")
