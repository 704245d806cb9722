"""The default vault stays the first one (or the one `vaultd init --default` names), and a
command that relies on it says which vault it uses."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from vaultd.cli import main_group


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main_group, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_a_second_init_does_not_move_the_default_vault(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    assert _run("init", str(first))[0] == 0
    code, out, _ = _run("init", str(second))
    assert code == 0
    assert out.splitlines()[-1] == (f"The default vault stays {first}; "
                                    f"`vaultd init --default {second}` makes this one the default")
    code, out, err = _run("status", "--no-probe", "--json")
    assert code == 0 and f'"vault": "{first}"' in out
    assert err.splitlines() == [f"Vault: {first} (the default)"]


def test_init_default_makes_the_new_vault_the_default(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    _run("init", str(first))
    code, out, _ = _run("init", "--default", str(second))
    assert code == 0 and out.splitlines()[-1] == f"Default vault: {second}"
    _, out, err = _run("status", "--no-probe", "--json")
    assert f'"vault": "{second}"' in out and err.splitlines() == [f"Vault: {second} (the default)"]


def test_a_command_given_its_vault_prints_no_vault_line(tmp_path: Path) -> None:
    _run("init", str(tmp_path / "v"))
    _, _, err = _run("--vault", str(tmp_path / "v"), "status", "--no-probe", "--json")
    assert "Vault:" not in err
