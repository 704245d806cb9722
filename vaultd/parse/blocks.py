"""Paragraphs (paras) → typed ``Block``s: one region per place a para is set, its
section path and chunk-id token, a figure caption's figure region."""

from __future__ import annotations

import re

from vaultd.parse.base import Block, Box, user_rect
from vaultd.parse.classify import heading_number, unmarked
from vaultd.parse.heading_levels import PATH_SEP, heading_levels
from vaultd.parse.number_rows import rows_of
from vaultd.parse.paras import Line, PageInfo, Para, union
from vaultd.parse.references import refs_of
from vaultd.parse.textlayer import UNRELIABLE, letter_spaced, unreliable


def _figure_region(para: Para, page_paras: list[Para], info: PageInfo) -> Box | None:
    cap = union([ln for ln in para.lines if ln.page == para.lines[0].page])
    mid = info.width / 2
    if cap[0] < mid - 10 and cap[2] > mid + 10:
        x0, x1 = 0.0, info.width
    elif cap[2] <= mid + 10:
        x0, x1 = 0.0, mid
    else:
        x0, x1 = mid, info.width
    top = info.height * 0.06
    for other in page_paras:
        if other is para or other.type == "figure" or (len(other.lines) < 2 and other.type != "heading"):
            continue
        for ln in other.lines:
            if ln.page == info.number and ln.bbox[3] <= cap[1] + 1 and ln.bbox[2] > x0 and ln.bbox[0] < x1:
                top = max(top, ln.bbox[3])
    if cap[1] - top < 20:
        return None
    return (round(x0, 2), round(top, 2), round(x1, 2), round(cap[1], 2))


def _rounded(box: Box) -> Box:
    return (round(box[0], 2), round(box[1], 2), round(box[2], 2), round(box[3], 2))


def piece_boxes(para: Para) -> list[tuple[int, Box]]:
    """One ``(page, box)`` per place the paragraph is set: each piece's lines, with a piece
    that sits right under the one before it in the same column folded into it."""
    out: list[tuple[int, Box]] = []
    start = 0
    for count in para.spans or [len(para.lines)]:
        lines = para.lines[start : start + count]
        start += count
        if not lines:
            continue
        page, box = lines[0].page, union(lines)
        if out and _stacked(out[-1], (page, box), lines[0]):
            prev = out[-1][1]
            box = (min(prev[0], box[0]), min(prev[1], box[1]), max(prev[2], box[2]), max(prev[3], box[3]))
            out[-1] = (page, box)
        else:
            out.append((page, box))
    return out


def _stacked(above: tuple[int, Box], below: tuple[int, Box], first: Line) -> bool:
    """Whether ``below`` continues ``above`` straight down its column, within two lines."""
    (page_a, a), (page_b, b) = above, below
    if page_a != page_b:
        return False
    overlap = min(a[2], b[2]) - max(a[0], b[0])
    narrower = max(min(a[2] - a[0], b[2] - b[0]), 1.0)
    gap = b[1] - a[3]
    height = max(first.bbox[3] - first.bbox[1], 1.0)
    return overlap >= 0.5 * narrower and -1.0 <= gap <= 2.0 * height


def to_blocks(paras: list[Para], infos: list[PageInfo]) -> list[Block]:
    by_page: dict[int, list[Para]] = {}
    for para in paras:
        by_page.setdefault(para.lines[0].page, []).append(para)
    blocks: list[Block] = []
    section: str | None = None
    heading_section: str | None = None  # the section its last heading set
    token = "0"
    headings = 0
    used_tokens: set[str] = set()
    levels = heading_levels(paras)
    path: list[tuple[int, str]] = []
    for para in paras:
        page = para.lines[0].page
        info = infos[page - 1]
        if para.type == "heading":
            headings += 1
            level = levels[id(para)]
            name = unmarked(_without_note_mark(para))
            path = [(lv, t) for lv, t in path if lv < level] + [(level, name)]
            section = heading_section = PATH_SEP.join(t for lv, t in path if lv > 0) or name
            # numbered headings give their number ("3.2" → "32"); others "0" + their ordinal
            cand = re.sub(r"[^0-9A-Za-z]", "", para.number or "") or f"0{headings}"
            token = cand if cand not in used_tokens else f"{cand}x{headings}"
            used_tokens.add(token)
        if para.runin:  # a run-in heading: the section of its paragraph and those after it
            names = [t for lv, t in path if lv > 0] or [t for _, t in path[-1:]]
            if names and _sibling(names[-1], para.runin):
                names = names[:-1]  # IOP's run-in ``3.1.4. …`` after the heading ``3.1.3. …``: beside it
            section = PATH_SEP.join([*names, para.runin]) if heading_section else para.runin
        regions = [(p, box, user_rect(box, infos[p - 1].to_user))
                   for p, box in ((p, _rounded(box)) for p, box in piece_boxes(para))]
        last = para.lines[-1].page
        block = Block(
            type="footnote" if para.type == "paragraph" and (para.footnote or _sidenote(para)) else para.type,
            text=para.text,
            page=page,
            page_label=info.label,
            bbox=regions[0][1],
            pdf_rect=regions[0][2],
            regions=regions,
            section=section,
            section_token=token,
            pieces=para.pieces,
            text_layer=UNRELIABLE if unreliable(para.text) or (
                para.type in ("paragraph", "list") and letter_spaced(para.text)) else None,
            page_end=last if last != page else None,
            markdown=rows_of(para),
        )
        # read by tesseract (``vaultd.parse.ocr``; a page is read so whole): lower-trust quotes
        read = [ln.conf for ln in para.lines if ln.conf >= 0] \
            if para.lines[0].conf >= 0 or para.lines[-1].conf >= 0 else None
        if read:
            block.ocr, block.ocr_confidence = True, round(sum(read) / len(read) / 100, 3)
        if para.type == "reference":
            block.refs = refs_of(para.text)
        if para.type == "figure":
            block.figure_region = _figure_region(para, by_page[page], info)
        blocks.append(block)
    return blocks


def _sidenote(para: Para) -> bool:
    """A note set in the margin beside its text (a Tufte-style working paper's ``5
    Corresponde a un tipo de análisis …``, an editor's ``Are these quotations necessary?``
    beside the Annals' introduction, a manual's command name): a note's chunk, no body
    text's."""
    return all(ln.margin for ln in para.lines)


def _without_note_mark(para: Para) -> str:
    """A heading's text without the note's mark set small and raised at its end
    (``Diagnostic accuracy1`` → ``Diagnostic accuracy``): its section's name."""
    text, mark = para.text.strip(), para.lines[-1].note_mark
    return text[:-len(mark)].rstrip() if mark and text.endswith(mark) and len(text) > len(mark) else text


def _sibling(heading: str, runin: str) -> bool:
    """Whether a run-in heading is numbered as the next of the heading before it at the
    same depth (``3.1.3.`` then ``3.1.4.``), not a part of it."""
    above, own = heading_number(heading), heading_number(runin)
    if above is None or own is None:
        return False
    a, b = above.strip(".").split("."), own.strip(".").split(".")
    return len(a) == len(b) >= 2 and a[:-1] == b[:-1] and a[-1] != b[-1]
