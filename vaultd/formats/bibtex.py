"""BibTeX entries: the right entry type per CSL type, names as ``Last, First and …``,
LaTeX specials escaped, non-ASCII kept as UTF-8 (biber and modern bibtex read it)."""

from __future__ import annotations

import re

from vaultd.formats._common import Name, join, names
from vaultd.models import Author, Work

_SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_SPECIAL_RE = re.compile(r"[\\&%$#_{}~^]")
# Words with a capital after their first character ('LeCun', 't-SNE', 'BERT') are
# braced so that bibliography styles which lowercase titles keep them.
_PROTECT_RE = re.compile(r"[^\s,;:?!()\[\]]*[A-Z][^\s,;:?!()\[\]]*")
_MONTH_MACROS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def escape(text: str) -> str:
    """LaTeX-escape the ten special characters; collapse whitespace (a newline in a
    field is harmless, but CrossRef names carry indentation)."""
    text = " ".join(text.split())
    return _SPECIAL_RE.sub(lambda m: _SPECIALS[m.group()], text)


def _protect(word: re.Match[str]) -> str:
    w = word.group()
    if any(c.isupper() for c in w[1:]):
        return "{" + w + "}"
    return w


def escape_title(text: str) -> str:
    return _PROTECT_RE.sub(_protect, escape(text))


def _url_safe(text: str) -> str:
    # URLs and DOIs stay verbatim (\url and doi fields are read raw); only what would
    # unbalance the braces or break the field is percent-encoded.
    return "".join({"{": "%7B", "}": "%7D", "\\": "%5C"}.get(c, c) for c in text.strip())


def _needs_brace(part: str) -> bool:
    # Braced family names keep BibTeX from splitting 'Garcia de la Cruz' into von/last
    # parts or reading a comma or ' and ' as structure.
    return any(c.isspace() for c in part) or "," in part or part[:1].islower()


def _needs_brace_given(given: str) -> bool:
    return "," in given or " and " in f" {given.lower()} "


def _name_escape(text: str) -> str:
    # A word starting with an escape (a lone '\&') is braced: name splitters (bibtexparser's
    # among them) otherwise mis-read it next to ' and '.
    return " ".join("{" + w + "}" if w.startswith("\\") else w for w in escape(text).split())


def name(n: Name) -> str:
    if n.literal is not None:
        return "{" + _name_escape(n.literal) + "}"
    family = _name_escape(n.family)
    if _needs_brace(n.family):
        family = "{" + family + "}"
    if n.particle:
        family = _name_escape(n.particle) + " " + family
    given = join([n.given, n.dropping], " ")
    given_part = _name_escape(given)
    if given and _needs_brace_given(given):
        given_part = "{" + given_part + "}"
    if n.suffix:
        return f"{family}, {_name_escape(n.suffix)}, {given_part}"
    return f"{family}, {given_part}" if given_part else family


def name_list(authors: list[Author]) -> str:
    return " and ".join(name(n) for n in names(authors))


def _entry_type(work: Work) -> str:
    t = work.type
    if t == "article-journal":
        return "article"
    if t == "paper-conference":
        return "inproceedings"
    if t == "book":
        return "book"
    if t == "chapter":
        return "incollection"
    if t == "report":
        return "techreport"
    if t == "thesis":
        genre = (work.genre or "").lower()
        return "mastersthesis" if "master" in genre else "phdthesis"
    return "misc"


_STANDARD_THESIS_GENRES = {"phd thesis", "ph.d. thesis", "master's thesis", "masters thesis"}


def to_bibtex(work: Work, cite_key: str) -> str:
    etype = _entry_type(work)
    fields: list[tuple[str, str]] = []

    def add(key: str, value: str | int | None, *, raw: bool = False) -> None:
        if value is None or value == "":
            return
        text = str(value)
        fields.append((key, _url_safe(text) if raw else escape(text)))

    if work.authors:
        fields.append(("author", name_list(work.authors)))
    if work.editors:
        fields.append(("editor", name_list(work.editors)))
    if work.title is not None:
        fields.append(("title", escape_title(work.title)))
    if etype == "article":
        add("journal", work.container_title)
    elif etype in ("inproceedings", "incollection"):
        add("booktitle", work.container_title)
    elif etype == "misc" and work.type == "motion_picture":
        add("howpublished", work.publisher or work.container_title)
    add("year", work.year)
    month = _month(work)
    add("volume", work.volume)
    if etype == "article":
        add("number", work.issue)
    elif not work.arxiv_id:
        add("number", work.number)
    if etype == "article" and work.number and not work.page:
        add("pages", work.number)
    if work.page:
        fields.append(("pages", re.sub(r"\s*[-–—]+\s*", "--", escape(work.page))))
    if etype in ("phdthesis", "mastersthesis"):
        add("school", work.publisher)
        if work.genre and work.genre.lower() not in _STANDARD_THESIS_GENRES:
            add("type", work.genre)
    elif etype == "techreport":
        add("institution", work.publisher)
    elif etype != "misc" or work.type != "motion_picture":
        add("publisher", work.publisher if work.type != "article" or not work.arxiv_id else None)
    add("address", work.publisher_place)
    if work.arxiv_id:
        add("eprint", work.arxiv_id, raw=True)
        fields.append(("archivePrefix", "arXiv"))
        add("primaryClass", work.arxiv_primary_class, raw=True)
    add("doi", work.doi, raw=True)
    add("url", work.url, raw=True)
    add("isbn", work.isbn)
    add("issn", work.issn)
    add("note", work.journal_ref and f"Published in {work.journal_ref}")
    lines = [f"  {k} = {{{v}}}" for k, v in fields]
    if month:
        # An unbraced month macro: BibTeX styles print and sort it as a month name.
        at = next((i for i, (k, _) in enumerate(fields) if k == "year"), len(fields) - 1)
        lines.insert(at + 1, f"  month = {month}")
    body = ",\n".join(lines)
    return f"@{etype}{{{cite_key},\n{body}\n}}\n" if body else f"@{etype}{{{cite_key},\n}}\n"


def _month(work: Work) -> str:
    if work.issued and len(work.issued) >= 2 and 1 <= work.issued[1] <= 12:
        return _MONTH_MACROS[work.issued[1] - 1]
    return ""
