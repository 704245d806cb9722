"""A head MuPDF read as two: a head wrapped over two blocks, its last line alone read as
the head, joined back to the lines over it (``join_wrapped_heads``). Used by
``vaultd.parse.headings`` once heads are told by their font. Pure.
"""

from __future__ import annotations

import re

from vaultd.parse.classify import all_caps
from vaultd.parse.paras import Para, append_piece, style_key
from vaultd.parse.sentence_ends import OPEN_WORDS, open_end

#: How far (ems) a heading's second line's box may reach up into its first's; how far in a
#: numbered heading's subtitle may hang (under the words after a long number).
OVERLAP_EMS = 0.25


#: A figure with a decimal point or sign, a table's cell (``138.180``, ``-0.2``).
_NUMBER_RE = re.compile(r"(?:^|\s)[-+−]?\d+\.\d+(?:\s|$)")


def join_wrapped_heads(paras: list[Para]) -> None:
    """A head wrapped over two blocks, its last line alone read as the head (*Science*'s
    bold ``KIR+CD8+ T cells are the functional and`` | ``phenotypic equivalent of mouse
    Ly49+CD8+`` | ``T cells``): the one or two lines right over it, in its face and size,
    flush with it and closed by no stop, are its first, in place. So is a head over it, in
    its face, flush or centred over it, where the break falls on a word no title ends on or
    the line goes on with one (a slide's ``Pasos del Programa o Flujo del`` | ``Programa``,
    APS's ``APPENDIX E: DETAILS ON THE CALCULATION`` | ``OF λ IN THE …``, each line a
    block MuPDF read as a head of its own; not ``METHODS`` | ``Study design``), or where
    both are set in capitals (UNCTAD's ``POLICY`` | ``FOCUS``)."""
    for i in range(len(paras) - 1, 0, -1):
        head, over = paras[i], paras[i - 1]
        if head.type != "heading" or len(head.lines) != 1 or over.type not in ("paragraph", "heading") \
                or not 1 <= len(over.lines) <= 2:
            continue
        line, last = head.lines[0], over.lines[-1]
        flush = abs(line.bbox[0] - last.bbox[0]) <= 1.0
        if over.type == "heading":
            centred = abs(line.bbox[0] + line.bbox[2] - last.bbox[0] - last.bbox[2]) <= line.size
            words = head.text.split(None, 1)
            if head.number or not (flush or centred) \
                    or not (open_end(over.text) or (words and words[0].casefold() in OPEN_WORDS)
                            or (all_caps(over.text, 2) and all_caps(head.text, 2))):
                continue
        elif not flush:
            continue
        if not line.bold or any(style_key(ln) != style_key(line) or not ln.bold for ln in over.lines) \
                or last.page != line.page \
                or not -OVERLAP_EMS * line.size <= line.bbox[1] - last.bbox[3] <= 0.5 * (line.bbox[3] - line.bbox[1]) \
                or over.text.rstrip().endswith((".", ",", ";", ":")) \
                or _NUMBER_RE.search(over.text + " " + head.text):
            continue  # (a table's bold rows of figures are no head)
        over.type, over.number = "heading", over.number or head.number
        append_piece(over, head.lines, head.text)
        del paras[i]
