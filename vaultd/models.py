"""Data models shared by every part of vaultd.

``Work`` is bibliographic metadata that maps losslessly to CSL-JSON (``to_csl`` /
``from_csl``). ``Chunk`` and ``Provenance`` are one extracted passage of a source and where
it came from. ``NoteMeta`` is a wiki note's frontmatter and ``Note`` the whole parsed note.
``MetaFile`` is the on-disk ``raw/<key>.meta.json``.

Pure: no I/O, imports nothing from vaultd.
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
    "transcript", "slide",
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


class Provenance(_Model):
    """Where a chunk's text came from. Written by the PDF extractor, or for a video by the
    transcript reader (``start``/``end``/``transcript`` set, ``page`` always 1: a video has
    one "page" and its locator is the time).

    ``bbox`` is ``[x0, y0, x1, y1]`` in PDF points with the origin at the top-left of the
    page's visible area (CropBox), y growing downward (PyMuPDF's convention).
    ``pdf_rect`` is the same box in PDF user space (origin bottom-left, y upward,
    ``[left, bottom, right, top]``), the form PDF++ ``#page=N&rect=`` links read.
    ``char_range`` is ``[start, end)`` into the document text: the concatenation of the
    canonical texts of all chunks in note order, joined by one newline.
    ``regions`` is set when the chunk runs across a column or page break (a paragraph
    continued in the next column, past a figure or on the next page): one
    ``[page, left, bottom, right, top]`` per piece, in PDF user space and reading order;
    ``page``, ``bbox`` and ``pdf_rect`` are then its first piece.
    ``text_layer`` is ``"unreliable"`` when the PDF maps some of the chunk's glyphs to no
    text (U+FFFD), to Private Use code points or to known wrong characters
    (``vaultd.parse.textlayer``): the quote may not be what the page shows there.
    """

    page: int = Field(description="1-based PDF page index")
    page_label: str | None = Field(
        None, description="the page as printed on the paper, when confirmed or inferred "
        "(None: cite the PDF page, and say so)")
    page_label_source: PageLabelSource | None = Field(
        None, description="where the printed page came from: the page's own folio sequence, "
        "/PageLabels, the printed range on page one, a source's first page; 'pdf' when none "
        "was confirmed (None: a note written before labels were reconciled)")
    page_label_status: PageLabelStatus | None = Field(
        None, description="'confirmed' (folios agree over three pages, or two sources "
        "agree) or 'inferred' (follows from a confirmed sequence on a page printing none)")
    section: str | None = None
    bbox: list[float] | None = None
    pdf_rect: list[float] | None = None
    regions: list[list[int | float]] | None = Field(
        None, description="[page, left, bottom, right, top] of each piece, when several")
    text_sha256: str
    char_range: list[int]
    chunk_type: ChunkType
    parser: str
    ocr: bool = False
    ocr_confidence: float | None = None
    text_layer: str | None = Field(
        None, description="'unreliable' when some glyphs map to no text or to the wrong text")
    start: float | None = Field(
        None, description="video chunks: seconds into the video where the passage starts")
    end: float | None = Field(None, description="video chunks: seconds where it ends")
    transcript: str | None = Field(
        None, description="video chunks: where the words come from: 'creator' captions, "
        "'auto' captions or 'asr:<model>' (local speech recognition)")


HighlightKind = Literal["highlight", "underline"]
HighlightSource = Literal["zotero", "pdf"]
HighlightStatus = Literal["verified", "differs"]


class Highlight(_Model):
    """A passage the user marked, as its source stored it (kept in the record so a
    recompile attaches it again): a Zotero annotation, or a ``/Highlight`` (``/Underline``)
    annotation embedded in the PDF. ``text`` is what the source says was marked: never
    trusted, the compile stage checks it against the PDF's own text there."""

    source: HighlightSource
    key: str | None = Field(None, description="Zotero's item key of the annotation")
    kind: HighlightKind = "highlight"
    color: str | None = Field(None, description="'#ffd400'")
    comment: str | None = None
    page: int = Field(description="1-based PDF page")
    page_label: str | None = Field(None, description="the printed page the reader showed")
    rects: list[list[float]] = Field(
        default_factory=list, description="[left, bottom, right, top] per line, PDF user space")
    text: str | None = Field(None, description="the marked text as the source stored it")
    author: str | None = Field(None, description="a group member's name (group libraries)")


