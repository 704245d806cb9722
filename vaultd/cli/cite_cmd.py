"""`vaultd cite`, `vaultd quote`, `vaultd bib`: the CLI twins of the MCP tools."""

from __future__ import annotations

from typing import Any

import click

from vaultd.cli import main_group
from vaultd.cli.common import CITE_KEY, UsageLineError, app, emit_json, json_option
from vaultd.errors import CitationError, InputError, LocatorError

_FORMAT_HELP = ("apa, mla, chicago, ieee (or any style in [citations] styles, any installed "
                "CSL style by name), bibtex, csl-json; any case")


def _renderer(ctx: click.Context) -> Any:
    # lazy: vaultd.pipeline.citations costs 219 ms at import (pulls in sqlite3, subprocess)
    from vaultd.pipeline.citations import renderer_for

    a = app(ctx)
    vault = a.vault()
    return renderer_for(vault, a.settings(vault))


def _library_citation(ctx: click.Context, cite_key: str, style: str,
                      page: str | None) -> tuple[Any, dict[str, Any]]:
    from vaultd.formats.locators import check_locator  # lazy: only for --library

    # lazy: vaultd.lab.connect costs 561 ms at import (psycopg, asyncio); only --library needs it
    from vaultd.lab.connect import open_library

    # lazy: vaultd.lookup.library costs 615 ms at import (psycopg, sqlite3); only --library needs it
    from vaultd.lookup import library

    # lazy: vaultd.pipeline.publish costs 1084 ms at import (psycopg, sqlite3); only --library needs it
    from vaultd.pipeline.publication import configured

    a = app(ctx)
    settings = a.settings(a.vault())
    conn = open_library(configured(settings))
    try:
        if page is not None:
            page = check_locator(page, None, cite_key)
        return library.citation(conn, settings.library.name, cite_key, style,
                                renderer=_renderer(ctx), page=page)
    finally:
        conn.close()


#: Exit status of `cite`/`bib --strict` when a work cited is unverified or retracted.
STRICT_EXIT = 3
_STRICT_HELP = ("Exit 3 (instead of 0) when a work cited is unverified or retracted; the "
                "citation is still printed.")


def _warn(labels: list[str], cite_key: str) -> None:
    # lazy: vaultd.trust costs 63 ms at import
    from vaultd.trust import ENTERED

    for label in labels:
        kind = "note" if label.startswith(ENTERED) else "warning"
        click.echo(f"{kind}: {cite_key}: {label}", err=True)


def _strict_exit(ctx: click.Context, strict: bool, citations: list[Any]) -> None:
    if strict and any(not c.verified or c.retracted for c in citations):
        ctx.exit(STRICT_EXIT)


@main_group.command("cite")
@click.argument("cite_key", type=CITE_KEY)
@click.option("--format", "-f", "style", default="apa", show_default=True, help=_FORMAT_HELP)
@click.option("--page", "-p", default=None,
              help="Print the in-text citation pointing at PAGE: a page (4, xii, e123, S12), "
                   "a range (4-5) or a list (4, 7-9), within the work's pages.")
@click.option("--time", "-t", "at", default=None,
              help="A video: print the in-text citation pointing at TIME (3:15, 1:02:03, 195).")
@click.option("--intext", is_flag=True, help="Print the in-text citation: (Vaswani et al., 2017).")
@click.option("--markdown", is_flag=True, help="The entry as the note shows it (*italics*).")
@click.option("--strict", is_flag=True, help=_STRICT_HELP)
@click.option("--library", "from_library", is_flag=True,
              help="Cite the work from the lab library (a member's key for it).")
@json_option
@click.pass_context
def cite_command(ctx: click.Context, cite_key: str, style: str, page: str | None,
                 at: str | None, intext: bool, markdown: bool, strict: bool,
                 from_library: bool, as_json: bool) -> None:
    """Print the citation of CITE_KEY.

    Unverified or retracted works are named on stderr (and in --json: verified, labels);
    with --strict they exit 3. Fields you entered (`vaultd meta`) are named as yours.

    \b
    Examples:
      vaultd cite vaswani2017attention --format apa
      vaultd cite vaswani2017attention -f MLA --page 4   # (Vaswani et al. 4)
      vaultd cite vaswani2017attention --page 4-5        # (Vaswani et al., 2017, pp. 4–5)
      vaultd cite 3blue1brown2017what --time 3:15        # (3Blue1Brown, 2017, 3:15)
      vaultd cite vaswani2017attention -f nature          # any installed CSL style
      vaultd cite vaswani2017attention -f bibtex
      vaultd cite vaswani2017attention -f csl-json        # CSL-JSON for pandoc/Zotero
      vaultd cite smith2020deep --library                 # a lab member's work
    """
    # lazy: vaultd.lookup costs 182 ms at import (pulls in apsw, sqlite3, subprocess)
    from vaultd.lookup import citation

    if page and at:
        raise click.UsageError("give --page or --time, not both")
    extra: dict[str, Any] = {}
    try:
        if from_library:
            if at:
                raise click.UsageError("--time is for videos in this vault, not --library")
            c, extra = _library_citation(ctx, cite_key, style, page)
        else:
            c = citation(app(ctx).vault(), cite_key, style, renderer=_renderer(ctx),
                         page=page, time=at)
    except LocatorError as exc:
        raise UsageLineError(str(exc)) from exc
    if as_json:
        emit_json({**c.to_json(), **extra})
        _strict_exit(ctx, strict, [c])
        return
    _warn(c.labels, cite_key)
    if extra:
        click.echo(f"note: {cite_key}: from the lab library, published by "
                   f"{', '.join(extra['published_by'])}", err=True)
    if (page or at or intext) and c.intext is not None:
        click.echo(c.intext)
    elif markdown or c.plain is None:
        click.echo(c.text.rstrip("\n"))
    else:
        click.echo(c.plain)
    _strict_exit(ctx, strict, [c])


