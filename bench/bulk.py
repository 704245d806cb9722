#!/usr/bin/env python3
"""Bulk speed (issue 36): PDFs compiled through the pool of worker processes beside
`pdftotext -layout` run sequentially on the same files, and a generated Zotero library
imported, in one run.

1. Every real PDF under ../shared/fixtures/pdfs-eval/pdfs, eval/pages/pdfs,
   eval/quotes/pdfs and eval/firstpage/pdfs, staged as capture leaves them, compiled and
   indexed through ``pipeline.ingest.finish`` with a ``BulkCompiler`` (its workers started
   first, timed apart; figure crops deferred, then drawn by the pool and timed apart):
   pages per second against `pdftotext -layout` over the same files (timed before and
   after the pool; the mean is the reference), the ratio (target ≥ 0.3× on 2 cores), and
   the peak resident memory of the pool (each worker's high-water mark, plus this
   process's).
2. A Zotero library written by the tests' generator (``tests/_zotero_library``): 2,000
   items with Better BibTeX keys, collections, tags and notes, 1,000 of them with a small
   PDF of their own; ``vaultd import`` of it (``pipeline.library_import``): the metadata
   in the vault (read, plan, records and PDFs copied; target ≤ 30 s), the citations
   rendered, every citation-only note written, and the PDFs compiled.

3. ``--agent``: the same real PDFs dropped at once into ``Inbox/`` of a running agent
   (``vaultd run`` as a subprocess on a temporary vault, every metadata source and Ollama
   pointed at a closed local port, as ``bench/daemon.py`` does): from the drop until every
   job is done (notes written and indexed), pages per second against `pdftotext -layout`
   run sequentially on the same files in the same run, and the memory of the agent and
   its compile workers (the peak of their summed resident memory, sampled every 0.1 s).
   The agent is warmed by one PDF first (its pool is started once, at the first PDF, and
   kept): the figure says what a running agent does with a burst; its start is printed
   apart. Figure crops are drawn once the queue is idle: timed apart, and so is the
   enrichment pass (with Ollama down it only marks chunks pending; the agent holds it
   until the queue is idle). ``--keep DIR``: the vault and its state are kept there.

Embeddings are off (``VAULTD_EMBEDDING_PROVIDER=none``): the index is the keyword index.

    python3 bench/bulk.py [--workers N] [--items 2000] [--with-pdf 1000]
    python3 bench/bulk.py --agent [--pdfs 40]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PDF_DIRS = (ROOT.parent / "shared" / "fixtures" / "pdfs-eval" / "pdfs",
            ROOT / "eval" / "pages" / "pdfs", ROOT / "eval" / "quotes" / "pdfs",
            ROOT / "eval" / "firstpage" / "pdfs")


def _real_pdfs(limit: int | None = None) -> list[Path]:
    """The real PDFs of ``PDF_DIRS``, each once (by content)."""
    from vaultd.vault import file_sha256

    seen: set[str] = set()
    pdfs: list[Path] = []
    for folder in PDF_DIRS:
        for pdf in sorted(folder.glob("*.pdf")):
            if (sha := file_sha256(pdf)) not in seen:
                seen.add(sha)
                pdfs.append(pdf)
    return pdfs[:limit] if limit else pdfs


def _pages(pdf: Path) -> int:
    import pymupdf

    with pymupdf.open(pdf) as doc:
        return int(doc.page_count)


#: CPU seconds of every `pdftotext` run so far (``_pdftotext``): its speed with a core to
#: itself, whatever the load.
PDFTOTEXT_CPU: list[float] = []


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _pdftotext(pdfs: list[Path]) -> float:
    started, cpu = time.perf_counter(), _children_cpu()
    for pdf in pdfs:
        subprocess.run(["pdftotext", "-layout", str(pdf), "-"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
    PDFTOTEXT_CPU.append(_children_cpu() - cpu)
    return time.perf_counter() - started


def _peak_kib(pid: int) -> int:
    """A process's resident high-water mark (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def _workers_peak_kib() -> list[int]:
    """The high-water marks of this process's child processes (the pool's workers)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid():
            out.append(_peak_kib(int(stat.parent.name)))
    return out


def _vault(where: Path) -> object:
    from vaultd.config import default_config_toml
    from vaultd.vault import Vault

    vault = Vault(where / "vault")
    vault.init(default_config_toml())
    return vault


def real_pdfs(workers: int | None) -> None:
    from vaultd.config import load_settings
    from vaultd.models import MetaFile, Work
    from vaultd.pipeline.bulk import BulkCompiler
    from vaultd.pipeline.capture_store import CaptureResult
    from vaultd.pipeline.ingest import IngestResult, finish
    from vaultd.vault import Vault, file_sha256

    pdfs = _real_pdfs()
    pages = sum(_pages(p) for p in pdfs)
    print(f"1. {len(pdfs)} real PDFs, {pages} pages")
    before = _pdftotext(pdfs)
    with tempfile.TemporaryDirectory(prefix="vaultd-bulk-") as tmp:
        vault = _vault(Path(tmp))
        assert isinstance(vault, Vault)
        settings = load_settings(vault.config_path)
        captured = []
        for n, pdf in enumerate(pdfs):
            key = f"p{n:03d}"
            shutil.copy(pdf, vault.pdf_path(key))
            meta = MetaFile.from_work(key, Work(title=pdf.stem.replace("_", " ")),
                                      pdf=f"raw/{key}.pdf", pdf_sha256=file_sha256(pdf),
                                      captured_at="2024-01-01T00:00:00+00:00")
            vault.meta_path(key).write_text(meta.model_dump_json(), encoding="utf-8")
            captured.append(CaptureResult(key, "created", vault.pdf_path(key), meta))
        pool = BulkCompiler(vault, settings, workers=workers)
        started = time.perf_counter()
        pool.start()
        startup = time.perf_counter() - started
        started = time.perf_counter()
        out = finish(vault, settings, IngestResult(captured=captured), keep_going=True,
                     pool=pool, figures=False)
        took = time.perf_counter() - started
        started = time.perf_counter()
        crops = pool.draw_figures([c.cite_key for c in out.compiled.values() if c.result])
        crop_time = time.perf_counter() - started
        peaks = _workers_peak_kib()
        pool.close()
    after = _pdftotext(pdfs)
    failed = [c.cite_key for c in out.compiled.values() if c.error]
    reference = (before + after) / 2
    rate, ref_rate = pages / took, pages / reference
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"   pdftotext -layout, sequential: {before:.1f} s and {after:.1f} s "
          f"-> {ref_rate:.1f} pages/s")
    print(f"   pool of {pool.workers} workers (started in {startup:.1f} s, once): "
          f"{took:.1f} s to compile and index -> {rate:.1f} pages/s")
    print(f"   ratio: {rate / ref_rate:.2f}x pdftotext (target >= 0.3x); failed: "
          f"{len(failed)} {failed[:5]}")
    print(f"   figure crops, deferred: {crops} drawn afterwards in {crop_time:.1f} s "
          f"(with them: {pages / (took + crop_time):.1f} pages/s, "
          f"{pages / (took + crop_time) / ref_rate:.2f}x)")
    print(f"   peak memory: workers {', '.join(f'{p / 1024:.0f}' for p in peaks)} MiB, this "
          f"process {own / 1024:.0f} MiB; pool total {(sum(peaks) + own) / 1024:.0f} MiB "
          "(target < 1024)")


def _small_pdf(n: int, rng: random.Random) -> bytes:
    import pymupdf

    from tests._zotero_library import random_words

    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_textbox(pymupdf.Rect(72, 72, 523, 400), f"Paper {n}. " + random_words(rng, 60),
                        fontsize=11)
    data = bytes(doc.tobytes())
    doc.close()
    return data


def library(items: int, with_pdf: int, workers: int | None) -> None:
    from tests._zotero_library import ZoteroLibrary, random_words
    from vaultd.config import load_settings
    from vaultd.importers import read_zotero
    from vaultd.pipeline.bulk import BulkCompiler
    from vaultd.pipeline.library_import import import_library
    from vaultd.vault import Vault

    rng = random.Random(36)
    with tempfile.TemporaryDirectory(prefix="vaultd-bulk-") as tmp:
        lib = ZoteroLibrary(Path(tmp) / "Zotero")
        collections = [lib.collection(f"Topic {i}") for i in range(20)]
        for n in range(items):
            item, _ = lib.item(
                "journalArticle",
                {"title": random_words(rng, 6).capitalize(), "date": str(1990 + n % 35),
                 "publicationTitle": "Journal of " + random_words(rng, 2),
                 "volume": str(n % 50), "DOI": f"10.5555/bench.{n}",
                 "extra": f"Citation Key: bench{n}{random_words(rng, 1)}"},
                [("author", random_words(rng, 1).capitalize(), "Ann")],
                tags=(f"tag{n % 7}",), collections=(collections[n % 20],))
            if n % 10 == 0:
                lib.note(item, f"<p>Read this for chapter {n % 5}.</p>")
            if n < with_pdf:
                lib.attachment(item, "stored", f"storage:p{n}.pdf", content=_small_pdf(n, rng))
        lib.close()
        vault = _vault(Path(tmp))
        assert isinstance(vault, Vault)
        settings = load_settings(vault.config_path)
        marks: list[tuple[float, int, int]] = []

        def progress(done: int, total: int) -> None:
            marks.append((time.perf_counter(), done, total))

        pool = BulkCompiler(vault, settings, workers=workers)
        pool.start()
        started = time.perf_counter()
        result = read_zotero(lib.folder)
        read = time.perf_counter() - started
        report = import_library(vault, settings, result, pool=pool, progress=progress)
        total = time.perf_counter() - started
        pool.close()
        # progress: the records (one count), then the compiles: citation-only notes first
        second = next(i for i in range(1, len(marks)) if marks[i][1] < marks[i - 1][1])
        metadata = read + report.seconds["plan"] + report.seconds["records"]
        citations = marks[second][0] - started - metadata  # the batch before the 1st note
        cited = marks[second + (items - with_pdf) - 1][0] - started
        compiled = sum(o.compiled for o in report.outcomes)
        pdf_seconds = marks[-1][0] - marks[second + (items - with_pdf) - 1][0]
        print(f"2. generated Zotero library: {items} items, {with_pdf} with a 1-page PDF")
        print(f"   metadata in the vault (read {read:.1f} s, plan, records, PDFs copied): "
              f"{metadata:.1f} s (target <= 30 s)")
        print(f"   citations of all {items} works in one pandoc batch: {citations:.1f} s "
              f"({1000 * citations / items:.0f} ms a work, every configured style); every "
              f"citation-only note written by {cited:.1f} s")
        print(f"   PDFs: {compiled} compiled, the last {pdf_seconds:.1f} s after that "
              f"({compiled / max(pdf_seconds, 0.1):.0f} one-page PDFs/s); all done (indexed, "
              f"library.bib) in {total:.1f} s")
        print(f"   report: {report.count('imported')} imported, {report.count('failed')} "
              f"failed, skipped {report.skipped}; phases {report.seconds}")


def _cpu_seconds(root: int) -> dict[str, float]:
    """CPU seconds used so far by ``root`` (the agent), its live child processes (the
    compile workers and helpers) and its finished children (pandoc's citation calls)."""
    tick = os.sysconf("SC_CLK_TCK")
    out = {"agent": 0.0, "workers": 0.0, "finished children": 0.0}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(stat.parent.name)
        if pid == root:
            out["agent"] = (int(fields[11]) + int(fields[12])) / tick
            out["finished children"] = (int(fields[13]) + int(fields[14])) / tick
        elif int(fields[1]) == root:
            out["workers"] += (int(fields[11]) + int(fields[12]) + int(fields[13])
                               + int(fields[14])) / tick
    return out


def _tree_rss_kib(root: int) -> tuple[int, int]:
    """(summed resident memory of ``root`` and its descendants, how many processes)."""
    parent: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    tree, grew = {root}, True
    while grew:
        more = {pid for pid, ppid in parent.items() if ppid in tree} - tree
        tree |= more
        grew = bool(more)
    total = 0
    for pid in tree:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total, len(tree)


def agent_burst(limit: int | None, keep: Path | None = None) -> None:
    """Real PDFs dropped at once into the Inbox of a running agent (docstring, 3.)."""
    import threading

    sys.path.insert(0, str(ROOT / "bench"))
    import daemon as agent_bench  # bench/daemon.py: the offline environment, the queue

    from vaultd.config import default_config_toml
    from vaultd.samplepdf import write_sample_paper
    from vaultd.vault import Vault

    pdfs = _real_pdfs(limit)
    pages = sum(_pages(p) for p in pdfs)
    print(f"3. {len(pdfs)} real PDFs, {pages} pages, dropped at once into a running agent")
    before = _pdftotext(pdfs)
    tmp = Path(tempfile.mkdtemp(prefix="vaultd-bulk-agent-"))
    root = tmp / "vault"
    Vault(root).init(default_config_toml())
    vault = Vault(root)
    state_db = vault.state_db
    started = time.perf_counter()
    proc = agent_bench.start(root, 0.5)
    ready = time.perf_counter() - started
    write_sample_paper(tmp / "warm.pdf")
    started = time.perf_counter()
    agent_bench.drop(root, "warm-up.pdf", (tmp / "warm.pdf").read_bytes())
    agent_bench.wait(lambda: sum(agent_bench.counts(state_db)[1:]) >= 1, 120, "warm-up")
    warm = time.perf_counter() - started
    peak = [0, 0]
    sampling = threading.Event()

    def sample() -> None:
        while not sampling.is_set():
            rss, n = _tree_rss_kib(proc.pid)
            if rss > peak[0]:
                peak[:] = [rss, n]
            time.sleep(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    cpu_before = _cpu_seconds(proc.pid)
    started = time.perf_counter()
    for n, pdf in enumerate(pdfs):
        agent_bench.drop(root, f"{n:03d}-{pdf.name}", pdf.read_bytes())
    total = len(pdfs) + 1
    agent_bench.wait(lambda: sum(agent_bench.counts(state_db)[1:]) >= total, 1800, "the burst")
    took = time.perf_counter() - started
    cpu = {k: v - cpu_before[k] for k, v in _cpu_seconds(proc.pid).items()}
    log = vault.logs_dir / "vaultd.log"
    agent_bench.wait(lambda: "figure crops drawn" in log.read_text(encoding="utf-8"), 600,
                     "the figure crops")
    crops = time.perf_counter() - started

    def enriched() -> int:  # notes the agent's enrichment passes went over
        return sum(int(m) for m in re.findall(r"enrichment pass over (\d+) note",
                                              log.read_text(encoding="utf-8")))

    agent_bench.wait(lambda: enriched() >= total, 600, "the enrichment passes")
    enrich = time.perf_counter() - started
    sampling.set()
    sampler.join()
    _, done, failed = agent_bench.counts(state_db)
    reasons = agent_bench.failures(state_db) if failed else []
    agent_bench.stop(proc)
    after = _pdftotext(pdfs)
    reference = (before + after) / 2
    rate, ref_rate = pages / took, pages / reference
    print(f"   pdftotext -layout, sequential: {before:.1f} s and {after:.1f} s "
          f"-> {ref_rate:.1f} pages/s")
    print(f"   agent: started in {ready:.1f} s; warm-up PDF (starts the compile pool) "
          f"{warm:.1f} s")
    print(f"   burst: every job settled (notes written and indexed) {took:.1f} s after the "
          f"drop -> {rate:.1f} pages/s; {done - 1} done, {failed} failed {reasons[:3]}")
    print(f"   ratio: {rate / ref_rate:.2f}x pdftotext (target >= 0.3x)")
    print("   CPU seconds during the burst: " + ", ".join(f"{k} {v:.1f}" for k, v in cpu.items())
          + f" (of {(os.cpu_count() or 1) * took:.0f} on {os.cpu_count()} cores)")
    # Whatever the load: the burst's CPU spread over every core at best, beside pdftotext's
    # own CPU time (a sequential process: its wall time on an idle core).
    cores, ref_cpu = os.cpu_count() or 1, sum(PDFTOTEXT_CPU[-2:]) / 2
    best = pages / (sum(cpu.values()) / cores)
    print(f"   by CPU time: at best {best:.1f} pages/s on {cores} idle cores (the burst's "
          f"CPU over {cores}) beside pdftotext's {pages / ref_cpu:.1f} pages/s of CPU "
          f"({ref_cpu:.1f} s): {best / (pages / ref_cpu):.2f}x")
    print(f"   figure crops drawn (queue idle) by {crops:.1f} s "
          f"({pages / crops / ref_rate:.2f}x with them)")
    print(f"   enrichment passes (Ollama down: chunks marked pending) over every note by "
          f"{enrich:.1f} s")
    print(f"   peak memory, agent + workers: {peak[0] / 1024:.0f} MiB over {peak[1]} processes "
          "(target < 1024)")
    print(f"   load average at the end {os.getloadavg()[0]:.1f}")
    if keep is not None:  # the vault and its state, to compare two builds
        machine = vault.machine_dir
        shutil.rmtree(keep, ignore_errors=True)
        shutil.move(str(tmp), keep)
        shutil.copytree(machine, keep / "machine")
    shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--with-pdf", type=int, default=1000)
    parser.add_argument("--skip-real", action="store_true")
    parser.add_argument("--agent", action="store_true",
                        help="only: real PDFs dropped into a running agent's Inbox")
    parser.add_argument("--pdfs", type=int, default=None, help="--agent: this many PDFs")
    parser.add_argument("--keep", type=Path, default=None,
                        help="--agent: move the vault (and its state) here afterwards")
    args = parser.parse_args()
    os.environ["VAULTD_EMBEDDING_PROVIDER"] = "none"
    os.environ.setdefault("VAULTD_STATE_DIR", tempfile.mkdtemp(prefix="vaultd-bulk-state-"))
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    if args.agent:
        agent_burst(args.pdfs, args.keep)
        return
    if not args.skip_real:
        real_pdfs(args.workers)
    library(args.items, args.with_pdf, args.workers)


if __name__ == "__main__":
    main()
