"""The lazily loaded CLI: `vaultd --help` lists every command without importing them."""

from __future__ import annotations

import subprocess
import sys

import click

from vaultd.cli import COMMANDS, load_all_commands, main_group


def test_the_command_table_matches_the_commands_the_modules_register() -> None:
    load_all_commands()
    assert set(main_group.commands) == set(COMMANDS)
    for name, (module, short) in COMMANDS.items():
        command = main_group.commands[name]
        assert command.callback is not None and command.callback.__module__ == module, name
        real = command.get_short_help_str(200)
        assert click.Command(name, help=short).get_short_help_str(200) == real, name


def test_help_lists_every_command_and_imports_none_of_their_modules() -> None:
    code = ("import sys\nfrom vaultd.cli import main_group, run_command\n"
            "sys.argv = ['vaultd', '--help']\nrc = run_command(main_group)\n"
            "loaded = sorted(m for m in sys.modules if m.endswith('_cmd') or m in "
            "('pymupdf', 'mcp', 'watchdog', 'ollama'))\nprint('LOADED', loaded)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True).stdout
    for name in COMMANDS:
        assert f"  {name} " in out
    assert "LOADED []" in out
