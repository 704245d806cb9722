"""Marker adapter: a Marker JSON block tree → the same typed blocks as the other tiers.

``MarkerParser`` runs ``marker-pdf`` when it is installed (imported lazily, on first
parse) and converts its JSON block tree (the same tree ``marker_single --output_format
json`` writes) with ``blocks_from_marker_json``. Each Marker block carries a ``polygon``
and ``bbox`` in PDF points, top-left origin of the rendered (CropBox) page; the block's
``bbox`` is the polygon's bounding box. Block HTML refers to children through
``<content-ref src=…>``, and the page's HTML gives the reading order.
"""

from __future__ import annotations

import html
import importlib
import re
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from vaultd.errors import ParseError
from vaultd.models import ChunkType
from vaultd.parse.base import Block, Box, ParsedDocument, ProgressFn, user_rect
from vaultd.parse.classify import heading_number
from vaultd.parse.layout import join_two, repair_chars
from vaultd.parse.paras import REFS_RE, SENT_END
from vaultd.parse.references import refs_of

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


def _box(node: dict[str, Any]) -> tuple[float, float, float, float]:
    """The node's polygon as a box (Marker's ``bbox`` when there is no polygon)."""
    poly = node.get("polygon")
    if poly:
        xs = [float(p[0]) for p in poly]
        ys = [float(p[1]) for p in poly]
        return min(xs), min(ys), max(xs), max(ys)
    x0, y0, x1, y1 = (float(v) for v in node["bbox"])
    return x0, y0, x1, y1


def blocks_from_marker_json(
    data: dict[str, Any],
    to_user: Sequence[tuple[float, ...]] | None = None,
    labels: Sequence[str | None] | None = None,
) -> list[Block]:
    """Convert Marker's JSON document (``block_type: Document``) into typed blocks.

    ``to_user[i]`` is page i's top-left → PDF user space matrix (``PageInfo.to_user``),
    which carries the CropBox offset into ``pdf_rect``; without it (a JSON file alone)
    ``pdf_rect`` assumes the CropBox starts at the user-space origin. ``labels[i]`` is
    page i's printed label."""
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
                number = heading_number(text)
                token = re.sub(r"[^0-9A-Za-z]", "", number or "") or f"0{headings}"
                in_refs = bool(REFS_RE.match(text))
            elif ctype == "figure" and text.lower().startswith("table"):
                ctype = "table"
            elif in_refs and ctype in ("list", "paragraph"):
                ctype = "reference"
            x0, y0, x1, y1 = _box(node)
            bbox: Box = (round(x0, 2), round(y0, 2), round(x1, 2), round(y1, 2))
            if to_user is not None and page_no <= len(to_user):
                rect = user_rect((x0, y0, x1, y1), to_user[page_no - 1])
            else:
                rect = (bbox[0], round(height - y1, 2), bbox[2], round(height - y0, 2))
            block = Block(
                type=ctype,
                text=text,
                page=page_no,
                page_label=labels[page_no - 1] if labels and page_no <= len(labels) else None,
                bbox=bbox,
                pdf_rect=rect,
                section=section,
                section_token=token,
                pieces=[(page_no, text)],
            )
            hier = str(sorted((node.get("section_hierarchy") or {}).items()))
            prev = _open_paragraph(blocks, hiers, hier) if ctype == "paragraph" else None
            if (prev is not None and text[:1].islower()
                    and not prev.text.rstrip().endswith(SENT_END)):
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


def _marker_version() -> str:
    try:
        return metadata.version("marker-pdf")
    except Exception:  # not installed, or installed without metadata
        return "unknown"


class MarkerParser:
    """Marker tier: ``marker-pdf``'s layout models, converted to the common blocks.

    ``fallback`` (used by ``auto``) parses instead when Marker's models cannot be loaded;
    the document then names the fallback tier and carries a warning.
    """

    name = "marker"

    def __init__(self, fallback: Any | None = None) -> None:
        self.fallback = fallback

    @property
    def version(self) -> str:
        return _marker_version()

    def run_marker(self, pdf: Path) -> dict[str, Any]:
        """Marker's JSON block tree for ``pdf``; ParseError (one line) when it cannot run."""
        try:
            converters = importlib.import_module("marker.converters.pdf")
            models = importlib.import_module("marker.models")
        except ImportError as exc:
            raise ParseError(
                f"{pdf}: marker-pdf is not installed; install it or use --parser pymupdf"
            ) from exc
        try:
            artifacts = models.create_model_dict()
        except Exception as exc:  # missing/undownloadable weights surface as many types
            raise ParseError(
                f"{pdf}: marker-pdf cannot load its models ({type(exc).__name__}); download them "
                "with an online `marker_single` run first, or use --parser pymupdf"
            ) from exc
        try:
            converter = converters.PdfConverter(
                artifact_dict=artifacts, renderer="marker.renderers.json.JSONRenderer"
            )
            rendered = converter(str(pdf))
        except Exception as exc:
            msg = " ".join(str(exc).split())[:120]
            raise ParseError(f"{pdf}: marker-pdf failed ({msg}); try --parser pymupdf") from exc
        data = rendered.model_dump(mode="json") if hasattr(rendered, "model_dump") else rendered
        return dict(data)

    def parse(self, pdf: Path, progress: ProgressFn | None = None) -> ParsedDocument:
        # lazy: vaultd.parse.pymupdf costs 36 ms at import (pulls in difflib)
        from vaultd.parse.pymupdf import open_pdf

        doc = open_pdf(pdf)  # same clean errors for bad files; page geometry and labels
        try:
            has_labels = bool(doc.get_page_labels())
            to_user: list[tuple[float, ...]] = []
            labels: list[str | None] = []
            for page in doc:
                inv = ~page.transformation_matrix
                to_user.append((inv.a, inv.b, inv.c, inv.d, inv.e, inv.f))
                labels.append((page.get_label() or None) if has_labels else None)
            n = doc.page_count
        finally:
            doc.close()
        try:
            data = self.run_marker(pdf)
        except ParseError as exc:
            if self.fallback is None:
                raise
            parsed: ParsedDocument = self.fallback.parse(pdf, progress)
            parsed.warnings.append(f"marker tier unavailable ({exc}); parsed with {parsed.parser}")
            return parsed
        blocks = blocks_from_marker_json(data, to_user, labels)
        if progress:
            progress(n, n)
        return ParsedDocument(self.name, self.version, n, blocks)
