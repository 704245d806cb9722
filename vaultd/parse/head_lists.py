"""Enumerated list items read as numbered headings, put back as the items they are:
an item's first line over its hanging text (``list_heads``), and a run of one-line
items numbered in turn, one under the other (``numbered_runs``).

Used by ``vaultd.parse.structure`` once its paras are built and their headings found.
"""

from __future__ import annotations

import re

from vaultd.parse.paras import Para, join_para

#: An enumerated item's mark alone as a heading's number: ``4``, ``4.``, ``b)``.
_ITEM_NUMBER_RE = re.compile(r"\(?(?:\d{1,2}|[a-z])[.)]?")


def list_heads(paras: list[Para], body: float) -> None:
    """Enumerated list items read as numbered headings put back, in place: a one-line
    heading numbered one level deep (``4. Version control, collaborative development``,
    a bold lead that fills its line), set in from the left edge of its page's body text,
    with the item's text right under it set in further still, two lines or more (the
    list's hanging indent), is that item's first line: it becomes a paragraph with the text under it. A section's
    heading stands at the text's left edge (or centred over it, with nothing hanging)."""
    lefts: dict[int, float] = {}
    for para in paras:
        if para.type == "paragraph" and len(para.lines) >= 2 \
                and all(abs(ln.size - body) <= 0.5 and not ln.margin for ln in para.lines):
            for ln in para.lines:  # the body text's left edge on each page
                lefts[ln.page] = min(lefts.get(ln.page, ln.bbox[0]), ln.bbox[0])
    out: list[Para] = []
    i = 0
    while i < len(paras):
        para = paras[i]
        after = paras[i + 1] if i + 1 < len(paras) else None
        if para.type == "heading" and after is not None and _hangs(para, after, lefts):
            para.type, para.number = "paragraph", None
            join_para(para, after)
            i += 1
        out.append(para)
        i += 1
    paras[:] = out


def _hangs(head: Para, after: Para, lefts: dict[int, float]) -> bool:
    """Whether ``head`` is an enumerated item's first line over the item's text ``after``."""
    if len(head.lines) != 1 or after.type != "paragraph" or head.number is None \
            or not _ITEM_NUMBER_RE.fullmatch(head.number):
        return False
    line, below = head.lines[0], after.lines[0]
    if sum(ln.page == line.page for ln in after.lines) < 2:
        return False  # one line under it: a section's first paragraph, indented, may be so
    em = max(line.size, 1.0)
    left = lefts.get(line.page)
    height = max(line.bbox[3] - line.bbox[1], 1.0)
    return left is not None and below.page == line.page and line.bbox[0] >= left + 0.8 * em \
        and below.bbox[0] >= line.bbox[0] + 0.8 * em and -1.0 - height <= below.bbox[1] - line.bbox[3] <= height \
        and all(ln.bbox[0] >= line.bbox[0] + 0.8 * em for ln in after.lines if ln.page == line.page)


def numbered_runs(paras: list[Para]) -> None:
    """Headings that are a list's items, in place: ``RUN_ITEMS`` or more one-line headings
    numbered in turn (``A``, ``B``, ``C`` or ``1``, ``2``, ``3``), one right under the other
    at a line's pitch on one page and flush with each other, are a list (UNCTAD's ``The
    Report examines five core themes:`` | ``A AI at the technological frontier`` | ``B
    Leveraging AI for …``, the letters in drawn discs); a section's heading has its text
    under it before the next one. The one-line heading closed by a colon right over the
    run is the list's lead, a sentence."""
    i = 0
    while i < len(paras):
        j = i
        while j + 1 < len(paras) and _next_item(paras[j], paras[j + 1]):
            j += 1
        if j - i + 1 < RUN_ITEMS:
            i += 1
            continue
        for para in paras[i:j + 1]:
            para.type = "list"
        lead = paras[i - 1] if i else None
        if lead is not None and lead.type == "heading" and len(lead.lines) == 1 \
                and lead.text.rstrip().endswith(":") and _under(lead, paras[i]):
            lead.type, lead.number = "paragraph", None
        i = j + 1


#: Fewest one-line headings numbered in turn, one under the other, read as a list.
RUN_ITEMS = 3


def _next_item(head: Para, nxt: Para) -> bool:
    """Whether ``nxt`` is the item after ``head`` in a run of one-line numbered items."""
    if head.type != "heading" or nxt.type != "heading" or len(head.lines) != 1 or len(nxt.lines) != 1 \
            or head.number is None or nxt.number is None or not _in_turn(head.number, nxt.number):
        return False
    return abs(nxt.lines[0].bbox[0] - head.lines[0].bbox[0]) <= 1.0 and _under(head, nxt)


def _under(head: Para, nxt: Para) -> bool:
    """Whether ``nxt``'s first line stands right under ``head``'s last, at most a line apart."""
    line, below = head.lines[-1], nxt.lines[0]
    height = max(line.bbox[3] - line.bbox[1], 1.0)
    return below.page == line.page and abs(below.size - line.size) <= 0.5 \
        and -0.5 * height <= below.bbox[1] - line.bbox[3] <= height


def _in_turn(a: str, b: str) -> bool:
    """Whether item number ``b`` comes right after ``a`` (``A`` → ``B``, ``3`` → ``4``)."""
    if a.isdigit() and b.isdigit():
        return int(b) == int(a) + 1
    return len(a) == len(b) == 1 and a.isalpha() and ord(b) == ord(a) + 1
