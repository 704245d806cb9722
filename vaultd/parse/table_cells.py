"""A table's cells as text: the verbatim run a table chunk quotes, and the Markdown it is
shown as when its rows and columns are clear. Pure."""

from __future__ import annotations

#: Largest share of empty cells a table may have and still be rendered as Markdown.
MAX_EMPTY = 1 / 3


def table_text(rows: list[list[str]]) -> str:
    """The cells' text in reading order (row by row, left to right): a table chunk's quote."""
    return " ".join(c for row in rows for c in row if c)


def is_clear(rows: list[list[str]]) -> bool:
    """Rows and columns clear enough for a Markdown table: two rows and two columns at
    least, every row as wide, a complete header row, at most ``MAX_EMPTY`` cells empty."""
    if len(rows) < 2 or min(len(r) for r in rows) < 2 or len({len(r) for r in rows}) != 1:
        return False
    if not all(rows[0]):
        return False
    cells = [c for r in rows for c in r]
    return sum(1 for c in cells if not c) <= MAX_EMPTY * len(cells)


def _md_cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|")


def to_markdown(rows: list[list[str]]) -> str:
    """A GitHub-flavoured Markdown table, first row as the header."""
    out = ["| " + " | ".join(_md_cell(c) for c in rows[0]) + " |",
           "|" + "---|" * len(rows[0])]
    out += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows[1:]]
    return "\n".join(out)


def as_lines(rows: list[list[str]]) -> str:
    """Rows whose columns are not clear, one row a line: a Markdown table of one column
    with an empty header, so the note shows the rows apart, never as one run-on line."""
    body = [" ".join(c for c in row if c) for row in rows]
    return "\n".join(["| |", "|---|", *("| " + _md_cell(line) + " |" for line in body if line)])


def rows_markdown(rows: list[list[str]], columns: bool) -> str | None:
    """The Markdown a table's cells are shown as: a table when ``columns`` (ruled, or set
    in aligned columns) and ``is_clear``; else one row a line; None without cells."""
    if not table_text(rows):
        return None
    return to_markdown(rows) if columns and is_clear(rows) else as_lines(rows)

