"""Block classification: pieces of display formulas are equations, not paragraphs."""

from __future__ import annotations

from vaultd.parse.structure import Line, PageInfo, build_blocks


def _page(*texts: str) -> tuple[list[list[Line]], list[PageInfo]]:
    lines = [
        Line(text=t, bbox=(72.0, 100.0 + 40 * i, 300.0, 110.0 + 40 * i), size=10.0, bold=False, block=i, page=1)
        for i, t in enumerate(texts)
    ]
    info = PageInfo(number=1, label=None, width=612.0, height=792.0,
                    to_user=(1.0, 0.0, 0.0, -1.0, 0.0, 792.0), has_images=False)
    return [lines], [info]


def test_short_fragment_with_an_unmapped_bracket_glyph_is_an_equation_not_a_paragraph() -> None:
    pages, infos = _page("The loss is defined below for every triple of papers in the set.",
                         "\ufffdP Q, P +\ufffd", "\ufffd, 0")
    kinds = [b.type for b in build_blocks(pages, infos, "pymupdf")]
    assert kinds == ["paragraph", "equation", "equation"]


def test_short_prose_with_an_unmapped_glyph_stays_a_paragraph() -> None:
    pages, infos = _page("See caf\ufffd menu.")
    assert [b.type for b in build_blocks(pages, infos, "pymupdf")] == ["paragraph"]
