"""``.bib`` import (bibtexparser 2): each entry's key, ids and metadata.

Keys already in the file are kept as cite keys (a Zotero/Better BibTeX user's keys must
survive import).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from vaultd.capture.detect import ARXIV_ID_RE, normalise_doi, split_arxiv_version
from vaultd.capture.names import clean_text, make_work, split_name
from vaultd.capture.reconcile import latex_to_unicode
from vaultd.errors import InputError
from vaultd.models import CSLType, Work

_TYPES: dict[str, CSLType] = {
    "article": "article-journal",
    "inproceedings": "paper-conference",
    "conference": "paper-conference",
    "incollection": "chapter",
    "inbook": "chapter",
    "book": "book",
    "phdthesis": "thesis",
    "mastersthesis": "thesis",
    "thesis": "thesis",
    "techreport": "report",
    "report": "report",
    "misc": "article",
    "online": "webpage",
    "unpublished": "manuscript",
}


@dataclass
class BibEntry:
    key: str
    work: Work
    doi: str | None
    arxiv_id: str | None


def _strip_braces(value: str) -> str:
    return clean_text(re.sub(r"(?<!\\)[{}]", "", value)) or ""


def _latex_text(value: str) -> str:
    """A title as printed: ``The {\\TeX}book`` → ``The TeXbook``, ``$\\alpha$`` → ``α``."""
    return clean_text(latex_to_unicode(value)) or ""


def parse_bib(text: str, source: str = "<bib>") -> list[BibEntry]:
    import bibtexparser

    try:
        library = bibtexparser.parse_string(text)  # type: ignore[attr-defined]
    except Exception as exc:  # bibtexparser raises assorted types on malformed input
        raise InputError(f"cannot read {source} as BibTeX: {exc}; check the file") from exc
    entries: list[BibEntry] = []
    for entry in library.entries:
        fields = {f.key.lower(): str(f.value) for f in entry.fields}
        doi = normalise_doi(fields["doi"].removeprefix("https://doi.org/")) \
            if fields.get("doi") else None
        arxiv_id = None
        eprint = fields.get("eprint", "").strip()
        if eprint and (fields.get("archiveprefix", "").lower() == "arxiv"
                       or ARXIV_ID_RE.match(eprint)):
            arxiv_id = split_arxiv_version(eprint.removeprefix("arXiv:"))[0]
        year_m = re.search(r"\d{4}", fields.get("year", "") or fields.get("date", ""))
        authors = [split_name(_strip_braces(a))
                   for a in re.split(r"\s+and\s+", fields.get("author", "")) if a.strip()]
        work = make_work(
            type=_TYPES.get(entry.entry_type.lower(), "article-journal"),
            title=_latex_text(fields["title"]) if "title" in fields else None,
            authors=authors,
            issued=[int(year_m.group(0))] if year_m else None,
            container_title=_strip_braces(fields.get("journal") or fields.get("booktitle") or "")
            or None,
            volume=fields.get("volume"),
            issue=fields.get("number"),
            page=fields.get("pages", "").replace("--", "-") or None,
            publisher=fields.get("publisher"),
            doi=doi,
            arxiv_id=arxiv_id,
            url=fields.get("url"),
            sources=["bib"],
        )
        entries.append(BibEntry(entry.key, work, doi, arxiv_id))
    return entries


def read_bib(path: Path) -> list[BibEntry]:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc}; check the path") from exc
    return parse_bib(text, path.name)
