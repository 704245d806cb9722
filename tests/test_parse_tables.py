"""Tables: a captioned table becomes one chunk quoting its cells, with a Markdown rendering."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from _tables import table_quotes
from hypothesis import given
from hypothesis import strategies as st

from vaultd.canonical import text_sha256
from vaultd.parse.chunker import chunk_blocks
from vaultd.parse.pymupdf import PyMuPDFParser, load_pymupdf
from vaultd.parse.table_cells import as_lines, is_clear, rows_markdown, to_markdown

ROWS = [["Model", "BLEU", "Cost"], ["Transformer", "28.4", "2.3"], ["ConvS2S|v2", "26.4", "9.6"]]


def _table_pdf(path: Path) -> Path:
    """One page: a paragraph, a 'Table 1:' caption, then a ruled 3x3 table, then a paragraph."""
    pymupdf = load_pymupdf()
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 100), "Results are summarised in the table below for all models.", fontsize=10)
    page.insert_text((72, 140), "Table 1: Translation quality and training cost.", fontsize=10)
    x0, y0, w, h = 72.0, 150.0, 120.0, 20.0
    for r, row in enumerate(ROWS):
        for c, cell in enumerate(row):
            rect = pymupdf.Rect(x0 + c * w, y0 + r * h, x0 + (c + 1) * w, y0 + (r + 1) * h)
            page.draw_rect(rect, color=(0, 0, 0), width=0.5)
            page.insert_text((rect.x0 + 4, rect.y1 - 6), cell, fontsize=10)
    page.insert_text((72, 260), "The big model is best on every measure we tried.", fontsize=10)
    doc.save(path)
    doc.close()
    return path


def test_captioned_ruled_table_is_its_caption_then_its_cells_as_a_markdown_table(tmp_path: Path) -> None:
    doc = PyMuPDFParser().parse(_table_pdf(tmp_path / "t.pdf"))
    tables = [b for b in doc.blocks if b.type == "table"]
    assert len(tables) == 2
    caption, table = tables
    assert caption.text == "Table 1: Translation quality and training cost."
    assert caption.markdown is None
    assert table.text == "Model BLEU Cost Transformer 28.4 2.3 ConvS2S|v2 26.4 9.6"
    assert table.markdown == (
        "| Model | BLEU | Cost |\n|---|---|---|\n| Transformer | 28.4 | 2.3 |\n| ConvS2S\\|v2 | 26.4 | 9.6 |"
    )


def test_table_cells_no_longer_come_out_as_short_paragraphs(tmp_path: Path) -> None:
    doc = PyMuPDFParser().parse(_table_pdf(tmp_path / "t.pdf"))
    paragraphs = [b.text for b in doc.blocks if b.type == "paragraph"]
    assert paragraphs == [
        "Results are summarised in the table below for all models.",
        "The big model is best on every measure we tried.",
    ]


def test_table_chunk_hash_is_the_quote_and_reproduces_on_reparse(tmp_path: Path) -> None:
    pdf = _table_pdf(tmp_path / "t.pdf")
    first = chunk_blocks(PyMuPDFParser().parse(pdf).blocks, "pymupdf")
    again = chunk_blocks(PyMuPDFParser().parse(pdf).blocks, "pymupdf")
    table = next(c for c in first if c.provenance.chunk_type == "table" and c.markdown)
    assert table.provenance.text_sha256 == text_sha256(table.text)  # quote, not the Markdown
    assert [c.provenance.text_sha256 for c in first] == [c.provenance.text_sha256 for c in again]
    assert table.markdown is not None


def test_fixture_paper_tables_keep_their_caption_and_gain_cell_text(fixtures_dir: Path) -> None:
    pdf = fixtures_dir / "pdfs" / "two_column" / "N18-3011_naacl2018_literature_graph.pdf"
    doc = PyMuPDFParser().parse(pdf)
    tables = [b for b in doc.blocks if b.type == "table"]
    captions = [b for b in tables if b.text.startswith("Table 1:")]
    assert captions, [b.text[:40] for b in tables]
    caption = captions[0]
    assert caption.text.startswith("Table 1: Results of the ScienceParse")
    # the cells follow the caption in a chunk of their own; the table's numbers are quoted
    cells = tables[tables.index(caption) + 1]
    assert any(ch.isdigit() for ch in cells.text) and not cells.text.startswith("Table 1")
    assert cells.markdown is not None and cells.markdown.startswith("|")


def test_page_without_a_table_caption_is_not_searched(tmp_path: Path) -> None:
    pymupdf = load_pymupdf()
    doc = pymupdf.open()
    page = doc.new_page()
    page.draw_rect(pymupdf.Rect(72, 72, 300, 200), color=(0, 0, 0))
    page.insert_text((80, 100), "A boxed note, not a table.", fontsize=10)
    doc.save(tmp_path / "n.pdf")
    parsed = PyMuPDFParser().parse(tmp_path / "n.pdf")
    assert [b.text for b in parsed.blocks] == ["A boxed note, not a table."]
    assert all(b.markdown is None for b in parsed.blocks)


def test_cells_whose_columns_are_unclear_are_shown_one_row_a_line() -> None:
    rows = [["References to Papers w/"], ["S2ORC 8.1M full text"], ["AAN 25k full text"]]
    assert rows_markdown(rows, columns=True) == as_lines(rows) == (
        "| |\n|---|\n| References to Papers w/ |\n| S2ORC 8.1M full text |\n| AAN 25k full text |")
    assert rows_markdown([["a", "b"], ["1", "2"]], columns=False) == "| |\n|---|\n| a b |\n| 1 2 |"
    assert rows_markdown([["a", "b"], ["1", "2"]], columns=True) == "| a | b |\n|---|---|\n| 1 | 2 |"


def test_unclear_structure_keeps_text_without_markdown() -> None:
    assert not is_clear([["only one column"], ["x"]])
    assert not is_clear([["", "b"], ["1", "2"]])  # incomplete header
    assert not is_clear([["a", "b"], ["", ""], ["", "3"]])  # mostly empty
    assert is_clear([["a", "b"], ["1", ""]])


cell = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=8).map(
    lambda s: " ".join(s.split()) or "x"
)


@given(st.integers(2, 4).flatmap(lambda n: st.lists(st.lists(cell, min_size=n, max_size=n), min_size=2, max_size=5)))
def test_markdown_table_has_one_line_per_row_and_unescaped_cells_round_trip(rows: list[list[str]]) -> None:
    md = to_markdown(rows).split("\n")
    assert len(md) == len(rows) + 1
    for line, row in zip([md[0], *md[2:]], rows, strict=True):
        inner = line[2:-2]
        parts: list[str] = []
        cur, i = "", 0
        while i < len(inner):
            if inner[i] == "\\" and i + 1 < len(inner):
                cur += inner[i + 1]
                i += 2
                continue
            if inner.startswith(" | ", i):
                parts.append(cur)
                cur, i = "", i + 3
                continue
            cur += inner[i]
            i += 1
        parts.append(cur)
        assert parts == row


def test_caption_page_with_only_horizontal_rules_is_not_searched_and_keeps_its_text(tmp_path: Path) -> None:
    """Booktabs-style tables (horizontal rules only) cannot form cells; the costly search is skipped."""
    def booktabs(page: Any) -> None:
        pymupdf = load_pymupdf()
        for y in (110.0, 126.0, 160.0):
            page.draw_line(pymupdf.Point(72, y), pymupdf.Point(300, y), width=0.5)
        page.insert_text((76, 122), "Model Score", fontsize=10)
        page.insert_text((76, 140), "Base 12.5", fontsize=10)

    caption = "Table 2: Scores."
    assert not _searched(_caption_pdf(tmp_path / "b.pdf", caption, booktabs), caption)
    ruled = "Table 1: Translation quality and training cost."
    assert _searched(_table_pdf(tmp_path / "t.pdf"), ruled, top=131.0)
    parsed = PyMuPDFParser().parse(tmp_path / "b.pdf")
    text = " ".join(b.text for b in parsed.blocks)
    assert "Table 2: Scores." in text and "Base 12.5" in text


def test_table_search_is_clipped_to_the_rules_beside_the_caption_not_a_far_footnote_rule(tmp_path: Path) -> None:
    from vaultd.parse.paras import Line
    from vaultd.parse.tables import rule_region

    pdf = _table_pdf(tmp_path / "t.pdf")
    pymupdf = load_pymupdf()
    with pymupdf.open(pdf) as doc:
        doc[0].draw_line(pymupdf.Point(72, 760), pymupdf.Point(140, 760), width=0.4)  # footnote rule
        caption = Line(text="Table 1: Translation quality and training cost.", bbox=(72.0, 132.0, 290.0, 142.0),
                       size=10.0, bold=False, block=0, page=1)
        region = rule_region(doc[0], [caption])
    assert region is not None
    x0, y0, x1, y1 = region
    assert x0 <= 72 and x1 >= 432 and y0 <= 150 and y1 >= 210  # the whole grid, all columns
    assert y1 < 300  # not stretched down to the footnote rule


def test_parallel_table_searches_never_change_the_text_boxes_of_other_parses(
        tmp_path: Path, fixtures_dir: Path) -> None:
    """find_tables turns a process-wide MuPDF switch (small glyph heights) on while it runs;
    the agent parses in two worker threads, so a table search must never leave it on or
    change the boxes another parse reads at the same time (the chunks would differ)."""
    from concurrent.futures import ThreadPoolExecutor

    pymupdf = load_pymupdf()
    tables = _table_pdf(tmp_path / "t.pdf")
    text = fixtures_dir / "pdfs" / "two_column" / "2020.acl-main.207_specter.pdf"

    def boxes(pdf: Path) -> list[tuple[str, object]]:
        return [(b.text, b.bbox) for b in PyMuPDFParser().parse(pdf).blocks]

    alone = boxes(text)
    with ThreadPoolExecutor(4) as pool:
        runs = list(pool.map(boxes, [tables, text] * 6))
    assert all(run == alone for run in runs[1::2])
    assert all(any("Transformer" in t for t, _ in run) for run in runs[0::2])
    assert pymupdf.TOOLS.set_small_glyph_heights() is False
    pymupdf.TOOLS.set_small_glyph_heights(True)  # left on by some other code in the process
    try:
        assert boxes(text) == alone
    finally:
        pymupdf.TOOLS.set_small_glyph_heights(False)


def _caption_pdf(path: Path, caption: str, draw: Callable[[Any], None]) -> Path:
    """A page with a table caption at y = 100 and whatever ``draw(page)`` adds."""
    doc = load_pymupdf().open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 100), caption, fontsize=10)
    draw(page)
    doc.save(path)
    doc.close()
    return path


def _searched(pdf: Path, caption: str, top: float = 91.0) -> bool:
    """Whether the table search would run for this caption line (set at ``top``):
    ``rule_region`` finds a clip."""
    from vaultd.parse.paras import Line
    from vaultd.parse.tables import rule_region

    line = Line(caption, (72.0, top, 72.0 + 5 * len(caption), top + 11.0), 10.0, False, 0, 1)
    with load_pymupdf().open(pdf) as doc:
        return rule_region(doc[0], [line]) is not None


def _stripes(column_rule: bool) -> Callable[[Any], None]:
    """Zebra-striped rows (filled boxes, no strokes), with or without a rule between the
    two columns."""
    def draw(page: Any) -> None:
        pymupdf = load_pymupdf()
        for i, (name, value) in enumerate([("Engine", "ms"), ("Vespa", "12.5"), ("Lucene", "14.1")]):
            y = 110.0 + 16 * i
            if i % 2 == 0:
                page.draw_rect(pymupdf.Rect(72, y, 400, y + 16), color=None, fill=(0.85, 0.93, 0.98))
            page.insert_text((76, y + 12), name, fontsize=10)
            page.insert_text((240, y + 12), value, fontsize=10)
        if column_rule:
            page.draw_line(pymupdf.Point(230, 110), pymupdf.Point(230, 158), width=0.5)
    return draw


def test_a_striped_table_without_column_rules_skips_the_table_search(tmp_path: Path) -> None:
    """Stripes' sides stand only at the table's outer edges: PyMuPDF's ``lines`` strategy
    cannot split their rows into cells, so the costly search is not run (the text stays)."""
    caption = "Table 1: Runtime per query."
    striped = _caption_pdf(tmp_path / "s.pdf", caption, _stripes(column_rule=False))
    assert not _searched(striped, caption)
    assert _searched(_caption_pdf(tmp_path / "r.pdf", caption, _stripes(column_rule=True)), caption)
    text = " ".join(b.text for b in PyMuPDFParser().parse(striped).blocks)
    assert caption in text and "Lucene 14.1" in text


def test_a_grid_drawn_as_one_path_of_cell_rectangles_is_searched(tmp_path: Path) -> None:
    """Some writers draw every cell's frame as rectangles of a single path: the cells'
    inner sides are column rules even though the path's own box has only two sides."""
    def grid(page: Any) -> None:
        pymupdf = load_pymupdf()
        shape = page.new_shape()
        for row in range(3):
            for col in range(2):
                shape.draw_rect(pymupdf.Rect(72 + 160 * col, 110 + 16 * row,
                                             232 + 160 * col, 126 + 16 * row))
        shape.finish(color=(0, 0, 0), width=0.5)
        shape.commit()
        assert len(page.get_cdrawings()) == 1  # one path holds the whole grid

    assert _searched(_caption_pdf(tmp_path / "g.pdf", "Table 1: Runtime.", grid), "Table 1: Runtime.")


