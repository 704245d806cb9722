"""The generated sample paper: deterministic, with the metadata and text it promises."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from vaultd.samplepdf import write_sample_paper


def test_sample_paper_is_byte_identical_when_written_twice(tmp_path: Path) -> None:
    write_sample_paper(tmp_path / "a.pdf")
    write_sample_paper(tmp_path / "b.pdf")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


def test_sample_paper_embeds_title_author_and_creation_date(tmp_path: Path) -> None:
    paper = write_sample_paper(tmp_path / "s.pdf")
    meta = pymupdf.open(tmp_path / "s.pdf").metadata
    assert meta["title"] == paper.title
    assert meta["author"] == "Ada Lovelace; Charles Babbage"
    assert meta["creationDate"] == "D:20240115120000Z"


def test_sample_paper_text_layer_holds_every_described_paragraph(tmp_path: Path) -> None:
    paper = write_sample_paper(tmp_path / "s.pdf")
    doc = pymupdf.open(tmp_path / "s.pdf")
    assert doc.page_count == paper.pages == 2
    words = " ".join(page.get_text() for page in doc).split()
    flat = " ".join(words)
    for block in paper.of_kind("heading"):
        assert block.text in flat
    assert "represen-" in words  # the forced line-end hyphenation is really there
    assert paper.doi in flat
