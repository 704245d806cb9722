"""`vaultd cite`, `vaultd quote`, `vaultd bib`: the CLI twins of the MCP tools."""

from __future__ import annotations

import click

from vaultd.cli import main_group
from vaultd.cli.common import app, emit_json, json_option
from vaultd.errors import InputError

_FORMATS = click.Choice(["apa", "mla", "chicago", "ieee", "bibtex", "csl-json"])


@main_group.command("cite")
@click.argument("cite_key")
@click.option("--format", "-f", "style", type=_FORMATS, default="apa", show_default=True)
@json_option
@click.pass_context
def cite_command(ctx: click.Context, cite_key: str, style: str, as_json: bool) -> None:
    """Print the citation of CITE_KEY.

    \b
    Examples:
      vaultd cite vaswani2017attention --format apa
      vaultd cite vaswani2017attention -f bibtex
      vaultd cite vaswani2017attention -f csl-json   # CSL-JSON for pandoc/Zotero
    """
    from vaultd.index.lookup import cite

    text = cite(app(ctx).vault(), cite_key, style)
    if as_json:
        emit_json({"cite_key": cite_key, "format": style, "text": text})
    else:
        click.echo(text.rstrip("\n"))


@main_group.command("quote")
@click.argument("cite_key")
@click.argument("chunk_id")
@json_option
@click.pass_context
def quote_command(ctx: click.Context, cite_key: str, chunk_id: str, as_json: bool) -> None:
    """Print the verbatim, hash-checked text of one chunk with its page.

    \b
    Example:
      vaultd quote vaswani2017attention p4s32c1
    """
    from vaultd.index.lookup import quote

    data = quote(app(ctx).vault(), cite_key, chunk_id)
    if as_json:
        emit_json(data)
        return
    click.echo(f"\u201c{data['text']}\u201d")
    click.echo(f"— {cite_key}, {data['locator']} ({chunk_id}, sha256 {data['text_sha256'][:12]})")


@main_group.command("bib")
@click.argument("cite_keys", nargs=-1, required=True)
@click.option("--format", "-f", "style", type=_FORMATS, default="bibtex", show_default=True)
@json_option
@click.pass_context
def bib_command(ctx: click.Context, cite_keys: tuple[str, ...], style: str,
                as_json: bool) -> None:
    """Print many citations at once (BibTeX by default); exit 1 if a key is unknown.

    \b
    Example:
      vaultd bib vaswani2017attention devlin2019bert > refs.bib
      vaultd bib -f csl-json vaswani2017attention devlin2019bert > refs.json
    """
    from vaultd.index.lookup import bibliography

    text, unknown = bibliography(app(ctx).vault(), cite_keys, style)
    if as_json:
        emit_json({"format": style, "text": text, "unknown": unknown})
    else:
        click.echo(text, nl=False)
    if unknown:
        keys = ", ".join(u["cite_key"] for u in unknown)
        reasons = "; ".join(u["reason"] for u in unknown if "reason" in u)
        raise InputError(f"no citation for: {keys}; " + (reasons or "unknown cite key(s): see "
                         "`vaultd search` for the keys"))
