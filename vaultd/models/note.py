"""A note's models: one extracted passage (``Chunk``) and where it came from
(``Provenance``), the user's highlights on it, a wiki note's frontmatter (``NoteMeta``) and
the whole parsed note (``Note``), and what verify reports about notes. Pure."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from vaultd.models.work import ChunkType, EnrichmentState, PageLabelSource, PageLabelStatus, _Model


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
    origin: str | None = Field(
        None, description="the library it was brought from ('Zotero (My Library)'): a "
                          "re-import of that library removes it once deleted there")


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
