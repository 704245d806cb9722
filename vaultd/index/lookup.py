"""Cite, quote and bibliography lookups shared by the CLI and the MCP server.

Citations come from ``raw/<key>.meta.json`` (the reconciled ``Work``), quotes from the
wiki note itself (re-hashed on every read, so a drifted quote is refused, never served).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from vaultd.canonical import text_sha256
from vaultd.errors import InputError, NoteFormatError, VaultdError
from vaultd.models import MetaFile
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
            works.setdefault(p.name[: -len(".meta.json")], ("", ""))
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
    try:
        meta = MetaFile.model_validate_json(vault.meta_path(key).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    return meta.title or ""


def load_meta(vault: Vault, cite_key: str, *, index_db: Any = None) -> MetaFile:
    path = vault.meta_path(cite_key)
    if not cite_key or "/" in cite_key or not path.is_file():
        hints = suggest(cite_key, known_works(vault, index_db), vault=vault) if cite_key else []
        tail = ("; did you mean: " + "; ".join(hints)) if hints else \
            "; list keys with `vaultd search` or capture the paper first"
        raise UnknownKeyError(f"unknown cite key {cite_key!r}{tail}", hints)
    try:
        return MetaFile.model_validate_json(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise InputError(f"cannot read {vault.rel(path)}: {exc.__class__.__name__}; "
                         f"re-capture with `vaultd capture --refresh {cite_key}`") from exc


CSL_JSON = "csl-json"  # an export format beside the five citation styles


def _check_format(style: str) -> None:
    from vaultd.formats import STYLES

    if style not in (*STYLES, CSL_JSON):
        raise InputError(f"unknown citation format {style!r}; use one of "
                         f"{', '.join((*STYLES, CSL_JSON))}")


def _csl_item(vault: Vault, cite_key: str, index_db: Any) -> dict[str, Any]:
    from vaultd.formats import to_csl_json

    return to_csl_json(load_meta(vault, cite_key, index_db=index_db).work, cite_key)


def cite(vault: Vault, cite_key: str, style: str = "bibtex", *, index_db: Any = None) -> str:
    """One citation in ``style``; ``csl-json`` gives the record as a CSL-JSON array of one
    item (what pandoc's ``--bibliography`` and Zotero import read)."""
    from vaultd.formats import render

    _check_format(style)
    if style == CSL_JSON:
        return _json_text([_csl_item(vault, cite_key, index_db)])
    meta = load_meta(vault, cite_key, index_db=index_db)
    if not meta.work.title:
        raise InputError(no_citation_hint(cite_key))
    return render(meta.work, cite_key, style)


def _json_text(items: list[dict[str, Any]]) -> str:
    import json

    return json.dumps(items, indent=2, ensure_ascii=False) + "\n"


def no_citation_hint(cite_key: str) -> str:
    """Why a record without a title gets no citation, and how to give it one."""
    return (f"{cite_key} has no title yet, so no citation is made for it; give it an id: "
            f"`vaultd capture raw/{cite_key}.pdf --doi DOI --refresh`")


def bibliography(vault: Vault, cite_keys: Iterable[str], style: str = "bibtex", *,
                 index_db: Any = None) -> tuple[str, list[dict[str, Any]]]:
    """All entries joined (blank line between), plus the unknown keys with suggestions."""
    _check_format(style)
    entries: list[str] = []
    items: list[dict[str, Any]] = []
    unknown: list[dict[str, Any]] = []
    seen: set[str] = set()
    for key in cite_keys:
        if key in seen:
            continue
        seen.add(key)
        try:
            if style == CSL_JSON:
                items.append(_csl_item(vault, key, index_db))
            else:
                entries.append(cite(vault, key, style, index_db=index_db).rstrip("\n"))
        except UnknownKeyError as exc:
            unknown.append({"cite_key": key, "did_you_mean": exc.suggestions})
        except InputError as exc:  # a record without a title: listed, never a broken entry
            unknown.append({"cite_key": key, "did_you_mean": [], "reason": str(exc)})
    if style == CSL_JSON:
        return _json_text(items), unknown
    return ("\n\n".join(entries) + ("\n" if entries else ""), unknown)


def quote(vault: Vault, cite_key: str, chunk_id: str, *, index_db: Any = None) -> dict[str, Any]:
    """The verbatim text of one chunk with its provenance, re-verified against its hash."""
    from vaultd.note import parse_note

    path = vault.note_path(cite_key)
    if "/" in cite_key or not path.is_file():
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
    page = prov.page_label or str(prov.page)
    return {
        "cite_key": cite_key,
        "chunk_id": chunk.id,
        "text": chunk.text,
        "text_sha256": actual,
        "verified": True,
        "title": note.meta.title,
        "page": prov.page,
        "page_label": prov.page_label,
        "section": prov.section,
        "chunk_type": prov.chunk_type,
        "bbox": prov.bbox,
        "pdf": note.meta.raw,
        "link": f"{note.meta.raw}#page={prov.page}" if note.meta.raw else None,
        "locator": f"p. {page}",
        "paraphrase": chunk.paraphrase,
        "implication": chunk.implication,
        "advisory": QUOTE_CONTRACT,
    }
