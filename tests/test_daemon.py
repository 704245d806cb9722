"""The agent end to end: a real `vaultd run` process, real files, bounded waits."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_daemon_support import (
    agent,
    drop,
    jobs,
    sample_bytes,
    sample_variant,
    settled,
    start_agent,
    wait_for,
)

from vaultd.cli import main_group
from vaultd.vault import Vault


def _failed_names(vault: Vault) -> set[str]:
    return {p.name for p in vault.failed.iterdir()} if vault.failed.is_dir() else set()


def test_dropped_pdf_becomes_a_note_and_moves_to_raw(vault: Vault, tmp_path: Path) -> None:
    base = sample_bytes(tmp_path)
    with agent(vault) as a:
        drop(vault.inbox, "paper.pdf", base)
        wait_for(lambda: settled(vault, 1), 20, "the job to finish")
        (job,) = jobs(vault)
        assert job.state == "done", job.error
        key = job.cite_keys[0]
        assert vault.note_path(key).is_file()
        assert vault.pdf_path(key).read_bytes() == base
        assert not (vault.inbox / "paper.pdf").exists()
        wait_for(lambda: vault.library_bib.is_file(), 10, "library.bib")
        assert f"{{{key}," in vault.library_bib.read_text(encoding="utf-8")
        assert a.stop() == 0


def test_same_pdf_under_two_names_makes_one_note(vault: Vault, tmp_path: Path) -> None:
    data = sample_bytes(tmp_path)
    with agent(vault) as a:
        drop(vault.inbox, "first.pdf", data)
        drop(vault.inbox, "second copy.pdf", data)
        wait_for(lambda: settled(vault, 2), 20, "both jobs")
        js = jobs(vault)
        assert [j.state for j in js] == ["done", "done"], [j.error for j in js]
        assert js[0].cite_keys == js[1].cite_keys
        assert len(list(vault.wiki.glob("*.md"))) == 1
        assert len(list(vault.raw.glob("*.pdf"))) == 1
        # The duplicate is kept (never deleted), archived under .vaultd/processed/.
        kept = list(vault.processed_dir.rglob("*.pdf"))
        assert len(kept) == 1 and kept[0].read_bytes() == data
        assert a.stop() == 0
    # ... and reported, not silently gone: the log says so and status lists it
    assert "is already in the vault as" in a.stderr()
    out = CliRunner().invoke(main_group, ["--vault", str(vault.root), "status", "--no-probe"])
    [line] = [x for x in out.output.splitlines() if "already in the vault" in x]
    assert js[0].cite_keys[0] in line and "duplicate of job" in line


def test_slowly_written_file_is_processed_once_after_it_is_complete(
        vault: Vault, tmp_path: Path) -> None:
    data = sample_bytes(tmp_path)
    target = vault.inbox / "slow.pdf"
    with agent(vault, debounce=0.6) as a:
        with target.open("wb") as fh:
            step = len(data) // 6 + 1
            for i in range(0, len(data), step):
                fh.write(data[i:i + step])
                fh.flush()
                os.fsync(fh.fileno())
                # Input pacing, not synchronisation: the write takes longer than the debounce
                # window, but each pause is shorter, so the file is never quiet long enough.
                threading.Event().wait(0.25)
                assert jobs(vault) == []
        wait_for(lambda: settled(vault, 1), 20, "the job")
        (job,) = jobs(vault)
        assert job.state == "done", job.error
        assert vault.pdf_path(job.cite_keys[0]).read_bytes() == data
        assert a.stop() == 0


def test_bad_items_land_in_failed_with_an_error_note_and_the_agent_keeps_running(
        vault: Vault, tmp_path: Path, fixtures_dir: Path) -> None:
    corrupt = (fixtures_dir / "pdfs" / "corrupt" / "broken-pdf.pdf").read_bytes()
    with agent(vault) as a:
        drop(vault.inbox, "corrupt.pdf", b"%PDF-1.4\n" + corrupt + b"\x00garbage")
        drop(vault.inbox, "not-a-pdf.pdf", corrupt)
        drop(vault.inbox, "empty.pdf", b"")
        drop(vault.inbox, "nothing.url", b"[InternetShortcut]\n")
        unreadable = vault.inbox / "locked.pdf"
        if os.geteuid() == 0:
            unreadable.symlink_to(tmp_path / "missing-target.pdf")  # root reads any mode
        else:
            unreadable.write_bytes(b"%PDF-1.4")
            unreadable.chmod(0)
        wait_for(lambda: settled(vault, 5), 20, "five failed jobs")
        assert {j.state for j in jobs(vault)} == {"failed"}
        names = _failed_names(vault)
        for name in ("corrupt.pdf", "not-a-pdf.pdf", "empty.pdf", "nothing.url", "locked.pdf"):
            assert name in names and f"{name}.error.md" in names, names
        assert "is empty" in (vault.failed / "empty.pdf.error.md").read_text(encoding="utf-8")
        assert "no URL found" in (vault.failed / "nothing.url.error.md").read_text(encoding="utf-8")
        assert "cannot read" in (vault.failed / "locked.pdf.error.md").read_text(encoding="utf-8")
        assert "What to do" in (vault.failed / "corrupt.pdf.error.md").read_text(encoding="utf-8")
        # Still alive and working: a good paper after the bad ones.
        drop(vault.inbox, "good.pdf", sample_bytes(tmp_path))
        wait_for(lambda: settled(vault, 6), 20, "the good job")
        assert sum(j.state == "done" for j in jobs(vault)) == 1
        assert a.proc.poll() is None
        assert a.stop() == 0


def test_items_dropped_while_the_agent_was_down_are_processed_at_startup(
        vault: Vault, tmp_path: Path) -> None:
    (vault.inbox / "waiting.pdf").write_bytes(sample_bytes(tmp_path))
    (vault.inbox / "partial.pdf.crdownload").write_bytes(b"%PDF-1.4 half")
    (vault.inbox / ".paper.pdf.icloud").write_bytes(b"placeholder")
    with agent(vault) as a:
        wait_for(lambda: settled(vault, 1), 20, "the rescan job")
        assert [j.state for j in jobs(vault)] == ["done"]
        assert (vault.inbox / "partial.pdf.crdownload").exists()  # ignored, untouched
        assert (vault.inbox / ".paper.pdf.icloud").exists()
        assert a.stop() == 0


def test_a_user_rule_files_the_note_in_its_folder_with_its_tags(
        vault: Vault, tmp_path: Path) -> None:
    (vault.rules_dir / "10-mine.toml").write_text(
        '[[rules]]\nname = "ml-papers"\naction = "capture"\nfolder = "Papers/ML"\n'
        'tags = ["to-read"]\nmatch = { magic = "%PDF-", glob = "ml-*" }\n', encoding="utf-8")
    with agent(vault) as a:
        drop(vault.inbox, "ml-attention.pdf", sample_bytes(tmp_path))
        wait_for(lambda: settled(vault, 1), 20, "the job to finish")
        (job,) = jobs(vault)
        assert job.state == "done", job.error
        assert a.stop() == 0
    key = job.cite_keys[0]
    filed = vault.wiki / "Papers" / "ML" / f"{key}.md"
    assert filed.is_file() and not (vault.wiki / f"{key}.md").exists()
    assert vault.note_path(key) == filed
    text = filed.read_text(encoding="utf-8")
    assert "to-read" in text.split("\n---", 1)[0]
    # The filed note is still a paper note: verified, quotable, cited by key.
    runner = CliRunner()
    verify = runner.invoke(main_group, ["--vault", str(vault.root), "verify", key, "--json"])
    assert verify.exit_code == 0, verify.output
    cite = runner.invoke(main_group, ["--vault", str(vault.root), "cite", key, "--format",
                                      "bibtex"])
    assert cite.exit_code == 0 and f"{{{key}," in cite.output
    chunk_id = text.split("<!-- chunk id=", 1)[1].split(" ", 1)[0]
    quote = runner.invoke(main_group, ["--vault", str(vault.root), "quote", key, chunk_id])
    assert quote.exit_code == 0, quote.output
    search = runner.invoke(main_group, ["--vault", str(vault.root), "search", "verbatim quotes",
                                        "--kind", "paper", "--keywords-only", "--json"])
    assert search.exit_code == 0, search.output
    assert key in {h["cite_key"] for h in json.loads(search.output)["hits"]}


def test_invalid_user_rule_stops_startup_with_one_line(vault: Vault) -> None:
    (vault.rules_dir / "bad.toml").write_text(
        '[[rules]]\nname = "x"\naction = "capture"\nmatch = { magik = "%PDF" }\n', encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "vaultd", "--vault", str(vault.root), "run"],
                            capture_output=True, text=True, timeout=30, check=False)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("Error: ")
    assert "bad.toml: rule 'x', field 'match.magik': unknown field" in lines[0]


def test_kill_9_mid_compile_then_restart_completes_the_job_without_a_partial_note(
        vault: Vault, fixtures_dir: Path) -> None:
    from vaultd.notes.reader import parse_note

    pdf = fixtures_dir / "pdfs" / "two_column" / "2020.acl-main.207_specter.pdf"

    def notes_are_whole() -> bool:
        for note in vault.wiki.glob("*.md"):
            parse_note(note.read_text(encoding="utf-8"), str(note))  # raises on a partial note
        return True

    a = start_agent(vault)
    try:
        drop(vault.inbox, "specter.pdf", pdf.read_bytes())
        # Capture has written its record: the job is now compiling.
        wait_for(lambda: any(vault.raw.glob("*.meta.json")), 30, "capture to finish")
        a.kill9()
        assert notes_are_whole()
        assert [j.state for j in jobs(vault)] == ["running"]
    finally:
        if a.proc.poll() is None:
            a.kill9()
    with agent(vault) as b:
        wait_for(lambda: settled(vault, 1), 40, "the re-queued job")
        (job,) = jobs(vault)
        assert job.state == "done", job.error
        assert notes_are_whole() and vault.note_path(job.cite_keys[0]).is_file()
        assert b.stop() == 0


def test_sigterm_during_a_job_exits_0_within_10_s_and_leaves_no_job_running(
        vault: Vault, fixtures_dir: Path) -> None:
    pdf = fixtures_dir / "pdfs" / "two_column" / "2020.acl-main.207_specter.pdf"
    with agent(vault) as a:
        drop(vault.inbox, "specter.pdf", pdf.read_bytes())
        wait_for(lambda: [j.state for j in jobs(vault)] == ["running"], 20, "the job to start")
        started = time.monotonic()
        assert a.stop(timeout=10) == 0
        assert time.monotonic() - started < 10
    (job,) = jobs(vault)
    assert job.state in ("done", "queued")  # finished, or re-queued for the next start
    if job.state == "queued":
        assert (vault.inbox / "specter.pdf").exists()


def test_network_failure_is_retried_later_and_succeeds_when_the_source_answers(
        vault: Vault, fixtures_dir: Path) -> None:
    from test_daemon_support import arxiv_replay, replay_env

    from vaultd.daemon.queue import JobQueue
    from vaultd.statedb import open_state_db

    link = b"[InternetShortcut]\nURL=https://arxiv.org/abs/1605.08386\n"
    with agent(vault) as a:  # every source points at a closed port
        drop(vault.inbox, "paper.url", link)
        wait_for(lambda: any(j.attempts == 1 and j.state == "queued" and j.error
                             for j in jobs(vault)), 20, "a transient failure")
        (job,) = jobs(vault)
        assert "retry later" in (job.error or "")
        assert (vault.inbox / "paper.url").exists() and _failed_names(vault) == set()
        assert a.stop() == 0
    with arxiv_replay(fixtures_dir) as url, agent(vault, env=replay_env(url)) as b:
        db = open_state_db(vault.state_db)
        JobQueue(db).wake_retries(force=True)  # the network is known to be back
        db.close()
        wait_for(lambda: settled(vault, 1), 20, "the retried job")
        (job,) = jobs(vault)
        assert job.state == "done" and job.attempts == 2, job.error
        assert vault.note_path(job.cite_keys[0]).is_file()
        assert b.stop() == 0


def test_status_reports_the_running_service_and_queue(vault: Vault, tmp_path: Path) -> None:
    with agent(vault) as a:
        drop(vault.inbox, "junk.xyz", b"junk")
        wait_for(lambda: settled(vault, 1), 20, "the junk job")
        result = CliRunner().invoke(main_group, ["--vault", str(vault.root), "status", "--json",
                                                 "--no-probe"], catch_exceptions=False)
        assert result.exit_code == 0
        data = json.loads(result.output)
        assert data["service"]["running"] is True
        assert data["queue"]["failed"] == 1
        assert "no inbox rule matches junk.xyz" in data["failures"][0]["error"]
        assert "pymupdf" in data["providers"]["parser"]["tiers"]
        assert a.stop() == 0
    result = CliRunner().invoke(main_group, ["--vault", str(vault.root), "status", "--no-probe"],
                                catch_exceptions=False)
    assert "service:  not running" in result.output
    assert "index:    none yet; `vaultd index` builds it" in result.output  # nothing compiled


@pytest.mark.slow
def test_burst_of_200_files_makes_exactly_one_job_each_and_all_settle(
        vault: Vault, tmp_path: Path, fixtures_dir: Path) -> None:
    from test_daemon_support import arxiv_replay, replay_env

    base = sample_bytes(tmp_path)
    expected: set[str] = set()
    with arxiv_replay(fixtures_dir) as url, agent(vault, env=replay_env(url)) as a:
        files: list[tuple[str, bytes]] = []
        for i in range(24):
            files.append((f"paper-{i:03d}.pdf", sample_variant(base, i)))
        for i in range(6):  # the same six papers again, under other names
            files.append((f"again-{i:03d}.pdf", sample_variant(base, i)))
        ids = ["1605.08386", "1707.08567", "astro-ph/0601001"]
        for i in range(45):
            files.append((f"link-{i:03d}.url",
                          f"[InternetShortcut]\nURL=https://arxiv.org/abs/{ids[i % 3]}\n".encode()))
        for i in range(15):
            files.append((f"nourl-{i:03d}.url", b"[InternetShortcut]\n"))
        for i in range(110):
            files.append((f"junk-{i:03d}.bin", os.urandom(64) + bytes([i])))
        assert len(files) == 200
        for name, data in files:
            (vault.inbox / name).write_bytes(data)
            expected.add(name)
        (vault.inbox / "download.pdf.part").write_bytes(b"%PDF-partial")
        wait_for(lambda: settled(vault, 200), 50, "all 200 jobs to settle")
        js = jobs(vault)
        assert sorted(Path(j.path).name for j in js) == sorted(expected)  # one job per file
        failed = _failed_names(vault)
        for j in js:
            name = Path(j.path).name
            if j.state == "failed":
                assert name in failed and f"{name}.error.md" in failed, name
                assert j.error
            else:
                assert j.state == "done" and j.cite_keys, (name, j.error)
        by_name = {Path(j.path).name: j for j in js}
        assert all(by_name[f"paper-{i:03d}.pdf"].state == "done" for i in range(24))
        assert all(by_name[f"again-{i:03d}.pdf"].cite_keys == by_name[f"paper-{i:03d}.pdf"].cite_keys
                   for i in range(6))
        assert {by_name[f"link-{i:03d}.url"].state for i in range(45)} == {"done"}
        assert len({tuple(by_name[f"link-{i:03d}.url"].cite_keys) for i in range(45)}) == 3
        assert len(list(vault.wiki.glob("*.md"))) == 24 + 3
        assert (vault.inbox / "download.pdf.part").exists()
        assert a.proc.poll() is None
        assert a.stop() == 0


def test_a_link_file_with_one_bad_item_is_done_and_its_error_note_names_that_item(
        vault: Vault, fixtures_dir: Path) -> None:
    from test_daemon_support import arxiv_replay, replay_env

    links = (b"- https://arxiv.org/abs/1605.08386\n"
             b"- https://www.youtube.com/watch?v=gogEJyoSB9s\n")
    with arxiv_replay(fixtures_dir) as url, agent(vault, env=replay_env(url)) as a:
        drop(vault.inbox, "reading.txt", links)
        wait_for(lambda: settled(vault, 1), 30, "the job to finish")
        (job,) = jobs(vault)
        assert job.state == "done", job.error
        assert len(job.cite_keys) == 1 and vault.note_path(job.cite_keys[0]).is_file()
        assert "1 of 2 items failed" in (job.outcome or "")
        report = (vault.failed / "reading.txt.error.md").read_text(encoding="utf-8")
        assert "gogEJyoSB9s" in report and "cannot reach YouTube" in report
        assert job.cite_keys[0] in report
        assert a.stop() == 0
