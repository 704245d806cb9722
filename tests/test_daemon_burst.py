"""Several PDFs dropped at once into a running agent: captured and compiled by its pool of
worker processes (daemon/burst, pipeline/bulk), figure crops drawn once the queue is idle,
a bad file failed alone, the workers gone when the agent stops."""

from __future__ import annotations

import json
from pathlib import Path

from test_daemon_support import agent, drop, jobs, settled, wait_for

from vaultd.notes.reader import parse_note
from vaultd.vault import Vault

PAPERS = ("two_column/2020.acl-main.207_specter.pdf",
          "two_column/N18-3011_naacl2018_literature_graph.pdf",
          "single_column/peerj_cs_2017_vespa_test6.pdf",
          "two_column_ligatures/hindawi_rrp_2010_tully_test2.pdf")


def _workers(pid: int) -> set[int]:
    """The agent's child processes started by multiprocessing's spawn (its pool)."""
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (stat.parent / "cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        if ppid == pid and b"spawn_main" in cmdline:
            out.add(int(stat.parent.name))
    return out


def _pending_crops(vault: Vault) -> int:
    pending = 0
    for index in vault.figs.glob(".*_figs.json"):
        entries = json.loads(index.read_text(encoding="utf-8")).values()
        pending += sum(1 for e in entries if isinstance(e, list) and e[1] is None)
    return pending


def test_pdfs_dropped_together_are_compiled_by_the_pool_and_a_bad_one_fails_alone(
        vault: Vault, fixtures_dir: Path) -> None:
    pdfs = [fixtures_dir / "pdfs" / p for p in PAPERS]
    corrupt = (fixtures_dir / "pdfs" / "corrupt" / "broken-pdf.pdf").read_bytes()
    with agent(vault, debounce=0.5, env={"VAULTD_EMBEDDING_PROVIDER": "none"}) as a:
        for n, pdf in enumerate(pdfs):
            drop(vault.inbox, f"paper-{n}.pdf", pdf.read_bytes())
        drop(vault.inbox, "again.pdf", pdfs[0].read_bytes())  # the same paper twice
        drop(vault.inbox, "corrupt.pdf", b"%PDF-1.4\n" + corrupt + b"\x00garbage")
        wait_for(lambda: settled(vault, 6), 150, "the six jobs")
        by_name = {Path(j.path).name: j for j in jobs(vault)}
        assert by_name["corrupt.pdf"].state == "failed"
        assert (vault.failed / "corrupt.pdf").is_file()
        assert "What to do" in (vault.failed / "corrupt.pdf.error.md").read_text(encoding="utf-8")
        for n in range(len(pdfs)):
            job = by_name[f"paper-{n}.pdf"]
            assert job.state == "done", job.error
            note = vault.note_path(job.cite_keys[0])
            assert parse_note(note.read_text(encoding="utf-8"), str(note)).chunks
            assert vault.pdf_path(job.cite_keys[0]).is_file()  # the drop moved beside it
        assert by_name["again.pdf"].state == "done"
        assert by_name["again.pdf"].cite_keys == by_name["paper-0.pdf"].cite_keys
        assert len(list(vault.wiki.glob("*.md"))) == len(pdfs)
        workers = _workers(a.proc.pid)
        assert workers  # compiled in the pool, started once
        log = vault.logs_dir / "vaultd.log"
        wait_for(lambda: "figure crops drawn" in log.read_text(encoding="utf-8"), 60,
                 "the crops left pending, drawn while the queue is idle")
        assert _pending_crops(vault) == 0 and any(vault.figs.glob("*.png"))
        assert _workers(a.proc.pid) == workers  # the same workers: not one per paper
        assert a.stop() == 0
    wait_for(lambda: not any(Path(f"/proc/{pid}").exists() for pid in workers), 10,
             "the workers to be gone")
