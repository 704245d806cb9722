"""`vaultd library init|grant|revoke|publish|status|members`: the lab library, a PostgreSQL
+ pgvector database the lab's members publish their works to (docs/library.md).

Thin callers: ``lab`` owns the database, ``pipeline.publish`` what a vault publishes."""

from __future__ import annotations

import sys

import click
import psycopg

from vaultd import record_store
from vaultd.cli import main_group
from vaultd.cli.common import CITE_KEY, app, emit_json, json_option, progress
from vaultd.config import Settings
from vaultd.errors import InputError
from vaultd.lab import read as lab_read
from vaultd.lab.connect import connect, failed, open_library, where
from vaultd.lab.schema import DEFAULT_MODELS, migrate
from vaultd.pipeline import publish as pub
from vaultd.pipeline.library_status import status
from vaultd.pipeline.outbox import outbox
from vaultd.pipeline.publication import configured


@main_group.group("library")
def library_group() -> None:
    """The lab library: publish your works to a shared PostgreSQL, search and cite theirs."""


def _model(text: str) -> tuple[str, int]:
    name, _, dim = text.rpartition(":")
    if not name or not dim.isdigit() or not 1 <= int(dim) <= 4000:
        raise click.BadParameter(f"{text!r}: write PROVIDER:MODEL:DIMENSIONS, e.g. "
                                 "ollama:mxbai-embed-large:1024 (halfvec allows up to 4000)")
    return name, int(dim)


def _settings(ctx: click.Context) -> Settings:
    a = app(ctx)
    return a.settings(a.vault())


def _url(ctx: click.Context, url: str | None) -> str:
    return url or configured(_settings(ctx))


@library_group.command("init")
@click.argument("url")
@click.option("--model", "models", multiple=True, metavar="PROVIDER:MODEL:DIM",
              help="An embedding model to give a vector index (repeatable; default: "
                   "vaultd's two, ollama:nomic-embed-text:768 and "
                   "sentence-transformers:all-MiniLM-L6-v2:384).")
@json_option
def init_command(url: str, models: tuple[str, ...], as_json: bool) -> None:
    """Create (or upgrade) the library's schema at URL: the vector extension, the tables,
    row-level security by group. Run once by the lab's admin; idempotent.

    \b
    Example:
      PGPASSWORD=… vaultd library init postgresql://admin@db.lab.example/vaultd
    """
    wanted = [_model(m) for m in models] or list(DEFAULT_MODELS)
    conn = connect(url, autocommit=True)
    try:
        done = migrate(conn, where(url), wanted)
    finally:
        conn.close()
    if as_json:
        emit_json({"url": where(url), "done": done})
        return
    for line in done or ["already up to date"]:
        click.echo(f"{where(url)}: {line}")
    click.echo("next: `vaultd library grant MEMBER --url URL` for each member; each member "
               "sets [library] url in .vaultd/config.toml (no password there)")


def _password(stdin: bool) -> str:
    if stdin:
        text = sys.stdin.readline().rstrip("\n")
        if not text:
            raise InputError("no password on standard input: pipe one line with the "
                             "member's password")
        return text
    return str(click.prompt("Member's password", hide_input=True,
                            confirmation_prompt=True))


@library_group.command("grant")
@click.argument("member")
@click.option("--group", "-g", default=None, help="The group (default: [library] name).")
@click.option("--url", default=None, help="The library as its admin (default: [library] url).")
@click.option("--password-stdin", is_flag=True, help="Read a new member's password from stdin.")
@click.pass_context
def grant_command(ctx: click.Context, member: str, group: str | None, url: str | None,
                  password_stdin: bool) -> None:
    """Let MEMBER read and publish a group, creating their PostgreSQL role (asks its
    password) when it does not exist. Needs a role that may create roles."""
    target = _url(ctx, url)
    group = group or (_settings(ctx).library.name if url is None else "lab")
    conn = open_library(target)
    try:
        exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s",
                              (member,)).fetchone() is not None
        password = None if exists and not password_stdin else _password(password_stdin)
        try:
            created = lab_read.grant(conn, member, group, password)
        except psycopg.Error as exc:
            raise failed(exc, f"granting {group} to {member}") from exc
    finally:
        conn.close()
    click.echo(f"{member}: {'created, ' if created else ''}granted group {group}")


@library_group.command("revoke")
@click.argument("member")
@click.option("--group", "-g", default=None, help="The group (default: [library] name).")
@click.option("--url", default=None, help="The library as its admin (default: [library] url).")
@click.pass_context
def revoke_command(ctx: click.Context, member: str, group: str | None,
                   url: str | None) -> None:
    """Take a group from MEMBER (what they published stays in the library)."""
    target = _url(ctx, url)
    group = group or (_settings(ctx).library.name if url is None else "lab")
    conn = open_library(target)
    try:
        gone = lab_read.revoke(conn, member, group)
    finally:
        conn.close()
    if not gone:
        raise InputError(f"{member} was not granted group {group}")
    click.echo(f"{member}: group {group} revoked")