def test_a_table_with_one_column_rule_between_full_width_rules_is_searched(tmp_path: Path) -> None:
    """The ACL style: rules across the whole table and one upright rule after the first
    column, none at the outer edges."""
    def acl(page: Any) -> None:
        pymupdf = load_pymupdf()
        for y in (110.0, 126.0, 170.0):
            page.draw_line(pymupdf.Point(72, y), pymupdf.Point(300, y), width=0.5)
        page.draw_line(pymupdf.Point(150, 110), pymupdf.Point(150, 170), width=0.5)

    assert _searched(_caption_pdf(tmp_path / "acl.pdf", "Table 3: Results.", acl), "Table 3: Results.")


def test_row_rules_drawn_in_pieces_are_joined_whatever_their_float_noise() -> None:
    from vaultd.parse.rules import joined

    pieces = [(150.4999, 100.0, 200.0), (150.5001, 200.0, 300.0), (150.4999, 300.0, 400.0),
              (170.0, 100.0, 400.0)]
    assert joined(pieces) == [(150.4999, 100.0, 400.0), (170.0, 100.0, 400.0)]
    assert joined([(10.0, 0.0, 50.0), (10.2, 80.0, 90.0)]) == [(10.0, 0.0, 50.0), (10.2, 80.0, 90.0)]


