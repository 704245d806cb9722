from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path


def _run_probe(tmp_path: Path, env_extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    test = tmp_path / "test_probe.py"
    test.write_text(textwrap.dedent("""
        def test_uses_fixtures(fixtures_dir):
            assert fixtures_dir.is_dir()
    """))
    conftest = Path(__file__).with_name("conftest.py")
    (tmp_path / "conftest.py").write_text(conftest.read_text())
    import os
    env = {k: v for k, v in os.environ.items() if not k.startswith("VAULTD_")}
    env.update(env_extra)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test)],
                          capture_output=True, text=True, env=env, cwd=tmp_path)


def test_missing_fixtures_skip_with_a_reason(tmp_path: Path) -> None:
    proc = _run_probe(tmp_path, {"VAULTD_TEST_FIXTURES": str(tmp_path / "nowhere")})
    assert proc.returncode == 0 and "1 skipped" in proc.stdout


def test_missing_fixtures_fail_when_required(tmp_path: Path) -> None:
    proc = _run_probe(tmp_path, {"VAULTD_TEST_FIXTURES": str(tmp_path / "nowhere"),
                                 "VAULTD_REQUIRE_FIXTURES": "1"})
    assert proc.returncode == 1 and "requires them" in proc.stdout
