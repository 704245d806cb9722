"""From positioned lines to typed blocks: reading order, paragraphs, headings, references.

Parser-agnostic: any tier that yields lines with boxes and font size/weight can use it.

* Reading order: on each page, blocks that cross the vertical centre line split the page
  into bands; inside a band the left column is read before the right one, so two-column
  pages are never interleaved, and single-column pages read top to bottom.
* Paragraphs: a block is split where the font size or weight changes, at a blank line, or
  after a sentence end followed by an indented line or preceded by a short line.
  A paragraph that does not end a sentence continues into the next paragraph that starts
  with a lowercase letter, across column and page breaks (skipping floating captions).
* Headings: short lines in a larger font, or bold and numbered (``3.2 Scaled Dot-Product
  Attention``), or a bold line standing alone.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass, field

from vaultd.models import ChunkType
from vaultd.parse.base import Block, Box, user_rect
from vaultd.parse.classify import (
    LIST_RE,
    classify,
    heading_number,
    is_formula_line,
    is_short,
)
from vaultd.parse.layout import join_lines, join_two


@dataclass
class Line:
    text: str
    bbox: Box
    size: float
    bold: bool
    block: int
    page: int
    italic: bool = False  # most of its characters italic


@dataclass
class PageInfo:
    number: int
    label: str | None
    width: float
    height: float
    to_user: tuple[float, ...]
    has_images: bool = False


@dataclass
class _Para:
    type: ChunkType
    lines: list[Line]
    text: str
    pieces: list[tuple[int, str]] = field(default_factory=list)
    number: str | None = None
    head: int = 0  # lines in the first contiguous piece (the part the bbox covers)
    floating: bool = False  # footnotes and other small print: never a paragraph's continuation


_REFS_RE = re.compile(
    r"^((\d+|[IVX]+)\.?\s*)?(references|bibliography|literature cited|works cited|reference list)$",
    re.I,
)
_REF_START_RE = re.compile(r"^\s*(\[\d+\]|\d{1,3}\.\s)")
_SENT_END = (".", "!", "?", ":", ".”", ".\"", ".)", "?”")
DOI_RE = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+)", re.I)
ARXIV_RE = re.compile(r"(?:arxiv[:\s/]*(?:abs/)?\s*)(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})", re.I)


def _union(lines: list[Line]) -> Box:
    if len(lines) == 1:  # a one-line group (headings, captions, short blocks): its own box
        return lines[0].bbox
    x0s, y0s, x1s, y1s = zip(*(ln.bbox for ln in lines), strict=True)
    return (min(x0s), min(y0s), max(x1s), max(y1s))


def order_page(lines: list[Line], width: float) -> list[list[Line]]:
    """Group lines by source block and order the groups for reading (see module doc)."""
    groups: dict[int, list[Line]] = {}
    for ln in lines:
        groups.setdefault(ln.block, []).append(ln)
    mid = width / 2
    slack = width * 0.03
    boxed = sorted(((_union(g), g) for g in groups.values()), key=lambda t: (t[0][1], t[0][0]))
    out: list[list[Line]] = []
    left: list[tuple[Box, list[Line]]] = []
    right: list[tuple[Box, list[Line]]] = []

    def flush() -> None:
        out.extend(g for _, g in sorted(left, key=lambda t: t[0][1]))
        out.extend(g for _, g in sorted(right, key=lambda t: t[0][1]))
        left.clear()
        right.clear()

    for box, g in boxed:
        if box[0] < mid - slack and box[2] > mid + slack:
            flush()
            out.append(g)
        elif (box[0] + box[2]) / 2 < mid:
            left.append((box, g))
        else:
            right.append((box, g))
    flush()
    return out


def _split_group(group: list[Line]) -> list[list[Line]]:
    left = min(ln.bbox[0] for ln in group)
    right = max(ln.bbox[2] for ln in group)
    width = max(right - left, 1.0)
    paras: list[list[Line]] = [[group[0]]]
    for prev, cur in itertools.pairwise(group):
        height = max(prev.bbox[3] - prev.bbox[1], 1.0)
        ends = prev.text.rstrip().endswith(_SENT_END)
        new = (
            abs(cur.size - prev.size) > 0.8
            or (prev.bold and not cur.bold and prev.bbox[2] < right - 0.2 * width)
            or cur.bbox[1] - prev.bbox[3] > 0.9 * height
            or cur.bbox[1] < prev.bbox[1] - height  # jumped back up: a new column
            or (ends and cur.bbox[0] > left + 0.6 * max(cur.size, 1.0))
            or (ends and prev.bbox[2] < right - 0.12 * width)
            or bool(LIST_RE.match(cur.text.lstrip()))
        )
        if new:
            paras.append([cur])
        else:
            paras[-1].append(cur)
    return paras


def _split_references(group: list[Line]) -> list[list[Line]]:
    left = min(ln.bbox[0] for ln in group)
    hanging = any(ln.bbox[0] > left + 3.0 for ln in group)
    numbered = sum(1 for ln in group if _REF_START_RE.match(ln.text)) >= 1
    if not hanging and not numbered:
        return [group]
    entries: list[list[Line]] = []
    for ln in group:
        starts = bool(_REF_START_RE.match(ln.text)) if numbered else ln.bbox[0] <= left + 1.5
        if starts or not entries:
            entries.append([ln])
        else:
            entries[-1].append(ln)
    return entries


def _inline_math(paras: list[_Para], text: str) -> bool:
    """A formula line that goes on with a sentence left open (``the quantity`` / ``xB ≡
    mB``, set on its own line around a built-up fraction): it continues that paragraph."""
    if not text[:1].islower():
        return False
    target = _merge_target(paras)
    return target is not None and target.type == "paragraph" and not target.text.rstrip().endswith(_SENT_END)


def _body_size(pages: list[list[Line]]) -> float:
    # To the half point: whole points would call PLOS's 11.5 pt body 12 pt, and its 13 pt
    # section headings would no longer stand out from it.
    sizes: Counter[float] = Counter()
    for lines in pages:
        for ln in lines:
            sizes[round(ln.size * 2) / 2] += len(ln.text)
    return float(sizes.most_common(1)[0][0]) if sizes else 10.0


def _continues(prev: _Para, cur: _Para) -> bool:
    if prev.type != "paragraph" or cur.type != "paragraph":
        return False
    if prev.text.rstrip().endswith(_SENT_END):
        return False
    first = cur.text[:1]
    return first.islower() or (first in ",;)" and first != "")


def refs_of(text: str) -> list[str]:
    """``doi:`` and ``arxiv:`` ids mentioned in a bibliography entry, in order."""
    out: list[str] = []
    for m in DOI_RE.finditer(text):
        doi = m.group(1).rstrip(".,;)]}").lower()
        out.append(f"doi:{doi}")
    for m in ARXIV_RE.finditer(text):
        out.append(f"arxiv:{m.group(1)}")
    return list(dict.fromkeys(out))


def build_blocks(pages: list[list[Line]], infos: list[PageInfo], parser: str) -> list[Block]:
    """Lines of every page (furniture already removed) → typed blocks in reading order."""
    del parser
    body = _body_size(pages)
    paras: list[_Para] = []
    in_refs = False
    for lines, info in zip(pages, infos, strict=True):
        for group in order_page(lines, info.width):
            if not in_refs and len(group) > 1 and _REFS_RE.match(group[0].text.strip()):
                # "References" set as the first line of the block holding the first
                # entries (bmc, jner): split it off as the heading.
                head = group[0]
                paras.append(_Para("heading", [head], head.text.strip(),
                                   [(head.page, head.text.strip())], heading_number(head.text)))
                paras[-1].head = 1
                in_refs, group = True, group[1:]
            if in_refs:
                in_refs = _add_references(group, paras, body)
                continue
            split = _split_group(group)
            for para_lines in split:
                text = join_lines(ln.text for ln in para_lines)
                if not text:
                    continue
                kind, number = classify(text, max(ln.size for ln in para_lines),
                                        all(ln.bold for ln in para_lines), len(para_lines), body,
                                        len(split) == 1 or para_lines[0].bold,
                                        italic=all(ln.italic for ln in para_lines))
                if kind == "paragraph" and is_formula_line(text) and is_short(len(para_lines), text) \
                        and not _inline_math(paras, text):
                    kind = "equation"
                cur = _Para(kind, para_lines, text, [(para_lines[0].page, text)], number)
                cur.head = len(para_lines)
                cur.floating = kind == "paragraph" and _is_small_print(para_lines, body, info)
                if kind == "heading" and _REFS_RE.match(text):
                    in_refs = True
                if kind == "figure":  # (a table's caption sits above it, under body text)
                    _float_labels(paras, para_lines[0], body)
                target = _merge_target(paras)
                if target is not None and not cur.floating and _continues(target, cur):
                    target.text = join_two(target.text, text)
                    target.lines.extend(para_lines)
                    target.pieces.append((para_lines[0].page, text))
                    continue
                paras.append(cur)
    return _to_blocks(paras, infos)


def _add_references(group: list[Line], paras: list[_Para], body: float) -> bool:
    """Bibliography lines → one ``reference`` para per entry; False once a heading ends it."""
    in_refs = True
    for entry in _split_references(group):
        text = join_lines(ln.text for ln in entry)
        kind, number = classify(text, max(ln.size for ln in entry), all(ln.bold for ln in entry),
                                len(entry), body, False)
        if kind == "heading" and not _REF_START_RE.match(text):
            in_refs = bool(_REFS_RE.match(text))
            paras.append(_Para(kind, entry, text, [(entry[0].page, text)], number))
            continue
        if entry[0].bbox[0] > min(ln.bbox[0] for ln in group) + 3.0 and paras \
                and paras[-1].type == "reference":
            prev = paras[-1]
            prev.text = join_two(prev.text, text)
            prev.lines.extend(entry)
            prev.pieces.append((entry[0].page, text))
            continue
        paras.append(_Para("reference", entry, text, [(entry[0].page, text)]))
    return in_refs


def _is_small_print(lines: list[Line], body: float, info: PageInfo) -> bool:
    size = max(ln.size for ln in lines)
    return size < body * 0.9 and lines[0].bbox[1] > info.height * 0.6


#: Sub-figure labels (``(a) SPECTER (b) SciBERT``) sit at most this many body sizes above
#: their caption; body text never does (the figure itself is in between).
LABEL_GAP = 1.5
#: Longest sub-figure label line, in words (a line of body text has more).
LABEL_WORDS = 8


def _float_labels(paras: list[_Para], caption: Line, body: float) -> None:
    """One-line paragraphs right above a figure caption, in its column, with no text
    right above them, are the figure's own labels: mark them floating, so no body
    paragraph is continued into them (or they into it).

    Text directly under other text is body text running down to a caption set above its
    figure (``… is plotted in`` / ``Figure 3: …``), not a label: labels sit under the
    figure's picture."""
    below = caption
    for i in range(len(paras) - 1, -1, -1):
        para = paras[i]
        line = para.lines[-1]
        if (para.type != "paragraph" or len(para.lines) > 1 or len(para.pieces) > 1
                or len(para.text.split()) > LABEL_WORDS or line.page != caption.page):
            return
        if not 0 <= below.bbox[1] - line.bbox[3] <= LABEL_GAP * body:
            return
        if line.bbox[0] >= caption.bbox[2] or line.bbox[2] <= caption.bbox[0]:
            return  # another column
        if _text_right_above(paras, i, line, LABEL_GAP * body):
            return
        para.floating = True
        below = line


