"""Found tables into the document's blocks: each table's caption is a ``table`` block of
its own words, and its cells a ``table`` block right after it.

The cells block quotes the cells' text-layer characters in reading order (row by row,
left to right, one space between cells), so it reproduces by re-extraction like every
quote; its ``markdown`` shows them as a Markdown table under the caption when the rows
and columns are clear (drawn, or set in aligned columns), else one row a line
(``vaultd.parse.table_cells``). A caption is never a paragraph and never holds the cells.
An algorithm float stays one ``figure`` block: its caption and its pseudocode lines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from vaultd.parse.algorithms import is_algorithm_caption
from vaultd.parse.bare_tables import has_rows_of_cells
from vaultd.parse.base import Block, user_rect
from vaultd.parse.captions import IDENTIFIER_LINE_RE
from vaultd.parse.classify import is_table_caption
from vaultd.parse.drawings import visible_drawings
from vaultd.parse.paras import Line, PageInfo
from vaultd.parse.structure import build_blocks
from vaultd.parse.table_cells import rows_markdown, table_text
from vaultd.parse.table_geometry import centre_in
from vaultd.parse.tables import (
    FoundTable,
    can_open_caption,
    find_bare_tables,
    find_page_algorithms,
    find_page_tables,
    near,
)

BuildFn = Callable[[list[list[Line]], list[PageInfo], str], list[Block]]


def build_blocks_with_tables(pdf_pages: Sequence[Any], pages: list[list[Line]], infos: list[PageInfo],
                             parser: str, build: BuildFn = build_blocks,
                             drawings: dict[int, list[dict[str, Any]]] | None = None) -> list[Block]:
    """``build_blocks`` with each found table's cells in a block after its caption's.
    ``pdf_pages``: the document's loaded pages; ``drawings``: pages' ``get_cdrawings()``
    already read (0-based page index)."""
    tables: list[FoundTable] = []
    for i, lines in enumerate(pages):
        has_table = any(is_table_caption(ln.text) and can_open_caption(ln, lines) for ln in lines)
        algorithms = [ln for ln in lines if is_algorithm_caption(ln.text) and can_open_caption(ln, lines)]
        rows = has_rows_of_cells(lines)
        if not has_table and not algorithms and not rows:
            continue  # no caption, no row of cells: not even worth loading the page again
        page = pdf_pages[i]
        drawn = (drawings or {}).get(i)
        if drawn is None:  # read once for the page's tables and algorithms both
            drawn = visible_drawings(page)
        found = find_page_tables(page, lines, drawn) if has_table else []
        found += find_page_algorithms(page, algorithms, lines, drawn)
        if rows:
            found += find_bare_tables(page, lines, drawn, found)
        if not found:
            continue
        tables.extend(found)
        caps = {id(t.caption) for t in found if t.caption is not None}
        pages[i] = [ln for ln in lines if id(ln) in caps
                    or not any(centre_in(ln.bbox, t.bbox) for t in found)]
        for n, t in enumerate(found):  # an algorithm's caption: a block of its own
            if t.caption is not None and is_algorithm_caption(t.caption.text):
                own = replace(t.caption, block=-1 - n)
                pages[i] = [own if ln is t.caption else ln for ln in pages[i]]
                t.caption = own
    blocks = build(pages, infos, parser)
    for tab in tables:
        if tab.caption is None:  # no caption: the cells in reading order, where the table stands
            _insert_cells(blocks, tab, infos[tab.page - 1])
            continue
        algorithm = is_algorithm_caption(tab.caption.text)
        for k, block in enumerate(blocks):
            if (block.type != "table" and not algorithm) or block.page != tab.page or block.bbox is None:
                continue
            # the caption's block: its first line is the caption line (the block's text may
            # read it otherwise: a hyphen at its end joins the next line's word)
            if abs(block.bbox[1] - tab.caption.bbox[1]) < 0.5 and near(block.bbox, tab.caption.bbox, 1.0):
                if algorithm:
                    block.type = "figure"
                    block.text = f"{block.text} {table_text(tab.rows)}"
                    block.pieces = [(block.page, block.text)]
                else:
                    _insert_cells(blocks, tab, infos[tab.page - 1], k + 1)
                break
        else:  # no block opens with the caption line: the cells must not be lost with it
            _insert_cells(blocks, tab, infos[tab.page - 1])
    return _identifiers_to_floats(blocks)


def _insert_cells(blocks: list[Block], tab: FoundTable, info: PageInfo, at: int | None = None) -> None:
    """A ``table`` block of ``tab``'s cells, put at ``at`` (right after its caption's
    block), or, for a table whose caption block was not found, in reading order before the
    first block of its page that starts under the table's top."""
    text = table_text(tab.rows)
    if not text:
        return
    if at is None:
        at = next((k for k, b in enumerate(blocks) if b.page == tab.page and b.bbox is not None
                   and b.bbox[1] > tab.bbox[1]), None)
    if at is None:
        at = max((k + 1 for k, b in enumerate(blocks) if b.page <= tab.page), default=0)
    near_block = blocks[at - 1] if at > 0 else (blocks[at] if at < len(blocks) else None)
    rect = user_rect(tab.bbox, info.to_user)
    blocks.insert(at, Block(
        type="table", text=text, page=tab.page, page_label=info.label, bbox=tab.bbox, pdf_rect=rect,
        regions=[(tab.page, tab.bbox, rect)], pieces=[(tab.page, text)],
        markdown=rows_markdown(tab.grid or tab.rows, tab.ruled or tab.grid is not None),
        section=near_block.section if near_block else None,
        section_token=near_block.section_token if near_block else "0"))


def _identifiers_to_floats(blocks: list[Block]) -> list[Block]:
    """A bare DOI or URL right after a table (PLOS sets each table's DOI under its last
    row, ``https://doi.org/10.1371/journal.pone.0207763.t001``) is the table's, not a
    paragraph: it joins the table's quote."""
    out: list[Block] = []
    for block in blocks:
        prev = out[-1] if out else None
        if (prev is not None and prev.type == "table" and block.type == "paragraph"
                and block.page == prev.page and IDENTIFIER_LINE_RE.fullmatch(block.text.strip())):
            prev.text = f"{prev.text} {block.text.strip()}"
            prev.pieces = [(prev.page, prev.text)]
            continue
        out.append(block)
    return out