def _continued_table_pdf(path: Path) -> Path:
    """A table whose header row is boxed (one row between column rules) and whose body rows
    are ruled across only, as SciELO sets a table continued from the page before."""
    pymupdf = load_pymupdf()
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 90), "Tabla 1 - Índices de divulgación por bloques.", fontsize=10)
    left, right = 72.0, 500.0
    page.draw_rect(pymupdf.Rect(left, 96, right, 112), color=(0, 0, 0), width=0.5)
    page.draw_line((460, 96), (460, 112), color=(0, 0, 0), width=0.5)  # the IDI column's rule
    page.insert_text((76, 108), "Eje de análisis 3: Contratación de servicios", fontsize=9)
    page.insert_text((470, 108), "IDI", fontsize=9)
    y = 112.0
    for n in range(8, 14):
        page.insert_text((76, y + 12), f"3.{n}. Se publican los informes del proyecto número {n}.", fontsize=9)
        page.insert_text((470, y + 12), f"{50 + n},00", fontsize=9)
        y += 16.0
    page.draw_line((left, y + 2), (right, y + 2), color=(0, 0, 0), width=0.5)
    page.insert_text((72, y + 40), "Los resultados muestran que los ayuntamientos publican mucho.", fontsize=10)
    doc.save(path)
    doc.close()
    return path


