"""Cite, quote and recall from the lab library: the same answers as from the vault, each
naming the member(s) who published the work. A quote is re-hashed on every read: text
whose SHA-256 is not the one published with it is refused, never served; a page is the
printed page the publisher's compile confirmed, or the PDF page said as such."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg

from vaultd.canonical import text_sha256
from vaultd.errors import InputError, LibraryError, VaultdError
from vaultd.formats import CitationRenderer, has_title, to_bibtex, to_csl_json
from vaultd.lab import read as lab_read
from vaultd.lab.connect import failed
from vaultd.lab.search import LibraryFilters, LibraryHit, search
from vaultd.lookup.citing import BIBTEX, CSL_JSON, Citation, format_name, json_text
from vaultd.lookup.keys import UnknownKeyError
from vaultd.lookup.quoting import QUOTE_CONTRACT
from vaultd.models import Provenance, Work
from vaultd.notes.pages import chunk_warnings, page_locator, pdf_page_only


def _work(conn: psycopg.Connection[Any], group: str, key: str) -> lab_read.LibraryWork:
    try:
        found = lab_read.work(conn, group, key)
    except psycopg.Error as exc:
        raise failed(exc, f"looking up {key}") from exc
    if found is None:
        raise UnknownKeyError(f"no work with cite key {key!r} in the lab library's group "
                              f"{group!r}", [])
    return found


def _published_by(found: lab_read.LibraryWork) -> dict[str, Any]:
    return {"library": True, "published_by": found.members,
            "member_keys": {m: k for m, k in found.publishers}}


def citation(conn: psycopg.Connection[Any], group: str, key: str, style: str = BIBTEX, *,
             renderer: CitationRenderer, page: str | None = None
             ) -> tuple[Citation, dict[str, Any]]:
    """``key`` cited from the library in ``style``, and who published it."""
    found = _work(conn, group, key)
    work = Work.model_validate(found.work)
    name = format_name(style, renderer)

    def cited(text: str, plain: str | None = None, intext: str | None = None) -> Citation:
        return Citation(cite_key=key, format=name, text=text, plain=plain, intext=intext,
                        verified=found.verified, retracted=found.retracted,
                        labels=list(found.labels))

    if name == CSL_JSON:
        return cited(json_text([to_csl_json(work, key)])), _published_by(found)
    if not has_title(work):
        raise InputError(f"{key} in the lab library has no title to cite; its publisher "
                         f"({', '.join(found.members)}) can add one with `vaultd meta`")
    if name == BIBTEX:
        return cited(to_bibtex(work, key)), _published_by(found)
    rendering = renderer.one(work, key, name)
    intext = renderer.cite(work, key, name, page) if page else rendering.intext
    return (cited(rendering.entry_markdown(), rendering.entry_text(), intext),
            _published_by(found))


def quote(conn: psycopg.Connection[Any], group: str, key: str, chunk_id: str, *,
          renderer: CitationRenderer | None) -> dict[str, Any]:
    """One chunk's verbatim text from the library, re-hashed, with its printed page and
    in-text citation, and who published it."""
    found = _work(conn, group, key)
    try:
        got = lab_read.chunk(conn, found.work_id, chunk_id)
    except psycopg.Error as exc:
        raise failed(exc, f"reading chunk {chunk_id} of {key}") from exc
    if got is None:
        raise InputError(f"no chunk {chunk_id!r} of {key} in the lab library (its chunks are "
                         f"those {found.chunks_by or 'the publisher'} published)")
    if got.kind != "paper":
        raise InputError(f"{chunk_id!r} of {key} is a member's own note, not a quote from the "
                         "source: it cannot be quoted as the paper's words")
    actual = text_sha256(got.text)
    if actual != got.text_sha256:
        raise LibraryError(f"chunk {chunk_id} of {key} in the lab library does not match its "
                           "published SHA-256: refusing to quote it; its publisher "
                           f"({found.chunks_by}) republishes with `vaultd library publish "
                           f"{key}`")
    prov = Provenance(page=got.page or 1, page_label=got.page_label,
                      page_label_source=got.page_label_source,
                      page_label_status=got.page_label_status,
                      section=got.section, text_sha256=got.text_sha256, char_range=[0, 0],
                      chunk_type=got.chunk_type or "paragraph",
                      parser="library", text_layer=got.text_layer, start=got.start,
                      end=got.end)
    work = Work.model_validate(found.work)
    page = page_locator(prov)
    out: dict[str, Any] = {
        "cite_key": key, "chunk_id": chunk_id, "text": got.text, "text_sha256": actual,
        "verified": True, "title": work.title, "page": got.page, "page_label": got.page_label,
        "page_label_source": got.page_label_source, "page_label_status": got.page_label_status,
        "section": got.section, "chunk_type": got.chunk_type, "regions": got.regions or [],
        "locator": f"{'pp' if '–' in page else 'p'}. {page}",
        "metadata_verified": found.verified, "retracted": found.retracted,
        "labels": [*found.labels, *(label for label, _ in chunk_warnings(prov))],
        "citation": None, "citation_style": None, "advisory": QUOTE_CONTRACT,
        **_published_by(found)}
    if renderer is not None and has_title(work):
        style = renderer.styles[0]
        try:
            out["citation"] = renderer.cite(work, key, style.name,
                                            None if pdf_page_only(prov) else page)
            out["citation_style"] = style.name
        except VaultdError as exc:  # the quote itself is still served
            out["citation_error"] = str(exc)
    return out


def hit_json(hit: LibraryHit) -> dict[str, Any]:
    """A library hit as `vaultd search --library --json` and MCP recall show it."""
    data: dict[str, Any] = {
        "kind": "paper" if hit.kind == "paper" else "note", "cite_key": hit.cite_key,
        "title": hit.title, "authors": hit.authors, "year": hit.year, "page": hit.page,
        "page_label": hit.page_label, "section": hit.section, "chunk_id": hit.chunk_id,
        "chunk_type": hit.chunk_type, "excerpt": _excerpt(hit.text), "score": hit.score,
        "matched": hit.matched, "text_sha256": hit.text_sha256, "library": True,
        "published_by": hit.members}
    if hit.page is not None:
        data["locator"] = (f"p. {hit.page_label}" if hit.page_label
                           else f"p. {hit.page} of the PDF")
    if hit.labels:
        data["labels"] = hit.labels
    if hit.retracted:
        data = {"warning": next((x for x in hit.labels if x.startswith("RETRACTED")),
                                "RETRACTED"), "retracted": True, **data}
    return {k: v for k, v in data.items() if v not in (None, [])}


def _excerpt(text: str, size: int = 400) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= size else flat[:size - 1] + "…"


def recall(conn: psycopg.Connection[Any], group: str, query: str, *, limit: int,
           filters: LibraryFilters, qvec: Sequence[float] | None,
           model: str | None) -> list[LibraryHit]:
    """The best ``limit`` passages of the library for ``query``."""
    try:
        return search(conn, query, group, limit=limit, filters=filters, qvec=qvec, model=model)
    except psycopg.Error as exc:
        raise failed(exc, "searching") from exc