@main_group.command("quote")
@click.argument("cite_key", type=CITE_KEY)
@click.argument("chunk_id")
@click.option("--library", "from_library", is_flag=True,
              help="Quote the chunk from the lab library (re-hashed on arrival).")
@json_option
@click.pass_context
def quote_command(ctx: click.Context, cite_key: str, chunk_id: str, from_library: bool,
                  as_json: bool) -> None:
    """Print the verbatim, hash-checked text of one chunk with its page.

    \b
    Examples:
      vaultd quote vaswani2017attention p4s32c1
      vaultd quote smith2020deep p3s2c4 --library
    """
    # lazy: vaultd.lookup costs 182 ms at import (pulls in apsw, sqlite3, subprocess)
    from vaultd.lookup import quote

    a = app(ctx)
    settings = a.settings(a.vault())  # a bad config fails here, as for every command
    try:
        citer = _renderer(ctx)
    except CitationError:  # no citation processor: the verbatim text is still served
        citer = None
    if from_library:
        from vaultd.lab.connect import open_library  # lazy: psycopg only for --library

        # lazy: vaultd.lookup.library costs 615 ms at import (psycopg, sqlite3); only --library needs it
        from vaultd.lookup import library

        # lazy: vaultd.pipeline.publish costs 1084 ms at import (psycopg, sqlite3); only --library needs it
        from vaultd.pipeline.publication import configured

        conn = open_library(configured(settings))
        try:
            data = library.quote(conn, settings.library.name, cite_key, chunk_id,
                                 renderer=citer)
        finally:
            conn.close()
    else:
        data = quote(app(ctx).vault(), cite_key, chunk_id, renderer=citer)
    if as_json:
        emit_json(data)
        return
    click.echo(f"\u201c{data['text']}\u201d")
    click.echo(f"— {cite_key}, {data['locator']} ({chunk_id}, sha256 {data['text_sha256'][:12]})")
    if data.get("library"):
        click.echo(f"  from the lab library, published by {', '.join(data['published_by'])}")


@main_group.command("bib")
@click.argument("cite_keys", nargs=-1, required=True, type=CITE_KEY)
@click.option("--format", "-f", "style", default="bibtex", show_default=True, help=_FORMAT_HELP)
@click.option("--markdown", is_flag=True, help="Style entries as the note shows them.")
@click.option("--strict", is_flag=True, help=_STRICT_HELP)
@json_option
@click.pass_context
def bib_command(ctx: click.Context, cite_keys: tuple[str, ...], style: str, markdown: bool,
                strict: bool, as_json: bool) -> None:
    """Print many citations at once (BibTeX by default); exit 1 if a key is unknown, and
    with --strict 3 if a work is unverified or retracted.

    \b
    Examples:
      vaultd bib vaswani2017attention devlin2019bert > refs.bib
      vaultd bib -f csl-json vaswani2017attention devlin2019bert > refs.json
      vaultd bib -f apa vaswani2017attention devlin2019bert
    """
    # lazy: vaultd.lookup costs 182 ms at import (pulls in apsw, sqlite3, subprocess)
    from vaultd.lookup import bibliography_of

    bib = bibliography_of(app(ctx).vault(), cite_keys, style, renderer=_renderer(ctx))
    if as_json:
        emit_json({"format": bib.format, "text": bib.text, "unknown": bib.unknown,
                   "citations": [c.to_json() for c in bib.citations]})
    else:
        for c in bib.citations:
            _warn(c.labels, c.cite_key)
        if bib.citations and bib.citations[0].plain is not None and not markdown:
            click.echo("\n\n".join(c.plain or "" for c in bib.citations))
        else:
            click.echo(bib.text, nl=False)
    if bib.unknown:
        keys = ", ".join(u["cite_key"] for u in bib.unknown)
        reasons = "; ".join(u["reason"] for u in bib.unknown if "reason" in u)
        raise InputError(f"no citation for: {keys}; " + (reasons or "unknown cite key(s): see "
                         "`vaultd search` for the keys"))
    _strict_exit(ctx, strict, bib.citations)
