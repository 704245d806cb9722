"""Citations of the vault's works, in any configured or installed CSL style, BibTeX or
CSL-JSON: one (``citation``, with an in-text form pointing at a page or a time) or many
(``bibliography_of``, styles rendered in one batch), each with the labels a reader must
see (RETRACTED, UNVERIFIED, ENTERED BY YOU). The renderer is the vault's, passed in.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from vaultd.citekey import key_to_filename
from vaultd.errors import InputError, VaultdError
from vaultd.formats import CitationRenderer, has_title, normalise_format, to_bibtex, to_csl_json
from vaultd.formats.locators import check_locator, note_pages, record_pages
from vaultd.index.store import IndexDB
from vaultd.lookup.keys import UnknownKeyError, load_meta
from vaultd.lookup.times import parse_time
from vaultd.models import MetaFile
from vaultd.notes.pages import printed_page
from vaultd.trust import record_labels, record_verified
from vaultd.vault import Vault

CSL_JSON = "csl-json"  # an export format beside the citation styles
BIBTEX = "bibtex"


@dataclass
class Citation:
    """One work cited in one format, with what a reader must know about its metadata."""

    cite_key: str
    format: str
    text: str  # the entry: Markdown for a style, the BibTeX entry, or a CSL-JSON array
    plain: str | None = None  # a style's entry as plain text
    intext: str | None = None  # a style's in-text citation (with the page when asked)
    verified: bool = True
    retracted: bool = False
    labels: list[str] = field(default_factory=list)  # "RETRACTED (…)", "UNVERIFIED (…)"

    def to_json(self) -> dict[str, Any]:
        return {"cite_key": self.cite_key, "format": self.format, "text": self.text,
                "plain": self.plain, "intext": self.intext, "verified": self.verified,
                "retracted": self.retracted, "labels": self.labels}


def format_name(style: str, renderer: CitationRenderer) -> str:
    """The format asked for, in any case: bibtex, csl-json, or a configured/installed style."""
    name = normalise_format(style)
    if name in (BIBTEX, CSL_JSON):
        return name
    try:
        return str(renderer.style(name).name)
    except InputError as exc:
        raise InputError(f"{exc}; or {BIBTEX} or {CSL_JSON}") from exc


def _labels(meta: MetaFile) -> list[str]:
    """Retracted, unverified, and the fields the user entered ("ENTERED BY YOU (…)")."""
    # lazy: vaultd.capture.user costs 12 ms at import (pulls in plistlib)
    from vaultd.capture.user import entered_names

    return record_labels(meta, entered_names(meta))


def _verified(meta: MetaFile) -> bool:
    return record_verified(meta)


def _citation(cite_key: str, name: str, meta: MetaFile, text: str, plain: str | None = None,
              intext: str | None = None) -> Citation:
    return Citation(cite_key=cite_key, format=name, text=text, plain=plain, intext=intext,
                    verified=_verified(meta), retracted=meta.work.retracted,
                    labels=_labels(meta))


def citation(vault: Vault, cite_key: str, style: str = BIBTEX, *,
             index_db: IndexDB | None = None,
             renderer: CitationRenderer, page: str | None = None,
             time: str | None = None) -> Citation:
    """``cite_key`` cited in ``style`` (any case): a configured or installed CSL style,
    ``bibtex`` or ``csl-json``; ``page`` adds the in-text citation pointing at that page,
    ``time`` (``3:15``, ``195``, ``1h2m3s``) at that time of a video."""
    meta = load_meta(vault, cite_key, index_db=index_db)
    if page is not None:
        page = checked_page(vault, cite_key, meta, page)
    citer = renderer
    name = format_name(style, citer)
    if name == CSL_JSON:
        return _citation(cite_key, name, meta, json_text([to_csl_json(meta.work, cite_key)]))
    if not has_title(meta.work):
        raise InputError(no_citation_hint(cite_key, has_pdf=bool(meta.pdf),
                                          has_id=bool(meta.work.doi or meta.work.arxiv_id)))
    if name == BIBTEX:
        return _citation(cite_key, name, meta, to_bibtex(meta.work, cite_key))
    rendering = citer.one(meta.work, cite_key, name)
    if time is not None:
        intext = citer.cite_time(meta.work, cite_key, name, parse_time(time))
    else:
        intext = citer.cite(meta.work, cite_key, name, page) if page else rendering.intext
    return _citation(cite_key, name, meta, rendering.entry_markdown(), rendering.entry_text(),
                     intext)


def checked_page(vault: Vault, cite_key: str, meta: MetaFile, page: str) -> str:
    """``page`` as a checked, normalised locator (``vaultd.formats.locators``): within the
    record's page range when it has one, else within the pages its note's chunks are on;
    LocatorError otherwise."""
    known = record_pages(meta.work.page)
    if known is None:
        labels, last = _note_pages(vault, cite_key)
        known = note_pages(labels, last)
    return check_locator(page, known, cite_key)


def labels(meta: MetaFile) -> list[str]:
    return _labels(meta)


def verified(meta: MetaFile) -> bool:
    return _verified(meta)


def _note_pages(vault: Vault, cite_key: str) -> tuple[list[str], int]:
    """The printed labels of the pages a note's chunks are on, and its last PDF page (0
    when there is no readable note or it is a video's)."""
    # lazy: vaultd.notes.reader costs 26 ms at import (pulls in yaml)
    from vaultd.notes.reader import parse_note

    path = vault.note_path(cite_key)
    try:
        note = parse_note(path.read_text(encoding="utf-8"), source=vault.rel(path))
    except (OSError, VaultdError):
        return [], 0
    labels: list[str] = []
    last = 0
    for chunk in note.chunks:
        prov = chunk.provenance
        if prov.start is not None:  # a video: its locator is a time
            return [], 0
        end = max((int(r[0]) for r in prov.regions or []), default=prov.page)
        if prov.page_label:
            labels += [printed_page(prov, p) for p in range(prov.page, end + 1)]
        last = max(last, end)
    return labels, last