def test_a_boxed_header_row_alone_is_not_the_table_its_rules_go_on_below(tmp_path: Path) -> None:
    doc = PyMuPDFParser().parse(_continued_table_pdf(tmp_path / "t.pdf"))
    tables = [b for b in doc.blocks if b.type == "table" and not b.text.startswith("Tabla")]
    assert len(tables) == 1
    assert "3.8. Se publican los informes del proyecto número 8. 58,00" in tables[0].text
    assert "3.13. Se publican" in tables[0].text
    paragraphs = [b.text for b in doc.blocks if b.type == "paragraph"]
    assert paragraphs == ["Los resultados muestran que los ayuntamientos publican mucho."]


def _algorithm_pdf(path: Path) -> Path:
    """A ruled algorithm float (rule, caption, rule, pseudocode, rule) between two
    paragraphs, the second opening with ``Algorithm 1`` as a sentence."""
    pymupdf = load_pymupdf()
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 100), "We first pair every item with every other item, as follows.", fontsize=10)
    left, right = 72.0, 300.0
    page.draw_line((left, 112), (right, 112), color=(0, 0, 0), width=0.8)
    page.insert_text((72, 124), "Algorithm 1 Pairs(items)", fontsize=10)
    page.draw_line((left, 128), (right, 128), color=(0, 0, 0), width=0.5)
    body = ["pairs := {}", "for all a, b in items do", "    pairs := pairs + (a, b)", "return pairs"]
    for n, code in enumerate(body):
        page.insert_text((76, 142 + 13 * n), code, fontsize=10)
    page.draw_line((left, 142 + 13 * len(body) - 6), (right, 142 + 13 * len(body) - 6), color=(0, 0, 0), width=0.8)
    page.insert_text((72, 240), "Algorithm 1 shows the loop; it ends once every pair is made.", fontsize=10)
    doc.save(path)
    doc.close()
    return path


