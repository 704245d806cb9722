"""What `vaultd status` reports: service, queue, failures, last verify, providers."""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import shutil
from typing import Any

from vaultd.config import Settings
from vaultd.daemon.lease import lease_status
from vaultd.daemon.queue import JobQueue
from vaultd.machine import synced_by
from vaultd.service_lock import service_running
from vaultd.statedb import open_state_db
from vaultd.vault import Vault

PROBE_TIMEOUT_SECONDS = 0.5


def _parser_tiers() -> dict[str, bool]:
    return {
        "pymupdf": importlib.util.find_spec("pymupdf") is not None,
        "marker": importlib.util.find_spec("marker") is not None,
        "pdftotext": shutil.which("pdftotext") is not None,
        "tesseract": shutil.which("tesseract") is not None,
    }


def _ollama_models(host: str) -> list[str] | str:
    """Model names the Ollama server has, or the error's name (one short request)."""
    # lazy: httpx costs 315 ms at import
    import httpx

    try:
        resp = httpx.get(f"{host}/api/tags", timeout=PROBE_TIMEOUT_SECONDS)
        resp.raise_for_status()
        return [str(m.get("name")) for m in resp.json().get("models", [])]
    except (httpx.HTTPError, ValueError) as exc:
        return type(exc).__name__


def _has_model(models: list[str], name: str) -> bool:
    return any(m == name or m.startswith(name + ":") for m in models)


def _ollama(settings: Settings, models: list[str] | str) -> dict[str, Any]:
    host = settings.enrich.ollama_host.rstrip("/")
    if isinstance(models, str):
        return {"host": host, "reachable": False, "error": models}
    return {"host": host, "reachable": True, "model": settings.enrich.model,
            "model_present": _has_model(models, settings.enrich.model)}


def _embedding(settings: Settings, models: list[str] | str | None) -> dict[str, Any]:
    """Is the configured embedding provider usable right now? (cheap: no model is loaded)"""
    provider, model = settings.index.embedding_provider, settings.index.embedding_model
    out: dict[str, Any] = {"provider": provider, "model": model}
    if provider == "none":
        out.update(available=False, reason="disabled: keyword search only")
    elif provider == "sentence-transformers":
        ok = importlib.util.find_spec("sentence_transformers") is not None
        out.update(available=ok, reason=None if ok else
                   "sentence-transformers is not installed: keyword search only")
    elif models is None:
        out.update(available=None, reason="not probed")
    elif isinstance(models, str):
        out.update(available=False, reason=f"Ollama not reachable ({models}): keyword search only")
    else:
        ok = _has_model(models, model)
        out.update(available=ok, reason=None if ok else
                   f"model not pulled (`ollama pull {model}`): keyword search only")
    return out


def _index(vault: Vault) -> dict[str, Any]:
    # lazy: vaultd.index.store costs 14 ms at import (pulls in apsw)
    from vaultd.index.store import index_status
    try:
        return dict(index_status(vault))
    except Exception as exc:  # a broken index must not break `vaultd status`
        return {"available": False, "error": str(exc)}


def collect_status(vault: Vault, settings: Settings, *, probe_llm: bool = True) -> dict[str, Any]:
    db = open_state_db(vault.state_db)
    try:
        q = JobQueue(db)
        service = service_running(vault)
        if service["running"]:  # pid/started_at of a stopped service would mislead
            service.update(q.get_meta("service") or {})
        failures = [
            # where the file is now (Inbox/_failed/…), not where it was dropped
            {"id": j.id, "file": j.outcome or j.path, "error": j.error, "attempts": j.attempts}
            for j in q.jobs("failed", limit=20)
        ]
        duplicates = [
            {"id": j.id, "file": j.path, "cite_keys": j.cite_keys, "outcome": j.outcome}
            for j in q.jobs("done", limit=500) if (j.outcome or "").startswith("duplicate of")
        ][:20]
        retrying = [
            {"id": j.id, "file": j.path, "error": j.error, "attempts": j.attempts}
            for j in q.jobs("queued", limit=200) if j.attempts > 0
        ]
        out: dict[str, Any] = {
            "vault": str(vault.root),
            "machine_state": str(vault.machine_dir),
            "synced_by": synced_by(vault.root),
            "service": service,
            "queue": q.counts(),
            "failures": failures,
            "retrying": retrying,
            "duplicates": duplicates,
            "sync_conflicts": [{"copy": c, "of": o} for c, o in vault.sync_conflicts()],
            "inbox_lease": lease_status(vault),
            "last_verify": q.get_meta("last_verify"),
        }
    finally:
        db.close()
    need_ollama = probe_llm and (settings.enrich.enabled
                                 or settings.index.embedding_provider == "ollama")
    models = _ollama_models(settings.enrich.ollama_host.rstrip("/")) if need_ollama else None
    out["providers"] = {
        "parser": {"setting": settings.parse.parser, "tiers": _parser_tiers()},
        "llm": _ollama(settings, models) if models is not None and settings.enrich.enabled
        else {"enabled": settings.enrich.enabled},
        "embedding": _embedding(settings, models),
    }
    with contextlib.suppress(Exception):
        out["index"] = _index(vault)
    return out
