"""Margin notes (vaultd.parse.margins): a label in the page margin on a paragraph's
baseline, in another font, is set apart from the paragraph's line."""

from __future__ import annotations

from vaultd.parse.margins import MARGIN_BLOCK, mark_margin_notes, text_block_edges
from vaultd.parse.paras import Line


def _line(text: str, x0: float, x1: float, y: float, font: str = "CMR10", block: int = 0) -> Line:
    return Line(text=text, bbox=(x0, y, x1, y + 10.0), size=10.0, bold=False, block=block, page=1, font=font)


def _page(y0: float = 100.0, n: int = 12) -> list[Line]:
    return [_line("a line of the body text set full measure", 134.8, 480.7, y0 + 12 * k, block=k // 4)
            for k in range(n)]


def test_the_text_block_s_edges_are_where_most_body_lines_start_and_end() -> None:
    odd, even = text_block_edges([_page(), _page()])
    assert odd == even == (135.0, 481.0)
    assert text_block_edges([[_line("short", 200, 230, 100)]]) == ((None, None), (None, None))


def test_a_typewriter_label_left_of_the_block_on_a_line_s_baseline_gets_its_own_block() -> None:
    page = _page()
    label = _line("\\titlerunning", 68.6, 129.5, page[5].bbox[1] + 1.0, font="CMTT9", block=page[5].block)
    mark_margin_notes([*page, label], (135.0, 481.0))
    assert label.margin and label.block == MARGIN_BLOCK + page[5].block
    assert not any(ln.margin for ln in page)


def test_a_hanging_number_or_a_label_in_the_line_s_own_font_or_block_stays() -> None:
    page = _page()
    number = _line("12.", 118.0, 130.0, page[1].bbox[1], font="CMTT9", block=page[1].block)  # no letter
    same_font = _line("Note", 100.0, 128.0, page[2].bbox[1], block=page[2].block)
    other_block = _line("Sidebar", 40.0, 120.0, page[3].bbox[1], font="Helvetica", block=99)
    mark_margin_notes([*page, number, same_font, other_block], (135.0, 481.0))
    assert not (number.margin or same_font.margin or other_block.margin)
