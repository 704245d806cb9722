"""Hybrid search quality and its error paths."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path

import httpx
import pytest
from test_index_support import ollama_transport, sample_vault

from vaultd.config import Settings
from vaultd.errors import InputError
from vaultd.index.embed import OllamaEmbedder
from vaultd.index.hits import Hit, excerpt
from vaultd.index.search import Filters, fuse, hybrid_search, query_terms
from vaultd.index.store import IndexDB, open_index
from vaultd.pipeline.index import index_vault
from vaultd.vault import Vault, atomic_write_text

PARAPHRASE = "how to stop networks memorising by removing neurons while learning"


def _embedder() -> OllamaEmbedder:
    return OllamaEmbedder("http://ollama.test", client=httpx.Client(transport=ollama_transport()))


@pytest.fixture
def db(vault: Vault) -> IndexDB:
    sample_vault(vault)
    index_vault(vault, Settings(), embedder=_embedder())
    return open_index(vault.index_db)


def test_distinctive_phrase_returns_its_chunk_first(db: IndexDB) -> None:
    hits = hybrid_search(db, "Scaled Dot-Product Attention")
    assert (hits[0].cite_key, hits[0].chunk_id, hits[0].page, hits[0].page_label) == (
        "vaswani2017attention", "p3s2c1", 3, "103")
    assert hits[0].section == "3.2 Attention" and hits[0].title == "Attention Is All You Need"


def test_natural_language_question_with_stop_words_still_finds_the_passage(db: IndexDB) -> None:
    hits = hybrid_search(db, "what is it that the model does about the absolute position of the tokens?")
    assert hits[0].chunk_id == "p5s3c1"


def test_paraphrase_sharing_only_a_generic_word_ranks_higher_with_vectors(db: IndexDB) -> None:
    def rank(hits: list[Hit]) -> int:
        return [(h.cite_key, h.chunk_id) for h in hits].index(
            ("srivastava2014dropout", "p2s2c1"))

    keyword_only = hybrid_search(db, PARAPHRASE)  # shares only "networks" with the passage
    hybrid = hybrid_search(db, PARAPHRASE, embedder=_embedder())
    assert rank(hybrid) < rank(keyword_only)
    assert hybrid[0].cite_key == "srivastava2014dropout"
    assert "vector" in hybrid[0].matched
    warm = hybrid_search(db, PARAPHRASE, embedder=_embedder(), warm=True)
    assert [h.chunk_id for h in warm] == [h.chunk_id for h in hybrid]


def test_user_notes_are_recalled_with_path_heading_and_lines(db: IndexDB) -> None:
    hit = hybrid_search(db, "zebra-striped gradient")[0]
    assert (hit.kind, hit.path, hit.section, hit.line_start, hit.line_end) == (
        "note", "Projects/thesis.md", "Open questions", 10, 11)


def test_filters_narrow_by_key_author_year_and_kind(db: IndexDB) -> None:
    q = "neural networks"
    assert {h.cite_key for h in hybrid_search(db, q, filters=Filters(cite_key="srivastava2014dropout"))} == {"srivastava2014dropout"}
    assert {h.cite_key for h in hybrid_search(db, q, filters=Filters(author="Vaswani"))} == {"vaswani2017attention"}
    assert {h.year for h in hybrid_search(db, q, filters=Filters(year_min=2015, year_max=2020))} == {2017}
    assert {h.kind for h in hybrid_search(db, "dropout", filters=Filters(kind="note"))} == {"note"}
    with pytest.raises(InputError, match="paper or note"):
        hybrid_search(db, q, filters=Filters(kind="video"))


def test_empty_query_and_out_of_range_limit_are_input_errors(db: IndexDB) -> None:
    with pytest.raises(InputError, match="empty query"):
        hybrid_search(db, "   ")
    for bad in (0, 21):
        with pytest.raises(InputError, match=r"1\.\.20"):
            hybrid_search(db, "attention", limit=bad)


def test_query_of_only_stop_words_returns_nothing_rather_than_everything(db: IndexDB) -> None:
    assert hybrid_search(db, "the of and") == []


def test_recency_boost_lifts_the_recently_edited_user_note(vault: Vault) -> None:
    for name in ("old.md", "new.md"):
        atomic_write_text(vault.root / name, "# Idea\n\nquokka habitat survey notes\n")
    week = time.time() - 400 * 86400
    os.utime(vault.root / "old.md", (week, week))
    index_vault(vault, Settings(), embedder=None)
    db = open_index(vault.index_db)
    first = hybrid_search(db, "quokka habitat", filters=Filters(recency_half_life_days=30))[0]
    assert first.path == "new.md"


def test_excerpt_is_at_most_400_chars_and_centred_on_the_match() -> None:
    text = ("filler words " * 100) + "the zebra crossing appears here " + ("tail words " * 100)
    ex = excerpt(text, ["zebra"], "zebra crossing")
    assert len(ex) <= 400 and "zebra crossing" in ex and ex.startswith("…") and ex.endswith("…")
    assert excerpt("short text", ["short"]) == "short text"


def test_distinctive_phrase_still_comes_first_with_vectors_on(db: IndexDB) -> None:
    for warm in (False, True):
        hits = hybrid_search(db, "Scaled Dot-Product Attention", embedder=_embedder(), warm=warm)
        assert (hits[0].cite_key, hits[0].chunk_id) == ("vaswani2017attention", "p3s2c1")
        assert hits[0].matched == ["bm25", "vector"]  # three words: a keyword query


def test_passage_found_by_keywords_and_vectors_outranks_one_found_by_either_alone() -> None:
    fused, sources = fuse({"bm25": [(1, 9.0), (2, 6.0), (3, 3.0)],
                           "vector": [(4, 0.8), (2, 0.7), (5, 0.2)]}, 0.5)
    assert max(fused, key=lambda r: fused[r]) == 2
    assert sources[2] == ["bm25", "vector"] and sources[4] == ["vector"]
    keyword_only, _ = fuse({"bm25": [(1, 9.0), (2, 6.0)]}, 1.0)
    assert keyword_only == {1: 1.0, 2: 6.0 / 9.0}


def test_ordinary_questions_keep_every_content_word_for_keyword_search(db: IndexDB) -> None:
    question = ("does removing random neurons during training with dropout reduce "
                "overfitting of deep attention networks on translation")
    assert len(query_terms(db, question)) == len(set(query_terms(db, question)))
    present = [t for t in ("dropout", "attent", "train", "network", "overfit")
               if db.conn.execute("SELECT 1 FROM chunks_vocab WHERE term = ?", (t,)).fetchone()]
    assert set(present) <= set(query_terms(db, question))


class _MarkerEmbedder:
    """Places passages on a 2-d plane by a marker word, so the test states their meaning."""

    provider = "test"
    model = "marker-2d"

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._vec(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return [1.0, 0.0]  # "what do quokkas eat"

    @staticmethod
    def _vec(text: str) -> list[float]:
        if "wallaby" in text:  # about feeding, but never says "quokka"
            return [0.98, 0.199]
        if "grazing" in text:  # about a quokka's feeding: the answer
            return [0.9, 0.436]
        if "quokka" in text:  # says "quokka" a lot, about something else
            return [0.0, 1.0]
        return [-0.6, 0.8]


def _feeding_vault(vault: Vault) -> IndexDB:
    sightings = "".join(f"## Sighting {i}\n\nquokka quokka seen near the jetty\n\n"
                        for i in range(60))
    atomic_write_text(vault.root / "sightings.md", "# Sightings\n\n" + sightings)
    meetings = "".join(f"## Meeting {i}\n\nbudget review and hiring plan {i}\n\n"
                       for i in range(150))
    atomic_write_text(vault.root / "meetings.md", "# Meetings\n\n" + meetings)
    atomic_write_text(vault.root / "feeding.md", (
        "# Feeding\n\nAt dusk the small marsupial leaves its shelter under the shrubs and "
        "spends hours grazing on grasses, sedges and the leaves of young plants; in the "
        "dry summer months the quokka gets most of its water from this succulent "
        "vegetation and can go for weeks without drinking.\n"))
    atomic_write_text(vault.root / "wallaby.md", (
        "# Wallaby\n\nThe wallaby browses on shrubs and grasses at night.\n"))
    index_vault(vault, Settings(), embedder=_MarkerEmbedder())
    return open_index(vault.index_db)


def test_passage_near_in_meaning_that_also_has_the_keyword_wins_even_past_the_keyword_top_50(
        vault: Vault) -> None:
    # 60 short notes say "quokka" more often than the answer does, so the answer is not in
    # the keyword side's top 50; it is found by its vector and, scored on both sides, beats
    # the passage that is a little nearer in meaning but never says "quokka".
    db = _feeding_vault(vault)
    for warm in (False, True):
        hits = hybrid_search(db, "quokka", embedder=_MarkerEmbedder(), warm=warm)
        assert hits[0].path == "feeding.md"
        assert hits[0].matched == ["bm25", "vector"]
        one_sided = hybrid_search(db, "quokka", embedder=_MarkerEmbedder(), warm=warm,
                                  rescore=False)
        # one-sided, the answer scores 0 on keywords: below the 60 sightings and the wallaby
        assert "feeding.md" not in [h.path for h in one_sided]


def _passages(path: Path, texts: dict[str, tuple[str, str]]) -> IndexDB:
    from vaultd.canonical import text_sha256
    from vaultd.index.rows import Row, insert_row

    index = open_index(path)
    with index.transaction():
        for chunk_id, (chunk_type, text) in texts.items():
            insert_row(index, Row(hash=text_sha256(text), path="wiki/k.md", kind="paper",
                                  cite_key="k", chunk_id=chunk_id, title="T", authors=None,
                                  year=None, page=1, page_label=None, section=None,
                                  chunk_type=chunk_type, heading=None, line_start=None,
                                  line_end=None, mtime=None, text=text))
    return index


def test_a_pasted_sentence_finds_the_paragraph_it_came_from_before_a_heading(tmp_path: Path) -> None:
    index = _passages(tmp_path / "index.db", {
        "p1s1c1": ("heading", "Ultra light bosonic dark matter in a non-condensate state"),
        "p4s4c2": ("paragraph", "We conclude that ultra light bosonic dark matter in a "
                                "non-condensate state could be possible, given the CMB data."),
        "p2s2c1": ("paragraph", "Dark matter candidates are many; bosons are one family."),
    })
    pasted = "Ultra Light Bosonic Dark Matter in a non-condensate state could be possible"
    hits = hybrid_search(index, pasted, limit=3)
    assert hits[0].chunk_id == "p4s4c2" and "phrase" in hits[0].matched
    assert all("phrase" not in h.matched for h in hits[1:])
    # BM25 alone prefers the short heading: the phrase rule is what puts the source first
    words = hybrid_search(index, "ultra light bosonic dark matter non-condensate", limit=3,
                          type_prior=False)
    assert words[0].chunk_id == "p1s1c1" and all("phrase" not in h.matched for h in words)
    # with the passage-type prior (the default) the paragraph outranks the heading too
    typed = hybrid_search(index, "ultra light bosonic dark matter non-condensate", limit=3)
    assert typed[0].chunk_id == "p4s4c2"
    # five words are a keyword query, not a sentence
    short = hybrid_search(index, "ultra light bosonic dark matter")
    assert all("phrase" not in h.matched for h in short)


def test_a_title_search_does_not_float_the_reference_entries_that_cite_it(tmp_path: Path) -> None:
    title = "Dropout: a simple way to prevent neural networks from overfitting"
    index = _passages(tmp_path / "index.db", {
        "p9s9c1": ("reference", f"[12] N. Srivastava et al. {title}. JMLR 15, 2014."),
        "p2s2c1": ("paragraph", f"{title} is what the authors set out to show, with units "
                                "dropped at random while training."),
    })
    hits = hybrid_search(index, title, limit=2)
    assert [("phrase" in h.matched) for h in hits] == [
        h.chunk_id == "p2s2c1" for h in hits]
    assert hits[0].chunk_id == "p2s2c1"
