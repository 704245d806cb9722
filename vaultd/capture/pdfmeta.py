"""What a PDF says about itself: printed DOI/arXiv ids, first-page title, embedded info.

PyMuPDF is imported lazily (it is heavy); nothing here touches the network.
A printed DOI is only a candidate: PDFs print references' and sister papers' DOIs, so the
pipeline accepts one only after the id's title matches ``first_page_title``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vaultd.capture.detect import normalise_doi, trim_id
from vaultd.capture.firstpage import read_first_page
from vaultd.capture.page_layout import lines_from_dict
from vaultd.errors import ParseError

SCAN_PAGES = 2
MIN_TITLE_CHARS = 10

_DOI_TEXT_RE = re.compile(r"\b(10\.\d{4,9}/[^\s\"]+)", re.IGNORECASE)
_ARXIV_TEXT_RE = re.compile(
    r"arXiv:\s*(\d{4}\.\d{4,5}|[a-z]+(?:-[a-z]+)*(?:\.[A-Z]{2})?/\d{7})(v\d+)?", re.IGNORECASE
)


@dataclass
class PdfMeta:
    dois: list[str] = field(default_factory=list)
    arxiv_ids: list[str] = field(default_factory=list)
    first_page_title: str | None = None  # read from the first page's layout
    first_page_authors: list[str] = field(default_factory=list)  # its byline, in order
    first_page_year: int | None = None  # the publication/copyright year it prints
    rejected_ids: list[str] = field(default_factory=list)  # printed ids of other works
    info_title: str | None = None
    info_authors: list[str] = field(default_factory=list)
    info_year: int | None = None  # the file's creation year: not the work's date
    printed_years: list[int] = field(default_factory=list)  # "© 2016", "Proceedings … 2018"
    pages: int = 0
    first_page_text: str = ""


# Lines where a first page prints the work's own year: copyright, publication, received/
# accepted, proceedings and volume lines ("c⃝2017" is how LaTeX's \copyright extracts).
_YEAR_LINE_RE = re.compile(
    r"©|c⃝|\(c\)|\bcopyright\b|\bpublished(?:\s+online)?\s*:|\breceived\s*:|"
    r"\baccepted\s*:|\bproceedings\s+of\b|\bvol(?:ume)?\.?\s*\d|\bissue\s*\d",
    re.IGNORECASE)
_YEAR_RE = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")


def printed_years(text: str) -> list[int]:
    """Years on the copyright/publication/proceedings lines of ``text``, in order."""
    years: list[int] = []
    for line in text.splitlines():
        if _YEAR_LINE_RE.search(line):
            for found in _YEAR_RE.findall(line):
                if int(found) not in years:
                    years.append(int(found))
    return years


def work_year(printed: list[int], created: int | None) -> int | None:
    """The year a PDF alone supports: the file's creation year when the first page prints
    it too (a creation date alone may be a scan's or a re-export's), else the one year the
    page prints; None when the page prints several and none is confirmed."""
    if created is not None and created in printed:
        return created
    return printed[0] if len(printed) == 1 else None


def find_ids(text: str) -> tuple[list[str], list[str]]:
    """DOIs and arXiv ids (without version) in ``text``, in order of appearance."""
    dois: list[str] = []
    for m in _DOI_TEXT_RE.finditer(text):
        doi = normalise_doi(trim_id(m.group(1)))
        if doi not in dois:
            dois.append(doi)
    arxiv: list[str] = []
    for m in _ARXIV_TEXT_RE.finditer(text):
        if m.group(1) not in arxiv:
            arxiv.append(m.group(1))
    return dois, arxiv


def _read_layout(page: Any, meta: PdfMeta) -> None:
    """Title, byline and year of the first page, from its typeset lines."""
    data = page.get_text("dict", flags=0)  # no images: ≈ 3× faster
    lines = lines_from_dict(data)
    rect = page.rect
    found = read_first_page(lines, float(rect.width), float(rect.height), meta.first_page_text)
    if found.title and not is_generic_title(found.title):
        meta.first_page_title = found.title
    meta.first_page_authors = found.authors
    meta.first_page_year = found.year


# Info titles that name the file, the template or the kind of paper, not the paper.
_GENERIC_TITLE = re.compile(
    r"^\s*(?:untitled\b.*|microsoft (?:word|powerpoint)\b.*|.*\.(?:docx?|pdf|tex|dvi|indd)\s*$|"
    r"(?:original |short |review )?(?:research )?(?:article|paper|manuscript|communication|"
    r"letter|report)s?|title|no title|document\d*|main|paper\d*|ms\d*|preprint|"
    r"pii:.*|doi:.*|\d[\d.\-_ ]*)\s*$",
    re.IGNORECASE,
)


def is_generic_title(title: str) -> bool:
    """True for an Info title that is not a paper's title ("Research Article", "Microsoft
    Word - draft.docx", "untitled", "PII: S0001…", "ms.pdf")."""
    return bool(_GENERIC_TITLE.match(title)) or len(title.strip()) < MIN_TITLE_CHARS


# "Nuala E. Tully {et al.}", "A. Smith et al": the rest of the list is elided, not a name.
_ET_AL = re.compile(r"[\s,;]*[{(\[]?\s*\bet\.?\s+al\b\.?\s*[})\]]?\s*$", re.IGNORECASE)


def split_authors(value: str) -> list[str]:
    """The names in a PDF's Author field (``;``, ``,`` or ``and`` separated)."""
    parts = re.split(r"\s*(?:;|\band\b|,|&)\s*", _ET_AL.sub("", value))
    return [p.strip() for p in parts if p.strip()]


def read_pdf_meta(path: Path) -> PdfMeta:
    """Ids, title and embedded metadata of the PDF at ``path``; ParseError if unreadable."""
    # lazy: pymupdf costs 173 ms at import
    import pymupdf

    try:
        doc: Any = pymupdf.open(path)  # type: ignore[no-untyped-call]
    except Exception as exc:  # PyMuPDF raises its own and builtin types for bad files
        raise ParseError(f"cannot open {path.name} as a PDF: {exc}; check the file") from exc
    with doc:
        if doc.needs_pass:
            raise ParseError(f"{path.name} is encrypted; save an unlocked copy and capture that")
        meta = PdfMeta(pages=doc.page_count)
        info = doc.metadata or {}
        xmp = re.sub(r"<[^>]*>", " ", doc.get_xml_metadata() or "")
        pages = [doc[i].get_text() for i in range(min(SCAN_PAGES, doc.page_count))]
        text = "\n".join(pages)
        meta.dois, meta.arxiv_ids = find_ids(text + "\n" + xmp + "\n" + str(info.get("subject")))
        if pages:
            meta.first_page_text = pages[0]  # extracted once, not again for the layout
            meta.printed_years = printed_years(meta.first_page_text)
            _read_layout(doc[0], meta)
        title = (info.get("title") or "").strip()
        meta.info_title = title or None
        meta.info_authors = split_authors(info.get("author") or "")
        m = re.search(r"(\d{4})", info.get("creationDate") or "")
        meta.info_year = int(m.group(1)) if m else None
    return meta
