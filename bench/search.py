"""Search benchmarks: index throughput, recall latency at 10k/100k passages, MCP cold
start at 10,000 notes, SciFact nDCG@10.

    python3 bench/search.py [--quick] [--skip-mcp] [--skip-scifact]

Passage text comes from SciFact abstracts (../shared/fixtures/ir/scifact), split into
sentences-groups and recombined to reach 100k passages; queries are SciFact's 300
natural-language claims. Vectors for the latency runs are random unit 384-d vectors (the
cost of a KNN does not depend on what the vectors mean); the query embedding time of a
real provider is not included there and is reported separately when a provider is there.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from vaultd.canonical import text_sha256  # noqa: E402
from vaultd.config import Settings, default_config_toml  # noqa: E402
from vaultd.index.rows import Row, insert_row  # noqa: E402
from vaultd.index.search import hybrid_search  # noqa: E402
from vaultd.index.store import IndexDB, open_index  # noqa: E402
from vaultd.vault import Vault  # noqa: E402

SCIFACT = ROOT.parent / "shared" / "fixtures" / "ir" / "scifact"
DIM = 384


def load_scifact() -> tuple[list[dict[str, str]], list[dict[str, str]], dict[str, set[str]]]:
    corpus = [json.loads(line) for line in (SCIFACT / "corpus.jsonl").open()]
    queries = [json.loads(line) for line in (SCIFACT / "queries_test.jsonl").open()]
    qrels: dict[str, set[str]] = {}
    for line in (SCIFACT / "qrels" / "test.tsv").open():
        parts = line.split()
        if len(parts) >= 3 and parts[0] != "query-id" and parts[2] != "0":
            qrels.setdefault(parts[0], set()).add(parts[1])
    return corpus, queries, qrels


class HashEmbedder:
    """Deterministic, model-free embedder: isolates vaultd's own overhead in benchmarks."""

    provider = "bench"
    model = f"hash-{DIM}"

    def _vec(self, text: str) -> list[float]:
        rnd = random.Random(hashlib.sha256(text.encode()).digest())
        v = [rnd.gauss(0, 1) for _ in range(DIM)]
        n = math.sqrt(sum(x * x for x in v))
        return [x / n for x in v]

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._vec(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vec(text)


def passages(corpus: list[dict[str, str]], n: int) -> list[tuple[str, str]]:
    """``n`` (title, text) passages of 2-4 sentences from SciFact abstracts."""
    out: list[tuple[str, str]] = []
    rnd = random.Random(7)
    sents = [(d["title"], [s for s in d["text"].split(". ") if s]) for d in corpus]
    while len(out) < n:
        title, ss = sents[rnd.randrange(len(sents))]
        if not ss:
            continue
        i = rnd.randrange(len(ss))
        out.append((title, ". ".join(ss[i:i + rnd.randint(2, 4)])))
    return out


def build_index(path: Path, texts: list[tuple[str, str]], *, vectors: bool) -> IndexDB:
    db = open_index(path)
    with db.transaction():
        for i, (title, text) in enumerate(texts):
            insert_row(db, Row(hash=text_sha256(f"{i}:{text}"), path=f"wiki/k{i // 10}.md",
                               kind="paper", cite_key=f"k{i // 10}", chunk_id=f"p1s1c{i % 10}",
                               title=title, authors="A. Author", year=2000 + i % 25, page=1,
                               page_label=None, section="Abstract", chunk_type="paragraph",
                               heading=None, line_start=None, line_end=None, mtime=None,
                               text=text))
    if vectors:
        import numpy as np

        rng = np.random.default_rng(1)
        model = "bench:random-384"
        rows = [(int(r), str(h)) for r, h in db.conn.execute("SELECT rowid, hash FROM chunks")]
        mat = rng.standard_normal((len(rows), DIM)).astype(np.float32)
        mat /= np.linalg.norm(mat, axis=1, keepdims=True)
        with db.transaction():
            db.conn.executemany("INSERT INTO vectors(hash, model, dim, vec) VALUES (?,?,?,?)",
                                [(h, model, DIM, mat[i].tobytes()) for i, (_, h) in enumerate(rows)])
            db.set_meta("embed_model", model)
            db.set_meta("embed_provider", "bench")
            db.ensure_vec_table(DIM, model)
            db.conn.executemany("INSERT INTO vec_chunks(rowid, embedding) VALUES (?, ?)",
                                [(r, mat[i].tobytes()) for i, (r, _) in enumerate(rows)])
    return db


class RandomQueryEmbedder:
    provider = "bench"
    model = "random-384"

    def embed_query(self, text: str) -> list[float]:
        rnd = random.Random(text)
        v = [rnd.gauss(0, 1) for _ in range(DIM)]
        n = math.sqrt(sum(x * x for x in v))
        return [x / n for x in v]

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [self.embed_query(t) for t in texts]


def pct(samples: list[float], p: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def timed(fn: Callable[[str], Any], queries: list[str]) -> tuple[float, float]:
    for q in queries[:5]:
        fn(q)  # warm caches (page cache, warm matrix, tokenizer)
    ms = []
    for q in queries:
        t0 = time.perf_counter()
        fn(q)
        ms.append((time.perf_counter() - t0) * 1000)
    return pct(ms, 50), pct(ms, 95)


def _latencies(db: IndexDB, queries: list[str]) -> list[tuple[float, float]]:
    emb = RandomQueryEmbedder()
    return [timed(lambda q: hybrid_search(db, q, limit=10), queries),
            timed(lambda q: hybrid_search(db, q, limit=10, embedder=emb, warm=True), queries),
            timed(lambda q: hybrid_search(db, q, limit=10, embedder=emb), queries[:60]),
            timed(lambda q: hybrid_search(db, q, limit=10, embedder=emb, warm=True,
                                          rescore=False), queries)]


def bench_latency(corpus: list[dict[str, str]], queries: list[str], sizes: list[int]) -> None:
    for n in sizes:
        with tempfile.TemporaryDirectory() as d:
            t0 = time.perf_counter()
            db = build_index(Path(d) / "index.db", passages(corpus, n), vectors=True)
            build = time.perf_counter() - t0
            bm, hy_warm, hy_vec0, one_sided = _latencies(db, queries)
            print(f"latency @ {n:>7,} passages (built in {build:.1f}s): "
                  f"BM25 p50 {bm[0]:.1f} ms p95 {bm[1]:.1f} ms | "
                  f"hybrid(warm matrix) p50 {hy_warm[0]:.1f} p95 {hy_warm[1]:.1f} ms | "
                  f"hybrid(sqlite-vec) p50 {hy_vec0[0]:.1f} p95 {hy_vec0[1]:.1f} ms | "
                  f"hybrid(warm, rescore=False) p50 {one_sided[0]:.1f} "
                  f"p95 {one_sided[1]:.1f} ms")
            db.close()


def make_vault(root: Path, corpus: list[dict[str, str]], notes: int, per_note: int) -> Vault:
    import importlib

    paper = importlib.import_module("test_index_support").paper  # tests/ is on sys.path

    vault = Vault(root)
    vault.init(default_config_toml())
    rnd = random.Random(3)
    for i in range(notes):
        d = corpus[i % len(corpus)]
        ss = [s for s in d["text"].split(". ") if s] or [d["title"]]
        chunks = [(f"p1s1c{j + 1}", 1, "Abstract", ". ".join(ss[j::per_note]) or d["title"])
                  for j in range(per_note)]
        paper(vault, f"doc{i:05d}", d["title"], [("Ada", f"Author{rnd.randrange(500)}")],
              1990 + i % 35, chunks)
    return vault


def bench_throughput(corpus: list[dict[str, str]], notes: int) -> None:
    from vaultd.pipeline.index import index_vault

    with tempfile.TemporaryDirectory() as d:
        vault = make_vault(Path(d) / "v", corpus, notes, 5)
        s = index_vault(vault, Settings(), embedder=None)
        print(f"index build, BM25 only: {s.chunks_total} passages from {notes} notes in "
              f"{s.seconds:.1f}s = {s.chunks_total / s.seconds:,.0f} passages/s (parse+FTS)")
        s2 = index_vault(vault, Settings(), rebuild=True, embedder=HashEmbedder())
        print(f"index build + embeddings (in-process hash embedder, {DIM}-d): "
              f"{s2.chunks_total / s2.seconds:,.0f} passages/s (vaultd overhead; a real model "
              "adds its own time)")
    st = _sentence_transformer()
    if st is not None:
        with tempfile.TemporaryDirectory() as d:
            small = make_vault(Path(d) / "v", corpus, 200, 5)
            st.embed_documents(["warm up"])  # model load is not indexing
            s3 = index_vault(small, Settings(), embedder=st)
            print(f"index build + sentence-transformers all-MiniLM-L6-v2 (CPU): "
                  f"{s3.chunks_total / s3.seconds:,.0f} passages/s ({s3.chunks_total} passages)")


EMBED_CACHE = Path(tempfile.gettempdir()) / "vaultd-bench-scifact-minilm.json"


class CachedEmbedder:
    """Wraps a real embedder; document vectors persist in ``EMBED_CACHE`` across runs."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.provider, self.model = inner, inner.provider, inner.model
        self.cache: dict[str, list[float]] = (
            json.loads(EMBED_CACHE.read_text()) if EMBED_CACHE.exists() else {})

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        keys = [hashlib.sha256(f"{self.model}\0{t}".encode()).hexdigest() for t in texts]
        todo = [t for t, k in zip(texts, keys, strict=True) if k not in self.cache]
        if todo:
            for t, v in zip(todo, self.inner.embed_documents(todo), strict=True):
                self.cache[hashlib.sha256(f"{self.model}\0{t}".encode()).hexdigest()] = v
            self.dirty = True
        return [self.cache[k] for k in keys]

    def flush(self) -> None:
        if getattr(self, "dirty", False):
            EMBED_CACHE.write_text(json.dumps(self.cache))

    def embed_query(self, text: str) -> list[float]:
        return list(self.inner.embed_query(text))


def _sentence_transformer() -> Any:
    try:
        import sentence_transformers  # noqa: F401
    except ImportError:
        print("sentence-transformers not installed: real-model figures skipped")
        return None
    from vaultd.index.embed import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder("all-MiniLM-L6-v2")


def bench_mcp_cold_start(corpus: list[dict[str, str]], notes: int) -> None:
    from vaultd.pipeline.index import index_vault

    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        vault = make_vault(Path(d) / "v", corpus, notes, 3)
        stats = index_vault(vault, Settings(), embedder=None)
        print(f"MCP vault: {notes} notes, {stats.chunks_total} passages "
              f"(written+indexed in {time.perf_counter() - t0:.0f}s)")
        code = (
            "import sys,time,anyio\n"
            "from mcp import Client, StdioServerParameters\n"
            "async def go():\n"
            "    p = StdioServerParameters(command=sys.executable, args=['-m','vaultd','--vault',"
            f"{str(vault.root)!r},'mcp'], env={{'VAULTD_EMBEDDING_PROVIDER':'none',"
            "'PATH':'/usr/bin:/bin'})\n"
            "    t0 = time.perf_counter()\n"
            "    async with Client(p) as c:\n"
            "        t1 = time.perf_counter()\n"
            "        r = await c.call_tool('recall', {'query': 'tumour suppressor gene mutation'})\n"
            "        t2 = time.perf_counter()\n"
            "        assert not r.is_error, r\n"
            "        print(f'{(t1-t0)*1000:.0f} {(t2-t1)*1000:.0f} {(t2-t0)*1000:.0f}')\n"
            "anyio.run(go)\n")
        runs = []
        for _ in range(3):
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                 timeout=120, check=True).stdout.split()
            runs.append([float(x) for x in out])
        best = min(runs, key=lambda r: r[2])
        print(f"MCP cold start at {notes} notes (spawn → initialised → first recall answer), "
              f"best of 3: handshake {best[0]:.0f} ms + first recall {best[1]:.0f} ms = "
              f"{best[2]:.0f} ms")


def ndcg10(ranked: list[str], relevant: set[str]) -> float:
    dcg = sum(1 / math.log2(i + 2) for i, d in enumerate(ranked[:10]) if d in relevant)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(10, len(relevant))))
    return dcg / ideal if ideal else 0.0


def scifact_index(path: Path, corpus: list[dict[str, str]]) -> IndexDB:
    """A local index of SciFact: one passage per abstract, keyed by the document id."""
    db = open_index(path)
    with db.transaction():
        for doc in corpus:
            insert_row(db, Row(hash=text_sha256(doc["text"] or doc["title"]),
                               path=f"wiki/{doc['_id']}.md", kind="paper",
                               cite_key=doc["_id"], chunk_id="c1", title=doc["title"],
                               authors=None, year=None, page=1, page_label=None,
                               section=None, chunk_type="paragraph", heading=None,
                               line_start=None, line_end=None, mtime=None,
                               text=doc["text"] or doc["title"]))
    return db


def bench_scifact(corpus: list[dict[str, str]], queries: list[dict[str, str]],
                  qrels: dict[str, set[str]]) -> None:
    import vaultd.index.search as search

    with tempfile.TemporaryDirectory() as d:
        db = scifact_index(Path(d) / "index.db", corpus)
        judged = [q for q in queries if q["_id"] in qrels]

        def run(label: str, prior: bool = True) -> None:
            scores = [ndcg10([h.cite_key or "" for h in hybrid_search(
                db, q["text"], limit=10, type_prior=prior)], qrels[q["_id"]]) for q in judged]
            print(f"SciFact nDCG@10, BM25 ({label}): {statistics.mean(scores):.3f} "
                  f"over {len(judged)} queries")

        run(f"pruned: rarest {search.MAX_TERMS} terms, drop terms in >{search.COMMON_FRACTION:.0%}")
        run("the same without the passage-type prior", prior=False)
        keep = (search.MAX_TERMS, search.COMMON_FRACTION)
        search.MAX_TERMS, search.COMMON_FRACTION = 64, 1.0
        run("all non-stop-word terms")
        search.MAX_TERMS, search.COMMON_FRACTION = keep
        st = _sentence_transformer()
        if st is not None:
            from vaultd.pipeline.index import embed_missing

            t0 = time.perf_counter()
            cached = CachedEmbedder(st)
            embed_missing(db, cached)
            cached.flush()
            print(f"SciFact: embedded {len(corpus)} abstracts (title + text) with "
                  f"all-MiniLM-L6-v2 in {time.perf_counter() - t0:.0f}s (cache: {EMBED_CACHE})")
            fixed = search.BM25_SHARE
            for label, share, rescore in (
                    ("vectors alone", 0.0, False),
                    (f"hybrid, one-sided fusion (BM25 share {fixed}, rescore=False; before)",
                     fixed, False),
                    (f"hybrid, shipped fusion (BM25 share {fixed}, every candidate scored "
                     "on both sides)", fixed, True)):
                scores = [ndcg10([h.cite_key or "" for h in hybrid_search(
                    db, q["text"], limit=10, embedder=st, warm=True, bm25_share=share,
                    rescore=rescore)], qrels[q["_id"]]) for q in judged]
                halves = [statistics.mean(scores[i::2]) for i in (0, 1)]
                print(f"SciFact nDCG@10, {label}: {statistics.mean(scores):.3f} "
                      f"(alternate-query halves A/B {halves[0]:.3f}/{halves[1]:.3f})")
        db.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="10k passages only, 1,000-note MCP vault")
    ap.add_argument("--skip-mcp", action="store_true")
    ap.add_argument("--skip-scifact", action="store_true")
    args = ap.parse_args()
    corpus, queries, qrels = load_scifact()
    qtexts = [q["text"] for q in queries]
    bench_throughput(corpus, 400 if args.quick else 2000)
    bench_latency(corpus, qtexts, [10_000] if args.quick else [10_000, 100_000])
    if not args.skip_mcp:
        bench_mcp_cold_start(corpus, 1000 if args.quick else 10_000)
    if not args.skip_scifact:
        bench_scifact(corpus, queries, qrels)


if __name__ == "__main__":
    main()
