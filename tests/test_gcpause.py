"""The collector pause around a parse: off while any parse runs, back as it was after."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from vaultd.errors import ParseError
from vaultd.gcpause import gc_paused
from vaultd.parse.tiers import parse_pdf


@pytest.fixture(autouse=True)
def _collector_on() -> Iterator[None]:
    gc.enable()
    yield
    gc.enable()


def test_collector_is_off_inside_and_on_after() -> None:
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_collector_comes_back_after_a_failed_parse(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"%PDF-1.7\nnot really a pdf")
    with pytest.raises(ParseError):
        parse_pdf(bad, "pymupdf")
    assert gc.isenabled()


def test_collector_stays_off_until_the_last_of_overlapping_pauses_ends() -> None:
    entered, release = threading.Event(), threading.Event()
    seen: list[bool] = []

    def other() -> None:
        with gc_paused():
            entered.set()
            release.wait(5)
        seen.append(gc.isenabled())  # the main thread's pause is still running

    t = threading.Thread(target=other)
    with gc_paused():
        t.start()
        assert entered.wait(5)
        release.set()
        t.join(5)
        assert not gc.isenabled()
    assert seen == [False]
    assert gc.isenabled()


def test_a_collector_the_caller_switched_off_stays_off() -> None:
    gc.disable()
    with gc_paused():
        pass
    assert not gc.isenabled()
