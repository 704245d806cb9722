"""Marker adapter: a Marker JSON block tree → the same typed blocks as the other tiers.

Marker (``marker-pdf``) cannot run here (its first step downloads models), so vaultd does
not call it; this adapter converts its JSON output (``marker_single --output_format json``)
so a Marker run made elsewhere compiles to the same chunks. Each Marker block carries a
``polygon`` and ``bbox`` in PDF points (top-left origin); block HTML refers to children
through ``<content-ref src=…>``, and the page's HTML gives the reading order.
"""

from __future__ import annotations

import html
import re
from typing import Any

from vaultd.models import ChunkType
from vaultd.parse.base import Block, Box
from vaultd.parse.layout import join_two, repair_chars
from vaultd.parse.structure import _REFS_RE, _SENT_END, _heading_number, refs_of

_REF_SRC_RE = re.compile(r"<content-ref src=['\"]([^'\"]+)['\"]")
_TAG_RE = re.compile(r"<[^>]+>")
_CELL_RE = re.compile(r"<t([hd])[^>]*>(.*?)</t[hd]>", re.S)
_ROW_RE = re.compile(r"<tr[^>]*>(.*?)</tr>", re.S)

SKIP = {"PageHeader", "PageFooter", "Figure", "Picture", "TableCell"}
TYPES: dict[str, ChunkType] = {
    "SectionHeader": "heading",
    "Text": "paragraph",
    "TextInlineMath": "paragraph",
    "Footnote": "paragraph",
    "Equation": "equation",
    "ListItem": "list",
    "Table": "table",
    "Caption": "figure",
    "Code": "paragraph",
}


def html_text(fragment: str) -> str:
    """Visible text of a Marker HTML fragment (tags dropped, entities decoded)."""
    text = _TAG_RE.sub(" ", re.sub(r"</?(i|b|em|strong|sup|sub|span|a)(\s[^>]*)?>", "", fragment))
    return repair_chars(" ".join(html.unescape(text).split()))


def table_markdown(fragment: str) -> str | None:
    rows = []
    for row in _ROW_RE.findall(fragment):
        cells = [html_text(c).replace("|", "\\|") for _, c in _CELL_RE.findall(row)]
        if cells:
            rows.append(cells)
    if len(rows) < 2 or len({len(r) for r in rows}) != 1:
        return None  # ragged or trivial: not clearly a grid
    out = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
    out += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    return "\n".join(out)


def _index(node: dict[str, Any], into: dict[str, dict[str, Any]]) -> None:
    if node.get("id"):
        into[node["id"]] = node
    for child in node.get("children") or []:
        _index(child, into)


def _ordered(node: dict[str, Any], ids: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Leaf-ish blocks of ``node`` in the order its HTML references them."""
    out: list[dict[str, Any]] = []
    for src in _REF_SRC_RE.findall(node.get("html") or ""):
        child = ids.get(src)
        if child is None:
            continue
        kind = child["block_type"]
        if kind.endswith("Group"):
            out.extend(_ordered(child, ids))
        else:
            out.append(child)
    return out


def blocks_from_marker_json(data: dict[str, Any]) -> list[Block]:
    """Convert Marker's JSON document (``block_type: Document``) into typed blocks."""
    ids: dict[str, dict[str, Any]] = {}
    _index(data, ids)
    blocks: list[Block] = []
    hiers: list[str] = []  # section_hierarchy of each block, for continuation joins
    section: str | None = None
    token = "0"
    headings = 0
    in_refs = False
    for page_no, page in enumerate(data.get("children") or [], start=1):
        height = float(page["bbox"][3]) - float(page["bbox"][1])
        for node in _ordered(page, ids):
            kind = node["block_type"]
            if kind in SKIP or kind not in TYPES:
                continue
            raw = node.get("html") or ""
            text = html_text(raw)
            if not text:
                continue
            ctype = TYPES[kind]
            if ctype == "heading":
                headings += 1
                section = text
                number = _heading_number(text)
                token = re.sub(r"[^0-9A-Za-z]", "", number or "") or f"0{headings}"
                in_refs = bool(_REFS_RE.match(text))
            elif ctype == "figure" and text.lower().startswith("table"):
                ctype = "table"
            elif in_refs and ctype in ("list", "paragraph"):
                ctype = "reference"
            x0, y0, x1, y1 = (float(v) for v in node["bbox"])
            bbox: Box = (round(x0, 2), round(y0, 2), round(x1, 2), round(y1, 2))
            block = Block(
                type=ctype,
                text=text,
                page=page_no,
                bbox=bbox,
                pdf_rect=(bbox[0], round(height - y1, 2), bbox[2], round(height - y0, 2)),
                section=section,
                section_token=token,
                pieces=[(page_no, text)],
            )
            hier = str(sorted((node.get("section_hierarchy") or {}).items()))
            prev = _open_paragraph(blocks, hiers, hier) if ctype == "paragraph" else None
            if (prev is not None and text[:1].islower()
                    and not prev.text.rstrip().endswith(_SENT_END)):
                prev.text = join_two(prev.text, text)  # continues across a column/page break
                prev.pieces.append((page_no, text))
                prev.page_end = page_no if page_no != prev.page else None
                continue
            if ctype == "table":
                block.markdown = table_markdown(raw)
            if ctype == "reference":
                block.refs = refs_of(text)
            blocks.append(block)
            hiers.append(hier)
    return blocks


def _open_paragraph(blocks: list[Block], hiers: list[str], hier: str) -> Block | None:
    """The paragraph a new one may continue: the last one in the same section, skipping
    captions, tables and blocks of other sections (title-page author blocks) in between."""
    for block, h in zip(reversed(blocks[-4:]), reversed(hiers[-4:]), strict=True):
        if block.type in ("figure", "table") or h != hier or "@" in block.text:
            continue  # an e-mail address marks a title-page author block, not prose
        return block if block.type == "paragraph" else None
    return None
