"""Heads set out left of the text they head, bold, ending in a full stop (``hanging_heads``).

PubMed Central renders NIH-funded authors' manuscripts ("HHS Public Access") with the text
set in from the page's left margin and each subsection's head set out at the margin, bold,
a sentence closed by a full stop (``Low-affinity ETS sites are prevalent in putative
developmental heart enhancers across chordates and these enhancers are vulnerable to
affinity-optimizing SNVs.``). The classifier takes no line ending in a full stop for a head
(a bold sentence is most often text: a funding statement, a referee's boilerplate); the
head's place tells it here. Pure: paragraphs in, types changed in place.
"""

from __future__ import annotations

import itertools

from vaultd.parse.classify import heading_number
from vaultd.parse.paras import Para
from vaultd.parse.textlayer import prose_words

#: How far (ems) left of the text under it a head stands out.
HANG_EMS = 2.0
#: Most lines of such a head; fewest words of prose in it.
HEAD_LINES = 2
HEAD_WORDS = 4


def hanging_heads(paras: list[Para]) -> None:
    """Type as heads, in place, the paragraphs of a line or two set bold whole, ending in
    a full stop, standing ``HANG_EMS`` or more left of every line of the paragraph right
    under them on their page (not bold), whose first line stands under their last."""
    for para, after in itertools.pairwise(paras):
        lines = para.lines
        text = para.text.rstrip()
        if para.type != "paragraph" or len(lines) > HEAD_LINES or not all(ln.bold for ln in lines) \
                or not text.endswith(".") or text.endswith("...") or prose_words(text) < HEAD_WORDS:
            continue
        under = [ln for ln in after.lines[:3] if ln.page == lines[-1].page]
        em = max(lines[0].size, 1.0)
        if after.type != "paragraph" or not under or any(ln.bold for ln in under) \
                or under[0].bbox[1] < lines[-1].bbox[3] \
                or min(ln.bbox[0] for ln in under) - max(ln.bbox[0] for ln in lines) < HANG_EMS * em:
            continue
        para.type, para.number = "heading", heading_number(text)
