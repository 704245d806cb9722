"""Search quality on real papers: the fixture PDFs compiled and indexed as a user would."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from _papers import stage_pdf, text_layer_pdfs

from vaultd.config import Settings, default_config_toml
from vaultd.index.hits import Hit
from vaultd.index.search import hybrid_search
from vaultd.index.store import IndexDB, open_index
from vaultd.models import Chunk, MetaFile
from vaultd.notes.reader import parse_note
from vaultd.pipeline.compile import compile_note
from vaultd.pipeline.index import index_vault
from vaultd.vault import Vault


@pytest.fixture(scope="module")
def papers(fixtures_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Vault:
    vault = Vault(tmp_path_factory.mktemp("papers") / "vault")
    vault.init(default_config_toml())
    pdfs = text_layer_pdfs(fixtures_dir)
    assert len(pdfs) >= 5
    for n, pdf in enumerate(pdfs):
        stage_pdf(vault, f"paper{n}", pdf)
        compile_note(vault, Settings(), f"paper{n}")
    index_vault(vault, Settings(), embedder=None)
    return vault


@pytest.fixture
def db(papers: Vault) -> Iterator[IndexDB]:
    index = open_index(papers.index_db)
    yield index
    index.close()


def _paragraphs(vault: Vault) -> list[tuple[str, Chunk]]:
    out = []
    for note in sorted(vault.wiki.glob("*.md")):
        parsed = parse_note(note.read_text(encoding="utf-8"))
        out += [(note.stem, c) for c in parsed.chunks if c.provenance.chunk_type == "paragraph"]
    return out


def _key_of(hit: Hit) -> str:
    return f"{hit.cite_key}/{hit.chunk_id}"


def test_a_sentence_copied_from_a_paper_finds_its_passage_first(papers: Vault, db: IndexDB) -> None:
    # Twelve consecutive words from inside each paragraph of every fixture paper, as a
    # user pasting a remembered sentence would type them.
    texts: dict[str, str] = {}
    probes = []
    for key, chunk in _paragraphs(papers):
        texts[f"{key}/{chunk.id}"] = chunk.text
        words = chunk.text.split()
        if len(words) >= 20:
            probes.append((f"{key}/{chunk.id}", " ".join(words[4:16])))
    assert len(probes) >= 200
    misses = []
    for want, phrase in probes:
        hits = hybrid_search(db, phrase, limit=3)
        # a passage printed twice (abstract and introduction) may answer for the other
        if not hits or (_key_of(hits[0]) != want and texts.get(_key_of(hits[0])) != texts[want]):
            misses.append((want, phrase, [_key_of(h) for h in hits]))
    share = 1 - len(misses) / len(probes)
    assert share >= 0.99, f"{share:.1%} first; misses: {misses[:10]}"


# Paraphrases written by hand from the passages; they share no distinctive word with them.
PARAPHRASES = [
    ("preventing blood clots in the veins of people with multiple injuries",
     "bmc_jtmo_2010_datta_test1", "thrombo"),
    ("vector representations of whole research articles learned from which papers cite which",
     "2020.acl-main.207_specter", "citation"),
    ("choosing where to put the stimulating contacts on the skin so that the right arm "
     "muscles contract", "jner_2016_demarchis_0046d83a", "electrode"),
]


@pytest.fixture(scope="module")
def minilm(papers: Vault) -> object:
    """The papers' chunks embedded once with the real all-MiniLM-L6-v2 (optional extra)."""
    pytest.importorskip("sentence_transformers",
                        reason="the real-model test needs the optional extra vaultd[embeddings]")
    from vaultd.index.embed import SentenceTransformerEmbedder
    from vaultd.pipeline.index import embed_missing

    db = open_index(papers.index_db)
    try:
        embedder = SentenceTransformerEmbedder("all-MiniLM-L6-v2")
        embed_missing(db, embedder)
    except (ImportError, OSError) as exc:  # the model package is absent or cannot load offline
        pytest.skip(f"all-MiniLM-L6-v2 unavailable: {exc}")
    finally:
        db.close()
    return embedder


@pytest.mark.timeout(900)  # embedding ~1,100 passages on a CPU
@pytest.mark.parametrize(("query", "pdf_stem", "word"), PARAPHRASES)
def test_a_paraphrase_finds_the_passage_with_vectors_on(
        papers: Vault, minilm: object, db: IndexDB, fixtures_dir: Path, query: str,
        pdf_stem: str, word: str) -> None:
    key = _key_for(papers, pdf_stem)
    hits = hybrid_search(db, query, limit=3, embedder=minilm)  # type: ignore[arg-type]
    assert hits and hits[0].cite_key == key, [(_key_of(h), h.excerpt[:80]) for h in hits]
    assert "vector" in hits[0].matched and word in hits[0].excerpt.lower()


def _key_for(vault: Vault, stem: str) -> str:
    for meta in vault.raw.glob("*.meta.json"):
        if MetaFile.model_validate_json(meta.read_text(encoding="utf-8")).title == stem:
            return meta.name.removesuffix(".meta.json")
    raise AssertionError(f"{stem} not compiled")
