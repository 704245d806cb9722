"""Marker adapter on the recorded Marker JSON of arXiv:1804.07821 (multicolcnn)."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from vaultd.errors import InputError, ParseError
from vaultd.parse.base import Block
from vaultd.parse.chunker import chunk_blocks, select_parser
from vaultd.parse.marker import MarkerParser, blocks_from_marker_json, html_text
from vaultd.parse.tiers import parse_pdf
from vaultd.samplepdf import write_sample_paper


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


def _fixture_json(fixtures_dir: Path) -> dict[str, Any]:
    path = fixtures_dir / "marker" / "multicolcnn" / "multicolcnn.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _cropped_pdf(path: Path, pages: int) -> Path:
    """Blank pages whose CropBox starts 20 pt right of and 20 pt above the MediaBox origin."""
    import pymupdf

    doc = pymupdf.open()
    for _ in range(pages):
        page = doc.new_page(width=632, height=812)
        page.set_cropbox(pymupdf.Rect(20, 0, 632, 792))  # top-left coords: PDF [20 20 632 812]
    doc.save(path)
    doc.close()
    return path


def test_marker_parser_converts_a_marker_run_with_the_cropbox_offset_in_pdf_rect(
    fixtures_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _fixture_json(fixtures_dir)
    pdf = _cropped_pdf(tmp_path / "paper.pdf", len(data["children"]))
    monkeypatch.setattr(MarkerParser, "run_marker", lambda self, path: data)
    doc = MarkerParser().parse(pdf)
    assert doc.parser == "marker" and doc.pages == 10 and not doc.warnings
    abstract = next(b for b in doc.blocks if b.text.startswith("We propose the use of dilated filters"))
    assert abstract.bbox == (49.9, 259.0, 287.47, 485.33)  # the polygon's box, CropBox coords
    # user space: x shifted by the CropBox's left edge, y flipped about its top (812)
    assert abstract.pdf_rect == (69.9, round(812 - 485.33203125, 2), 307.47, round(812 - 258.9959716796875, 2))
    assert any(b.type == "reference" for b in doc.blocks)


def test_marker_block_box_comes_from_its_polygon() -> None:
    page = {"id": "/page/0/Page/1", "block_type": "Page", "bbox": [0, 0, 612, 792],
            "html": "<content-ref src='/page/0/Text/2'></content-ref>",
            "children": [{"id": "/page/0/Text/2", "block_type": "Text", "html": "<p>Hello world.</p>",
                          "polygon": [[10, 20], [110, 22], [112, 60], [9, 58]],
                          "bbox": [0, 0, 1, 1]}]}
    (block,) = blocks_from_marker_json({"block_type": "Document", "children": [page]})
    assert block.bbox == (9.0, 20.0, 112.0, 60.0)
    assert block.pdf_rect == (9.0, 732.0, 112.0, 772.0)


def test_marker_parser_is_selected_for_marker_and_auto_only_when_installed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("vaultd.parse.chunker.marker_available", lambda: False)
    with pytest.raises(InputError, match="marker-pdf"):
        select_parser("marker")
    assert select_parser("auto").name == "pymupdf"
    monkeypatch.setattr("vaultd.parse.chunker.marker_available", lambda: True)
    assert isinstance(select_parser("marker"), MarkerParser)
    assert isinstance(select_parser("auto"), MarkerParser)


def _fake_marker_without_models(monkeypatch: pytest.MonkeyPatch) -> None:
    def create_model_dict() -> dict[str, Any]:
        raise OSError("We couldn't connect to 'https://huggingface.co' to load this model")

    for name, attrs in (("marker", {}), ("marker.converters", {}),
                        ("marker.converters.pdf", {"PdfConverter": object}),
                        ("marker.models", {"create_model_dict": create_model_dict})):
        mod = types.ModuleType(name)
        for key, value in attrs.items():
            setattr(mod, key, value)
        monkeypatch.setitem(sys.modules, name, mod)


def test_marker_without_its_models_fails_with_one_line_saying_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_marker_without_models(monkeypatch)
    pdf = _cropped_pdf(tmp_path / "paper.pdf", 1)
    with pytest.raises(ParseError) as err:
        MarkerParser().parse(pdf)
    msg = str(err.value)
    assert str(pdf) in msg and "models" in msg and "--parser pymupdf" in msg and "\n" not in msg


def test_auto_falls_back_to_pymupdf_with_a_warning_when_marker_models_are_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_marker_without_models(monkeypatch)
    monkeypatch.setattr("vaultd.parse.chunker.marker_available", lambda: True)
    pdf = tmp_path / "sample.pdf"
    write_sample_paper(pdf)
    doc = parse_pdf(pdf, "auto")
    assert doc.parser == "pymupdf" and doc.blocks
    assert any("marker tier unavailable" in w for w in doc.warnings)