def test_a_ruled_algorithm_is_one_figure_chunk_and_its_pseudocode_no_paragraph(tmp_path: Path) -> None:
    doc = PyMuPDFParser().parse(_algorithm_pdf(tmp_path / "a.pdf"))
    figures = [b for b in doc.blocks if b.type == "figure"]
    assert len(figures) == 1
    assert figures[0].text.startswith("Algorithm 1 Pairs(items) pairs := {} for all a, b in items do")
    assert figures[0].text.endswith("return pairs")
    paragraphs = [b.text for b in doc.blocks if b.type == "paragraph"]
    assert paragraphs == ["We first pair every item with every other item, as follows.",
                          "Algorithm 1 shows the loop; it ends once every pair is made."]


def test_a_bare_doi_under_a_table_is_the_table_s_not_a_paragraph(tmp_path: Path) -> None:
    # PLOS sets each table's DOI under its last row.
    path = _table_pdf(tmp_path / "t.pdf")
    pymupdf = load_pymupdf()
    doc = pymupdf.open(path)
    doc[0].insert_text((72, 226), "https://doi.org/10.1371/journal.pone.0207763.t001", fontsize=8)
    for _ in range(2):  # the table on page 3, past the front matter's pages
        doc.new_page(0, width=595, height=842).insert_text(
            (72, 100), "Methods are described in full in the pages that follow this one.", fontsize=10)
    doc.save(tmp_path / "doi.pdf")
    parsed = PyMuPDFParser().parse(tmp_path / "doi.pdf")
    tables = [b.text for b in parsed.blocks if b.type == "table"]
    assert len(tables) == 2 and tables[1].endswith("9.6 https://doi.org/10.1371/journal.pone.0207763.t001")
    assert not any("doi.org" in b.text for b in parsed.blocks if b.type == "paragraph")


def test_spanish_and_portuguese_tables_of_text_are_table_captions() -> None:
    from vaultd.parse.classify import classify, is_figure_caption, is_table_caption

    for text in ("CUADRO 2. Características sociodemográficas de las participantes",
                 "Quadro 1 - Categorias de análise"):
        assert is_table_caption(text) and not is_figure_caption(text)
        assert classify(text, 9.0, False, 1, 10.0, True)[0] == "table"
    assert is_figure_caption("FIGURA 1. Mapa de la zona de estudio")


def _row(text: str, top: float) -> Any:
    from vaultd.parse.paras import Line

    return Line(text=text, bbox=(220.0, top, 520.0, top + 8.0), size=8.0, bold=False, block=1, page=5)


def test_a_page_long_table_of_values_keeps_its_bottom_rule_but_not_past_running_text() -> None:
    # PAHO: 425 pt of rows between the header's rule and the bottom rule.
    from vaultd.parse.open_tables import rule_stacks
    from vaultd.parse.paras import Line

    caption = Line(text="CUADRO 2. Características de las participantes", bbox=(219.0, 72.0, 558.0, 90.0),
                   size=8.0, bold=True, block=0, page=5)
    rules = [(98.0, 219.0, 558.0), (123.5, 219.0, 558.0), (549.0, 219.0, 558.0)]
    rows = [_row(f"Primaria no terminada {n} (20,1) 69 (23,7)", 130.0 + 12 * n) for n in range(30)]
    assert rule_stacks(rules, caption, [], 48.0, rows) == [(219.0, 98.0, 558.0, 549.0)]
    prose = _row("la contaminación ambiental y del estado de salud de las mujeres", 300.0)
    assert rule_stacks(rules, caption, [], 48.0, [*rows, prose]) == [(219.0, 98.0, 558.0, 123.5)]


