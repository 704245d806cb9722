"""A work's model: ``Work`` is bibliographic metadata that maps losslessly to CSL-JSON
(``to_csl`` / ``from_csl``), with its authors and notices (retractions, corrections); the
CSL types and the literal types the other models share. Pure: no I/O, imports nothing
from vaultd.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

CSLType = Literal[
    # Every item type of CSL 1.0.2 (https://docs.citationstyles.org/en/stable/specification.html#appendix-iii-types)
    "article",  # preprints (arXiv, bioRxiv) and other unpublished articles
    "article-journal",
    "article-magazine",
    "article-newspaper",
    "bill",
    "book",
    "broadcast",
    "chapter",
    "classic",
    "collection",
    "dataset",
    "document",
    "entry",
    "entry-dictionary",
    "entry-encyclopedia",
    "event",
    "figure",
    "graphic",
    "hearing",
    "interview",
    "legal_case",
    "legislation",
    "manuscript",
    "map",
    "motion_picture",  # online videos (CSL has no "video" type; Zotero maps videos here)
    "musical_score",
    "pamphlet",
    "paper-conference",
    "patent",
    "performance",
    "periodical",
    "personal_communication",
    "post",
    "post-weblog",
    "regulation",
    "report",
    "review",
    "review-book",
    "software",
    "song",
    "speech",
    "standard",
    "thesis",
    "treaty",
    "webpage",
]

ChunkType = Literal[
    "heading", "paragraph", "list", "figure", "table", "equation", "code", "reference", "page", "front",
    "transcript", "slide", "footnote",
]

EnrichmentState = Literal["pending", "done", "skipped", "failed"]
PageLabelSource = Literal["folio", "page-labels", "printed-range", "record", "pdf"]
PageLabelStatus = Literal["confirmed", "inferred"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Author(_Model):
    """A person or organisation, in CSL-JSON's name model."""

    family: str | None = None
    given: str | None = None
    literal: str | None = Field(None, description="Corporate or single-field name")
    non_dropping_particle: str | None = Field(
        None, alias="non-dropping-particle", description="e.g. 'van der' in van der Maaten"
    )
    dropping_particle: str | None = Field(None, alias="dropping-particle")
    suffix: str | None = Field(None, description="e.g. 'Jr.'")
    orcid: str | None = None

    @property
    def family_full(self) -> str:
        """Family name with its non-dropping particle ('van der Maaten')."""
        if self.literal and not self.family:
            return self.literal
        parts = [self.non_dropping_particle, self.family]
        return " ".join(p for p in parts if p)

    @property
    def display(self) -> str:
        """'Given Family' (the form Obsidian properties and humans read)."""
        if self.literal and not self.family:
            return self.literal
        parts = [self.given, self.dropping_particle, self.family_full, self.suffix]
        return " ".join(p for p in parts if p)


NoticeKind = Literal[
    "retraction", "correction", "expression_of_concern", "withdrawal", "addendum", "erratum",
    "other",
]


class Notice(_Model):
    """An editorial notice about a work (CrossRef ``updated-by``, OpenAlex ``is_retracted``)."""

    kind: NoticeKind
    doi: str | None = Field(None, description="DOI of the notice itself")
    date: list[int] | None = Field(None, description="CSL date-parts of the notice")
    source: str = Field(description="who reported it: crossref, openalex, retraction-watch, …")
    label: str | None = Field(None, description="the source's own name for the notice type")


