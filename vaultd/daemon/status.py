"""What `vaultd status` reports: service, queue, failures, last verify, providers."""

from __future__ import annotations

import contextlib
import fcntl
import importlib
import importlib.util
import shutil
from typing import Any

from vaultd.config import Settings
from vaultd.daemon.queue import JobQueue
from vaultd.statedb import open_state_db
from vaultd.vault import Vault

LOCK_NAME = "vaultd.lock"
PROBE_TIMEOUT_SECONDS = 0.5


def service_running(vault: Vault) -> dict[str, Any]:
    """Probe the single-instance lock without taking it over (a shared, non-blocking try)."""
    path = vault.state_dir / LOCK_NAME
    if not path.exists():
        return {"running": False}
    with path.open("r", encoding="utf-8") as fh:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = fh.read().strip()
            return {"running": True, "holder": holder or None}
        fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
    return {"running": False}


def _parser_tiers() -> dict[str, bool]:
    return {
        "pymupdf": importlib.util.find_spec("pymupdf") is not None,
        "marker": importlib.util.find_spec("marker") is not None,
        "pdftotext": shutil.which("pdftotext") is not None,
        "tesseract": shutil.which("tesseract") is not None,
    }


def _ollama(settings: Settings) -> dict[str, Any]:
    import httpx

    host = settings.enrich.ollama_host.rstrip("/")
    try:
        resp = httpx.get(f"{host}/api/tags", timeout=PROBE_TIMEOUT_SECONDS)
        resp.raise_for_status()
        models = [m.get("name") for m in resp.json().get("models", [])]
    except (httpx.HTTPError, ValueError) as exc:
        return {"host": host, "reachable": False, "error": type(exc).__name__}
    return {"host": host, "reachable": True, "model": settings.enrich.model,
            "model_present": any(str(m).startswith(settings.enrich.model) for m in models)}


def _index(vault: Vault) -> dict[str, Any]:
    try:
        index_status = importlib.import_module("vaultd.index.store").index_status
    except (ImportError, AttributeError):
        return {"available": False}
    try:
        return dict(index_status(vault))
    except Exception as exc:  # a broken index must not break `vaultd status`
        return {"available": False, "error": str(exc)}


def collect_status(vault: Vault, settings: Settings, *, probe_llm: bool = True) -> dict[str, Any]:
    db = open_state_db(vault.state_db)
    try:
        q = JobQueue(db)
        failures = [
            {"id": j.id, "file": j.path, "error": j.error, "attempts": j.attempts}
            for j in q.jobs("failed", limit=20)
        ]
        retrying = [
            {"id": j.id, "file": j.path, "error": j.error, "attempts": j.attempts}
            for j in q.jobs("queued", limit=200) if j.attempts > 0
        ]
        out: dict[str, Any] = {
            "vault": str(vault.root),
            "service": {**service_running(vault), **(q.get_meta("service") or {})},
            "queue": q.counts(),
            "failures": failures,
            "retrying": retrying,
            "last_verify": q.get_meta("last_verify"),
        }
    finally:
        db.close()
    out["providers"] = {
        "parser": {"setting": settings.parse.parser, "tiers": _parser_tiers()},
        "llm": _ollama(settings) if probe_llm and settings.enrich.enabled
        else {"enabled": settings.enrich.enabled},
        "embedding": {"provider": settings.index.embedding_provider,
                      "model": settings.index.embedding_model},
    }
    with contextlib.suppress(Exception):
        out["index"] = _index(vault)
    return out
