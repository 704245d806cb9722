"""A record's model: ``raw/<cite_key>.meta.json`` (``MetaFile``: the flat fields scripts
read, the full Work, its provenance), with the fields the user entered and the library items
it was imported from. Pure."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field

from vaultd.models.note import Highlight
from vaultd.models.work import Work, _Model


class UserValue(_Model):
    """One field of a record the user entered (``vaultd meta``, or a .bib dropped for a
    work already in the vault): it wins over every source and survives a refresh."""

    value: Any = Field(description="the Work field's value as JSON (authors: CSL names)")
    origin: str = Field(description="'vaultd meta', or the file it came from ('smith.bib')")
    at: str | None = Field(None, description="ISO 8601 date-time it was entered")
    sources_value: Any = Field(
        None, description="what the sources give for the field (restored by --unset)")
    sources: list[str] = Field(default_factory=list,
                               description="the sources that gave sources_value")


class ImportOrigin(_Model):
    """One library item a record was imported from (`vaultd import`): enough to find the
    record again on a re-import and to know which of the item's notes were brought in."""

    origin: str = Field(description="as the user's values name it: 'Zotero (My Library)', "
                        "'refs.ris'")
    item_key: str | None = Field(None, description="Zotero's item key, when there is one")
    key: str | None = Field(None, description="the citation key exactly as the library has it")
    notes: dict[str, str] = Field(
        default_factory=dict, description="the item's notes brought in: note id → SHA-256 of "
        "its Markdown (a note brought in once is never written again)")


class MetaFile(_Model):
    """``raw/<cite_key>.meta.json``: the flat fields scripts read, plus the full Work."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    schema_version: int = 1
    cite_key: str
    title: str | None = None
    authors: list[str] = Field(default_factory=list)
    year: int | None = None
    arxiv_id: str | None = None
    doi: str | None = None
    container_title: str | None = None
    sources: list[str] = Field(default_factory=list)
    reconciled: bool = False
    warnings: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list,
                             description="expected differences between sources, explained "
                                         "(e.g. preprint vs published year); not problems")
    pdf: str | None = Field(None, description="vault-relative PDF path, None if metadata-only")
    pdf_sha256: str | None = None
    video: str | None = Field(
        None, description="vault-relative folder of a video's files (raw/youtube/<id>/)")
    captured_at: str | None = None
    needs_retry: bool = False
    field_sources: dict[str, list[str]] = Field(
        default_factory=dict, description="Work field → the sources whose value it is "
        "('user' for a field the user entered); empty in records written before")
    agreed: list[str] = Field(
        default_factory=list, description="of title, authors and issued: those two "
        "independent sources agree on")
    user: dict[str, UserValue] = Field(
        default_factory=dict, description="the fields the user entered, by Work field name")
    aliases: list[str] = Field(
        default_factory=list, description="other cite keys of this work (a library's keys "
        "for it, kept exactly): `vaultd cite ALIAS` finds it")
    tags: list[str] = Field(
        default_factory=list, description="tags the user's library gives (its tags, its "
        "collections as collection/sub): added to the note's")
    highlights: list[Highlight] = Field(
        default_factory=list, description="the user's highlights from their library (Zotero)")
    imported: list[ImportOrigin] = Field(
        default_factory=list, description="the libraries this record was imported from")
    work: Work

    @classmethod
    def from_work(cls, cite_key: str, work: Work, **extra: Any) -> MetaFile:
        return cls(
            cite_key=cite_key,
            title=work.title,
            authors=[a.display for a in work.authors],
            year=work.year,
            arxiv_id=work.arxiv_id,
            doi=work.doi,
            container_title=work.container_title,
            sources=list(work.sources),
            reconciled=work.reconciled,
            warnings=list(work.warnings),
            work=work,
            **extra,
        )

    def with_work(self, work: Work) -> MetaFile:
        """This record holding ``work``, its flat fields read from it again."""
        flat = MetaFile.from_work(self.cite_key, work)
        update = {name: getattr(flat, name) for name in _FLAT_FIELDS}
        return self.model_copy(update={**update, "work": work})


_FLAT_FIELDS = ("title", "authors", "year", "arxiv_id", "doi", "container_title", "sources",
                "reconciled", "warnings")
