"""Quotes on unseen papers, round 3 (issue 34), on real pages: paragraphs whole past what
interrupts them, tables as tables, front matter grouped and folded, furniture out."""

from __future__ import annotations

import functools
from pathlib import Path

from vaultd.models import Chunk
from vaultd.notes.markdown import render_chunk, render_note
from vaultd.notes.reader import parse_note
from vaultd.parse.chunker import chunk_blocks
from vaultd.parse.front import is_front_matter
from vaultd.parse.pymupdf import PyMuPDFParser

QUOTES = Path(__file__).resolve().parents[1] / "eval" / "quotes" / "pdfs"


@functools.cache
def _chunks(pdf: Path) -> list[Chunk]:
    return chunk_blocks(PyMuPDFParser().parse(pdf).blocks, "pymupdf")


def _eval_pdf(fixtures_dir: Path, stem: str) -> Path:
    return fixtures_dir / "pdfs-eval" / "pdfs" / f"{stem}.pdf"


def _holding(chunks: list[Chunk], words: str) -> Chunk:
    return next(c for c in chunks if words in c.text)


def test_a_paragraph_goes_on_past_three_key_concept_boxes_on_the_next_page(fixtures_dir: Path) -> None:
    chunks = _chunks(_eval_pdf(fixtures_dir, "frontiers_psychol_2014_dog_cognition"))
    para = _holding(chunks, "two prerequisites of cooperation. In the former case,")
    assert para.provenance.chunk_type == "paragraph"
    assert "In the former case, we would expect that dogs and wolves show different behaviors" in para.text
    assert "KEY CONCEPT" not in para.text
    assert [r[0] for r in para.provenance.regions or []] == [2, 3]  # one region per piece
    boxes = [c for c in chunks if c.text.startswith("KEY CONCEPT")]
    assert len(boxes) >= 3 and all(c.id != para.id for c in boxes)


def test_a_sentence_goes_on_past_a_footnote_mark_and_a_figure_at_the_column_top(fixtures_dir: Path) -> None:
    chunks = _chunks(_eval_pdf(fixtures_dir, "acl_2020_s2orc_corpus"))
    para = _holding(chunks, "Digital archives like arXiv,2 PubMed Central,3 CiteSeerX")
    assert para.provenance.chunk_type == "paragraph"
    assert not para.text.startswith("Figure")


def test_table_cells_are_a_markdown_table_under_their_caption_in_the_note(fixtures_dir: Path) -> None:
    chunks = _chunks(_eval_pdf(fixtures_dir, "acl_2020_s2orc_corpus"))
    caption = _holding(chunks, "Table 6: Accuracy of paper clustering")
    cells = chunks[chunks.index(caption) + 1]
    assert caption.provenance.chunk_type == cells.provenance.chunk_type == "table"
    assert "Paper clustering" not in caption.text
    assert cells.text.startswith("Evaluated task Title Authors Paper clustering 0.93 0.89")
    assert cells.markdown is not None
    assert cells.markdown.split("\n")[:3] == [
        "| Evaluated task | Title | Authors |", "|---|---|---|", "| Paper clustering | 0.93 | 0.89 |"]
    block = render_chunk("lo2020s2orc", cells)
    assert "\n| Paper clustering | 0.93 | 0.89 |\n" in block
    # the table first, under the caption; the cells' verbatim run folded under it
    assert block.index("| Evaluated task |") < block.index("> [!quote]- Cells as quoted\n> Evaluated task")
    from vaultd.models import Note, NoteMeta

    note = Note(meta=NoteMeta(cite_key="lo2020s2orc", title="T"), chunks=[caption, cells])
    assert [c.text for c in parse_note(render_note(note)).chunks] == [caption.text, cells.text]
    assert not any("Paper clustering 0.93" in c.text for c in chunks if c.provenance.chunk_type == "paragraph")


def test_front_matter_labels_and_their_blocks_are_one_folded_front_chunk(fixtures_dir: Path) -> None:
    chunks = _chunks(_eval_pdf(fixtures_dir, "frontiers_psychol_2014_dog_cognition"))
    edited = _holding(chunks, "Edited by:")
    assert edited.provenance.chunk_type == "front"
    assert edited.text == "Edited by: Ádám Miklósi, Eötvös Lorand University, Hungary"
    block = render_chunk("range2015tracking", edited)
    assert "> [!info]- Front matter\n> Edited by: Ádám Miklósi" in block
    from vaultd.models import Note, NoteMeta

    note = Note(meta=NoteMeta(cite_key="range2015tracking", title="T"), chunks=[edited])
    assert parse_note(render_note(note)).chunks[0].text == edited.text  # the fold is no quote