def test_a_plot_s_white_background_is_no_table_rule(tmp_path: Path) -> None:
    # PPoPP: a plot laid on a white rectangle reaching across both columns, right above a
    # booktabs table in the right column whose caption is under it; its sides were read as
    # rules, and the table took the left column's sentence.
    pymupdf = load_pymupdf()
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.draw_rect(pymupdf.Rect(74, 64, 552, 662), color=None, fill=(1, 1, 1))
    page.draw_rect(pymupdf.Rect(100, 80, 500, 300), color=(0, 0, 0), width=0.8)  # the plot's frame
    page.insert_text((60, 330), "Figure 2. Throughput of the queues on four platforms.", fontsize=9)
    left = ["At high concurrency levels, the other queue does better than", "ours by about half, as the",
            "free queue is more costly when trying to dequeue from an empty", "queue, which it then retries."]
    for i, text in enumerate(left):
        page.insert_text((54, 620 + 10 * i), text, fontsize=9)
    page.draw_line((321, 612), (552, 612), color=(0, 0, 0), width=0.4)
    rows = ["# of threads 36 72 144 288", "% of slow-path enqueues 0.002 0.004 0.024 0.028",
            "% of empty dequeues 0.002 0.002 0.003 0.003"]
    for i, text in enumerate(rows):
        page.insert_text((327, 626 + 12 * i), text, fontsize=9)
    page.draw_line((321, 661), (552, 661), color=(0, 0, 0), width=0.4)
    page.insert_text((317, 674), "Table 2. Breakdown of the execution paths.", fontsize=9)
    doc.save(tmp_path / "p.pdf")
    parsed = PyMuPDFParser().parse(tmp_path / "p.pdf")
    table = " ".join(b.text for b in parsed.blocks if b.type == "table")
    assert "% of empty dequeues" in table and "free queue" not in table
    assert any("free queue is more costly" in b.text for b in parsed.blocks if b.type == "paragraph")


def test_a_ruled_grid_holding_a_figure_caption_is_not_the_next_table(tmp_path: Path) -> None:
    # A figure framed with its caption, its plots' grids ruled, right above a table's caption:
    # the table finder's grid holds the figure's caption, so it is no table.
    pymupdf = load_pymupdf()
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    for x in (72, 222, 372, 522):
        page.draw_line((x, 100), (x, 400), color=(0, 0, 0), width=0.5)
    for y in (100, 200, 300, 400):
        page.draw_line((72, y), (522, y), color=(0, 0, 0), width=0.5)
    for i, label in enumerate(("0.2", "0.4", "0.6")):
        page.insert_text((80 + 150 * i, 150), label, fontsize=9)
    page.insert_text((80, 350), "Figure 1: Throughput of the three queues we compare.", fontsize=9)
    page.insert_text((72, 412), "Table 1: Threads per platform.", fontsize=9)
    doc.save(tmp_path / "g.pdf")
    parsed = PyMuPDFParser().parse(tmp_path / "g.pdf")
    tables = [b.text for b in parsed.blocks if b.type == "table"]
    assert tables == ["Table 1: Threads per platform."]
    assert [b.text for b in parsed.blocks if b.type == "figure"] == [
        "Figure 1: Throughput of the three queues we compare."]


def test_a_ruled_header_band_over_rows_ruled_across_is_read_with_all_its_rows(tmp_path: Path) -> None:
    # SciELO 2022: a two-row header band with column rules, then rows ruled across only;
    # the table finder returns the band, the caption's rules run on to the table's end.
    pymupdf = load_pymupdf()
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((176, 100), "Tabela 3. Concentração de fluoreto por distrito.", fontsize=9)
    left, right = 176.0, 567.0
    for y in (120, 135, 150):
        page.draw_line((left, y), (right, y), color=(0, 0, 0), width=0.5)
    for x in (left, 278, 374, 471, right):
        page.draw_line((x, 120), (x, 150), color=(0, 0, 0), width=0.5)
    for x, head in zip((180, 282, 378, 475), ("Distrito", "FST", "FSI", "Faixa"), strict=True):
        page.insert_text((x, 131), head, fontsize=8)
        page.insert_text((x, 146), "ppm", fontsize=8)
    names = ["Ajuricaba", "Norte", "Sul", "Leste", "Oeste"]
    for i, name in enumerate(names):
        y = 150 + 15 * (i + 1)
        page.insert_text((180, y - 4), f"{name} 536,4; 225,8 (8) 335,8–960,9", fontsize=8)
        page.draw_line((left, y), (right, y), color=(0, 0, 0), width=0.5)
    page.insert_text((72, 300), "Os dentifrícios analisados foram classificados por marca.", fontsize=10)
    doc.save(tmp_path / "s.pdf")
    parsed = PyMuPDFParser().parse(tmp_path / "s.pdf")
    table = " ".join(b.text for b in parsed.blocks if b.type == "table")
    assert all(f"{name} 536,4" in table for name in names)
    assert not any("536,4" in b.text for b in parsed.blocks if b.type == "paragraph")


