"""Figure text in a scanned paper's OCR layer (a text layer without fonts).

A born-digital figure's text is found from its drawings (``vaultd.parse.figures``); a
scanned page is one picture, so only the text's shape tells which lines are the figure's:
labels are names, numbers and OCR debris, not prose.
"""

from __future__ import annotations

from vaultd.parse.base import Box
from vaultd.parse.classify import is_prose, lower_words
from vaultd.parse.paras import LABEL_WORDS, Line, Para, union

#: A figure's labels start at most this many body sizes above the stack of labels under
#: them (tick rows and legends sit further apart than sub-figure labels).
SCAN_LABEL_GAP = 2.5


def drop_scan_labels(paras: list[Para], caption: Line, body: float) -> None:
    """In a text layer without fonts (a scan's OCR), drop the figure's own text stacked
    above its caption: axis labels, tick rows, a tree's leaf names.

    The candidates are the run of paras right before the caption that are no prose
    (``is_prose``), each wholly on its page, above the caption and in its column. OCR
    boxes of scattered labels overlap and their lines join out of order, so the stack is
    built by extent, not by order: from the caption up, every candidate ending at most
    ``SCAN_LABEL_GAP`` body sizes above the stack's top joins it. A heading in the stack
    (every heading of such a layer is a guess from a line's shape) is a label too, unless
    nothing of the stack is above it: then it is the section's heading and stays. A
    candidate left out (a label at the figure's top, over a plot without text) stays but
    floats, so no sentence from the column before runs on into it. A born-digital
    figure's text is found from its drawings (``_drop_figure_text``); a scanned page is
    one picture, so only the text's shape tells."""
    run: list[tuple[Para, Box]] = []
    for para in reversed(paras):
        box = union(para.lines)
        if (para.type not in ("paragraph", "heading", "equation") or is_prose(para.text)
                or para.lines[0].page != caption.page or box[1] >= caption.bbox[1]
                or box[0] >= caption.bbox[2] or box[2] <= caption.bbox[0]):
            break
        run.append((para, box))
    top, stack = caption.bbox[1], set()
    grew = True
    while grew:
        grew = False
        for i, (_, box) in enumerate(run):
            if i not in stack and top - box[3] <= SCAN_LABEL_GAP * body:
                stack.add(i)
                top, grew = min(top, box[1]), True
    for i, (para, box) in enumerate(run):
        if para.type == "heading" and i in stack and box[1] <= top:
            stack.discard(i)
        elif i not in stack:
            para.floating = para.type == "paragraph"
    dropped = {id(run[i][0]) for i in stack}
    paras[:] = [para for para in paras if id(para) not in dropped]


def is_label(text: str) -> bool:
    """A few words none of which is written in lowercase (``VS UVS``, ``BioMed Central``,
    ``Table 2 A B``): in an OCR layer, a label or a logo's text, which a sentence going on
    from the column before skips (it floats)."""
    words = text.split()
    # (not a bracket's end closing a sentence: ``0.000).`` under a figure, the rest of ``… (P =``)
    closes = text.count(")") > text.count("(") and text.rstrip().endswith((").", ");", "),"))
    # (a word's stop or bracket is no part of its case: ``beginning.``, a sentence's last
    # word alone on its line, is a lowercase word)
    return len(words) <= LABEL_WORDS and not lower_words([w.strip(_WORD_MARKS) for w in words]) and not closes


#: Punctuation around a word.
_WORD_MARKS = ".,;:!?()[]\"'“”‘’"