class Work(_Model):
    """Bibliographic metadata of one item, lossless to CSL-JSON."""

    type: CSLType = "article-journal"
    title: str | None = None
    title_rich: str | None = Field(
        None, description="the title as CSL rich text (<i>, <b>, <sup>, <sub>, small caps, "
        "<span class=\"nocase\">) when the source marks part of it up; title is the plain text"
    )
    rich: dict[str, str] = Field(
        default_factory=dict,
        description="CSL rich text of other title variables (container-title, "
        "collection-title, event-title) where markup or case protection must survive",
    )
    authors: list[Author] = Field(default_factory=list)
    editors: list[Author] = Field(default_factory=list)
    translators: list[Author] = Field(default_factory=list)
    issued: list[int] | None = Field(None, description="CSL date-parts: [year, month?, day?]")
    container_title: str | None = None
    container_title_short: str | None = None
    collection_title: str | None = None
    collection_number: str | None = None
    event: str | None = None
    event_place: str | None = None
    edition: str | None = None
    version: str | None = None
    medium: str | None = None
    dimensions: str | None = Field(None, description="running time of a video ('19:13')")
    volume: str | None = None
    issue: str | None = None
    page: str | None = None
    number: str | None = Field(None, description="article number, report number")
    publisher: str | None = None
    publisher_place: str | None = None
    genre: str | None = Field(None, description="thesis type ('PhD thesis') or medium")
    doi: str | None = None
    isbn: str | None = None
    issn: str | None = None
    arxiv_id: str | None = Field(None, description="without version: '1706.03762'")
    arxiv_version: int | None = None
    arxiv_primary_class: str | None = None
    url: str | None = None
    accessed: list[int] | None = None
    abstract: str | None = None
    language: str | None = None
    doi_preprint: str | None = None
    doi_published: str | None = None
    journal_ref: str | None = None
    pdf_url: str | None = Field(None, description="where an open PDF can be fetched")
    printed_ids: list[str] = Field(
        default_factory=list,
        description="doi:/arxiv: ids printed in the PDF that no source could confirm yet "
        "(kept so a later retry can reconcile the work; never printed in a citation)",
    )
    retracted: bool = Field(False, description="a source reports the work retracted")
    notices: list[Notice] = Field(
        default_factory=list, description="retractions, corrections, expressions of concern"
    )
    sources: list[str] = Field(default_factory=list, description="sources that answered")
    warnings: list[str] = Field(default_factory=list)
    reconciled: bool = False
    csl_extra: dict[str, Any] = Field(
        default_factory=dict,
        description="CSL variables a source gave that have no field here (number-of-volumes, "
        "volume-title, container-author, a date range as issued, …), kept as CSL-JSON so "
        "that no cited variable is lost",
    )

    @property
    def year(self) -> int | None:
        return self.issued[0] if self.issued else None

    def to_csl(self, item_id: str) -> dict[str, Any]:
        """CSL-JSON item (the format pandoc/Zotero citeproc read)."""
        item: dict[str, Any] = {"id": item_id, "type": self.type}
        for name, csl in _CSL_SCALARS.items():
            value = getattr(self, name)
            if value is not None:
                item[csl] = value
        if self.authors:
            item["author"] = [_name_to_csl(a) for a in self.authors]
        if self.editors:
            item["editor"] = [_name_to_csl(a) for a in self.editors]
        if self.translators:
            item["translator"] = [_name_to_csl(a) for a in self.translators]
        if self.issued:
            item["issued"] = {"date-parts": [list(self.issued)]}
        if self.accessed:
            item["accessed"] = {"date-parts": [list(self.accessed)]}
        item.update(self.csl_extra)
        dumped = self.model_dump(include=set(_VAULTD_EXTRA), mode="json")
        extra = {k: dumped[k] for k in _VAULTD_EXTRA if dumped[k] not in (None, [], False)}
        if extra:
            item["custom"] = {"vaultd": extra}
        return item

    @classmethod
    def from_csl(cls, item: dict[str, Any]) -> Work:
        data: dict[str, Any] = {"type": item.get("type", "article-journal")}
        for name, csl in _CSL_SCALARS.items():
            if csl in item and item[csl] is not None:
                data[name] = str(item[csl]) if name not in ("title", "abstract") else item[csl]
        data["authors"] = [Author.model_validate(n) for n in item.get("author", [])]
        data["editors"] = [Author.model_validate(n) for n in item.get("editor", [])]
        data["translators"] = [Author.model_validate(n) for n in item.get("translator", [])]
        for key in ("issued", "accessed"):
            parts = (item.get(key) or {}).get("date-parts")
            if parts and parts[0] and parts[0][0] is not None:
                data[key] = [int(p) for p in parts[0] if p is not None]
        data.update((item.get("custom") or {}).get("vaultd") or {})
        known = {"id", "type", "author", "editor", "translator", "issued", "accessed", "custom",
                 *_CSL_SCALARS.values()}
        extra = {k: v for k, v in item.items() if k not in known and v not in (None, "", [])}
        issued = item.get("issued") or {}
        if set(issued) - {"date-parts"} or len(issued.get("date-parts") or []) > 1:
            extra["issued"] = issued  # a range, season or literal date: kept whole
        if extra:
            data["csl_extra"] = extra
        return cls.model_validate(data)


_CSL_SCALARS = {
    "title": "title",
    "container_title": "container-title",
    "container_title_short": "container-title-short",
    "collection_title": "collection-title",
    "collection_number": "collection-number",
    "event": "event-title",
    "event_place": "event-place",
    "edition": "edition",
    "version": "version",
    "medium": "medium",
    "dimensions": "dimensions",
    "volume": "volume",
    "issue": "issue",
    "page": "page",
    "number": "number",
    "publisher": "publisher",
    "publisher_place": "publisher-place",
    "genre": "genre",
    "doi": "DOI",
    "isbn": "ISBN",
    "issn": "ISSN",
    "url": "URL",
    "abstract": "abstract",
    "language": "language",
}

_VAULTD_EXTRA = (
    "title_rich",
    "rich",
    "printed_ids",
    "retracted",
    "notices",
    "arxiv_id",
    "arxiv_version",
    "arxiv_primary_class",
    "doi_preprint",
    "doi_published",
    "journal_ref",
    "pdf_url",
    "sources",
    "warnings",
    "reconciled",
)


def _name_to_csl(author: Author) -> dict[str, str]:
    return author.model_dump(by_alias=True, exclude_none=True)