@library_group.command("publish")
@click.argument("cite_keys", nargs=-1, type=CITE_KEY)
@click.option("--all", "everything", is_flag=True, help="Every work of the vault.")
@json_option
@click.pass_context
def publish_command(ctx: click.Context, cite_keys: tuple[str, ...], everything: bool,
                    as_json: bool) -> None:
    """Publish works (and what waits in the outbox) to the library: record, verbatim
    chunks with their hashes and printed pages, vectors. Unchanged works are skipped.

    \b
    Examples:
      vaultd library publish --all
      vaultd library publish vaswani2017attention
    """
    if bool(cite_keys) == everything:
        raise click.UsageError("give cite keys or --all")
    a = app(ctx)
    vault = a.vault()
    settings = a.settings(vault)
    keys = ([m.cite_key for m in record_store.iter_records(vault)] if everything else
            [record_store.resolve(vault, k) or k for k in cite_keys])
    for key in keys:
        if not record_store.exists(vault, key):
            raise InputError(f"no record for cite key {key!r} in this vault: see "
                             "`vaultd search`")
    keys += [k for k, _, _ in outbox(vault) if k not in keys]
    with progress("publishing", a.quiet) as report:
        done = 0

        def step(key: str) -> None:
            nonlocal done
            done += 1
            report(done, len(keys))

        result = pub.publish_keys(vault, settings, keys, progress=step)
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo(f"{len(result.published)} published, {len(result.updated)} updated, "
                   f"{len(result.unchanged)} unchanged, {len(result.failed)} failed, "
                   f"{len(result.queued)} queued ({result.passages} passages, "
                   f"{result.vectors} vectors)")
        for key, why in result.failed:
            click.echo(f"failed: {key}: {why}", err=True)
        if result.queued:
            click.echo(f"queued: {result.queued[0][1]}", err=True)
    if result.failed or result.queued:
        ctx.exit(1)


@library_group.command("status")
@json_option
@click.pass_context
def status_command(ctx: click.Context, as_json: bool) -> None:
    """What this vault has published to the library and what is behind."""
    a = app(ctx)
    vault = a.vault()
    st = status(vault, a.settings(vault))
    if as_json:
        emit_json(st.to_json())
        return
    click.echo(f"library: {st.url} (group {st.group}, member {st.member})")
    click.echo(f"published: {st.published}; behind: {len(st.behind)}; never published: "
               f"{len(st.unpublished)}; queued: {len(st.queued)}; vectors waiting for the "
               f"index: {st.vectors_waiting}")
    for label, keys in (("behind", st.behind), ("never published", st.unpublished),
                        ("not in this vault any more", st.gone)):
        if keys:
            shown = ", ".join(keys[:10]) + (" …" if len(keys) > 10 else "")
            click.echo(f"{label}: {shown}")
    for key, attempts, error in st.queued:
        click.echo(f"queued: {key} ({attempts} attempt(s)): {error or ''}".rstrip(": "))
    if st.behind or st.unpublished or st.queued:
        click.echo("run `vaultd library publish --all` to bring the library up to date")


@library_group.command("index")
@click.option("--seconds", type=click.FloatRange(1), default=3600.0, show_default=True,
              help="Stop after this long (what is left is indexed later).")
@json_option
@click.pass_context
def index_command(ctx: click.Context, seconds: float, as_json: bool) -> None:
    """Move vectors waiting in the library into its HNSW index now (the agent's retry pass
    does it a minute at a time; until then they are searched exactly)."""
    a = app(ctx)
    settings = a.settings(a.vault())
    with progress("indexing vectors", a.quiet) as report:
        moved, waiting = pub.index_vectors(settings, seconds=seconds, progress=report)
    if as_json:
        emit_json({"indexed": moved, "waiting": waiting})
        return
    click.echo(f"{moved} vectors indexed; {waiting} waiting")


@library_group.command("members")
@json_option
@click.pass_context
def members_command(ctx: click.Context, as_json: bool) -> None:
    """The members of this vault's group: what each has published."""
    settings = _settings(ctx)
    conn = open_library(configured(settings))
    try:
        rows = lab_read.members(conn, settings.library.name)
    finally:
        conn.close()
    if as_json:
        emit_json([{"member": m.name, "groups": m.groups, "works": m.works,
                    "last_published": m.last_published} for m in rows])
        return
    if not rows:
        click.echo(f"no members in group {settings.library.name} yet")
    for m in rows:
        when = m.last_published.strftime("%Y-%m-%d %H:%M") if m.last_published else "never"
        click.echo(f"{m.name}\t{m.works} works\tlast published {when}\t"
                   f"groups: {', '.join(m.groups)}")
