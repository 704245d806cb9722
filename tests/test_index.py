"""Index store and incremental indexing of paper notes and the user's own notes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_index_support import ATTENTION, ollama_transport, paper, sample_vault

from vaultd.config import Settings
from vaultd.index.embed import OllamaEmbedder
from vaultd.index.rows import Row, sync_doc
from vaultd.index.search import hybrid_search
from vaultd.index.store import CHUNK_COLUMNS, index_status, open_index
from vaultd.index.usernotes import split_sections
from vaultd.pipeline.index import index_paths, index_vault
from vaultd.vault import Vault, atomic_write_text


def _embedder(calls: list[int]) -> OllamaEmbedder:
    return OllamaEmbedder("http://ollama.test", client=httpx.Client(transport=ollama_transport(calls)))


def _rows(vault: Vault) -> set[tuple[str, str, str]]:
    db = open_index(vault.index_db)
    try:
        return {(str(p), str(c), str(h)) for p, c, h in
                db.conn.execute("SELECT path, chunk_id, hash FROM chunks")}
    finally:
        db.close()


def test_index_holds_every_paper_chunk_and_user_note_section(vault: Vault) -> None:
    sample_vault(vault)
    stats = index_vault(vault, Settings(), embedder=None)
    rows = _rows(vault)
    assert {(p, c) for p, c, _ in rows if p.startswith("wiki/")} == {
        ("wiki/vaswani2017attention.md", "p1s1c1"), ("wiki/vaswani2017attention.md", "p3s2c1"),
        ("wiki/vaswani2017attention.md", "p5s3c1"), ("wiki/srivastava2014dropout.md", "p1s1c1"),
        ("wiki/srivastava2014dropout.md", "p2s2c1")}
    # thesis.md: frontmatter is 3 lines, so "Intro paragraph" is line 6.
    assert {c for p, c, _ in rows if p == "Projects/thesis.md"} == {"L6-6", "L10-11", "L15-15"}
    assert stats.chunks_total == 8
    status = index_status(vault)
    assert (status["papers"], status["user_notes"], status["chunks"]) == (2, 1, 8)
    assert status["enrichment_pending"] == 5  # every paper chunk: no LLM has run yet


def test_second_run_on_unchanged_vault_reads_nothing(vault: Vault) -> None:
    sample_vault(vault)
    index_vault(vault, Settings(), embedder=None)
    again = index_vault(vault, Settings(), embedder=None)
    assert (again.changed, again.chunks_added, again.chunks_removed) == (0, 0, 0)


def test_editing_one_chunk_reindexes_only_that_chunk_and_embeds_only_its_text(vault: Vault) -> None:
    sample_vault(vault)
    calls: list[int] = []
    index_vault(vault, Settings(), embedder=_embedder(calls))
    assert sum(calls) == 8
    changed = [*ATTENTION[:2], (ATTENTION[2][0], 5, "3.5 Positional Encoding",
                                "Positional encodings are added to the input embeddings.")]
    paper(vault, "vaswani2017attention", "Attention Is All You Need",
          [("Ashish", "Vaswani"), ("Noam", "Shazeer")], 2017, changed)
    calls.clear()
    stats = index_vault(vault, Settings(), embedder=_embedder(calls))
    assert (stats.changed, stats.chunks_added, stats.chunks_removed) == (1, 1, 1)
    assert sum(calls) == 1
    assert index_status(vault)["vectors"] == 8


def test_renamed_note_moves_rows_without_re_embedding(vault: Vault) -> None:
    sample_vault(vault)
    calls: list[int] = []
    index_vault(vault, Settings(), embedder=_embedder(calls))
    old = vault.root / "Projects" / "thesis.md"
    old.rename(vault.root / "Projects" / "dissertation.md")
    calls.clear()
    stats = index_vault(vault, Settings(), embedder=_embedder(calls))
    assert stats.removed == 1 and sum(calls) == 0
    paths = {p for p, _, _ in _rows(vault)}
    assert "Projects/thesis.md" not in paths and "Projects/dissertation.md" in paths


def test_deleted_paper_note_disappears_from_search(vault: Vault) -> None:
    sample_vault(vault)
    index_vault(vault, Settings(), embedder=None)
    vault.note_path("srivastava2014dropout").unlink()
    index_paths(vault, Settings(), [vault.note_path("srivastava2014dropout")], embedder=None)
    db = open_index(vault.index_db)
    hits = hybrid_search(db, "randomly drop units")
    assert all(h.cite_key != "srivastava2014dropout" for h in hits)
    assert index_status(vault)["papers"] == 1


def test_rebuild_starts_from_an_empty_index(vault: Vault) -> None:
    sample_vault(vault)
    index_vault(vault, Settings(), embedder=None)
    stats = index_vault(vault, Settings(), rebuild=True, embedder=None)
    assert stats.changed == 3 and stats.chunks_total == 8


def test_ollama_down_still_indexes_keywords_and_says_why(vault: Vault) -> None:
    sample_vault(vault)

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    emb = OllamaEmbedder("http://127.0.0.1:9", client=httpx.Client(transport=httpx.MockTransport(refuse)))
    stats = index_vault(vault, Settings(), embedder=emb)
    assert stats.chunks_total == 8 and stats.embedded == 0
    assert any("ollama serve" in w for w in stats.warnings)


def test_without_sqlite_vec_search_is_keyword_only_and_status_says_so(vault: Vault) -> None:
    sample_vault(vault)
    index_vault(vault, Settings(), embedder=None)
    db = open_index(vault.index_db, load_vec=False)
    assert not db.vec_available and db.vec_error
    hits = hybrid_search(db, "scaled dot-product attention")
    assert hits[0].chunk_id == "p3s2c1"


def test_status_of_a_vault_never_indexed_hints_at_vaultd_index(vault: Vault) -> None:
    status = index_status(vault)
    assert status["exists"] is False and "vaultd index" in status["hint"]


def test_user_notes_skip_raw_state_and_inbox(vault: Vault) -> None:
    for rel in ("raw/x.md", ".vaultd/x.md", "Inbox/x.md", ".obsidian/x.md", "Ideas.md"):
        atomic_write_text(vault.root / rel, "# H\n\nunique-marker-word here\n")
    index_vault(vault, Settings(), embedder=None)
    assert {p for p, _, _ in _rows(vault)} == {"Ideas.md"}


def test_headings_inside_code_fences_do_not_split_sections() -> None:
    text = "# A\n\ntext\n\n```\n# not a heading\n```\n\n## B\n\nmore\n"
    sections = split_sections(text)
    assert [(s.heading, s.line_start, s.line_end) for s in sections] == [("A", 3, 7), ("B", 11, 11)]


@given(st.lists(st.sampled_from(["# T", "## U", "", "plain text", "- item", "```", "x y"]),
                max_size=30))
def test_sections_cover_only_real_lines_in_order(lines: list[str]) -> None:
    text = "\n".join(lines)
    sections = split_sections(text)
    src = text.splitlines()
    prev = 0
    for s in sections:
        assert prev < s.line_start <= s.line_end <= len(src)
        assert s.text == "\n".join(src[s.line_start - 1:s.line_end]).strip()
        prev = s.line_end


def test_index_without_vault_fails_with_init_hint(tmp_path: Path) -> None:
    from vaultd.errors import VaultError

    with pytest.raises(VaultError, match="vaultd init"):
        index_vault(Vault(tmp_path / "nope"), Settings(), embedder=None)


def test_enrichment_change_updates_rows_in_place_without_reindexing(vault: Vault) -> None:
    sample_vault(vault)
    index_vault(vault, Settings(), embedder=None)
    path = "wiki/vaswani2017attention.md"
    db = open_index(vault.index_db)
    try:
        cols = ", ".join(CHUNK_COLUMNS)
        before = {str(r[0]): int(r[1]) for r in db.conn.execute(
            "SELECT chunk_id, rowid FROM chunks WHERE path = ?", (path,))}
        rows = [Row(*r) for r in db.conn.execute(
            f"SELECT {cols} FROM chunks WHERE path = ? ORDER BY chunk_id", (path,))]
        enriched = [replace(r, enrichment="llama3.2:3b/v1") if r.kind == "paper" else r
                    for r in rows]
        with db.conn:
            assert sync_doc(db, path, enriched) == (0, 0)  # nothing deleted or re-inserted
        after = {str(r[0]): (int(r[1]), r[2]) for r in db.conn.execute(
            "SELECT chunk_id, rowid, enrichment FROM chunks WHERE path = ?", (path,))}
        assert {k: v[0] for k, v in after.items()} == before
        assert {v[1] for v in after.values()} == {"llama3.2:3b/v1"}
        hits = hybrid_search(db, "scaled dot-product attention")
        assert hits[0].chunk_id == "p3s2c1"
        retitled = [replace(r, title="Attention Is Everything") for r in enriched]
        with db.conn:
            assert sync_doc(db, path, retitled) == (3, 3)  # title feeds FTS: re-indexed
    finally:
        db.close()
    assert index_status(vault)["enrichment_pending"] == 2


def test_a_note_typed_after_a_quote_is_found_with_that_quotes_page(vault: Vault) -> None:
    sample_vault(vault)
    path = vault.note_path("vaswani2017attention")
    text = path.read_text(encoding="utf-8")
    mine = "Ask Ada whether the warmup schedule matters here.\n"
    marker = "<!-- /chunk -->\n\n"
    first_end = text.index(marker) + len(marker)
    atomic_write_text(path, text[:first_end] + mine + text[first_end:])
    index_vault(vault, Settings(), embedder=None)
    db = open_index(vault.index_db)
    try:
        hits = hybrid_search(db, "warmup schedule")
    finally:
        db.close()
    assert hits and hits[0].excerpt.startswith("Ask Ada whether the warmup schedule")
    assert (hits[0].kind, hits[0].cite_key) == ("note", "vaswani2017attention")
    assert hits[0].page == ATTENTION[0][1]  # the page of the quote it was typed after
    from vaultd.errors import InputError
    from vaultd.lookup import quote
    from vaultd.pipeline.citations import renderer_for

    with pytest.raises(InputError, match="own note, not a quote"):
        quote(vault, "vaswani2017attention", hits[0].chunk_id,
              renderer=renderer_for(vault, None))


class _DownEmbedder:
    """An embedding provider that is not running (Ollama stopped)."""

    provider, model = "ollama", "nomic-embed-text"

    def __init__(self) -> None:
        self.calls = 0

    def embed_documents(self, texts: object) -> list[list[float]]:
        from vaultd.errors import LLMUnavailableError

        self.calls += 1
        raise LLMUnavailableError("Ollama at http://127.0.0.1:9 is not reachable")

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def test_a_compile_does_not_wait_on_an_embedding_provider_just_found_down(vault: Vault) -> None:
    sample_vault(vault)
    down = _DownEmbedder()
    index_vault(vault, Settings(), embedder=down)  # full run: tries, finds it down
    assert down.calls == 1
    note = vault.note_path("vaswani2017attention")
    atomic_write_text(note, note.read_text(encoding="utf-8") + "\nMore of my notes.\n")
    stats = index_paths(vault, Settings(), [note], embedder=down)  # after a compile
    assert down.calls == 1  # not asked again so soon
    assert any("was unreachable; tried again after" in w for w in stats.warnings)
    index_vault(vault, Settings(), embedder=down)  # the agent's reconcile always tries
    assert down.calls == 2


def test_a_quote_running_onto_the_next_page_is_located_by_its_page_range() -> None:
    from vaultd.models import Provenance
    from vaultd.notes.pages import page_locator

    def prov(label: str | None, regions: list[list[int | float]] | None) -> Provenance:
        return Provenance(page=4, page_label=label, text_sha256="x", char_range=[0, 1],
                          chunk_type="paragraph", parser="pymupdf", regions=regions)

    across = [[4, 72.0, 60.0, 290.0, 120.0], [5, 72.0, 700.0, 290.0, 760.0]]
    assert page_locator(prov("112", across)) == "112–113"  # printed labels counted on
    assert page_locator(prov(None, across)) == "4–5"
    # roman labels are not counted on: the PDF's own pages, said to be the PDF's
    assert page_locator(prov("iv", across)) == "4–5 of the PDF"
    same_page = [[4, 72.0, 60.0, 290.0, 120.0], [4, 310.0, 700.0, 530.0, 760.0]]
    assert page_locator(prov("112", same_page)) == "112"
    assert page_locator(prov("112", None)) == "112"


def test_a_page_label_of_superscript_digits_is_not_counted_on() -> None:
    from vaultd.models import Provenance
    from vaultd.notes.pages import page_locator

    prov = Provenance(page=4, page_label="²", text_sha256="x", char_range=[0, 1],
                      chunk_type="paragraph", parser="pymupdf",
                      regions=[[4, 0.0, 0.0, 1.0, 1.0], [5, 0.0, 0.0, 1.0, 1.0]])
    # "²".isdigit() is true, but it is no page number: the PDF's pages, said so
    assert page_locator(prov) == "4–5 of the PDF"
