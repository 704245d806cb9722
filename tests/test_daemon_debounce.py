from __future__ import annotations

from pathlib import Path

import pytest

from vaultd.daemon.watcher import (
    Debouncer,
    FileStat,
    icloud_target,
    is_ignored_name,
    scan_inbox,
    stat_file,
)

P = Path("/inbox/paper.pdf")


def test_file_is_ready_only_after_size_and_mtime_stay_unchanged_for_the_window() -> None:
    d = Debouncer(window=2.0)
    d.touch(P)
    assert d.step({P: FileStat(100, 1)}, now=0.0) == []
    assert d.step({P: FileStat(200, 2)}, now=1.5) == []  # still growing: timer restarts
    assert d.step({P: FileStat(200, 2)}, now=3.0) == []  # only 1.5 s quiet
    assert d.step({P: FileStat(200, 2)}, now=3.5) == [(P, FileStat(200, 2))]
    assert d.pending == {}


def test_duplicate_events_for_one_file_produce_one_ready_item() -> None:
    d = Debouncer(window=1.0)
    for _ in range(50):
        d.touch(P)
    d.step({P: FileStat(5, 5)}, now=0.0)
    for _ in range(50):
        d.touch(P)  # coalesced modify events while waiting
    assert d.step({P: FileStat(5, 5)}, now=1.0) == [(P, FileStat(5, 5))]
    assert d.step({P: FileStat(5, 5)}, now=9.0) == []


def test_path_touched_after_the_stat_snapshot_stays_pending() -> None:
    d = Debouncer(window=1.0)
    d.touch(P)
    later = Path("/inbox/later.pdf")
    d.touch(later)  # the event arrived after the caller stat'ed only P
    d.step({P: FileStat(1, 1)}, now=0.0)
    assert later in d.pending
    assert d.step({P: FileStat(1, 1), later: FileStat(2, 2)}, now=1.0) == [(P, FileStat(1, 1))]
    assert d.step({later: FileStat(2, 2)}, now=2.0) == [(later, FileStat(2, 2))]


def test_vanished_file_is_forgotten() -> None:
    d = Debouncer(window=1.0)
    d.touch(P)
    assert d.step({P: None}, now=0.0) == []
    assert P not in d.pending


def test_dataless_icloud_file_waits_until_downloaded() -> None:
    d = Debouncer(window=1.0)
    d.touch(P)
    for t in range(10):
        assert d.step({P: FileStat(100, 1, dataless=True)}, now=float(t)) == []
    assert d.step({P: FileStat(100, 1)}, now=10.0) == []
    assert d.step({P: FileStat(100, 1)}, now=11.0) == [(P, FileStat(100, 1))]


def test_zero_window_makes_a_file_ready_at_once() -> None:
    d = Debouncer(window=0.0)
    d.touch(P)
    assert d.step({P: FileStat(1, 1)}, now=0.0) == [(P, FileStat(1, 1))]


@pytest.mark.parametrize("name", [
    "paper.pdf.crdownload", "paper.pdf.part", "x.download", "x.tmp", "~$draft.docx",
    ".DS_Store", ".~lock.notes.odt#", ".paper.pdf.icloud", ".hidden",
])
def test_temporary_and_partial_names_are_ignored(name: str) -> None:
    assert is_ignored_name(name)


@pytest.mark.parametrize("name", ["paper.pdf", "link.url", "refs.bib", "notes.md"])
def test_ordinary_names_are_not_ignored(name: str) -> None:
    assert not is_ignored_name(name)


def test_icloud_placeholder_names_the_file_it_will_become() -> None:
    assert icloud_target(".paper.pdf.icloud") == "paper.pdf"
    assert icloud_target("paper.pdf") is None


def test_rescan_skips_failed_folder_and_temp_files(tmp_path: Path) -> None:
    (tmp_path / "_failed").mkdir()
    (tmp_path / "_failed" / "old.pdf").write_bytes(b"x")
    (tmp_path / "a.pdf").write_bytes(b"x")
    (tmp_path / "b.pdf.part").write_bytes(b"x")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "c.url").write_text("x")
    assert sorted(p.name for p in scan_inbox(tmp_path)) == ["a.pdf", "c.url"]


def test_stat_of_a_dangling_symlink_still_reports_an_item(tmp_path: Path) -> None:
    link = tmp_path / "gone.pdf"
    link.symlink_to(tmp_path / "nowhere.pdf")
    assert stat_file(link) == FileStat(0, 0)
    assert stat_file(tmp_path / "missing.pdf") is None


def test_reading_an_inbox_file_does_not_put_it_back_in_line(tmp_path: Path) -> None:
    """A job opening its own file must not queue that file again (it would run twice)."""
    import time

    from vaultd.daemon.watcher import InboxWatcher

    inbox, wiki = tmp_path / "Inbox", tmp_path / "wiki"
    watcher = InboxWatcher(inbox, wiki, debounce_seconds=0.2)  # as the daemon tests run it
    watcher.start()
    try:
        paper = inbox / "paper.pdf"
        paper.write_bytes(b"%PDF-1.4 read me")
        deadline = time.monotonic() + 5
        while not watcher.poll(time.monotonic()):
            assert time.monotonic() < deadline, "the new file never became ready"
            time.sleep(0.02)
        for _ in range(3):
            paper.read_bytes()
        # A write is seen (the watcher is live) and arrives after the reads' events.
        (inbox / "later.pdf").write_bytes(b"%PDF-1.4")
        ready: list[Path] = []
        deadline = time.monotonic() + 5
        while inbox / "later.pdf" not in ready:
            assert time.monotonic() < deadline, "the later file never became ready"
            ready += [p for p, _ in watcher.poll(time.monotonic())]
            time.sleep(0.02)
        assert paper not in ready
        assert paper not in watcher.debouncer.pending
    finally:
        watcher.stop()
