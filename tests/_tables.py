"""Tables as a reader meets them: each caption chunk with the cells chunk after it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from vaultd.parse.classify import CAPTION_RE


class _Typed(Protocol):
    type: str
    text: str


def table_quotes(blocks: Iterable[_Typed]) -> list[str]:
    """Each table's caption and the table blocks right after it (its cells; two tables
    side by side under one caption both), joined by a space; a cells block with no
    caption before it stands alone."""
    out: list[str] = []
    after = False  # the block before was a table block
    for block in blocks:
        if block.type != "table":
            after = False
            continue
        if CAPTION_RE.match(block.text) or not (out and after):
            out.append(block.text)
        else:
            out[-1] = f"{out[-1]} {block.text}"
        after = True
    return out
