"""Quotes: the verbatim text of one chunk of a note, re-verified against its hash on every
read (a drifted quote is refused, never served), with its provenance and the in-text
citation pointing at its printed page (or a video's time).
"""

from __future__ import annotations

import re
from typing import Any

from vaultd import record_store
from vaultd.canonical import text_sha256
from vaultd.errors import InputError, NoteFormatError, VaultdError
from vaultd.formats import CitationRenderer, has_title
from vaultd.index.store import IndexDB
from vaultd.lookup.citing import labels, verified
from vaultd.lookup.keys import UnknownKeyError, known_works, load_meta, suggest
from vaultd.models import Chunk, Note
from vaultd.notes.highlights import highlight_json
from vaultd.notes.pages import chunk_warnings, page_locator, pdf_page_only, time_locator
from vaultd.vault import Vault
from vaultd.video.info import watch_link

QUOTE_CONTRACT = (
    "Quote only `text` (verbatim from the PDF text layer, hash-checked). Paraphrase and "
    "implication are advisory LLM summaries: never put them in quotation marks or attribute "
    "them to the authors."
)


def quote(vault: Vault, cite_key: str, chunk_id: str, *, index_db: IndexDB | None = None,
          renderer: CitationRenderer | None) -> dict[str, Any]:
    """The verbatim text of one chunk with its provenance, re-verified against its hash,
    and its in-text citation (first configured style) pointing at the printed page.
    ``renderer`` None (no citation processor here): the text is served without one."""
    # lazy: vaultd.notes.reader costs 30 ms at import (pulls in yaml)
    from vaultd.notes.reader import parse_note

    path = vault.note_path(record_store.resolve(vault, cite_key) or cite_key)
    if not path.is_file():
        hints = suggest(cite_key, known_works(vault, index_db), vault=vault) if cite_key else []
        tail = ("; did you mean: " + "; ".join(hints)) if hints else ""
        raise UnknownKeyError(f"no note for cite key {cite_key!r}{tail}", hints)
    try:
        note = parse_note(path.read_text(encoding="utf-8"), source=vault.rel(path))
    except NoteFormatError:
        raise
    except (OSError, VaultdError) as exc:
        raise InputError(f"cannot read {vault.rel(path)}: {exc}") from exc
    chunk = next((c for c in note.chunks if c.id == chunk_id), None)
    if chunk is None and re.fullmatch(r"u(\d+|-.+)", chunk_id):
        raise InputError(f"{chunk_id!r} in {cite_key} is the researcher's own note, not a "
                         "quote from the source: it cannot be quoted as the paper's words")
    if chunk is None:
        ids = [c.id for c in note.chunks]
        sample = ", ".join(ids[:8]) + (" …" if len(ids) > 8 else "")
        raise InputError(f"no chunk {chunk_id!r} in {cite_key}; "
                         f"its chunks are {sample or 'none (metadata-only note)'}")
    actual = text_sha256(chunk.text)
    if actual != chunk.provenance.text_sha256:
        raise InputError(f"chunk {chunk_id} of {cite_key} was edited (hash mismatch): refusing "
                         f"to quote it; run `vaultd verify {cite_key}` and recompile")
    prov = chunk.provenance
    if prov.start is not None:
        return _video_quote(vault, note, chunk, index_db, renderer)
    page = page_locator(prov)
    # A page no printed label was confirmed for is not put in the in-text citation as if
    # the paper printed it: the citation goes without a page, `locator` names the PDF page.
    cited = _quote_citation(vault, cite_key, None if pdf_page_only(prov) else page,
                            index_db, renderer)
    cited["labels"] = [*cited["labels"], *(label for label, _ in chunk_warnings(prov))]
    return {
        "cite_key": cite_key,
        "chunk_id": chunk.id,
        "text": chunk.text,
        "text_sha256": actual,
        "verified": True,
        "title": note.meta.title,
        "page": prov.page,
        "page_label": prov.page_label,
        "page_label_source": prov.page_label_source,
        "page_label_status": prov.page_label_status,
        "section": prov.section,
        "chunk_type": prov.chunk_type,
        "regions": prov.regions or ([[prov.page, *prov.pdf_rect]] if prov.pdf_rect else []),
        "pdf": note.meta.raw,
        "link": f"{note.meta.raw}#page={prov.page}" if note.meta.raw else None,
        "locator": f"{'pp' if '–' in page else 'p'}. {page}",
        **cited,
        "paraphrase": chunk.paraphrase,
        "implication": chunk.implication,
        "highlights": [highlight_json(chunk, h) for h in chunk.highlights],
        "advisory": QUOTE_CONTRACT,
    }


def _video_quote(vault: Vault, note: Note, chunk: Chunk, index_db: IndexDB | None,
                 renderer: CitationRenderer | None) -> dict[str, Any]:
    """``quote`` of a video chunk: its time instead of a page, a link that plays it."""
    prov = chunk.provenance
    start = prov.start or 0.0
    cited = _quote_citation(vault, note.meta.cite_key, None, index_db, renderer, time=start)
    cited["labels"] = [*cited["labels"], *(label for label, _ in chunk_warnings(prov))]
    video = note.meta.video_id
    return {
        "cite_key": note.meta.cite_key, "chunk_id": chunk.id, "text": chunk.text,
        "text_sha256": prov.text_sha256, "verified": True, "title": note.meta.title,
        "start": prov.start, "end": prov.end, "transcript": prov.transcript,
        "section": prov.section, "chunk_type": prov.chunk_type,
        "locator": time_locator(start, prov.end),
        "link": watch_link(video, start) if video else None, "figure": chunk.figure,
        **cited, "paraphrase": chunk.paraphrase, "implication": chunk.implication,
        "advisory": QUOTE_CONTRACT,
    }


def _quote_citation(vault: Vault, cite_key: str, page: str | None, index_db: IndexDB | None,
                    renderer: CitationRenderer | None, *, time: float | None = None
                    ) -> dict[str, Any]:
    """``citation`` (in-text, with the page), ``citation_style``, ``metadata_verified``,
    ``retracted`` and ``labels`` of a quote's work; a record that cannot be read or
    rendered gives ``citation: None`` (the quote itself stays servable)."""
    try:
        meta = load_meta(vault, cite_key, index_db=index_db)
    except VaultdError:
        return {"citation": None, "metadata_verified": False, "retracted": False,
                "labels": ["UNVERIFIED (no metadata record)"]}
    out: dict[str, Any] = {"metadata_verified": verified(meta),
                           "retracted": meta.work.retracted,
                           "labels": labels(meta), "citation": None, "citation_style": None}

    if renderer is None:
        out["citation_error"] = "no citation processor: the text is served without a citation"
    elif has_title(meta.work):
        try:
            citer = renderer
            style = citer.styles[0]
            out["citation"] = (citer.cite_time(meta.work, cite_key, style.name, time)
                               if time is not None else
                               citer.cite(meta.work, cite_key, style.name, page))
            out["citation_style"] = style.name
        except VaultdError as exc:  # no processor here: the quote itself is still served
            out["citation_error"] = str(exc)
    return out
