"""What a work publishes and how hits are fused (the library and the local index alike):
pure rules, property-tested."""

from __future__ import annotations

import dataclasses
import hashlib
import json

from hypothesis import given
from hypothesis import strategies as st

from vaultd.index.fusion import complete_lists, fuse
from vaultd.lab.payload import ChunkRow, Publication, ts_config

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


def fingerprint_as_first_written(pub: Publication) -> str:
    """The fingerprint as vaultd computed it when publications were first stored: the
    digest must not change, or every work would be published again."""
    h = hashlib.sha256()
    head = {k: getattr(pub, k) for k in (
        "cite_key", "aliases", "work", "labels", "retracted", "verified", "pdf_sha256",
        "model")}
    h.update(json.dumps(head, sort_keys=True, default=str).encode())
    for c in pub.chunks:
        h.update(json.dumps([c.chunk_id, c.text_sha256, c.kind, c.chunk_type, c.section,
                             c.page, c.page_label, c.regions]).encode())
    h.update(",".join(sorted(k for k in pub.vectors if pub.vectors[k])).encode())
    h.update(b"pdf" if pub.pdf is not None else b"")
    return h.hexdigest()


any_text = st.none() | st.text(max_size=12)
any_chunk_rows = st.builds(
    ChunkRow, chunk_id=st.text(max_size=12), text=st.just("t"), text_sha256=st.text(max_size=8),
    kind=st.sampled_from(["paper", "note"]), chunk_type=any_text, section=any_text,
    page=st.none() | st.integers(-2, 10**12) | st.booleans(), page_label=any_text,
    regions=st.none() | st.lists(st.lists(st.floats() | st.integers(), max_size=5), max_size=3))


@given(st.lists(any_chunk_rows, max_size=6))
def test_the_fingerprint_is_the_digest_first_written(chunks: list[ChunkRow]) -> None:
    pub = publication(chunks)
    assert pub.fingerprint == fingerprint_as_first_written(pub)


def test_languages_map_to_postgresql_text_search_configurations() -> None:
    assert ts_config("en-GB") == "english"
    assert ts_config("de") == "german" and ts_config("pt_BR") == "portuguese"
    assert ts_config("zh") == "simple"  # no stemmer: whole words, no stop words
    assert ts_config(None) == "english"


ranked = st.lists(st.tuples(st.integers(0, 30), st.floats(0, 1)), max_size=20,
                  unique_by=lambda r: r[0])


@given(ranked, ranked, st.floats(0, 1))
def test_fusion_ranks_every_candidate_once_by_its_shares_of_both_normalised_scores(
        a: list[tuple[int, float]], b: list[tuple[int, float]], share: float) -> None:
    """Each side's best hit scores 1 on that side; a candidate's fused score is the
    keyword share of its normalised BM25 plus the rest of its normalised cosine."""
    scores, sources = fuse({"bm25": a, "vector": b}, share)
    assert set(scores) == {pk for pk, _ in a} | {pk for pk, _ in b}
    top_a = max((s for _, s in a), default=0.0)
    top_b = max((s for _, s in b), default=0.0)
    for pk, fused in scores.items():
        on_a = next((s for x, s in a if x == pk), None)
        on_b = next((s for x, s in b if x == pk), None)
        want = (share * (0.0 if on_a is None else on_a / top_a if top_a else 1.0)
                + (1 - share) * (0.0 if on_b is None else on_b / top_b if top_b else 1.0))
        assert abs(fused - want) < 1e-9
        assert sources[pk] == [n for n, got in (("bm25", on_a), ("vector", on_b))
                               if got is not None]
        assert fused <= 1.0 + 1e-9


@given(ranked, ranked, st.dictionaries(st.integers(0, 40), st.floats(0, 1)),
       st.dictionaries(st.integers(0, 40), st.floats(0, 1)))
def test_completing_the_lists_adds_only_what_each_side_missed(
        a: list[tuple[int, float]], b: list[tuple[int, float]], extra_a: dict[int, float],
        extra_b: dict[int, float]) -> None:
    done = complete_lists({"bm25": a, "vector": b}, extra_a, extra_b)
    for name, got, extra in (("bm25", a, extra_a), ("vector", b, extra_b)):
        ids = [pk for pk, _ in done[name]]
        assert len(ids) == len(set(ids))
        assert done[name][:len(got)] == got  # a side's own scores are kept, in its order
        assert set(ids) == {pk for pk, _ in got} | set(extra)
