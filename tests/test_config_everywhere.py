"""A broken config fails every command at load with one line: encoding, bad values,
unknown keys (verify included)."""

from __future__ import annotations

import pytest

from vaultd.cli import main_group
from vaultd.cli.common import run_command
from vaultd.vault import Vault


def run(vault: Vault, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        *args: str) -> tuple[int, str]:
    monkeypatch.setattr("sys.argv", ["vaultd", "--vault", str(vault.root), *args])
    code = run_command(main_group)
    return code, capsys.readouterr().err


@pytest.mark.parametrize("command", [["status", "--no-probe"], ["verify"], ["run"]])
def test_a_utf16_config_is_one_line_naming_the_file(
        vault: Vault, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        command: list[str]) -> None:
    vault.config_path.write_text('[daemon]\nverify_at = "04:00"\n', encoding="utf-16")
    code, err = run(vault, monkeypatch, capsys, *command)
    assert code == 1
    assert err == f"Error: {vault.config_path}: not UTF-8 text (byte 0); save it as UTF-8 (TOML files must be)\n"


@pytest.mark.parametrize("value", ["25:99", "24:00", "3:00", "12:60"])
def test_an_impossible_verify_time_fails_status_and_run_alike(
        vault: Vault, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        value: str) -> None:
    vault.config_path.write_text(f'[daemon]\nverify_at = "{value}"\n', encoding="utf-8")
    for command in (["status", "--no-probe"], ["run"]):
        code, err = run(vault, monkeypatch, capsys, *command)
        assert code == 1 and err.count("\n") == 1 and "daemon.verify_at" in err, err


def test_verify_reads_the_config_and_names_an_unknown_key(
        vault: Vault, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    vault.config_path.write_text("[daemon]\nverify_att = \"03:00\"\n", encoding="utf-8")
    code, err = run(vault, monkeypatch, capsys, "verify")
    assert code == 1 and "verify_att" in err and err.count("\n") == 1


@pytest.mark.parametrize("command", [["compile", "a b"], ["verify", "x,y"],
                                     ["cite", "{x}"], ["enrich", "a\\b"]])
def test_a_cite_key_on_the_command_line_is_checked_before_any_path_is_built(
        vault: Vault, command: list[str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.argv", ["vaultd", "--vault", str(vault.root), *command])
    code = run_command(main_group)
    err = capsys.readouterr().err
    assert code == 2 and "is not a cite key" in err and "Traceback" not in err
