"""Test isolation and the one way tests reach ../shared/fixtures."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from vaultd.config import default_config_toml
from vaultd.vault import Vault

# Property tests judge what the code does, not how fast this machine is: no per-example
# deadline and no "input generation is slow" failure when the machine is loaded (the
# suite runs on every core at once).
settings.register_profile("vaultd", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("vaultd")

FIXTURES_ENV = "VAULTD_TEST_FIXTURES"
REQUIRE_ENV = "VAULTD_REQUIRE_FIXTURES"
_PROXY_VARS = {"http_proxy", "https_proxy", "all_proxy", "no_proxy", "ftp_proxy"}
_DEFAULT_FIXTURES = Path(__file__).resolve().parents[1].parent / "shared" / "fixtures"


def _fixtures_root() -> Path:
    return Path(os.environ.get(FIXTURES_ENV) or _DEFAULT_FIXTURES)


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    """Real recorded data (../shared/fixtures, or $VAULTD_TEST_FIXTURES).

    Absent: the test skips with the reason, unless VAULTD_REQUIRE_FIXTURES=1 (CI), where
    a missing fixture directory is a failure.
    """
    root = _fixtures_root()
    if not (root / "SOURCES.md").is_file():
        reason = f"shared fixtures not found at {root} (set {FIXTURES_ENV})"
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(reason + f"; {REQUIRE_ENV}=1 requires them")
        pytest.skip(reason)
    return root


@pytest.fixture(autouse=True)
def _isolated(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test gets a clean environment: no VAULTD_*/OLLAMA_* from the developer's
    shell, a private user-config dir, and no network defaults that could be reached."""
    keep = {FIXTURES_ENV, REQUIRE_ENV}
    for var in list(os.environ):
        if (var.startswith("VAULTD_") or var.startswith("OLLAMA_")) and var not in keep:
            monkeypatch.delenv(var)
        # The user's proxy would route the tests' loopback servers through it; tests of
        # proxy handling set their own.
        if var.lower() in _PROXY_VARS:
            monkeypatch.delenv(var)
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("HOME", str(home))
    # Each test's machine state (state.db, index, logs, secrets) in its own directory.
    monkeypatch.setenv("VAULTD_STATE_DIR", str(home / "state"))
    # Anything that forgets to take a base URL from the test hits a closed port, not the web.
    dead = "http://127.0.0.1:9"
    for var in ("VAULTD_ARXIV_API_URL", "VAULTD_ARXIV_PDF_URL", "VAULTD_CROSSREF_URL",
                "VAULTD_OPENALEX_URL", "VAULTD_UNPAYWALL_URL"):
        monkeypatch.setenv(var, dead)
    monkeypatch.setenv("OLLAMA_HOST", dead)
    monkeypatch.setenv("VAULTD_VIDEO_PROXY", dead)
    # Test servers live on 127.0.0.1, which capture refuses for PDF links by default.
    monkeypatch.setenv("VAULTD_CAPTURE_ALLOW_PRIVATE_ADDRESSES", "true")  # yt-dlp never reaches YouTube from a test
    # Agents started by tests do not open the browser bridge on the shared port 7600;
    # bridge tests start their own on a free port.
    monkeypatch.setenv("VAULTD_BRIDGE_ENABLED", "false")
    monkeypatch.setenv("VAULTD_MCP_ENABLED", "false")
    # One machine per test vault: no sync delay to wait out before taking the Inbox lease
    # (the two-machine test sets its own).
    monkeypatch.setenv("VAULTD_DAEMON_INBOX_LEASE_SETTLE_SECONDS", "0")
    yield


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    """A freshly initialised, empty vault."""
    v = Vault(tmp_path / "vault")
    v.init(default_config_toml())
    return v