def _text_right_above(paras: list[_Para], before: int, line: Line, gap: float) -> bool:
    """Whether a line of ``paras[:before]`` ends within ``gap`` above ``line``, overlapping
    it horizontally, on its page."""
    for j in range(before - 1, -1, -1):  # newest first, until the page before
        para = paras[j]
        for other in para.lines:
            if (other.page == line.page and other.bbox[0] < line.bbox[2]
                    and line.bbox[0] < other.bbox[2]
                    and 0 <= line.bbox[1] - other.bbox[3] <= gap):
                return True
        if para.lines[-1].page < line.page:
            return False
    return False


def _merge_target(paras: list[_Para]) -> _Para | None:
    """The open paragraph a new one may continue: the last one, skipping floating captions."""
    for para in reversed(paras):
        if para.type in ("figure", "table") or para.floating:
            continue
        return para
    return None


def _figure_region(para: _Para, page_paras: list[_Para], info: PageInfo) -> Box | None:
    cap = _union([ln for ln in para.lines if ln.page == para.lines[0].page])
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


def _to_blocks(paras: list[_Para], infos: list[PageInfo]) -> list[Block]:
    by_page: dict[int, list[_Para]] = {}
    for para in paras:
        by_page.setdefault(para.lines[0].page, []).append(para)
    blocks: list[Block] = []
    section: str | None = None
    token = "0"
    headings = 0
    used_tokens: set[str] = set()
    for para in paras:
        page = para.lines[0].page
        info = infos[page - 1]
        if para.type == "heading":
            headings += 1
            section = para.text
            # numbered headings give their number ("3.2" → "32"); others "0" + their ordinal
            cand = re.sub(r"[^0-9A-Za-z]", "", para.number or "") or f"0{headings}"
            token = cand if cand not in used_tokens else f"{cand}x{headings}"
            used_tokens.add(token)
        bbox = _union(para.lines[: para.head or len(para.lines)])
        bbox = tuple(round(v, 2) for v in bbox)  # type: ignore[assignment]
        last = para.lines[-1].page
        block = Block(
            type=para.type,
            text=para.text,
            page=page,
            page_label=info.label,
            bbox=bbox,
            pdf_rect=user_rect(bbox, info.to_user),
            section=section,
            section_token=token,
            pieces=para.pieces,
            page_end=last if last != page else None,
        )
        if para.type == "reference":
            block.refs = refs_of(para.text)
        if para.type == "figure":
            block.figure_region = _figure_region(para, by_page[page], info)
        blocks.append(block)
    return blocks
