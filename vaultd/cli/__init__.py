"""The `vaultd` command: a thin layer over the library (one module per command group).

Data goes to stdout (``--json`` on every command that reports), progress and logs to
stderr. Exit codes: 0 success, 1 failure or drift, 2 usage, 130/143 on SIGINT/SIGTERM.
"""

from __future__ import annotations

import importlib
import sys

import click

from vaultd import __version__
from vaultd.cli.common import AppContext, run_command

# Command → (module that registers it on `main_group`, its one-line help). Modules are
# imported only when their command runs, so `vaultd mcp` does not pay for the PDF, daemon
# and LLM stacks, and `vaultd --help` imports none of them. tests/test_cli_lazy.py checks
# this table against the real commands. Add new commands here.
COMMANDS: dict[str, tuple[str, str]] = {
    "bib": ("vaultd.cli.cite_cmd",
            "Print many citations at once (BibTeX by default); exit 1 if a key is unknown, "
            "and with --strict 3 if a work is unverified or retracted."),
    "bridge": ("vaultd.cli.bridge_cmd",
               "The browser extension's bridge on 127.0.0.1 (docs/bridge.md)."),
    "capture": ("vaultd.cli.capture_cmd",
                "Capture INPUT: a PDF, an arXiv id/URL, a DOI, a PDF URL, a .url/.webloc/.txt/.md "
                "link file, or a .bib, .ris, CSL-JSON or Better BibTeX JSON file."),
    "cite": ("vaultd.cli.cite_cmd", "Print the citation of CITE_KEY."),
    "compile": ("vaultd.cli.compile_cmd",
                "Parse raw/CITE_KEY.pdf and write wiki/CITE_KEY.md (verbatim, hashed chunks)."),
    "demo": ("vaultd.cli.demo_cmd",
             "Create a demo vault, start the agent, drop a generated paper into its Inbox/, and "
             "show the note it becomes plus one search hit."),
    "enrich": ("vaultd.cli.enrich_cmd",
               "Add the local LLM's paraphrase and implication to each content chunk of a note."),
    "import": ("vaultd.cli.import_cmd", "Bring a library in: Zotero itself, or a Better BibTeX JSON, CSL-JSON or RIS file."),
    "index": ("vaultd.cli.index_cmd",
              "Index paper notes and your own Markdown notes for `vaultd search` and MCP recall."),
    "init": ("vaultd.cli.init_cmd",
             "Create a vault in DIRECTORY (default: --vault, else the current directory)."),
    "library": ("vaultd.cli.library_cmd",
                "The lab library: publish your works to a shared PostgreSQL, search and cite theirs."),
    "mcp": ("vaultd.cli.mcp_cmd",
            "Run the MCP server for agents (cite, recall, quote, bibliography, verify, status)."),
    "meta": ("vaultd.cli.meta_cmd",
             "Show the record of CITE_KEY: every field with its source(s) and, for title, "
             "author and year, whether two sources agree."),
    "notes": ("vaultd.cli.notes_cmd", "Paper notes as a whole: move them to the current layout."),
    "quote": ("vaultd.cli.cite_cmd",
              "Print the verbatim, hash-checked text of one chunk with its page."),
    "rules": ("vaultd.cli.rules_cmd",
              "Inbox rules: user rules in .vaultd/rules/*.toml, then the shipped defaults."),
    "run": ("vaultd.cli.run_cmd",
            "Watch the vault's Inbox/ and turn what lands there into compiled, indexed notes."),
    "search": ("vaultd.cli.search_cmd", "Search papers and your notes (keywords + vectors, fused)."),
    "service": ("vaultd.cli.service_cmd",
                "Install the agent as a login service (launchd on macOS, systemd --user on Linux)."),
    "styles": ("vaultd.cli.styles_cmd",
               "Citation styles: the configured ones, every installed one, or re-render notes."),
    "status": ("vaultd.cli.status_cmd",
               "Show the agent's state: service, queue counts, failures, last verify, providers."),
    "verify": ("vaultd.cli.verify_cmd",
               "Check that every quote in wiki/ still matches its recorded SHA-256."),
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use (see ``COMMANDS``)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.commands) | set(COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            importlib.import_module(COMMANDS[cmd_name][0])
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            if name in self.commands:
                short = self.commands[name].get_short_help_str(limit)
            else:
                # Truncated exactly as click would, without importing the module.
                short = click.Command(name, help=COMMANDS[name][1]).get_short_help_str(limit)
            rows.append((name, short))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def load_all_commands() -> None:
    """Import every command module (for tools that inspect the whole CLI)."""
    for module, _ in COMMANDS.values():
        importlib.import_module(module)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="vaultd")
@click.option(
    "--vault",
    "vault_dir",
    type=click.Path(file_okay=False),
    envvar="VAULTD_VAULT",
    help="Vault directory (else $VAULTD_VAULT, else the vault given to `vaultd init`).",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress output on stderr.")
@click.pass_context
def main_group(ctx: click.Context, vault_dir: str | None, quiet: bool) -> None:
    """vaultd: a research vault whose citations are never wrong.

    \b
    Examples:
      vaultd init ~/Research
      vaultd capture https://arxiv.org/abs/1706.03762
      vaultd search "scaled dot-product attention"
      vaultd verify --json
    """
    ctx.obj = AppContext(vault_dir=vault_dir, quiet=quiet)


def main() -> None:
    sys.exit(run_command(main_group))
