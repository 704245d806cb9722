"""Scheduled work (APScheduler lives only here): daily verify, retries of transient
failures, the enrichment backlog, index reconcile and the library.bib export."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any, Protocol

from vaultd.config import Settings
from vaultd.daemon.queue import JobQueue
from vaultd.models import VerifyReport
from vaultd.pipeline.ingest import retry_pending_records
from vaultd.vault import Vault, atomic_write_text

log = logging.getLogger("vaultd.daemon")

REPORT_REL = "vaultd/verify-report.md"


def render_verify_report(notes: VerifyReport, sources: VerifyReport, when: dt.datetime) -> str:
    findings = [*notes.findings, *sources.findings]
    status = "OK" if not findings else f"{len(findings)} finding(s)"
    lines = [
        "---",
        "tags: [vaultd]",
        "---",
        "# vaultd verify report",
        "",
        f"- Run: {when.strftime('%Y-%m-%d %H:%M %Z').strip()}",
        f"- Notes checked: {notes.notes}, chunks: {notes.chunks}",
        f"- Result: **{status}**",
        "",
    ]
    if findings:
        lines += ["| kind | note / source | chunk | what |", "|---|---|---|---|"]
        for f in findings:
            msg = f.message.replace("|", "\\|")
            lines.append(f"| {f.kind} | {f.path} | {f.chunk_id or ''} | {msg} |")
        lines += ["", "Run `vaultd verify --source` for details and fixes."]
    else:
        lines.append("Every quote matches its hash and every source matches its record.")
    return "\n".join(lines) + "\n"


def run_verify(vault: Vault) -> dict[str, Any]:
    """Note drift + source staleness → wiki/vaultd/verify-report.md; returns a summary."""
    # lazy: vaultd.pipeline.verify_source costs 336 ms at import (pulls in yaml, rapidfuzz, subprocess, plistlib)
    from vaultd.pipeline.verify_source import verify_sources

    # lazy: vaultd.verify costs 111 ms at import (pulls in yaml, apsw, subprocess, difflib)
    from vaultd.verify import verify_notes

    when = dt.datetime.now().astimezone()
    notes = verify_notes(vault)
    sources = verify_sources(vault)
    atomic_write_text(vault.wiki / REPORT_REL, render_verify_report(notes, sources, when))
    findings = [*notes.findings, *sources.findings]
    return {
        "at": when.isoformat(timespec="seconds"),
        "ok": not findings,
        "notes": notes.notes,
        "findings": len(findings),
        "kinds": sorted({f.kind for f in findings}),
        "report": f"wiki/{REPORT_REL}",
    }


def enrich_backlog(vault: Vault, settings: Settings) -> None:
    if not settings.enrich.enabled:
        return
    # lazy: vaultd.pipeline.enrich costs 62 ms at import (pulls in asyncio, subprocess)
    from vaultd.pipeline.enrich import enrich_pending

    results = enrich_pending(vault, settings)
    if results:
        log.info("enrichment backlog: %d note(s) processed", len(results))


def index_reconcile(vault: Vault, settings: Settings) -> None:
    # lazy: vaultd.pipeline.index costs 49 ms at import (pulls in apsw)
    from vaultd.pipeline.index import index_vault

    index_vault(vault, settings)


def refresh_citations_if_styles_changed(vault: Vault, settings: Settings) -> int:
    """At start: re-render every note's citations when the configured styles, a style
    file or the locale changed since the notes were rendered (one batch). Returns the
    notes updated."""
    # lazy: vaultd.pipeline.citations costs 72 ms at import (pulls in subprocess, difflib)
    from vaultd.pipeline.citations import refresh_if_styles_changed as refresh

    # lazy: vaultd.pipeline.citations costs 72 ms at import (pulls in subprocess, difflib)
    from vaultd.pipeline.citations import renderer_for as citations
    renderer = citations(vault, settings)
    try:
        report = refresh(vault, renderer)
    finally:
        renderer.close()
    if report is None:
        return 0
    log.info("citation styles changed: %d of %d notes re-rendered", report.notes_updated,
             report.works)
    return int(report.notes_updated)


class ScheduledAgent(Protocol):
    """What the scheduled jobs use of the running agent (``daemon.runner.Daemon``)."""

    vault: Vault
    settings: Settings
    queue: JobQueue

    def export_bib(self) -> Any: ...


def start_scheduler(daemon: ScheduledAgent) -> Any:
    # lazy: apscheduler costs 49 ms at import
    from apscheduler.schedulers.background import BackgroundScheduler

    # lazy: apscheduler costs 49 ms at import
    from apscheduler.triggers.cron import CronTrigger

    vault, settings = daemon.vault, daemon.settings
    hour, minute = (int(x) for x in settings.daemon.verify_at.split(":"))

    def verify_job() -> None:
        try:
            daemon.queue.set_meta("last_verify", run_verify(vault))
        except Exception as exc:
            log.exception("scheduled verify failed")
            daemon.queue.set_meta("last_verify", {"at": dt.datetime.now().astimezone()
                                                  .isoformat(timespec="seconds"),
                                                  "ok": False, "error": str(exc)})

    def guarded(name: str, fn: Any) -> Any:
        def run() -> None:
            try:
                fn()
            except ImportError as exc:
                log.info("%s skipped: %s", name, exc)
            except Exception:
                log.exception("scheduled %s failed", name)
        return run

    sched = BackgroundScheduler(daemon=True)
    sched.add_job(verify_job, CronTrigger(hour=hour, minute=minute), id="verify",
                  coalesce=True, misfire_grace_time=3600)
    def retry_pass() -> None:
        due = daemon.queue.wake_retries()  # backoff decides; this only reports
        if due:
            log.info("retry pass: %d transient failure(s) due", due)
        # PDFs saved while every metadata source was down: ask again, recompile.

        refreshed = retry_pending_records(vault, settings)
        if refreshed:
            log.info("retry pass: metadata fetched for %s", ", ".join(refreshed))
        if settings.library.url:  # the outbox, and vectors waiting for the HNSW index
            from vaultd.pipeline.publish import library_upkeep  # lazy: psycopg only with one

            done = library_upkeep(vault, settings)
            if done:
                log.info("retry pass: %s", done)

    sched.add_job(guarded("retry", retry_pass), "interval",
                  minutes=settings.daemon.retry_minutes, id="retry", coalesce=True)
    sched.add_job(guarded("enrich backlog", lambda: enrich_backlog(vault, settings)), "interval",
                  minutes=settings.daemon.enrich_backlog_minutes, id="enrich", coalesce=True)
    sched.add_job(guarded("index reconcile", lambda: index_reconcile(vault, settings)),
                  "interval", minutes=settings.daemon.index_reconcile_minutes, id="index", coalesce=True)
    sched.add_job(guarded("library.bib export", daemon.export_bib), "interval",
                  minutes=settings.daemon.bib_export_minutes, id="bib", coalesce=True)
    sched.add_job(guarded("citation styles",
                          lambda: refresh_citations_if_styles_changed(vault, settings)),
                  id="citation-styles")  # once, at start: a changed config re-renders notes
    sched.start()
    return sched
