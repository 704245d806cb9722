"""What one work publishes to the lab library, read from this vault.

``publication`` reads a work's record (the Work citations are rendered from, its
identifiers and labels, every cite key the member knows it by), its note's chunks (verbatim
text, type, section, PDF page and printed label, regions, ``text_sha256``), the vectors the
local index holds for them, and, only when the settings say so, the PDF and the member's
own text. Nothing here talks to the library: ``pipeline.publish`` sends what this reads.
"""

from __future__ import annotations

from collections.abc import Iterable

from vaultd import record_store
from vaultd.capture.user import entered_names
from vaultd.config import Settings
from vaultd.errors import LibraryError, NoteFormatError
from vaultd.index.embed import unpack
from vaultd.index.rows import paper_rows
from vaultd.index.store import open_index
from vaultd.lab.payload import ChunkRow, Publication
from vaultd.models import MetaFile, Note
from vaultd.notes.reader import parse_note
from vaultd.trust import record_labels, record_verified
from vaultd.vault import Vault


def configured(settings: Settings) -> str:
    """The library URL, or a one-line error saying how to set one."""
    if not settings.library.url:
        raise LibraryError("no lab library is set: add `[library] url = "
                           "\"postgresql://member@host/db\"` to .vaultd/config.toml or set "
                           "VAULTD_LIBRARY_URL")
    return settings.library.url


def _note(vault: Vault, cite_key: str) -> Note | None:
    path = vault.note_path(cite_key)
    if not path.is_file():
        return None
    # named under the vault's root as given (resolving the path costs more than reading it)
    return parse_note(path.read_text(encoding="utf-8"),
                      source=path.relative_to(vault.root).as_posix())


def _chunk_rows(note: Note, *, own_text: bool) -> list[ChunkRow]:
    out = []
    for c in note.chunks:
        if not c.text.strip():
            continue
        p = c.provenance
        regions = p.regions or ([[p.page, *p.pdf_rect]] if p.pdf_rect else None)
        out.append(ChunkRow(
            chunk_id=c.id, text=c.text, text_sha256=p.text_sha256, chunk_type=p.chunk_type,
            section=p.section, page=p.page, page_label=p.page_label,
            page_label_source=p.page_label_source, page_label_status=p.page_label_status,
            regions=[[float(v) for v in r] for r in regions] if regions else None,
            text_layer=p.text_layer, start=p.start, end=p.end))
    if own_text:  # the member's notes on quotes and "My notes": only with publish_notes
        for row in paper_rows(note, "", 0.0):
            if row.kind == "note":
                out.append(ChunkRow(chunk_id=row.chunk_id, text=row.text,
                                    text_sha256=row.hash, kind="note", section=row.section,
                                    page=row.page, page_label=row.page_label))
    return out


class LocalVectors:
    """The local index's embedding model and its vectors, the index opened once for all
    the works read (a run of ``publish_keys`` reads hundreds); a context manager."""

    def __init__(self, vault: Vault) -> None:
        self._db = open_index(vault.index_db, load_vec=False) if vault.index_db.is_file() \
            else None
        self.model = self._db.get_meta("embed_model") if self._db is not None else None

    def of(self, hashes: Iterable[str]) -> tuple[str | None, dict[str, list[float]]]:
        """The model and its vectors of ``hashes`` (none without an index or vectors)."""
        if self._db is None or not self.model:
            return None, {}
        wanted = list(hashes)
        out: dict[str, list[float]] = {}
        for i in range(0, len(wanted), 500):
            part = wanted[i:i + 500]
            marks = ",".join("?" * len(part))
            for h, blob in self._db.conn.execute(
                    f"SELECT hash, vec FROM vectors WHERE model = ? AND hash IN ({marks})",
                    (self.model, *part)):
                out[str(h)] = unpack(blob)
        return self.model, out

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> LocalVectors:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def publication(vault: Vault, settings: Settings, cite_key: str,
                vectors: LocalVectors | None = None) -> Publication:
    """What ``cite_key`` publishes (its record must exist; its note may not yet);
    ``vectors``: the local index, when the caller holds it open."""
    meta = record_store.load(vault, cite_key)
    try:
        note = _note(vault, cite_key)
    except (OSError, NoteFormatError) as exc:
        raise LibraryError(f"cannot publish {cite_key}: its note cannot be read ({exc}); "
                           f"run `vaultd verify {cite_key}`") from exc
    chunks = _chunk_rows(note, own_text=settings.library.publish_notes) if note else []
    hashes = [c.text_sha256 for c in chunks if c.kind == "paper"]
    if vectors is None:
        with LocalVectors(vault) as local:
            model, found = local.of(hashes)
    else:
        model, found = vectors.of(hashes)
    work = meta.work
    pdf = None
    if settings.library.share_pdfs and meta.pdf and (vault.root / meta.pdf).is_file():
        pdf = (vault.root / meta.pdf).read_bytes()
    return Publication(
        cite_key=cite_key, aliases=sorted(set(meta.aliases) - {cite_key}),
        work=work.model_dump(mode="json", exclude_none=True), title=work.title,
        authors="; ".join(a.display for a in work.authors) or None, year=work.year,
        type=work.type, language=work.language, doi=work.doi, arxiv_id=work.arxiv_id,
        pdf_sha256=meta.pdf_sha256, labels=_labels(meta), retracted=work.retracted,
        verified=record_verified(meta), chunks=chunks, model=model, vectors=found, pdf=pdf)


def _labels(meta: MetaFile) -> list[str]:
    return record_labels(meta, entered_names(meta))
