"""The agent's citation calls (daemon/burst.CitationCalls): one processor call at a time,
the groups bursts queue while it runs rendered together by the next, stored for the
compile workers."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from vaultd.config import load_settings
from vaultd.daemon import burst
from vaultd.daemon.burst import CitationCalls
from vaultd.models import Author, MetaFile, Work
from vaultd.pipeline.capture_store import CaptureResult
from vaultd.vault import Vault

WAIT_SECONDS = 120.0


def _captured(key: str, title: str) -> CaptureResult:
    work = Work(title=title, authors=[Author(family="Lovelace", given="Ada")], issued=[2021])
    meta = MetaFile.from_work(key, work, captured_at="2024-01-01T00:00:00+00:00")
    return CaptureResult(key, "created", None, meta)


def _stored(vault: Vault) -> int:
    db = sqlite3.connect(vault.state_db)
    try:
        return int(db.execute("SELECT COUNT(*) FROM citation_renderings").fetchone()[0])
    finally:
        db.close()


def test_citation_groups_queued_while_a_call_runs_are_rendered_by_one_next_call(
        vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings(vault.config_path)
    calls: list[list[str]] = []
    first_call = threading.Event()
    go_on = threading.Event()
    real = burst.render_citations

    def recorded(v: Vault, s: Any, captured: Sequence[CaptureResult], **kw: Any) -> None:
        calls.append(sorted(r.cite_key for r in captured))
        first_call.set()
        assert go_on.wait(WAIT_SECONDS)
        real(v, s, captured, **kw)

    monkeypatch.setattr(burst, "render_citations", recorded)
    stage = CitationCalls(vault, settings)
    first = stage.render([_captured("lovelace2021first", "The first work of the burst")])
    assert first_call.wait(WAIT_SECONDS)
    more = [stage.render([_captured("lovelace2021second", "A second work, queued meanwhile")]),
            stage.render([_captured("lovelace2021third", "A third work, from another burst")])]
    go_on.set()
    for future in (first, *more):
        future.result(timeout=WAIT_SECONDS)
    assert calls == [["lovelace2021first"], ["lovelace2021second", "lovelace2021third"]]
    styles = len(settings.citations.styles)
    assert _stored(vault) == 3 * styles  # every style of every work, for the workers


def test_a_citation_call_that_fails_still_releases_the_bursts_waiting_on_it(
        vault: Vault, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("VAULTD_PANDOC", str(tmp_path / "no-such-pandoc"))
    stage = CitationCalls(vault, load_settings(vault.config_path))
    future = stage.render([_captured("lovelace2021first", "The first work of the burst")])
    assert future.result(timeout=WAIT_SECONDS) is None  # finish renders and reports it
