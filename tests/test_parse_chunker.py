"""Chunker properties: ids unique, hashes and char ranges consistent, for any blocks."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vaultd.canonical import canonical_text, text_sha256
from vaultd.parse.base import Block
from vaultd.parse.chunker import chunk_blocks, document_text

_blocks = st.lists(
    st.builds(
        Block,
        type=st.sampled_from(["heading", "paragraph", "reference", "figure", "equation"]),
        text=st.text(min_size=0, max_size=40),
        page=st.integers(min_value=1, max_value=4),
        section_token=st.sampled_from(["0", "1", "21", "03"]),
    ),
    max_size=30,
)


@given(_blocks)
def test_chunks_have_unique_ids_and_ranges_that_index_the_document_text(blocks: list[Block]) -> None:
    chunks = chunk_blocks(blocks, "pymupdf")
    assert len({c.id for c in chunks}) == len(chunks)
    assert len(chunks) == sum(1 for b in blocks if canonical_text(b.text))
    text = document_text(chunks)
    for c in chunks:
        start, end = c.provenance.char_range
        assert text[start:end] == c.text == canonical_text(c.text)
        assert c.provenance.text_sha256 == text_sha256(c.text)


def test_chunk_ids_count_within_page_and_section() -> None:
    blocks = [Block(type="paragraph", text=t, page=p, section_token=s)
              for t, p, s in [("a", 4, "32"), ("b", 4, "32"), ("c", 5, "32"), ("d", 5, "4")]]
    assert [c.id for c in chunk_blocks(blocks, "pymupdf")] == ["p4s32c1", "p4s32c2", "p5s32c1", "p5s4c1"]
