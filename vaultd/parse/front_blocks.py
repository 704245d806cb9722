"""Front matter grouped: a label of the first pages (``Edited by:``, ``Reviewed by:``,
``*Correspondence:``, ``Keywords:``) and the block set right under it are one ``front``
chunk, as a reader takes them, not a label and a loose name or address."""

from __future__ import annotations

from vaultd.parse.paras import Para, append_piece

#: Largest gap between a label and its block, in the label's line heights.
LABEL_GAP_LINES = 2.5


def _under(label: Para, block: Para) -> bool:
    """``block`` starts right under ``label``'s last line, in its column."""
    last, first = label.lines[-1], block.lines[0]
    height = max(last.bbox[3] - last.bbox[1], 1.0)
    across = min(last.bbox[2], first.bbox[2]) > max(last.bbox[0], first.bbox[0])
    return last.page == first.page and across and -1.0 <= first.bbox[1] - last.bbox[3] <= LABEL_GAP_LINES * height


def group_front(paras: list[Para]) -> list[Para]:
    """The paras with each front-matter label joined by the block right under it."""
    out: list[Para] = []
    for para in paras:
        prev = out[-1] if out else None
        if (prev is not None and prev.type == "front" and prev.text.rstrip().endswith(":")
                and len(prev.pieces) == 1 and para.type in ("front", "paragraph", "list")
                and _under(prev, para)):
            append_piece(prev, para.lines, para.text)
            continue
        out.append(para)
    return out
