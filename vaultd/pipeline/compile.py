"""Compile stage: raw/<key>.pdf + raw/<key>.meta.json → wiki/<key>.md.

Parses the PDF with the chosen tier, chunks it, crops figures to raw/figs/, renders the
citations, merges with the existing note (user blocks and unchanged enrichments survive)
and writes the note atomically. Deterministic: the same PDF and parser give the same note.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from vaultd import record_store
from vaultd.citekey import key_to_filename
from vaultd.config import Settings
from vaultd.enrich.pending import pending_chunks
from vaultd.errors import ParseError
from vaultd.models import Chunk, Note, NoteMeta
from vaultd.parse.algorithms import is_algorithm_caption
from vaultd.parse.base import Block, Box
from vaultd.parse.chunker import chunk_blocks, with_page_labels
from vaultd.parse.figure_text import PROSE_WORDS
from vaultd.parse.figures import figure_region, graphics_rects
from vaultd.parse.folio_reader import document_labels
from vaultd.parse.layout import LAYOUT_VERSION
from vaultd.parse.pymupdf import load_pymupdf
from vaultd.parse.tiers import parse_pdf
from vaultd.pipeline import citations as citations_mod
from vaultd.pipeline.compiled import CompileResult, write_merged
from vaultd.pipeline.figure_crops import (
    FIGURE_ZOOM,
    crop_index_path,
    draw,
    is_pending,
    write_crop,
)
from vaultd.pipeline.highlights import attach_highlights
from vaultd.vault import Vault, atomic_write_bytes, file_sha256

DEFAULT_TAGS = ("paper",)  # every compiled note; inbox-rule and user tags are merged in


def _png_sha(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _crop_source(pdf_sha: str, block: Block, version: str) -> str:
    """What a figure crop is rendered from: the PDF bytes, the region inputs, the zoom, and
    the layout rules that find the region (new rules draw a crop again)."""
    return json.dumps([pdf_sha, block.page, block.bbox, block.figure_region, FIGURE_ZOOM, version,
                       LAYOUT_VERSION])


def _crop_figures(vault: Vault, cite_key: str, pdf: Path, blocks: list[Block],
                  chunks: list[Chunk], pdf_sha: str | None = None,
                  graphics: dict[int, list[Box]] | None = None, *, draw_now: bool = True
                  ) -> None:
    """Render each figure's region to raw/figs/<key>_fig<N>.png and link it on the chunk.

    A crop is re-rendered only when what it is rendered from changed: the sources of the
    crops are kept in raw/figs/.<key>_figs.json (PDF SHA-256, page, boxes, zoom, MuPDF
    version; and each PNG's SHA-256). Rendering is deterministic, so a skipped crop has
    the same bytes. ``graphics``: the pages' ``graphics_rects`` the parse already read.
    ``draw_now`` false: each region is found and linked, its drawing left pending
    (``figure_crops.render_pending_figures``).
    """
    # an algorithm float is its pseudocode's text, with nothing drawn above its caption
    figs = [(b, c) for b, c in zip(blocks, chunks, strict=True)
            if b.type == "figure" and not is_algorithm_caption(b.text)]
    if not figs:
        return
    pymupdf = load_pymupdf()
    index_path = crop_index_path(vault, cite_key)
    try:
        loaded: Any = json.loads(index_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        loaded = None
    cached: dict[str, Any] = loaded if isinstance(loaded, dict) else {}
    sha = pdf_sha or file_sha256(pdf)
    version = str(pymupdf.VersionBind)
    sources: dict[str, list[Any]] = {}
    doc = None
    lists: dict[int, Any] = {}  # one display list per page, shared by its figures
    rects: dict[int, list[Box]] = dict(graphics or {})  # each page's graphics, read once
    try:
        for n, (block, chunk) in enumerate(figs, start=1):
            path = vault.figs / f"{key_to_filename(cite_key)}_fig{n}.png"
            chunk.figure = vault.rel(path) if path.parent.is_dir() else f"raw/figs/{path.name}"
            source = _crop_source(sha, block, version)
            entry = cached.get(path.name)
            if (isinstance(entry, list) and len(entry) == 2 and entry[0] == source
                    and entry[1] == _png_sha(path)):
                sources[path.name] = entry
                continue  # rendered from this same source already, file intact
            if not draw_now and is_pending(entry) and entry[0] == source:
                sources[path.name] = entry
                continue  # still to draw, from this same source
            if doc is None:
                doc = pymupdf.open(pdf)
            page = doc[block.page - 1]
            region = None
            if block.bbox is not None:
                if block.page not in rects:
                    rects[block.page] = graphics_rects(page)
                others = [b.bbox for b in blocks if b.page == block.page and b is not block
                          and b.type in ("figure", "table") and b.bbox is not None]
                prose = [b.bbox for b in blocks if b.page == block.page and b.type == "paragraph"
                         and b.bbox is not None and len(b.text.split()) >= PROSE_WORDS]
                region = figure_region(page, block.bbox, block.figure_region, rects[block.page],
                                       others, prose)
            region = region or block.figure_region
            if region is None:
                chunk.figure = None
                continue
            if not draw_now:
                path.parent.mkdir(parents=True, exist_ok=True)  # the index is written there
                sources[path.name] = [source, None, block.page, list(region)]
                continue
            if block.page not in lists:
                lists[block.page] = page.get_displaylist()
            png = draw(pymupdf, lists[block.page], region)
            if png is None:  # a degenerate region: no picture
                chunk.figure = None
                continue
            write_crop(path, png)
            chunk.figure = vault.rel(path)
            sources[path.name] = [source, hashlib.sha256(png).hexdigest()]
    finally:
        lists.clear()
        if doc is not None:
            doc.close()
    if sources != cached and index_path.parent.is_dir():
        # Derived like the crops (each entry is checked against its PNG's SHA-256): no fsync.
        index = json.dumps(sources, indent=1, sort_keys=True) + "\n"
        atomic_write_bytes(index_path, index.encode("utf-8"), durable=False)


def _norm_id(kind: str, value: str) -> str:
    value = value.strip().lower()
    if kind == "arxiv":
        value = re.sub(r"^arxiv:|v\d+$", "", value)
    return f"{kind}:{value}"


#: Ids per meta file, keyed by its (inode, mtime, size): a long-running daemon compiles
#: paper after paper, and re-reading every record of a large vault for each one cost
#: ~0.05 ms a record (a stat is far cheaper). Records are written atomically (a new file
#: renamed over the old), so the inode changes with every rewrite even where timestamps
#: are coarse. Guarded for the daemon's worker threads.
_IDS_CACHE: dict[Path, tuple[tuple[int, int, int], list[tuple[str, str]]]] = {}
_IDS_LOCK = threading.Lock()


def _record_ids(data: object) -> list[tuple[str, str]]:
    """``(normalised id, cite key)`` pairs named by one meta file's JSON (pure)."""
    if not isinstance(data, dict) or not isinstance(data.get("cite_key"), str):
        return []
    key = data["cite_key"]
    work = data.get("work")
    work = work if isinstance(work, dict) else {}
    out: list[tuple[str, str]] = []
    for field_name in ("doi", "doi_preprint", "doi_published", "arxiv_id"):
        for value in (data.get(field_name), work.get(field_name)):
            if not isinstance(value, str) or not value.strip():
                continue
            if field_name == "arxiv_id":
                out.append((_norm_id("arxiv", value), key))
                continue
            out.append((_norm_id("doi", value), key))
            m = re.match(r"10\.48550/arxiv\.(.+)$", value.strip(), re.I)
            if m:  # arXiv's own DOI names the same paper as its id
                out.append((_norm_id("arxiv", m.group(1)), key))
    return out


def vault_ids(vault: Vault) -> dict[str, str]:
    """``doi:…``/``arxiv:…`` → cite key for every record in raw/ (plain JSON reads, no
    validation; a record unchanged since the last call is not read again)."""
    known: dict[str, str] = {}
    paths = record_store.paths(vault)
    present = set(paths)
    with _IDS_LOCK:  # forget records that left the vault
        for gone in [p for p in _IDS_CACHE if p.parent == vault.raw and p not in present]:
            del _IDS_CACHE[gone]
    for path in paths:
        try:
            st = path.stat()
        except OSError:
            continue
        stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
        with _IDS_LOCK:
            cached = _IDS_CACHE.get(path)
        if cached is not None and cached[0] == stamp:
            pairs = cached[1]
        else:
            try:
                pairs = _record_ids(json.loads(path.read_text(encoding="utf-8")))
            except (OSError, ValueError):
                continue
            with _IDS_LOCK:
                _IDS_CACHE[path] = (stamp, pairs)
        for norm, key in pairs:
            known.setdefault(norm, key)
    return known


def linked_keys(refs: list[str], known: dict[str, str], own_key: str) -> list[str]:
    """Cite keys of vault records matching a reference's ids, in ref order (pure)."""
    keys = []
    for ref in refs:
        kind, _, value = ref.partition(":")
        key = known.get(_norm_id(kind, value))
        if key is not None and key != own_key and key not in keys:
            keys.append(key)
    return keys


def link_references(chunks: list[Chunk], known: dict[str, str], own_key: str) -> None:
    """Set ``linked_notes`` on reference chunks; the quote and its hash are untouched."""
    for chunk in chunks:
        if chunk.refs:
            chunk.linked_notes = linked_keys(chunk.refs, known, own_key)


def compile_note(
    vault: Vault,
    settings: Settings,
    cite_key: str,
    *,
    parser: str = "auto",
    progress: Callable[[int, int], None] | None = None,
    folder: str | None = None,
    citer: Any = None,
    tags: Sequence[str] = (),
    figures: bool = True,
) -> CompileResult:
    """Parse the source of ``cite_key`` and write its wiki note (see module doc).

    ``citer`` is the vault's ``CitationRenderer`` (built from ``settings`` when None);
    ``tags`` (an Inbox rule's) are added to the note's, so the note is written once;
    ``figures`` false: figure crops are linked but drawn later (``figure_crops``).

    A note that already exists is rewritten where it is; a new one goes to
    ``wiki/[folder/]<cite_key>.md``."""
    meta = record_store.load(vault, cite_key)
    if meta.video:  # a talk or video: its note is made from its transcript
        # lazy: video compile brings yt-dlp's and httpx's imports, which a PDF compile
        # never needs (tests/test_compile.py: test_compile_loads_only_what_the_note_needs)
        # lazy: vaultd.pipeline.video_note costs 818 ms at import (pulls in httpx, click, asyncio, plistlib)
        from vaultd.pipeline.video_note import compile_video

        return compile_video(vault, settings, meta, folder=folder, citer=citer, tags=tags)
    pdf = vault.pdf_path(cite_key)
    chunks: list[Chunk] = []
    warnings: list[str] = []
    pages = 0
    parser_name: str | None = None
    parser_version: str | None = None
    pdf_sha: str | None = None
    if pdf.is_file():
        pdf_sha = file_sha256(pdf)
        doc = parse_pdf(
            pdf,
            parser,
            ocr=settings.parse.ocr,
            ocr_language=settings.parse.ocr_language,
            progress=progress,
        )
        blocks = [b for b in doc.blocks if b.text.strip()]
        labels = document_labels(doc, pdf, meta.work.page)
        chunks = with_page_labels(chunk_blocks(blocks, doc.parser), labels)
        if len(chunks) != len(blocks):  # blank after canonicalisation: realign for figures
            blocks = [b for b in blocks if " ".join(b.text.split())]
        _crop_figures(vault, cite_key, pdf, blocks, chunks, pdf_sha, doc.graphics,
                      draw_now=figures)
        if any(c.refs for c in chunks):
            link_references(chunks, vault_ids(vault), cite_key)
        warnings.extend(attach_highlights(pdf, meta, chunks))
        pages, parser_name, parser_version = doc.pages, doc.parser, doc.parser_version
        warnings.extend(doc.warnings)
    elif meta.pdf:
        raise ParseError(f"{vault.rel(pdf)}: PDF named in the meta file is missing; capture it again")
    work = meta.work
    # No title, no citation: an empty "(n.d.)." would be a wrong one. The note says why.
    own_citer = citer is None
    if own_citer:
        citer = citations_mod.renderer_for(vault, settings)
    try:
        citations = citer.for_note(work, cite_key)
    finally:
        if own_citer:
            citer.close()
    now = datetime.now(UTC).replace(microsecond=0).isoformat()
    captured_at = meta.captured_at or now
    note_meta = NoteMeta(
        cite_key=cite_key,
        # The user's own tags/aliases (and an inbox rule's tags) are merged back in by
        # merge_for_recompile / the ingest stage; vaultd only ever adds to these lists.
        tags=list(dict.fromkeys([*DEFAULT_TAGS, *meta.tags, *tags])),
        # the title, and the work's other cite keys: [[alias]] links find the note too
        aliases=list(dict.fromkeys(
            ([" ".join(meta.title.split())] if meta.title and meta.title.strip() else [])
            + meta.aliases)),
        captured=captured_at[:10],
        captured_at=captured_at,
        raw=vault.rel(pdf) if pdf_sha else None,
        pdf_sha256=pdf_sha,
        parser=parser_name,
        parser_version=parser_version,
        chunks=len(chunks),
        enrichment="pending" if chunks else None,
        **citations_mod.record_fields(meta),
    )
    note_path = vault.new_note_path(cite_key, folder)
    written = write_merged(vault, note_path, Note(meta=note_meta, citations=citations, chunks=chunks))
    return CompileResult(cite_key, note_path, parser_name, len(chunks), pages, warnings,
                         pending_chunks(written.chunks))


