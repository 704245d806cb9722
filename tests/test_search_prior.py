"""Recall ranks the passages a researcher means: prose above headings, references, fragments."""

from __future__ import annotations

import pytest

from vaultd.config import Settings
from vaultd.errors import InputError
from vaultd.index.priors import looks_like_reference, passage_weight
from vaultd.index.search import Filters, hybrid_search
from vaultd.index.store import open_index
from vaultd.pipeline.index import index_vault
from vaultd.vault import Vault

PROSE = "We call our particular attention Scaled Dot-Product Attention, computed on queries."


@pytest.mark.parametrize(("kind", "chunk_type", "text", "weight"), [
    ("paper", "paragraph", PROSE, 1.0),
    ("paper", "figure", "Figure 2: Scaled Dot-Product Attention and Multi-Head Attention.", 1.0),
    ("note", None, "attention", 1.0),  # the user's own text, however short
    ("paper", "heading", "3.2.1 Scaled Dot-Product Attention", 0.5),
    ("paper", "reference", "Vaswani et al. Attention is all you need. In NIPS, 2017.", 0.5),
    ("paper", "front", "Received: 1 May 2017", 0.4),
    ("paper", "paragraph", "Triplet loss =max", 0.6),  # a fragment
])
def test_each_kind_of_passage_keeps_its_share_of_the_score(kind: str, chunk_type: str | None,
                                                           text: str, weight: float) -> None:
    assert passage_weight(kind, chunk_type, text, reference_query=False) == weight


def test_a_query_that_reads_like_a_reference_keeps_reference_entries_whole() -> None:
    assert looks_like_reference("Vaswani et al. 2017")
    assert looks_like_reference("doi 10.48550/arXiv.1706.03762")
    assert not looks_like_reference("scaled dot-product attention")
    assert passage_weight("paper", "reference", "Vaswani et al. 2017.", reference_query=True) == 1.0


def test_an_unknown_chunk_type_filter_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="unknown chunk type 'paragrph'"):
        Filters(chunk_type="paragrph").where()


def _typed_paper(vault: Vault) -> None:
    """A paper whose heading, reference entry and paragraph all share the query's words."""
    from vaultd.canonical import text_sha256
    from vaultd.models import Chunk, MetaFile, Note, NoteMeta, Work
    from vaultd.notes.markdown import render_note
    from vaultd.vault import atomic_write_text

    key = "lin2020attn"
    work = Work.model_validate({"title": "Efficient Attention", "issued": [2020],
                                "authors": [{"given": "Ann", "family": "Lin"}]})
    atomic_write_text(vault.meta_path(key), MetaFile.from_work(key, work, pdf=f"raw/{key}.pdf")
                      .model_dump_json(by_alias=True))
    chunks = []
    pos = 0
    for cid, kind, text in (
            ("p2s0c1", "heading", "3.2.1 Scaled Dot-Product Attention"),
            ("p3s1c1", "paragraph", "Scaled dot-product attention divides the dot products of "
                                    "queries and keys by the square root of their dimension."),
            ("p9s0c1", "reference", "Vaswani A, Shazeer N. Scaled dot-product attention is all "
                                    "you need. In NIPS.")):
        chunks.append(Chunk.model_validate({"id": cid, "text": text, "provenance": {
            "page": int(cid[1]), "text_sha256": text_sha256(text),
            "char_range": [pos, pos + len(text)], "chunk_type": kind, "parser": "pymupdf"}}))
        pos += len(text) + 1
    meta = NoteMeta.model_validate({"cite_key": key, "title": "Efficient Attention",
                                    "raw": f"raw/{key}.pdf", "chunks": len(chunks)})
    atomic_write_text(vault.note_path(key), render_note(
        Note(meta=meta, chunks=chunks, user_blocks=["## My notes\n\n"])))


def test_search_puts_the_passage_above_the_heading_and_bibliography_line_sharing_its_words(
        vault: Vault) -> None:
    _typed_paper(vault)
    index_vault(vault, Settings(), embedder=None)
    db = open_index(vault.index_db, load_vec=False)
    try:
        plain = hybrid_search(db, "scaled dot-product attention", limit=5, type_prior=False)
        assert plain[0].chunk_type != "paragraph"  # what the words alone would put first
        hits = hybrid_search(db, "scaled dot-product attention", limit=5)
        assert [h.chunk_type for h in hits] == ["paragraph", "heading", "reference"]
        refs = hybrid_search(db, "attention", limit=5, filters=Filters(chunk_type="reference"))
        assert [h.chunk_type for h in refs] == ["reference"]
        # the empty "## My notes" template is not indexed
        assert not list(db.execute("SELECT text FROM chunks WHERE kind = 'note'"))
    finally:
        db.close()
