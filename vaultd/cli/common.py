"""Shared CLI plumbing: the app context, --json output, error mapping, progress."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console

from vaultd.citekey import compile_pattern, key_problem
from vaultd.config import Settings, load_settings
from vaultd.errors import VaultdError, disk_error
from vaultd.vault import VAULT_ENV, Vault, resolve_vault

F = TypeVar("F", bound=Callable[..., Any])

stderr = Console(stderr=True, highlight=False)


@dataclass
class AppContext:
    vault_dir: str | None
    quiet: bool = False
    _settings: Settings | None = None
    _told: bool = False

    def vault(self) -> Vault:
        vault = resolve_vault(self.vault_dir).require()
        if not (self._told or self.quiet or self.vault_dir or os.environ.get(VAULT_ENV)):
            # The default vault was chosen for the user: say which, once, on stderr.
            self._told = True
            click.echo(f"Vault: {vault.root} (the default)", err=True)
        return vault

    def settings(self, vault: Vault | None = None) -> Settings:
        if self._settings is None:
            v = vault or self.vault()
            self._settings = load_checked_settings(v.config_path)
        return self._settings


def _check_citekey_pattern(pattern: object) -> None:
    compile_pattern(str(pattern))


def _check_styles(config_path: Path | None) -> Callable[[object], None]:
    def check(styles: object) -> None:
        # lazy: vaultd.formats.styles costs 336 ms at import (pulls in sqlite3, subprocess)
        from vaultd.formats.styles import resolve_all

        base = config_path.parent.parent if config_path is not None else None  # the vault
        resolve_all([str(s) for s in styles] if isinstance(styles, list) else [], base)

    return check


def load_checked_settings(
    config_path: Path | None, overrides: Mapping[str, Mapping[str, Any]] | None = None
) -> Settings:
    """``load_settings`` plus the checks ``config`` cannot make itself (it may not import
    the cite-key compiler): a malformed ``citekey.pattern`` fails here, at load, with one
    line naming the file or variable, the key and the position, not later at capture."""
    return load_settings(
        config_path, overrides=overrides,
        checks={("citekey", "pattern"): _check_citekey_pattern,
                ("citations", "styles"): _check_styles(config_path)},
    )


def app(ctx: click.Context) -> AppContext:
    obj = ctx.find_root().obj
    assert isinstance(obj, AppContext)
    return obj


def json_option(fn: F) -> F:
    """The one --json flag every reporting command carries."""
    return click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")(fn)


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


@contextmanager
def progress(label: str, quiet: bool) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on stderr; yields ``report(done, total)``, the callback the pipeline
    functions take (pages of a PDF, files of the vault). Silent with --quiet or no TTY."""
    if quiet or not sys.stderr.isatty():

        def silent(done: int, total: int) -> None:
            return None

        yield silent
        return
    # loaded only for a bar on a terminal: 8 ms of every command's start otherwise
    # lazy: rich costs 81 ms at import
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=stderr,
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=None)  # unknown until the first report

        def report(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield report


def _on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(143)


class CiteKeyType(click.ParamType[str]):
    """A cite key on the command line, kept exactly as typed: checked against the key
    grammar (``citekey.key_problem``) before any file is looked up. Its file name is
    ``citekey.key_to_filename``'s, so ``../x`` never names a path outside the vault."""

    name = "cite_key"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value)
        problem = key_problem(text)
        if problem is not None:
            self.fail(f"{text!r} is not a cite key ({problem}); "
                      "`vaultd search` lists the vault's papers", param, ctx)
        return text


CITE_KEY = CiteKeyType()


class UsageLineError(click.ClickException):
    """A usage error found after the arguments were parsed (a page the work does not
    have): one ``Error:`` line and exit 2, without click's usage block."""

    exit_code = 2


def run_command(group: click.Group) -> int:
    """Run the CLI, mapping expected failures to one `Error:` line and exit code 1."""
    signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        rv = group.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        return 130
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except VaultdError as exc:
        click.echo(f"Error: {exc}", err=True)
        return 1
    except OSError as exc:  # a read-only or full disk: one line naming the path and cause
        found = disk_error(exc)
        if found is None:
            raise
        click.echo(f"Error: {found}", err=True)
        return 1
    # standalone_mode=False: `ctx.exit(n)` comes back as the return value
    return rv if isinstance(rv, int) else 0
