"""Progress on stderr: the bar knows the total (pages, files) and counts towards it."""

from __future__ import annotations

import io
import re
import sys

import pytest
from rich.console import Console

import vaultd.cli.common as common


def test_the_bar_shows_done_of_total_as_the_pipeline_reports(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = io.StringIO()
    monkeypatch.setattr(common, "stderr", Console(file=screen, force_terminal=True, width=80))
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with common.progress("compile k", quiet=False) as report:
        report(1, 12)
        report(7, 12)
    shown = set(re.findall(r"\d+/(?:\d+|\?)", screen.getvalue()))
    # "0/?" may flash before the first report; after it the total is always known
    assert "7/12" in shown and shown <= {"0/?", "1/12", "7/12"}


def test_quiet_or_no_terminal_prints_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = io.StringIO()
    monkeypatch.setattr(common, "stderr", Console(file=screen, force_terminal=True))
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with common.progress("compile k", quiet=True) as report:
        report(3, 4)
    assert screen.getvalue() == ""
