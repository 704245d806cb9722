"""Chunks a note shows folded: the first pages' front matter (editors, reviewers,
correspondence, dates, licence, keywords) is the paper's apparatus, not its passages, so
its quote sits in a collapsed Obsidian callout (``> [!info]- Front matter``) that a reader
opens on demand; and a table's cells, when their Markdown table is shown: the table is what
a reader reads, under its caption, and the cells' verbatim run (the quote, hashed) sits
folded under it (``> [!quote]- Cells as quoted``). The header line is no part of the
quote: a quote line is escaped (``\\[``), so no quote line can be it. Pure."""

from __future__ import annotations

#: The callout header a chunk type's quote is folded under.
FOLD_HEADERS = {"front": "> [!info]- Front matter", "table": "> [!quote]- Cells as quoted"}


def fold_header(chunk_type: str, table_shown: bool = False) -> str | None:
    """The header line to write before the quote of a chunk of this type, if folded (a
    table chunk's only when its Markdown table is shown above it)."""
    if chunk_type == "table" and not table_shown:
        return None
    return FOLD_HEADERS.get(chunk_type)


def unfolded(quote: list[str]) -> list[str]:
    """A quote read from a note without its fold's header line (``[!info]- …``, as read
    after the ``> ``)."""
    return quote[1:] if quote and quote[0].startswith("[!") else quote
