"""What a work publishes and how library hits are fused: pure rules, property-tested."""

from __future__ import annotations

import dataclasses
import hashlib

from hypothesis import given
from hypothesis import strategies as st

from vaultd.lab.payload import ChunkRow, Publication, ts_config
from vaultd.lab.search import RRF_K, fuse

texts = st.text(min_size=1, max_size=40)
chunk_rows = st.builds(
    ChunkRow, chunk_id=st.builds("p{}s{}c{}".format, st.integers(1, 9), st.integers(1, 9),
                                 st.integers(1, 9)),
    text=texts, text_sha256=st.binary(max_size=8).map(lambda b: hashlib.sha256(b).hexdigest()),
    page=st.integers(1, 400), page_label=st.none() | st.integers(1, 999).map(str))


def publication(chunks: list[ChunkRow]) -> Publication:
    return Publication(cite_key="k", aliases=[], work={"title": "T"}, title="T", authors=None,
                       year=2020, type="article-journal", language="en", doi="10.1/x",
                       arxiv_id=None, pdf_sha256=None, labels=[], retracted=False,
                       verified=True, chunks=chunks)


@given(st.lists(chunk_rows, min_size=1, max_size=6), st.data())
def test_the_fingerprint_changes_with_any_published_chunk_field(chunks: list[ChunkRow],
                                                                 data: st.DataObject) -> None:
    """Publishing again is skipped only when nothing published changed: a different hash or
    printed page of any chunk is a different fingerprint; an equal payload the same one."""
    base = publication(chunks)
    assert publication(list(chunks)).fingerprint == base.fingerprint
    i = data.draw(st.integers(0, len(chunks) - 1))
    changed = dataclasses.replace(chunks[i], page_label=f"{chunks[i].page_label or ''}x")
    assert publication([*chunks[:i], changed, *chunks[i + 1:]]).fingerprint != base.fingerprint
    rehashed = dataclasses.replace(chunks[i], text_sha256="0" * 64
                                   if chunks[i].text_sha256 != "0" * 64 else "1" * 64)
    assert publication([*chunks[:i], rehashed, *chunks[i + 1:]]).fingerprint != base.fingerprint


def test_languages_map_to_postgresql_text_search_configurations() -> None:
    assert ts_config("en-GB") == "english"
    assert ts_config("de") == "german" and ts_config("pt_BR") == "portuguese"
    assert ts_config("zh") == "simple"  # no stemmer: whole words, no stop words
    assert ts_config(None) == "english"


ranked = st.lists(st.tuples(st.integers(0, 30), st.floats(0, 1)), max_size=20,
                  unique_by=lambda r: r[0])


@given(ranked, ranked)
def test_rrf_ranks_every_candidate_once_by_summed_reciprocal_rank(a: list[tuple[int, float]],
                                                                  b: list[tuple[int, float]]) -> None:
    fused = fuse({"keyword": a, "vector": b})
    ids = [pk for pk, _, _ in fused]
    assert sorted(ids) == sorted({pk for pk, _ in a} | {pk for pk, _ in b})
    scores = [s for _, s, _ in fused]
    assert scores == sorted(scores, reverse=True)
    for pk, score, lists in fused:
        want = sum(1 / (RRF_K + r) for r, (x, _) in enumerate(a, 1) if x == pk) + sum(
            1 / (RRF_K + r) for r, (x, _) in enumerate(b, 1) if x == pk)
        assert abs(score - want) < 1e-12
        assert lists == [n for n, lst in (("keyword", a), ("vector", b))
                         if any(x == pk for x, _ in lst)]