def cite(vault: Vault, cite_key: str, style: str = BIBTEX, *, renderer: CitationRenderer,
         index_db: IndexDB | None = None) -> str:
    """One citation in ``style``; ``csl-json`` gives the record as a CSL-JSON array of one
    item (what pandoc's ``--bibliography`` and Zotero import read)."""
    return citation(vault, cite_key, style, index_db=index_db, renderer=renderer).text


def json_text(items: list[dict[str, Any]]) -> str:
    return json.dumps(items, indent=2, ensure_ascii=False) + "\n"


def no_citation_hint(cite_key: str, *, has_pdf: bool = True, has_id: bool = False) -> str:
    """Why a record without a title gets no citation, and how to give it one: a record
    with a DOI or arXiv id is waiting for a source to answer; one without needs an id."""
    if has_id:
        return (f"{cite_key} has no title yet, so no citation is made for it: no metadata "
                "source has answered for its id yet; `vaultd capture --retry-pending` asks "
                "again when online")
    how = (f"`vaultd capture raw/{key_to_filename(cite_key)}.pdf --doi DOI --refresh`" if has_pdf else
           f"`vaultd capture DOI --cite-key {cite_key} --refresh`")
    return (f"{cite_key} has no title yet, so no citation is made for it; give it an id: {how}"
            f", or enter it: `vaultd meta {cite_key} --set title=\"…\"`")


@dataclass
class Bibliography:
    format: str
    text: str
    citations: list[Citation]
    unknown: list[dict[str, Any]]


def bibliography_of(vault: Vault, cite_keys: Iterable[str], style: str = BIBTEX, *,
                    renderer: CitationRenderer, index_db: IndexDB | None = None
                    ) -> Bibliography:
    """All entries joined (blank line between; CSL-JSON: one array), the citations with
    their labels, and the unknown keys with suggestions. Styles render in one batch."""
    citer = renderer
    name = format_name(style, citer)
    metas: dict[str, MetaFile] = {}
    unknown: list[dict[str, Any]] = []
    for key in dict.fromkeys(cite_keys):
        try:
            meta = load_meta(vault, key, index_db=index_db)
        except UnknownKeyError as exc:
            unknown.append({"cite_key": key, "did_you_mean": exc.suggestions})
            continue
        except InputError as exc:
            unknown.append({"cite_key": key, "did_you_mean": [], "reason": str(exc)})
            continue
        if name != CSL_JSON and not has_title(meta.work):  # listed, never a broken entry
            unknown.append({"cite_key": key, "did_you_mean": [],
                            "reason": no_citation_hint(
                                key, has_pdf=bool(meta.pdf),
                                has_id=bool(meta.work.doi or meta.work.arxiv_id))})
            continue
        metas[key] = meta
    rendered: dict[str, Any] = {}
    if name not in (BIBTEX, CSL_JSON) and metas:
        chosen = citer.style(name)
        rendered = citer.render({k: m.work for k, m in metas.items()}, [chosen])
    citations: list[Citation] = []
    for key, meta in metas.items():
        if name == CSL_JSON:
            citations.append(_citation(key, name, meta, ""))
        elif name == BIBTEX:
            citations.append(_citation(key, name, meta, to_bibtex(meta.work, key)))
        else:
            r = next(iter(rendered[key].values()))
            citations.append(_citation(key, name, meta, r.entry_markdown(), r.entry_text(),
                                       r.intext))
    if name == CSL_JSON:
        text = json_text([to_csl_json(m.work, k) for k, m in metas.items()])
    else:
        entries = [c.text.rstrip("\n") for c in citations]
        text = "\n\n".join(entries) + ("\n" if entries else "")
    return Bibliography(name, text, citations, unknown)


def bibliography(vault: Vault, cite_keys: Iterable[str], style: str = BIBTEX, *,
                 renderer: CitationRenderer, index_db: IndexDB | None = None
                 ) -> tuple[str, list[dict[str, Any]]]:
    """All entries joined (blank line between), plus the unknown keys with suggestions."""
    bib = bibliography_of(vault, cite_keys, style, index_db=index_db, renderer=renderer)
    return bib.text, bib.unknown
