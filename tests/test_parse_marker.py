"""Marker adapter on the recorded Marker JSON of arXiv:1804.07821 (multicolcnn)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vaultd.parse.base import Block
from vaultd.parse.chunker import chunk_blocks
from vaultd.parse.marker import blocks_from_marker_json, html_text


@pytest.fixture(scope="module")
def blocks(fixtures_dir: Path) -> list[Block]:
    path = fixtures_dir / "marker" / "multicolcnn" / "multicolcnn.json"
    return blocks_from_marker_json(json.loads(path.read_text(encoding="utf-8")))


def test_marker_section_headers_become_headings_with_numbered_section_ids(blocks: list[Block]) -> None:
    heads = [b for b in blocks if b.type == "heading"]
    assert heads[0].text.startswith("An Aggregated Multicolumn Dilated Convolution Network")
    intro = next(b for b in heads if b.text == "1. Introduction")
    assert intro.section_token == "1" and intro.page == 1


def test_marker_html_fragments_are_rejoined_into_words(blocks: list[Block]) -> None:
    abstract = next(b for b in blocks if b.text.startswith("We propose the use of dilated filters"))
    assert "aggregation module" in abstract.text  # html was "ag</i><i>gregation"
    assert abstract.bbox == (49.9, 259.0, 287.47, 485.33)
    # pdf_rect in user space on the 792-pt page: bottom = 792 - y1, top = 792 - y0
    assert abstract.pdf_rect == (49.9, round(792 - 485.33203125, 2), 287.47, round(792 - 258.9959716796875, 2))


def test_marker_paragraph_split_by_the_column_break_is_joined(blocks: list[Block]) -> None:
    para = next(b for b in blocks if b.text.startswith("However, in many counting problems"))
    assert "such as those counting cells in a microscope image" in para.text
    assert len(para.pieces) == 2


def test_marker_references_and_tables(blocks: list[Block]) -> None:
    refs = [b for b in blocks if b.type == "reference"]
    assert len(refs) >= 25 and refs[0].text.startswith("[1] S. An")
    assert any("arxiv:1511.07122" in r.refs for r in refs)
    table = next(b for b in blocks if b.type == "table" and b.markdown)
    assert table.markdown is not None and table.markdown.startswith("| Method | MAE |\n|---|---|")


def test_marker_blocks_chunk_like_any_tier(blocks: list[Block]) -> None:
    chunks = chunk_blocks(blocks, "marker")
    assert len({c.id for c in chunks}) == len(chunks)
    assert all(c.provenance.parser == "marker" for c in chunks)


def test_html_text_decodes_entities_and_ligatures() -> None:
    assert html_text("<p>e\ufb03cient &amp; <b>fast</b></p>") == "efficient & fast"