def test_line_numbers_banners_and_keyword_lines_stay_out_of_paragraphs() -> None:
    chunks = _chunks(QUOTES / "aas_aastex631_sample.pdf")
    paragraphs = [c.text for c in chunks if c.provenance.chunk_type == "paragraph"]
    assert any(t.startswith("This example manuscript is intended to serve as a tutorial") for t in paragraphs)
    assert not any("Draft version February 26, 2021" in t for t in paragraphs)
    intro = _holding(chunks, "During this time emulateapj gained growing acceptance")
    assert "to obtain an approximate number of manuscript pages" in intro.text  # no line number between
    for banner in ("MNRAS 000, 1–10 (2020) Preprint 27 June 2020",
                   "International Psychogeriatrics (2014), 26:1, 147–158",
                   "Preprint submitted to Elsevier June 8, 2018", "JEL: 71.35.-y, 71.35.Lk, 71.36.+c"):
        assert is_front_matter(banner, at_edge=False), banner
    assert not is_front_matter("We found 3 (2014), 2, 4-5 things", at_edge=False)


def test_a_margin_label_on_a_paragraph_s_baseline_is_no_part_of_the_paragraph() -> None:
    chunks = _chunks(QUOTES / "springer_lncs_author_instructions.pdf")
    para = _holding(chunks, "If a long title does not fit in the single line of the running head")
    assert para.text.startswith("If a long title")
    assert "is generated. You can specify an abbreviated title" in para.text  # goes on past the label
    author = _holding(chunks, "The name(s) of the author(s) are specified by:")
    assert author.text.startswith("The name(s)")
    labels = [c for c in chunks if c.text in ("\\titlerunning", "\\author", "\\title")]
    # each a chunk of its own, a note's (layout 29: what stands in the margin is no body text)
    assert len(labels) == 3 and all(c.provenance.chunk_type == "footnote" for c in labels)


def test_a_title_page_of_centred_lines_is_its_title_and_front_matter() -> None:
    chunks = [c for c in _chunks(QUOTES / "thesis_ndsu_example.pdf") if c.provenance.page == 1]
    assert chunks[0].text == "THE TITLE OF MY M.S. THESIS"
    assert chunks[0].provenance.chunk_type == "heading"
    assert {c.provenance.chunk_type for c in chunks[1:]} == {"front"}
    assert "Major Department: Mathematics" in [c.text for c in chunks]  # a label and its block


def test_a_deck_s_frame_and_block_titles_head_its_slides() -> None:
    chunks = _chunks(QUOTES / "slides_thubeamer_example.pdf")
    heads = {c.text for c in chunks if c.provenance.chunk_type == "heading"}
    assert {"Contents", "Research progress", "Unnumbered equation", "numbered equation"} <= heads
    para = _holding(chunks, "where Cin represents number of input channels")
    assert para.provenance.section is not None and para.provenance.section.endswith("numbered equation")


def test_a_booktabs_header_of_interleaved_lines_is_one_header_row(fixtures_dir: Path) -> None:
    chunks = _chunks(_eval_pdf(fixtures_dir, "acl_2020_s2orc_corpus"))
    caption = _holding(chunks, "Table 1: A comparison of S2ORC")
    cells = chunks[chunks.index(caption) + 1]
    assert cells.markdown is not None
    assert cells.markdown.split("\n")[:3] == [
        "| Corpus | Papers w/ body text | Citation contexts | References to tables / figures / equations"
        " | Linked to graph | Academic disciplines |", "|---|---|---|---|---|---|",
        "| S2ORC (PDF-parse) | 8.1M | full text | yes | S2ORC (full) | multi |"]


def test_a_sentence_ended_at_the_page_foot_goes_on_at_a_flush_page_top_when_paragraphs_indent() -> None:
    # elsarticle sets each line as a block of its own, double spaced; its paragraphs indent
    chunks = _chunks(QUOTES / "elsevier_elsarticle_preprint_specimen.pdf")
    para = _holding(chunks, "tends to escape from the crystal. Thus, the temporal coherence")
    assert [r[0] for r in para.provenance.regions or []] == [1, 2]
    assert "broken Ell et al. (1998); Snoke (2002). One proposed solution" in para.text  # et al. ends nothing
    theorem = _holding(chunks, "Theorem 1. In this work")
    assert "possible BEC. The spatial coherence of the polariton" in theorem.text  # a flush next line


def test_a_flush_line_after_a_full_one_goes_on_in_a_double_spaced_thesis() -> None:
    chunks = _chunks(QUOTES / "thesis_ndsu_example.pdf")
    para = _holding(chunks, "Paper-styled chapters will have abstracts.")
    assert "series of empirical conditions, time. Human reason depends on our sense perceptions" in para.text
    new = _holding(chunks, "The Figure 2.1 is an example image")  # indented: a paragraph of its own
    assert new.text.startswith("The Figure 2.1")
