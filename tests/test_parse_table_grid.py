"""A table without drawn columns read as a grid from its words (vaultd.parse.table_grid),
on hand-made words: columns, and the header as one row."""

from __future__ import annotations

from vaultd.parse.table_grid import Word, word_grid


def _words(rows: list[tuple[float, list[tuple[float, str]]]]) -> list[Word]:
    """Words of ``(bottom, [(x0, text), …])`` rows, 5 pt a character."""
    return [(x0, bottom - 8.0, x0 + 5.0 * len(text), bottom, text, 0, 0, 0)
            for bottom, cells in rows for x0, text in cells]


BODY = [(120.0, [(50.0, "alpha"), (150.0, "1.0M"), (250.0, "yes")]),
        (130.0, [(50.0, "beta"), (150.0, "2.5k"), (250.0, "no")]),
        (140.0, [(50.0, "gamma"), (150.0, "7"), (250.0, "yes")])]


def test_a_header_set_in_interleaved_lines_above_the_first_rule_is_one_row() -> None:
    # cells of one, two and three lines, vertically centred: their lines interleave
    head = [(80.0, [(250.0, "Refs")]), (85.0, [(150.0, "Papers")]),
            (90.0, [(50.0, "Corpus"), (250.0, "tables")]), (95.0, [(150.0, "w/ text")]),
            (100.0, [(250.0, "equations")])]
    grid = word_grid(_words(head + BODY), rules=[105.0])
    assert grid == [["Corpus", "Papers w/ text", "Refs tables equations"],
                    ["alpha", "1.0M", "yes"], ["beta", "2.5k", "no"], ["gamma", "7", "yes"]]


def test_one_header_row_over_the_rule_is_the_header_alone() -> None:
    grid = word_grid(_words([(100.0, [(50.0, "Name"), (150.0, "Size"), (250.0, "Open")]), *BODY]), rules=[105.0])
    assert grid is not None and grid[0] == ["Name", "Size", "Open"] and grid[1] == ["alpha", "1.0M", "yes"]


def test_rules_drawn_between_bands_of_rows_tell_no_header() -> None:
    rows = [(100.0, [(50.0, "ID"), (150.0, "Role"), (250.0, "Years")]), *BODY,
            (150.0, [(50.0, "delta"), (150.0, "3"), (250.0, "no")])]
    grid = word_grid(_words(rows), rules=[125.0, 135.0, 145.0])  # every other row ruled
    assert grid is not None and grid[0] == ["ID", "Role", "Years"] and grid[1] == ["alpha", "1.0M", "yes"]


def test_a_group_header_over_several_columns_makes_the_header_unclear() -> None:
    # "Scores" heads the last two columns: set over them, it stands in a gutter, or in a
    # column, flush with none of that column's own header lines
    for head in ([(90.0, [(205.0, "Scores")])], [(90.0, [(155.0, "Scores")])]):
        rows = [*head, (100.0, [(50.0, "Name"), (150.0, "Size"), (250.0, "Open")]), *BODY]
        assert word_grid(_words(rows), rules=[105.0]) is None
