"""A printed line put back together from the pieces MuPDF gives: the pieces of one line
split at sub- and superscripts joined left to right (``merge_same_baseline``), a side head
and the text's first line on one baseline kept apart, a list's bullet sized as its item,
and lines drawn twice read once (``drop_doubles``). Pure: lines in, lines out.
"""

from __future__ import annotations

from vaultd.parse.paras import Line
from vaultd.parse.spans import Piece, needs_space


def drop_doubles(lines: list[Line]) -> list[Line]:
    """A line drawn twice over itself (a banner or footer overprinted to look bold) is
    read once, as poppler reads overlapping copies of a glyph once."""
    seen: set[tuple[str, int, int, int, int]] = set()
    out: list[Line] = []
    for ln in lines:
        x0, y0, x1, y1 = ln.bbox
        key = (ln.text, round(x0), round(y0), round(x1), round(y1))
        if key in seen:
            continue
        seen.add(key)
        out.append(ln)
    return out


#: Pieces of a line standing this many ems apart are a table row's cells.
CELL_GAP_EMS = 1.0


def merge_same_baseline(lines: list[Line]) -> list[Line]:
    """PyMuPDF splits one printed line at sub/superscripts; put the pieces back together,
    left to right (it may give the piece on the right first).

    The space at each join follows ``needs_space``; a line's box bottom stands for its
    baseline and its main size for the size of its last glyphs.
    """
    out: list[Line] = []
    for ln in lines:
        prev = out[-1] if out else None
        if prev is not None and prev.block == ln.block:
            py0, py1 = prev.bbox[1], prev.bbox[3]
            overlap = min(py1, ln.bbox[3]) - max(py0, ln.bbox[1])
            height = min(py1 - py0, ln.bbox[3] - ln.bbox[1]) or 1.0
            after = ln.bbox[0] >= prev.bbox[2] - 1.0
            # MuPDF may give the piece on the right first: then only a piece right beside it
            before = ln.bbox[2] <= prev.bbox[0] + 1.0 \
                and prev.bbox[0] - ln.bbox[2] <= 1.5 * max(prev.size, ln.size, 1.0)
            if overlap > 0.5 * height and (after or before) and not _side_head(prev, ln):
                first, second = (prev, ln) if after else (ln, prev)
                left = Piece(first.text, first.bbox[0], first.bbox[2], first.bbox[3], first.size)
                right = Piece(second.text, second.bbox[0], second.bbox[2], second.bbox[3], second.size)
                sep = " " if needs_space(left, right) else ""
                # a listing's line number, set apart in the body face, joins its code line
                # (whose size the line keeps: the number is set smaller)
                # (as does a list's bullet, set in a symbol font of its own size, its item)
                if (prev.text.strip().isdigit() and ln.mono) or _lone_mark(prev.text):
                    prev.size = ln.size
                prev.mono = (prev.mono or prev.text.strip().isdigit()) and (ln.mono or ln.text.strip().isdigit()) \
                    and (prev.mono or ln.mono)
                if not first.lead and (first.bold or first.italic) and not first.mixed \
                        and (second.bold, second.italic) != (first.bold, first.italic):
                    first.lead = first.text.strip()  # a run-in heading MuPDF set as a line of its own
                prev.lead = first.lead
                prev.cells = first.cells + second.cells - (second.bbox[0] - first.bbox[2] < CELL_GAP_EMS * max(prev.size, 1.0))
                prev.text = first.text + sep + second.text
                prev.mixed = prev.mixed or ln.mixed or (
                    prev.font != ln.font and any(c.isalpha() for c in ln.text))
                prev.bbox = (
                    min(prev.bbox[0], ln.bbox[0]),
                    min(py0, ln.bbox[1]),
                    max(prev.bbox[2], ln.bbox[2]),
                    max(py1, ln.bbox[3]),
                )
                continue
        out.append(ln)
    return out


def _lone_mark(text: str) -> bool:
    """A list's bullet alone (``•``, ``▪``)."""
    return text.strip() in _BULLETS


#: A list item's bullets, which word processors set in a symbol font of their own size.
_BULLETS = frozenset("•◦▪‣●∙·▶►▸■□✓➢➤◆◇★-–")


def _side_head(a: Line, b: Line) -> bool:
    """Whether two lines on one baseline are a head set in the margin and the first line of
    the text it heads (GAO's 17 pt ``Results in Brief`` left of its 11 pt section, which
    MuPDF gives as one block): the left one of words, ``SIDE_HEAD_LARGER`` points larger,
    ``SIDE_HEAD_EMS`` of its size from the text. A listing's line numbers, a formula's
    symbols and a table's cells are no larger than what stands right of them."""
    head, text = (a, b) if a.bbox[0] < b.bbox[0] else (b, a)
    return head.size >= text.size + SIDE_HEAD_LARGER and head.bbox[2] <= text.bbox[0] - SIDE_HEAD_EMS * head.size \
        and all(any(sum(map(str.isalpha, w)) >= 3 for w in ln.text.split()) for ln in (head, text))


#: How much larger (points) a side head is set than its text, and how far (ems of the
#: head's size) it stands from the text's first line.
SIDE_HEAD_LARGER = 3.0
SIDE_HEAD_EMS = 2.0
