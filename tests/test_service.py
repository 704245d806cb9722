from __future__ import annotations

import plistlib
from pathlib import Path

from click.testing import CliRunner

from vaultd.cli import main_group
from vaultd.daemon import service
from vaultd.vault import Vault


def test_launchd_plist_runs_vaultd_for_the_vault_at_load_and_keeps_it_alive(
        vault: Vault, tmp_path: Path) -> None:
    exe = tmp_path / "bin" / "vaultd"
    p = service.plan(vault, home=tmp_path / "home", vaultd=exe, platform="launchd", uid=501)
    assert p.path == tmp_path / "home" / "Library" / "LaunchAgents" / "org.vaultd.agent.plist"
    data = plistlib.loads(p.content.encode("utf-8"))
    assert data["Label"] == "org.vaultd.agent"
    # --quiet: only warnings, errors and tracebacks reach the (unrotated) stderr log;
    # the full log goes to the rotating .vaultd/logs/vaultd.log.
    assert data["ProgramArguments"] == [str(exe), "--vault", str(vault.root), "--quiet", "run"]
    assert data["RunAtLoad"] is True and data["KeepAlive"] is True
    path = data["EnvironmentVariables"]["PATH"].split(":")
    assert path[0] == str(exe.parent)
    assert "/opt/homebrew/bin" in path and "/usr/local/bin" in path
    assert data["StandardErrorPath"].startswith(str(vault.logs_dir))
    assert p.install_commands[-1] == ["launchctl", "bootstrap", "gui/501", str(p.path)]


def test_plist_stays_valid_xml_for_a_vault_path_with_special_characters(tmp_path: Path) -> None:
    v = Vault(tmp_path / "R&D <notes>")
    p = service.plan(v, home=tmp_path, vaultd=Path("/usr/local/bin/vaultd"), platform="launchd")
    assert plistlib.loads(p.content.encode())["ProgramArguments"][2] == str(v.root)


def test_systemd_unit_starts_vaultd_run_and_restarts_it(vault: Vault, tmp_path: Path,
                                                        monkeypatch: object) -> None:
    exe = Path("/opt/venv/bin/vaultd")
    p = service.plan(vault, home=tmp_path, vaultd=exe, platform="systemd")
    assert p.path.name == "vaultd.service" and p.path.parent.name == "user"
    lines = p.content.splitlines()
    assert f'ExecStart="{exe}" --vault "{vault.root}" --quiet run' in lines
    assert "Restart=always" in lines and "WantedBy=default.target" in lines
    assert any(line.startswith('Environment="PATH=/opt/venv/bin:/opt/homebrew/bin')
               for line in lines)
    assert f"WorkingDirectory={vault.root}" in lines
    assert f'Environment="VAULTD_VAULT={vault.root}"' in lines
    assert ["systemctl", "--user", "enable", "--now", "vaultd.service"] in p.install_commands


def test_install_dry_run_writes_nothing(vault: Vault, tmp_path: Path) -> None:
    p = service.plan(vault, home=tmp_path, vaultd=Path("/x/vaultd"), platform="launchd", uid=1)
    cmds = service.install(p, vault, dry_run=True)
    assert not p.path.exists()
    assert cmds[-1] == f"launchctl bootstrap gui/1 {p.path}"


def test_service_install_cli_dry_run_prints_the_unit(vault: Vault) -> None:
    result = CliRunner().invoke(main_group, ["--vault", str(vault.root), "service", "install",
                                             "--dry-run", "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    import json

    data = json.loads(result.output)
    assert data["dry_run"] is True
    assert str(vault.root) in data["content"]
    assert not Path(data["file"]).exists()


def test_service_status_reports_not_installed_in_a_fresh_home(vault: Vault) -> None:
    result = CliRunner().invoke(main_group, ["--vault", str(vault.root), "service", "status",
                                             "--dry-run", "--json"], catch_exceptions=False)
    assert result.exit_code == 0
    assert '"installed": false' in result.output