def test_a_table_set_beside_its_caption_is_read_from_the_rules_level_with_it(tmp_path: Path) -> None:
    # Wiley GCB: the caption in a narrow column at the right, the table at the left, their
    # tops level; rows ruled across, an italic species name opening some.
    pymupdf = load_pymupdf()
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    caption = ["TABLE 1 Summary of the statistical", "analysis of the physiological", "parameters tested"]
    for i, text in enumerate(caption):
        page.insert_text((397, 52 + 10 * i), text, fontsize=8)
    rows = ["Location Season Location: season", "Acropora solitaryensis 78.6 <.001 22.2",
            "Porites heronensis 20.1 <.001 290.0", "Growth (mg g-1 day-1)", "Porites heronensis 0.623 .733 13.600"]
    for i, text in enumerate(rows):
        page.draw_line((46, 46 + 14 * i), (380, 46 + 14 * i), color=(0, 0, 0), width=0.4)
        page.insert_text((52, 56 + 14 * i), text, fontsize=8)
    page.draw_line((46, 46 + 14 * len(rows)), (380, 46 + 14 * len(rows)), color=(0, 0, 0), width=0.4)
    page.insert_text((46, 160), "The only positive net calcification observed was in July at the site.", fontsize=9)
    doc.save(tmp_path / "side.pdf")
    parsed = PyMuPDFParser().parse(tmp_path / "side.pdf")
    table = " ".join(b.text for b in parsed.blocks if b.type == "table")
    assert all(row in table for row in rows)
    assert not any("Porites" in b.text for b in parsed.blocks if b.type != "table")


def _acl_tables_pdf(path: Path) -> Path:
    """ACL (NAACL 2018): two tables, each ruled only under its header, its column rules
    running the table's height, each captioned under it; the first caption is nearer to
    the second table's rule than to its own."""
    pymupdf = load_pymupdf()
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)

    def table(top: float, rows: list[str]) -> float:
        page.insert_text((100, top + 10), rows[0], fontsize=9)
        for y in (top + 25, top + 27):
            page.draw_line((92, y), (305, y), color=(0, 0, 0), width=0.4)
        for i, row in enumerate(rows[1:]):
            page.insert_text((100, top + 39 + 12 * i), row, fontsize=9)
        bottom = top + 30 + 12 * (len(rows) - 1)
        for x in (135, 181, 232):
            page.draw_line((x, top), (x, bottom), color=(0, 0, 0), width=0.4)
        return bottom

    end = table(94, ["Task Baseline Last All", "SQuAD 80.8 84.7 85.0", "SNLI 88.1 89.1 89.3", "SRL 81.6 84.1 84.6"])
    for i, text in enumerate(["Table 2: Development set performance comparing",
                              "all layers of the biLM to just the top layer,",
                              "for each of the three tasks and the baseline."]):
        page.insert_text((92, end + 16 + 11 * i), text, fontsize=9)
    second = end + 16 + 33 + 30
    end2 = table(second, ["Task Input Output Both", "SQuAD 85.1 85.6 84.8", "SNLI 88.9 89.5 88.7"])
    page.insert_text((92, end2 + 16), "Table 3: Development set performance by location.", fontsize=9)
    doc.save(path)
    doc.close()
    return path


def test_acl_tables_ruled_by_their_columns_each_keep_their_own_rows(tmp_path: Path) -> None:
    parsed = PyMuPDFParser().parse(_acl_tables_pdf(tmp_path / "acl.pdf"))
    tables = {t.split(":")[0]: t for t in table_quotes(parsed.blocks)}
    assert "SQuAD 80.8 84.7 85.0" in tables["Table 2"] and "SRL 81.6 84.1 84.6" in tables["Table 2"]
    assert "Task Baseline Last All" in tables["Table 2"]
    assert "SQuAD 85.1 85.6 84.8" in tables["Table 3"] and "SNLI 88.9 89.5 88.7" in tables["Table 3"]
    assert "SQuAD 85.1" not in tables["Table 2"]
    assert not any("SQuAD" in b.text for b in parsed.blocks if b.type != "table")


