"""Cite, quote and bibliography lookups shared by the CLI and the MCP server.

Citations come from ``raw/<key>.meta.json`` (the reconciled ``Work``), quotes from the
wiki note itself (re-hashed on every read, so a drifted quote is refused, never served).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from vaultd import record_store
from vaultd.canonical import text_sha256
from vaultd.citekey import filename_to_key, key_to_filename
from vaultd.errors import InputError, NoteFormatError, VaultdError
from vaultd.models import MetaFile
from vaultd.notes.pages import chunk_warnings, page_locator, pdf_page_only
from vaultd.vault import Vault

QUOTE_CONTRACT = (
    "Quote only `text` (verbatim from the PDF text layer, hash-checked). Paraphrase and "
    "implication are advisory LLM summaries: never put them in quotation marks or attribute "
    "them to the authors."
)


class UnknownKeyError(InputError):
    """A cite key that is not in the vault; ``suggestions`` are ``key — title`` lines."""

    def __init__(self, message: str, suggestions: list[str]) -> None:
        super().__init__(message)
        self.suggestions = suggestions


def known_works(vault: Vault, index_db: Any = None) -> dict[str, tuple[str, str]]:
    """cite key → (title, authors) for fuzzy matching: index papers + raw/*.meta.json names."""
    works: dict[str, tuple[str, str]] = {}
    if index_db is not None:
        for key, title, authors in index_db.conn.execute(
                "SELECT cite_key, title, authors FROM papers"):
            works[str(key)] = (str(title or "").strip(), str(authors or "").strip())
    if vault.raw.is_dir():
        for p in vault.raw.glob("*.meta.json"):
            works.setdefault(filename_to_key(p.name[: -len(".meta.json")]), ("", ""))
    return works


def suggest(query: str, works: dict[str, tuple[str, str]], limit: int = 5,
            vault: Vault | None = None) -> list[str]:
    """Top fuzzy matches for ``query`` over keys, titles and authors, as ``key — title``
    lines (authors help the match but are not printed)."""
    from rapidfuzz import fuzz, process, utils

    choices = {k: " ".join(x for x in (k, *v) if x) for k, v in works.items()}
    found = process.extract(query, choices, scorer=fuzz.WRatio, processor=utils.default_process,
                            limit=limit)
    out = []
    for _choice, _score, key in found:
        title = works[key][0] or (_meta_title(vault, key) if vault else "")
        out.append(f"{key} — {title}" if title else str(key))
    return out


def _meta_title(vault: Vault, key: str) -> str:
    meta = record_store.get(vault, key)
    return (meta.title or "") if meta else ""


def load_meta(vault: Vault, cite_key: str, *, index_db: Any = None) -> MetaFile:
    if not record_store.exists(vault, cite_key):
        hints = suggest(cite_key, known_works(vault, index_db), vault=vault) if cite_key else []
        tail = ("; did you mean: " + "; ".join(hints)) if hints else \
            "; list keys with `vaultd search` or capture the paper first"
        raise UnknownKeyError(f"unknown cite key {cite_key!r}{tail}", hints)
    return record_store.load(vault, cite_key)


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


def _renderer(vault: Vault, renderer: Any) -> Any:
    if renderer is not None:
        return renderer
    from vaultd.pipeline.citations import renderer_for

    return renderer_for(vault, None)


def _format_name(style: str, renderer: Any) -> str:
    """The format asked for, in any case: bibtex, csl-json, or a configured/installed style."""
    from vaultd.formats import normalise_format

    name = normalise_format(style)
    if name in (BIBTEX, CSL_JSON):
        return name
    try:
        return str(renderer.style(name).name)
    except InputError as exc:
        raise InputError(f"{exc}; or {BIBTEX} or {CSL_JSON}") from exc


def _labels(meta: MetaFile) -> list[str]:
    """Retracted, unverified, and the fields the user entered ("ENTERED BY YOU (…)")."""
    from vaultd.capture.user import entered_names
    from vaultd.trust import record_labels

    return record_labels(meta, entered_names(meta))


def _verified(meta: MetaFile) -> bool:
    from vaultd.trust import record_verified

    return record_verified(meta)


def _citation(cite_key: str, name: str, meta: MetaFile, text: str, plain: str | None = None,
              intext: str | None = None) -> Citation:
    return Citation(cite_key=cite_key, format=name, text=text, plain=plain, intext=intext,
                    verified=_verified(meta), retracted=meta.work.retracted,
                    labels=_labels(meta))


def citation(vault: Vault, cite_key: str, style: str = BIBTEX, *, index_db: Any = None,
             renderer: Any = None, page: str | None = None,
             time: str | None = None) -> Citation:
    """``cite_key`` cited in ``style`` (any case): a configured or installed CSL style,
    ``bibtex`` or ``csl-json``; ``page`` adds the in-text citation pointing at that page,
    ``time`` (``3:15``, ``195``, ``1h2m3s``) at that time of a video."""
    from vaultd.formats import has_title, to_bibtex, to_csl_json

    meta = load_meta(vault, cite_key, index_db=index_db)
    if page is not None:
        page = checked_page(vault, cite_key, meta, page)
    citer = _renderer(vault, renderer)
    name = _format_name(style, citer)
    if name == CSL_JSON:
        return _citation(cite_key, name, meta, _json_text([to_csl_json(meta.work, cite_key)]))
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
    from vaultd.formats.locators import check_locator, note_pages, record_pages

    known = record_pages(meta.work.page)
    if known is None:
        labels, last = _note_pages(vault, cite_key)
        known = note_pages(labels, last)
    return check_locator(page, known, cite_key)


def _note_pages(vault: Vault, cite_key: str) -> tuple[list[str], int]:
    """The printed labels of the pages a note's chunks are on, and its last PDF page (0
    when there is no readable note or it is a video's)."""
    from vaultd.notes.markdown import parse_note
    from vaultd.notes.pages import printed_page

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


def parse_time(value: str) -> float:
    """Seconds from ``3:15``, ``1:02:03``, ``195``, ``195s`` or ``1h2m3s``; InputError if none."""
    from vaultd.video.info import start_time

    text = value.strip()
    parts = text.split(":")
    if 2 <= len(parts) <= 3 and all(p.isdigit() for p in parts):
        seconds = 0.0
        for p in parts:
            seconds = seconds * 60 + int(p)
        return seconds
    found = start_time(f"https://youtu.be/x?t={text}")
    if found is None:
        raise InputError(f"{value!r} is not a time in a video; give it as 3:15, 1:02:03 or 195")
    return found


def cite(vault: Vault, cite_key: str, style: str = BIBTEX, *, index_db: Any = None,
         renderer: Any = None) -> str:
    """One citation in ``style``; ``csl-json`` gives the record as a CSL-JSON array of one
    item (what pandoc's ``--bibliography`` and Zotero import read)."""
    return citation(vault, cite_key, style, index_db=index_db, renderer=renderer).text


def _json_text(items: list[dict[str, Any]]) -> str:
    import json

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
                    index_db: Any = None, renderer: Any = None) -> Bibliography:
    """All entries joined (blank line between; CSL-JSON: one array), the citations with
    their labels, and the unknown keys with suggestions. Styles render in one batch."""
    from vaultd.formats import has_title, to_bibtex, to_csl_json

    citer = _renderer(vault, renderer)
    name = _format_name(style, citer)
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
        text = _json_text([to_csl_json(m.work, k) for k, m in metas.items()])
    else:
        entries = [c.text.rstrip("\n") for c in citations]
        text = "\n\n".join(entries) + ("\n" if entries else "")
    return Bibliography(name, text, citations, unknown)


def bibliography(vault: Vault, cite_keys: Iterable[str], style: str = BIBTEX, *,
                 index_db: Any = None, renderer: Any = None) -> tuple[str, list[dict[str, Any]]]:
    """All entries joined (blank line between), plus the unknown keys with suggestions."""
    bib = bibliography_of(vault, cite_keys, style, index_db=index_db, renderer=renderer)
    return bib.text, bib.unknown


def quote(vault: Vault, cite_key: str, chunk_id: str, *, index_db: Any = None,
          renderer: Any = None) -> dict[str, Any]:
    """The verbatim text of one chunk with its provenance, re-verified against its hash,
    and its in-text citation (first configured style) pointing at the printed page."""
    from vaultd.notes.markdown import parse_note

    path = vault.note_path(cite_key)
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
        "advisory": QUOTE_CONTRACT,
    }


def _video_quote(vault: Vault, note: Any, chunk: Any, index_db: Any,
                 renderer: Any) -> dict[str, Any]:
    """``quote`` of a video chunk: its time instead of a page, a link that plays it."""
    from vaultd.notes.pages import time_locator
    from vaultd.video.info import watch_link

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


def _quote_citation(vault: Vault, cite_key: str, page: str | None, index_db: Any,
                    renderer: Any, *, time: float | None = None) -> dict[str, Any]:
    """``citation`` (in-text, with the page), ``citation_style``, ``metadata_verified``,
    ``retracted`` and ``labels`` of a quote's work; a record that cannot be read or
    rendered gives ``citation: None`` (the quote itself stays servable)."""
    try:
        meta = load_meta(vault, cite_key, index_db=index_db)
    except VaultdError:
        return {"citation": None, "metadata_verified": False, "retracted": False,
                "labels": ["UNVERIFIED (no metadata record)"]}
    out: dict[str, Any] = {"metadata_verified": _verified(meta),
                           "retracted": meta.work.retracted,
                           "labels": _labels(meta), "citation": None, "citation_style": None}
    from vaultd.formats import has_title

    if has_title(meta.work):
        try:
            citer = _renderer(vault, renderer)
            style = citer.styles[0]
            out["citation"] = (citer.cite_time(meta.work, cite_key, style.name, time)
                               if time is not None else
                               citer.cite(meta.work, cite_key, style.name, page))
            out["citation_style"] = style.name
        except VaultdError as exc:  # no processor here: the quote itself is still served
            out["citation_error"] = str(exc)
    return out