class ChunkHighlight(_Model):
    """A highlight as the note shows it under the chunk it lies in: ``span`` is
    ``[start, end)`` into the chunk's verbatim text (the quote it marks); ``status`` is
    ``verified`` when the source's stored text is the PDF's text there (or it stored
    none), ``differs`` when not (``text`` then holds what the source stored)."""

    source: HighlightSource
    key: str | None = None
    kind: HighlightKind = "highlight"
    color: str | None = None
    comment: str | None = None
    page: int | None = Field(None, description="1-based PDF page it is on")
    page_label: str | None = None
    author: str | None = None
    span: list[int] | None = Field(None, description="[start, end) into the chunk text")
    status: HighlightStatus = "verified"
    text: str | None = Field(None, description="the source's stored text, when it differs")


class Chunk(_Model):
    """One passage of a source: the verbatim quote, its provenance, advisory LLM text."""

    id: str = Field(description="p{page}s{section}c{n}, unique within a note")
    text: str = Field(description="verbatim text (layout repairs only)")
    provenance: Provenance
    markdown: str | None = Field(None, description="table rendered as Markdown, when clear")
    figure: str | None = Field(None, description="vault-relative path of the cropped figure")
    refs: list[str] = Field(default_factory=list, description="doi:/arxiv: ids in a reference")
    linked_notes: list[str] = Field(
        default_factory=list, description="cite keys of vault notes a reference's ids match"
    )
    paraphrase: str | None = None
    implication: str | None = None
    key_sentence: int | None = Field(None, description="index into the chunk's sentences")
    enrichment: EnrichmentState = "pending"
    enrichment_note: str | None = None
    highlights: list[ChunkHighlight] = Field(
        default_factory=list, description="the user's highlights that lie in this chunk")


#: The note layout vaultd writes (docs/note-format.md): 2 escapes quotes as Markdown, hides
#: provenance in an Obsidian comment, shows LLM text in a folded callout only when it
#: exists, sets headings as headings and links each quote by its page; 3 leaves out what
#: follows from the note itself (``bbox``, a ``char_range`` that follows the chunk before,
#: a heading's page link) and writes rects in whole points.
NOTE_FORMAT = 3


class NoteMeta(_Model):
    """Frontmatter of a paper note: Obsidian-friendly fields first, machine detail after."""

    cite_key: str
    title: str | None = None
    authors: list[str] = Field(default_factory=list, description='"Given Family" strings')
    year: int | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    doi_preprint: str | None = None
    doi_published: str | None = None
    tags: list[str] = Field(default_factory=list)
    aliases: list[str] = Field(default_factory=list)
    reconciled: bool = False
    retracted: bool = False
    notices: list[str] = Field(
        default_factory=list, description="retractions, corrections, expressions of concern"
    )
    warnings: list[str] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list)
    captured: str | None = Field(None, description="date, YYYY-MM-DD")
    captured_at: str | None = Field(None, description="ISO 8601 date-time")
    raw: str | None = Field(None, description="vault-relative path of the source PDF")
    pdf_sha256: str | None = None
    video_id: str | None = Field(None, description="YouTube video id (video notes)")
    url: str | None = Field(None, description="the video's page (video notes)")
    parser: str | None = None
    parser_version: str | None = None
    chunks: int = 0
    enrichment: str | None = Field(None, description="model and prompt version, or pending")
    entered: list[str] | None = Field(
        None, description="fields you entered (vaultd meta, a .bib for this work); "
        "None when none")
    verified: bool | None = Field(
        None, description="title, first author and year confirmed by two sources or entered "
        "by you (None: as reconciled)")
    note_format: int = Field(
        NOTE_FORMAT, description="layout of the note's quotes region (absent: 1, the first)")


class Note(_Model):
    """A parsed wiki note. ``user_blocks`` are the user's own sections, verbatim."""

    meta: NoteMeta
    citations: dict[str, str] = Field(default_factory=dict)
    chunks: list[Chunk] = Field(default_factory=list)
    user_blocks: list[str] = Field(default_factory=list)
    annotations: dict[str, str] = Field(
        default_factory=dict,
        description="the user's own text typed between chunk blocks, verbatim, keyed by the id "
        "of the chunk it follows ('' = before the first chunk)",
    )
    frontmatter_extra: dict[str, Any] = Field(
        default_factory=dict, description="frontmatter keys the user added (kept on re-render)"
    )


FindingKind = Literal["DRIFT", "STALE", "PDF CHANGED", "MALFORMED", "MISSING"]


class Finding(_Model):
    """One problem a verify run found."""

    kind: FindingKind
    path: str = Field(description="vault-relative path of the note or source")
    cite_key: str | None = None
    chunk_id: str | None = None
    expected: str | None = None
    actual: str | None = None
    message: str
    fix: str | None = Field(None, description="DRIFT: the quote as the source gives it (from the "
                            "index), when known")


class VerifyReport(_Model):
    notes: int = 0
    chunks: int = 0
    findings: list[Finding] = Field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings


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