def test_a_body_line_that_wraps_to_open_with_table_4_is_no_caption(tmp_path: Path) -> None:
    # MDPI: "… shown in" | "Table 4. AI-driven lists were …" inside the paragraph right
    # over the real caption and its ruled table: the body line is no caption.
    pymupdf = load_pymupdf()
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    for i, text in enumerate(["The results of the regression analyses are shown in",
                              "Table 4. AI-driven lists were associated with better accuracy",
                              "in every one of the groups we compared in this study."]):
        page.insert_text((72, 104 + 12 * i), text, fontsize=10)
    page.insert_text((72, 156), "Table 1: Translation quality and training cost.", fontsize=10)
    x0, y0, w, h = 72.0, 166.0, 120.0, 20.0
    for r, row in enumerate(ROWS):
        for c, cell in enumerate(row):
            rect = pymupdf.Rect(x0 + c * w, y0 + r * h, x0 + (c + 1) * w, y0 + (r + 1) * h)
            page.draw_rect(rect, color=(0, 0, 0), width=0.5)
            page.insert_text((rect.x0 + 4, rect.y1 - 6), cell, fontsize=10)
    doc.save(tmp_path / "m.pdf")
    parsed = PyMuPDFParser().parse(tmp_path / "m.pdf")
    tables = table_quotes(parsed.blocks)
    assert len(tables) == 1 and tables[0].startswith("Table 1: Translation quality") and "28.4" in tables[0]
    assert any("Table 4. AI-driven lists" in b.text for b in parsed.blocks if b.type == "paragraph")


def test_a_table_whose_caption_block_is_not_found_keeps_its_cells(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The table's lines leave the page's text; if no block opens with its caption line
    # (here: the caption blocks are taken away), its cells still reach the note.
    from vaultd.parse import pymupdf as parser_mod
    from vaultd.parse.structure import build_blocks

    def without_captions(pages: Any, infos: Any, parser: str) -> Any:
        return [b for b in build_blocks(pages, infos, parser) if b.type != "table"]

    monkeypatch.setattr(parser_mod, "build_blocks", without_captions)
    parsed = PyMuPDFParser().parse(_table_pdf(tmp_path / "t.pdf"))
    assert [(b.type, b.text[:5]) for b in parsed.blocks] == [
        ("paragraph", "Resul"), ("table", "Model"), ("paragraph", "The b")]
    table = next(b for b in parsed.blocks if b.type == "table")
    assert table.text == "Model BLEU Cost Transformer 28.4 2.3 ConvS2S|v2 26.4 9.6"
    assert table.pdf_rect is not None and table.regions


def test_a_word_s_underline_over_the_caption_gives_way_to_the_table_s_rules() -> None:
    # ELMo's Table 4: "play" underlined in the last row stands nearer to the caption than
    # the table's bottom rule; it stacks nothing, so the next seed is the table's.
    from vaultd.parse.open_tables import rule_stacks
    from vaultd.parse.paras import Line

    caption = Line(text="Table 4: Nearest neighbors to “play” using GloVe and a biLM.",
                   bbox=(131.0, 229.4, 467.3, 240.4), size=9.0, bold=False, block=0, page=7)
    rules = [(119.0, 104.0, 494.0), (121.0, 104.0, 494.0), (146.0, 104.0, 494.0),
             (184.0, 141.0, 494.0), (209.0, 312.0, 329.0)]
    assert rule_stacks(rules, caption, [], 48.0) == [(104.0, 119.0, 494.0, 184.0)]


def test_a_table_ruled_with_stretched_one_pixel_images_keeps_its_cells_out_of_the_paragraphs(
        tmp_path: Path) -> None:
    # Frontiers 2015 draws its tables' rules as a 1 x 1 image stretched into a line, with
    # no vector drawing on the page.
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 100), "Chemical composition was measured for every sample we took.", fontsize=10)
    page.insert_text((72, 140), "TABLE 2 | Chemical composition of the essential oil.", fontsize=9)
    dot = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 1, 1), False)
    dot.set_pixel(0, 0, (0,))
    for y in (146.0, 164.0, 222.0):  # top, under the header, bottom
        page.insert_image(pymupdf.Rect(72, y, 330, y + 0.3), pixmap=dot)
    rows = [("Compound", "RI", "Quantity"), ("alpha-Thujene", "926", "0.18"), ("alpha-Pinene", "932", "0.45"),
            ("Camphene", "946", "0.12"), ("Sabinene", "969", "0.20")]
    for i, row in enumerate(rows):
        y = 158 + (i > 0) * 6 + 12 * i
        for x, cell in zip((72, 200, 270), row, strict=True):
            page.insert_text((x, y), cell, fontsize=9)
    page.insert_text((72, 260), "The oil is rich in monoterpenes, as the table shows in full.", fontsize=10)
    doc.save(tmp_path / "img_rules.pdf")
    doc.close()
    blocks = PyMuPDFParser().parse(tmp_path / "img_rules.pdf").blocks
    assert "Camphene 946 0.12" in table_quotes(blocks)[0]
    assert not any("Thujene" in b.text or "Camphene" in b.text for b in blocks if b.type == "paragraph")
