"""What the importers give the pipeline: one ``ImportedItem`` per work of the user's library.

Plain frozen dataclasses (the pipeline reads them, nothing writes them back). Every reader
(Zotero's database, a Better BibTeX JSON export, CSL-JSON, RIS) gives the same model:

``ImportedItem``
    ``work`` (a ``Work``, citable as Zotero would cite it), ``key`` (the citation key exactly
    as the library holds it, or None) with ``key_source`` and ``aliases``, ``tags`` (Obsidian
    tags: the item's own and its collections as ``collection/sub``), ``notes`` (child notes as
    Markdown), ``attachments`` (files with their annotations) and ``origin`` (where it came
    from, to name it in messages and to match it again on a re-import).
``Attachment``
    A file of the item: ``path`` where the file should be (absolute), whether it was there
    when read (``missing``), its kind, and the ``annotations`` the user made on it.
``Annotation``
    A highlight, underline, note, image, ink or text annotation as Zotero stores it:
    ``text`` is what Zotero says was highlighted (the compile stage checks it against the
    PDF's own text, never trusts it), ``page_index`` 0-based, ``page_label`` the printed page
    Zotero's reader showed, ``rects`` in PDF user space (origin bottom-left, y upward,
    ``(left, bottom, right, top)``: the convention of ``Provenance.pdf_rect``).
``ImportProblem``
    One line naming the item and what is wrong; ``skipped`` says whether it was left out.

Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from vaultd.models import Work

#: Where an item's citation key came from, most trusted first.
KeySource = Literal[
    "better-bibtex-database",  # better-bibtex.sqlite next to zotero.sqlite
    "zotero-field",  # Zotero's own Citation Key field (Zotero 8 and later)
    "extra",  # a 'Citation Key: …' line in the item's Extra field
    "better-bibtex-json",  # citationKey of a Better BibTeX JSON export
    "csl-json",  # the id of a CSL-JSON item
    "ris",  # the ID tag of a RIS record
]

AnnotationKind = Literal["highlight", "underline", "note", "image", "ink", "text", "unknown"]
AttachmentKind = Literal["stored", "linked", "url", "embedded", "file"]

Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class Annotation:
    """One annotation the user made on an attachment."""

    key: str  # Zotero's item key of the annotation ('' when the source has none)
    kind: AnnotationKind
    text: str | None  # the highlighted text as the source stored it (unverified)
    comment: str | None
    color: str | None  # '#ffd400'
    page_label: str | None  # the printed page the reader showed ('iv', '217')
    page_index: int | None  # 0-based PDF page index (None: not a PDF position)
    rects: tuple[Rect, ...]  # PDF user space, (left, bottom, right, top)
    sort_index: str | None = None  # Zotero's 'page|offset|top' order key
    author: str | None = None  # a group member's name, in a group library
    position: dict[str, Any] = field(default_factory=dict)  # the position JSON as stored
    modified: str | None = None  # 'YYYY-MM-DD HH:MM:SS' (UTC), as Zotero stores it
    external: bool = False  # True: stored in the PDF file itself (read by Zotero from it)

    @property
    def page(self) -> int | None:
        """1-based PDF page (the convention of ``Provenance.page``)."""
        return None if self.page_index is None else self.page_index + 1


@dataclass(frozen=True)
class Attachment:
    """A file (or link) of an item."""

    kind: AttachmentKind
    path: Path | None  # absolute path of the file (None for a link, or unresolved)
    content_type: str | None = None  # 'application/pdf'
    title: str | None = None
    url: str | None = None
    key: str | None = None  # Zotero's item key of the attachment
    stored_path: str | None = None  # the path exactly as the source wrote it
    missing: bool = False  # True: no file at ``path`` when it was read
    annotations: tuple[Annotation, ...] = ()

    @property
    def is_pdf(self) -> bool:
        if self.content_type:
            return self.content_type == "application/pdf"
        return self.path is not None and self.path.suffix.lower() == ".pdf"


@dataclass(frozen=True)
class ItemNote:
    """A note the user wrote on the item (Zotero child note), as Markdown."""

    markdown: str
    key: str | None = None  # Zotero's item key of the note
    html: str | None = None  # the note as stored, when it was HTML
    modified: str | None = None


@dataclass(frozen=True)
class ItemOrigin:
    """Where an item came from: enough to name it and to find it again on a re-import."""

    source: str  # the database or file read
    library: str | None = None  # 'My Library' or a group's name
    library_id: int | None = None
    item_key: str | None = None  # Zotero's item key (8 characters), when there is one
    item_type: str | None = None  # Zotero's item type ('journalArticle'), or RIS TY
    index: int | None = None  # 1-based position in a file
    line: int | None = None  # 1-based line in a file, when known
    modified: str | None = None

    @property
    def label(self) -> str:
        """How messages name the item: 'item ABCD1234 (group X)' or 'record 3 (line 17)'."""
        if self.item_key:
            where = f" in {self.library}" if self.library else ""
            return f"item {self.item_key}{where}"
        if self.index is not None:
            at = f" (line {self.line})" if self.line else ""
            return f"item {self.index}{at}"
        return "item"


@dataclass(frozen=True)
class ImportedItem:
    """One work of the user's library, ready for the pipeline."""

    work: Work
    origin: ItemOrigin
    key: str | None = None  # the citation key exactly as stored; None: the pipeline makes one
    key_source: KeySource | None = None
    aliases: tuple[str, ...] = ()  # other keys of the same work (kept exactly)
    tags: tuple[str, ...] = ()  # Obsidian tags: the item's tags, then its collections
    collections: tuple[tuple[str, ...], ...] = ()  # each collection's path, names as written
    source_tags: tuple[str, ...] = ()  # the item's own tags exactly as the library has them
    notes: tuple[ItemNote, ...] = ()
    attachments: tuple[Attachment, ...] = ()
    warnings: tuple[str, ...] = ()  # what was read with a doubt (an unknown type, a field)

    @property
    def pdfs(self) -> tuple[Attachment, ...]:
        """The PDF attachments whose file is there, in the library's order."""
        return tuple(a for a in self.attachments if a.is_pdf and a.path and not a.missing)

    @property
    def annotations(self) -> tuple[Annotation, ...]:
        return tuple(n for a in self.attachments for n in a.annotations)

    @property
    def label(self) -> str:
        title = self.work.title or "untitled"
        short = title if len(title) <= 60 else title[:57] + "…"
        key = f"@{self.key} " if self.key else ""
        return f"{key}{self.origin.label} ({short!r})"


@dataclass(frozen=True)
class ImportProblem:
    """One entry that could not be read as it stands: one line naming it."""

    source: str  # the file or database
    item: str  # 'item ABCD1234', 'item 3 (line 17)'
    reason: str
    skipped: bool = True  # False: read anyway, with what could be read

    def __str__(self) -> str:
        return f"{self.source}: {self.item}: {self.reason}"


@dataclass
class ImportResult:
    """What one reader gave: the items, the problems met, and files with no item."""

    source: str
    items: list[ImportedItem] = field(default_factory=list)
    problems: list[ImportProblem] = field(default_factory=list)
    orphans: list[Attachment] = field(default_factory=list)  # files with no parent item
    libraries: list[str] = field(default_factory=list)  # libraries read (Zotero)
    skipped: dict[str, int] = field(default_factory=dict)  # reason → items left out, not wrong

    def count_skipped(self, reason: str) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + 1

    def problem(self, item: str, reason: str, *, skipped: bool = True) -> None:
        self.problems.append(ImportProblem(self.source, item, reason, skipped))
