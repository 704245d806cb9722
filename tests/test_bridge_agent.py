"""Captures through the bridge of a running agent become notes the normal Inbox way."""

from __future__ import annotations

import base64
import socket
from pathlib import Path

import httpx

from tests.test_daemon_support import agent, sample_bytes, settled, wait_for
from vaultd import secrets
from vaultd.vault import Vault


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_pdf_and_a_web_page_sent_to_the_agent_become_a_note_and_a_web_source(
        vault: Vault, tmp_path: Path) -> None:
    port = free_port()
    token = secrets.bridge_token(vault)
    base = f"http://127.0.0.1:{port}"
    auth = {"Authorization": f"Bearer {token}"}
    pdf = sample_bytes(tmp_path)
    pdf_url = "https://library.example/fulltext?id=77"
    with agent(vault, env={"VAULTD_BRIDGE_ENABLED": "true", "VAULTD_BRIDGE_PORT": str(port)}) as a:
        status = httpx.get(f"{base}/status", headers=auth, timeout=5).json()
        assert status["agent"] is True
        r = httpx.post(f"{base}/capture", headers=auth, timeout=10, json={
            "url": pdf_url, "title": "Sample", "kind": "pdf",
            "pdf_base64": base64.b64encode(pdf).decode()})
        assert r.status_code == 202
        r = httpx.post(f"{base}/capture", headers=auth, timeout=10, json={
            "url": "https://blog.example/post", "title": "A post", "html": "<p>Hi</p>"})
        assert r.status_code == 202
        wait_for(lambda: settled(vault, 2), 60, "both captures to be processed")
        found = httpx.get(f"{base}/lookup", params={"url": pdf_url}, headers=auth, timeout=5).json()
        assert a.stop() == 0
    assert found["found"], found
    assert (vault.root / found["note"]).is_file()
    assert [p.suffix for p in sorted((vault.raw / "web").iterdir())] == [".html", ".json"]
    assert not [p for p in vault.inbox.iterdir() if p.is_file()]


def test_the_agent_runs_on_when_the_bridge_port_is_taken(vault: Vault) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with agent(vault, env={"VAULTD_BRIDGE_ENABLED": "true",
                               "VAULTD_BRIDGE_PORT": str(port)}) as a:
            wait_for(lambda: "browser bridge not started" in a.stderr(), 10, "the warning")
            assert a.proc.poll() is None
            assert a.stop() == 0
    assert "cannot listen on 127.0.0.1:" in a.stderr()
