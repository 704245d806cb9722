"""Dropped capitals: a paragraph's first letter set large over its first lines (IEEE
Transactions' first paragraph, AIAA's ``lettrine``), which MuPDF reads as a line of its
own beside the rest of the word (``T`` | ``his is an example``).

The letter goes back in front of its word, and the lines set in beside it move out to the
letter's left edge, so that the paragraph reads and is split like any other: a dropped
capital is neither a heading nor an indent.
"""

from __future__ import annotations

from dataclasses import replace

from vaultd.parse.paras import Line

#: Least size of a dropped capital, in the size of the line it starts.
DROP_SIZE = 1.8
#: Widest gap (in the text's size) between the capital and the rest of its word.
DROP_GAP = 1.0
#: How far (in the capital's size) the first line's top may stand below the capital's box:
#: MuPDF boxes a glyph by its font's ascender, which stands above the letter's top by a
#: fifth to a third of its size (eLife's three-line capital: 7.7 pt at 43 pt).
CAP_TOP = 0.35


def join_drop_caps(lines: list[Line]) -> list[Line]:
    """A page's lines with each dropped capital joined to the line it starts (``lines``:
    in MuPDF's order; a new list when one was found)."""
    caps = [ln for ln in lines if _is_capital(ln)]
    if not caps:
        return lines
    out = list(lines)
    for cap in caps:
        first = _line_started(cap, out)
        if first is None:
            continue
        x0, y0, _, y1 = cap.bbox
        moved = {id(first)}
        out[out.index(first)] = replace(first, text=cap.text + first.text,
                                        bbox=(x0, *first.bbox[1:]))
        for i, ln in enumerate(out):  # the other lines set in beside the letter
            if id(ln) in moved or ln is cap:
                continue
            if y0 <= ln.bbox[1] < y1 and abs(ln.bbox[0] - first.bbox[0]) <= 2.0:
                out[i] = replace(ln, bbox=(x0, *ln.bbox[1:]))
        out.remove(cap)
    return out


def _is_capital(ln: Line) -> bool:
    text = ln.text.strip()
    return len(text) == 1 and text.isalpha() and text.isupper() and not ln.margin


def _capitals_word(text: str) -> bool:
    """Whether ``text`` opens with a word in capitals, two letters or more (IEEE's ``H`` |
    ``UMAN emotions are …``: the word's rest set in capitals)."""
    word = text.split(maxsplit=1)[0] if text.strip() else ""
    return len(word) >= 2 and word.isalpha() and word.isupper()


def _line_started(cap: Line, lines: list[Line]) -> Line | None:
    """The line whose word ``cap`` begins: right of it (within ``DROP_GAP``), its top at
    the capital's (or below it, within ``CAP_TOP``), set ``DROP_SIZE`` times smaller, opening
    with a letter that is no capital (small capitals read as lowercase) or with the rest of
    a word set in capitals."""
    _, y0, x1, y1 = cap.bbox
    best = None
    for ln in lines:
        if ln is cap or ln.page != cap.page or not ln.text[:1].isalpha() or (
                ln.text[:1].isupper() and not _capitals_word(ln.text)):
            continue
        size = max(ln.size, 1.0)
        if cap.size < DROP_SIZE * size or not -1.0 <= ln.bbox[0] - x1 <= DROP_GAP * size:
            continue
        if -0.6 * size <= ln.bbox[1] - y0 <= max(0.6 * size, CAP_TOP * cap.size) and ln.bbox[3] < y1 + 0.5 * size \
                and (best is None or ln.bbox[1] < best.bbox[1]):
            best = ln
    return best
