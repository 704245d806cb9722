"""``.bib`` import: each BibTeX/biblatex entry as a Work, its key kept as the cite key.

bibtexparser 2 splits the file and its middlewares resolve ``@string`` macros, remove the
field delimiters, split name lists on ``and`` outside braces and read month macros;
pylatexenc reads the LaTeX (``capture/latex_text.py``): an English title is lowered to
sentence case as pandoc does, except where braces protect it, and keeps its marked-up parts
as CSL rich text; the plain title has no braces. A name that is one braced group is an
organisation, kept whole. docs/bibtex.md lists the entry types and fields.

An entry bibtexparser cannot read is reported with the file, line and key, and the others
are still imported; a file with no readable entry is an InputError.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vaultd.capture.bib_csl import pandoc_items, work_from_item
from vaultd.capture.bib_inherit import inherit
from vaultd.capture.detect import ARXIV_ID_RE, normalise_doi, split_arxiv_version
from vaultd.capture.latex_text import decode
from vaultd.capture.names import SUFFIXES, date_parts, make_author, make_work
from vaultd.errors import InputError
from vaultd.formats import markup
from vaultd.formats.bibtex import LANGIDS
from vaultd.models import Author, CSLType, Work

log = logging.getLogger(__name__)


class _QuietSplitter(logging.Filter):
    """bibtexparser's splitter logs each syntax error itself, with 0-based line numbers;
    vaultd reports the same failure (1-based, with the key) through BibLibrary."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "aborted" not in record.getMessage()


logging.getLogger("bibtexparser.splitter").addFilter(_QuietSplitter())

# BibTeX/biblatex entry type → CSL type (misc, and anything unknown, is decided in _type).
_TYPES: dict[str, CSLType] = {
    "article": "article-journal", "inproceedings": "paper-conference",
    "conference": "paper-conference", "incollection": "chapter", "inbook": "chapter",
    "bookinbook": "chapter", "suppbook": "chapter", "suppcollection": "chapter",
    "book": "book", "mvbook": "book", "collection": "book", "mvcollection": "book",
    "proceedings": "book", "mvproceedings": "book", "reference": "book",
    "mvreference": "book", "inreference": "entry-encyclopedia",
    "phdthesis": "thesis", "mastersthesis": "thesis", "thesis": "thesis",
    "techreport": "report", "report": "report", "manual": "book",
    "online": "webpage", "www": "webpage", "electronic": "webpage",
    "dataset": "dataset", "software": "software", "softwareversion": "software",
    "unpublished": "manuscript",
    "patent": "patent", "periodical": "periodical", "suppperiodical": "article-journal",
    "booklet": "pamphlet", "movie": "motion_picture", "video": "motion_picture",
    "audio": "song", "music": "song", "artwork": "graphic", "image": "graphic",
    "letter": "personal_communication", "standard": "standard", "review": "review",
    "legislation": "legislation", "jurisdiction": "legal_case", "performance": "performance",
}
_BOOK_LIKE = {"book", "mvbook", "collection", "mvcollection", "proceedings", "mvproceedings",
              "incollection", "inbook", "bookinbook", "inproceedings", "conference",
              "inreference", "reference", "suppbook", "suppcollection"}
# Parts of a book: a multi-volume work's maintitle is their container (the volume's
# booktitle is the volume-title pandoc's reader adds, see bib_csl).
_CHAPTER_LIKE = {"inbook", "incollection", "inproceedings", "conference", "inreference",
                 "bookinbook", "suppbook", "suppcollection"}
# biblatex's localisation keys for the type field, and the genres the thesis types imply.
_GENRES = {"phdthesis": "PhD thesis", "mathesis": "Master's thesis",
           "candthesis": "Candidate thesis", "techreport": "technical report",
           "resreport": "research report", "datacd": "CD-ROM", "audiocd": "Audio CD",
           # biblatex's patent keys (english.lbx), as pandoc's reader prints them
           "patentus": "U.S. patent", "patentde": "German patent", "patenteu": "European patent",
           "patentfr": "French patent", "patentuk": "British patent",
           "patrequs": "U.S. patent request", "patreqde": "German patent request",
           "patreqeu": "European patent request", "patreqfr": "French patent request",
           "patrequk": "British patent request"}
# biblatex's series keys of a journal article, as biblatex and pandoc print them.
_SERIES_KEYS = {"newseries": "New series", "oldseries": "Old series"}
# biblatex's country keys of a patent's location (english.lbx).
_COUNTRIES = {"countryde": "Germany", "countryeu": "European Union", "countryep":
              "European Union", "countryfr": "France", "countryuk": "United Kingdom",
              "countryus": "United States"}
_DEFAULT_GENRE = {"phdthesis": "PhD thesis", "mastersthesis": "Master's thesis"}
# babel/polyglossia names → CSL languages: the export's table read backwards (the first
# language of a name wins: english → en), plus the other names babel accepts.
_LANGUAGES = {
    **{babel: csl for csl, babel in reversed(LANGIDS.items())},
    "usenglish": "en-US", "ukenglish": "en-GB", "german": "de", "austrian": "de-AT",
    "swissgerman": "de-CH", "brazil": "pt-BR", "norwegian": "nb", "hungarian": "hu",
}
# Links for the eprint archives other than arXiv (Work has no field for their ids).
_EPRINT_URLS = {"pubmed": "https://www.ncbi.nlm.nih.gov/pubmed/{}",
                "jstor": "https://www.jstor.org/stable/{}",
                "googlebooks": "https://books.google.com?id={}", "hdl": "https://hdl.handle.net/{}"}
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_SCHOLAR_ARXIV_RE = re.compile(r"^arxiv(?: preprint)?:?\s*(?:arxiv:)?\s*(\S+)$", re.IGNORECASE)


@dataclass
class BibEntry:
    key: str
    work: Work
    doi: str | None
    arxiv_id: str | None


@dataclass
class BibProblem:
    """A block of a .bib file that could not be read as it stands."""

    source: str
    line: int | None  # 1-based
    key: str | None
    reason: str
    imported: bool = False  # True: read anyway (e.g. a repeated field: the first wins)

    @property
    def label(self) -> str:
        where = f"{self.source} line {self.line}" if self.line else self.source
        return f"{where} (@{self.key})" if self.key else where

    def __str__(self) -> str:
        return f"{self.label}: {self.reason}"


@dataclass
class BibLibrary:
    """What one .bib gave: the entries read, and the problems met on the way."""

    entries: list[BibEntry] = field(default_factory=list)
    problems: list[BibProblem] = field(default_factory=list)

    @property
    def failed(self) -> list[tuple[str, str]]:
        """(block, reason) for each entry left out, as capture reports failed items."""
        return [(p.label, p.reason) for p in self.problems if not p.imported]

    @property
    def warnings(self) -> list[str]:
        return [str(p) for p in self.problems]


def text_of(value: Any) -> str | None:
    """A field as plain text (None when empty)."""
    if value is None:
        return None
    plain = decode(str(value))[0]
    return plain or None


# Fields only biblatex has: an entry using one is read with biblatex's data model, in which
# location, publisher, institution and organization are lists.
_BIBLATEX_ONLY = frozenset({"location", "journaltitle", "date", "langid", "eprinttype",
                            "maintitle", "subtitle", "titleaddon", "origdate", "eventtitle",
                            "eventdate", "booksubtitle", "journalsubtitle"})


def list_of(value: Any, *, biblatex: bool) -> str | None:
    """A literal list field (location, publisher, institution, organization). In biblatex
    it is a list whose items ``and`` separates outside braces; they are joined with "; "
    as pandoc reads them ("Durham and London" → "Durham; London"; "{Smith and Sons}"
    stays one). In classic BibTeX the field is plain text: "Springer Science and Business
    Media LLC" is one publisher."""
    if value is None:
        return None
    if not biblatex:
        return text_of(value)
    items = [text_of(item) for item in _split_and(str(value))]
    return "; ".join(i for i in items if i) or None


def _split_and(raw: str) -> list[str]:
    parts: list[str] = []
    depth = start = 0
    for m in re.finditer(r"[{}]|\s+and\s+", raw, flags=re.IGNORECASE):
        token = m.group()
        if token == "{":
            depth += 1
        elif token == "}":
            depth = max(0, depth - 1)
        elif depth == 0 and token.strip() == "and":
            parts.append(raw[start:m.start()])
            start = m.end()
    return [*parts, raw[start:]]


# --- names ------------------------------------------------------------------------------


def _whole_group(s: str) -> bool:
    """True when ``s`` is one brace group ``{…}`` (an organisation, kept whole); a group
    opening with a command is a special character (``{\\"O}``), not a name."""
    if not (s.startswith("{") and s.endswith("}")) or s[1:2] == "\\":
        return False
    depth = 0
    for i, c in enumerate(s):
        if c == "\\":
            continue
        depth += {"{": 1, "}": -1}.get(c, 0) if i == 0 or s[i - 1] != "\\" else 0
        if depth == 0:
            return i == len(s) - 1
    return False


def person(raw: str, *, drop_particles: bool = False) -> Author | None:
    """One BibTeX name as a CSL name (None for ``others``, BibTeX's et al.).

    ``von`` becomes the dropping particle (biblatex's default, useprefix=false), or the
    non-dropping one when the entry says ``options = {useprefix=true}``."""
    from bibtexparser.middlewares.names import parse_single_name_into_parts

    s = " ".join(raw.split())
    if not s or s.lower() == "others":
        return None
    if _whole_group(s):
        return make_author(literal=text_of(s[1:-1]) or s[1:-1])
    suffix = None
    words = s.split(" ")
    if "," not in s and len(words) > 2 and words[-1].lower() in SUFFIXES:
        suffix, s = words[-1], " ".join(words[:-1])  # 'Martin Luther King Jr.'
    parts = parse_single_name_into_parts(s, strict=False)

    def part(words: list[str]) -> str | None:
        return text_of(" ".join(words)) if words else None

    von, last = part(parts.von), parts.last
    if parts.von and not parts.von[0][:1].islower():
        # "Schroeder de Witt, Christian": a name opening with a capital has no von part;
        # the words up to the comma are the family name (as biber and pandoc read it)
        von, last = None, [*parts.von, *parts.last]
    particle = "dropping_particle" if drop_particles else "non_dropping_particle"
    return make_author(family=part(last), given=part(parts.first),
                       suffix=part(parts.jr) or suffix, **{particle: von})


def people(value: Any, *, drop_particles: bool = False) -> list[Author]:
    names = value if isinstance(value, list) else [str(value)]
    found = (person(n, drop_particles=drop_particles) for n in names)
    return [a for a in found if a is not None and (a.family or a.given or a.literal)]


# --- one entry --------------------------------------------------------------------------


def _arxiv(f: dict[str, Any]) -> tuple[str | None, int | None]:
    eprint = (text_of(f.get("eprint")) or "").strip()
    archive = (text_of(f.get("eprinttype") or f.get("archiveprefix")) or "").lower()
    if eprint.lower().startswith("arxiv:"):
        eprint, archive = eprint[6:].strip(), archive or "arxiv"
    if eprint and (archive == "arxiv" or (not archive and ARXIV_ID_RE.match(eprint))):
        return split_arxiv_version(eprint)
    # Google Scholar: journal = {arXiv preprint arXiv:1706.03762}
    m = _SCHOLAR_ARXIV_RE.match(text_of(f.get("journal") or f.get("journaltitle")) or "")
    if m and ARXIV_ID_RE.match(m.group(1)):
        return split_arxiv_version(m.group(1))
    return None, None


def _type(etype: str, f: dict[str, Any], arxiv_id: str | None) -> CSLType:
    subtype = (text_of(f.get("entrysubtype")) or "").lower()
    if etype == "article":
        if subtype in ("magazine", "newspaper"):
            return "article-magazine" if subtype == "magazine" else "article-newspaper"
        return "article" if arxiv_id and _SCHOLAR_ARXIV_RE.match(
            text_of(f.get("journal") or f.get("journaltitle")) or "") else "article-journal"
    if etype == "unpublished" and any(f.get(k) for k in ("eventtitle", "eventdate", "venue")):
        return "speech"  # a talk, as pandoc reads it
    if etype in _TYPES:
        return _TYPES[etype]
    if arxiv_id or (text_of(f.get("pubstate")) or "").lower() == "prepublished":
        return "article"  # a preprint
    return "document"


def _issued(f: dict[str, Any]) -> list[int] | None:
    if f.get("date"):
        return date_parts(text_of(f["date"]))
    year = re.search(r"\d{4}", text_of(f.get("year")) or "")
    if not year:
        return None
    parts = [int(year.group())]
    month = f.get("month")
    if isinstance(month, int) and 1 <= month <= 12:
        parts.append(month)
    elif month is not None:
        word = (text_of(month) or "").lower()
        if word.isdigit() and 1 <= int(word) <= 12:
            parts.append(int(word))
        elif word[:3] in _MONTHS:
            parts.append(_MONTHS.index(word[:3]) + 1)
    day = text_of(f.get("day")) or ""
    if len(parts) == 2 and day.isdigit() and 1 <= int(day) <= 31:
        parts.append(int(day))
    return parts


def _verbatim(value: Any) -> str | None:
    """A URL or DOI as written: ``\\url{}`` unwrapped, escaped specials unescaped."""
    if value is None:
        return None
    v = re.sub(r"^\\url\{(.*)\}$", r"\1", "".join(str(value).split()))
    v = re.sub(r"\\([_%#&~$])", r"\1", v).replace("{", "").replace("}", "")
    return v or None


def _doi(value: Any) -> str | None:
    doi = _verbatim(value)
    if not doi:
        return None
    doi = re.sub(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", "", doi, flags=re.IGNORECASE)
    return normalise_doi(doi) if doi.startswith("10.") else None


def _title(f: dict[str, Any], key: str, sub: str, addon: str | None = None, *,
           sentence_case: bool = False) -> tuple[str | None, str | None]:
    """Title, subtitle and addon joined as pandoc joins them ('Main: Sub. Addon')."""
    if not f.get(key):
        return None, None
    parts = [(decode(str(f[k]), sentence_case=sentence_case), sep)
             for k, sep in ((key, ""), (sub, ":"), (addon, ".")) if k and f.get(k)]
    (plain, rich), _ = parts[0]
    if not plain:
        return None, None
    rich = rich or markup.from_plain(plain)
    for (p, r), sep in parts[1:]:
        if not p:
            continue
        join = " " if plain[-1:] in "!?.,:;" else f"{sep} "
        plain, rich = plain + join + p, rich + join + (r or markup.from_plain(p))
    rich = markup.straight_quotes(rich)
    return plain, (None if rich == markup.from_plain(plain) else rich)


def _language(f: dict[str, Any]) -> str | None:
    """CSL language from langid (babel name), hyphenation or language."""
    for key in ("langid", "hyphenation", "language"):
        value = text_of(f.get(key))
        if value:
            return _LANGUAGES.get(value.lower(), value)
    return None


def _genre(etype: str, f: dict[str, Any]) -> str | None:
    kind = text_of(f.get("type"))
    if kind:
        return _GENRES.get(kind.lower(), kind)
    return _DEFAULT_GENRE.get(etype)


def to_work(etype: str, f: dict[str, Any]) -> Work:
    """The Work of one entry; ``f`` maps lowercase field names to bibtexparser values."""
    etype = etype.lower()
    if etype == "periodical" and f.get("issuetitle"):
        # one issue of a journal: cited as an article titled by the issue, in the journal
        etype, f = "article", {**f, "journaltitle": f["title"],
                               "journalsubtitle": f.get("subtitle"), "title": f["issuetitle"],
                               "subtitle": f.get("issuesubtitle")}
    arxiv_id, arxiv_version = _arxiv(f)
    ctype = _type(etype, f, arxiv_id)
    options = {o.partition("=")[0]: o.partition("=")[2] or "true"
               for o in (text_of(f.get("options")) or "").replace(" ", "").lower().split(",")}
    # biblatex's default (useprefix=false): a lowercase "von" part is a dropping particle
    # ("Meent, J.-W. van de"), as pandoc reads it; useprefix=true keeps it with the family.
    drop = options.get("useprefix") != "true"
    biblatex = not _BIBLATEX_ONLY.isdisjoint(f)
    language = _language(f)
    # English (or unmarked) titles are stored in title case in BibTeX; CSL wants them in
    # sentence case (styles title-case them again), as pandoc reads them.
    english = language is None or language.lower().startswith("en")
    title, title_rich = _title(f, "title", "subtitle", "titleaddon", sentence_case=english)
    container, container_rich = (_title(f, "journaltitle", "journalsubtitle")
                                 if f.get("journaltitle") else
                                 _title(f, "journal", "journalsubtitle") if f.get("journal")
                                 else _title(f, "maintitle", "mainsubtitle", "maintitleaddon",
                                             sentence_case=english)
                                 if f.get("maintitle") and etype in _CHAPTER_LIKE
                                 else _title(f, "booktitle", "booksubtitle", "booktitleaddon",
                                             sentence_case=english)
                                 if etype in _CHAPTER_LIKE or etype not in _TYPES
                                 else (None, None))
    if ctype == "article" and container and _SCHOLAR_ARXIV_RE.match(container):
        container, container_rich = None, None
    series, series_rich = _title(f, "series", "", sentence_case=english)
    if series and etype == "article":
        series = _SERIES_KEYS.get(series.lower(), series)
    event, event_rich = _title(f, "eventtitle", "", sentence_case=english)
    rich = {var: value for var, value in (("container-title", container_rich),
                                          ("collection-title", series_rich),
                                          ("event-title", event_rich)) if value}
    number = text_of(f.get("number"))
    howpublished = text_of(f.get("howpublished"))
    url = _verbatim(f.get("url"))
    if howpublished and re.match(r"^(?:\\url\{)?https?://", str(f.get("howpublished")).strip()):
        url, howpublished = url or _verbatim(f.get("howpublished")), None
    eprint_type = (text_of(f.get("eprinttype") or f.get("archiveprefix")) or "").lower()
    doi = _doi(f.get("doi"))
    if not url and eprint_type in _EPRINT_URLS and text_of(f.get("eprint")):
        url = _EPRINT_URLS[eprint_type].format(text_of(f.get("eprint")))
    page = text_of(f.get("pages"))
    volume = ".".join(x for x in (text_of(f.get("volume")), text_of(f.get("part"))) if x)
    place = list_of(f.get("location") or f.get("address"), biblatex=biblatex)
    extra: dict[str, Any] = {}
    countries = [_COUNTRIES.get(c.lower()) for c in (place or "").split("; ")]
    if ctype == "patent" and place and all(countries):
        # biblatex's country keys: the countries the patent holds in, not a place
        extra["jurisdiction"] = "; ".join(c for c in countries if c)
        place = None
    printed = text_of(f.get("doi")) or ""
    # The DOI is kept lower-case (vaultd matches on it); it is cited as the entry wrote it.
    cited_doi = printed[printed.lower().index(doi):][:len(doi)] \
        if doi and doi in printed.lower() else None
    return make_work(
        type=ctype, title=title, title_rich=title_rich, rich=rich,
        authors=people(f.get("author") or [], drop_particles=drop),
        editors=people(f.get("editor") or [], drop_particles=drop),
        translators=people(f.get("translator") or [], drop_particles=drop),
        issued=_issued(f),
        container_title=container,
        container_title_short=text_of(f.get("shortjournal")),
        collection_title=series,
        collection_number=number if etype in _BOOK_LIKE else None,
        event=event,
        event_place=text_of(f.get("venue")),
        edition=text_of(f.get("edition")), version=text_of(f.get("version")),
        volume=volume or None,
        issue=", ".join(x for x in (number, text_of(f.get("issue"))) if x) or None
        if etype == "article" else text_of(f.get("issue")),
        page=re.sub(r"\s*[-‐‑‒–—]+\s*", "-", page) if page else None,
        number=text_of(f.get("eid")) if etype == "article" else
        (None if etype in _BOOK_LIKE else number),
        publisher="; ".join(x for x in (
            list_of(f.get("school"), biblatex=biblatex),
            list_of(f.get("institution"), biblatex=biblatex),
            list_of(f.get("organization"), biblatex=biblatex), howpublished,
            list_of(f.get("publisher"), biblatex=biblatex)) if x) or None,
        publisher_place=place,
        genre=_genre(etype, f),
        doi=doi, isbn=text_of(f.get("isbn")), issn=text_of(f.get("issn")), url=url,
        accessed=date_parts(text_of(f.get("urldate"))),
        arxiv_id=arxiv_id, arxiv_version=arxiv_version,
        arxiv_primary_class=text_of(f.get("primaryclass") or f.get("eprintclass"))
        if arxiv_id else None,
        language=language, abstract=text_of(f.get("abstract")),
        sources=["bib"],
        csl_extra={**extra, "DOI": cited_doi} if cited_doi and cited_doi != doi else extra,
    )



# --- the file ---------------------------------------------------------------------------

_BLOCK_HEAD_RE = re.compile(r"@\s*(\w+)\s*[{(]\s*([^\s,{}()=\"#%'~\\]+)?")


def _concatenated(value: str, strings: dict[str, str]) -> str:
    """``jnl # " Letters"``: bibtexparser leaves concatenations as written."""
    parts: list[str] = []
    depth, quoted, start = 0, False, 0
    for i, c in enumerate(value + "#"):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == '"' and depth == 0:
            quoted = not quoted
        elif c == "#" and depth == 0 and not quoted:
            parts.append(value[start:i].strip())
            start = i + 1
    out = []
    for p in parts:
        if len(p) >= 2 and p[0] + p[-1] in ("{}", '""'):
            out.append(p[1:-1])
        else:
            out.append(strings.get(p.lower(), p))
    return "".join(out)


def _fields(entry: Any, strings: dict[str, str]) -> dict[str, Any]:
    from bibtexparser.middlewares import RemoveEnclosingMiddleware

    unenclosed = entry.parser_metadata.get(RemoveEnclosingMiddleware.metadata_key()) or {}
    out: dict[str, Any] = {}
    for fld in entry.fields:
        key = fld.key.lower()
        if key in out:
            continue  # BibTeX reads the first of repeated fields
        value = fld.value
        if isinstance(value, str) and unenclosed.get(fld.key) == "no-enclosing" \
                and "#" in value:
            value = _concatenated(value, strings)
        out[key] = value
    return out


def _problem(block: Any, source: str) -> BibProblem:
    from bibtexparser.exceptions import BlockAbortedException

    raw = block.raw or ""
    head = _BLOCK_HEAD_RE.search(raw)
    key = getattr(block.ignore_error_block, "key", None) or (head.group(2) if head else None)
    line = block.start_line + 1 if block.start_line is not None else None
    error = block.error
    kind = type(block).__name__
    if kind == "DuplicateBlockKeyBlock":
        return BibProblem(source, line, key, "the key is used by an earlier entry; only the "
                          "first entry with it was imported (give this one its own key)")
    if kind == "DuplicateFieldKeyBlock":
        return BibProblem(source, line, key, f"{error}; the first value was used".replace(
            ". Note: The entry (containing duplicates) is available as "
            "`failed_block.ignore_error_block`", ""), imported=True)
    if isinstance(error, BlockAbortedException):
        reason = " ".join(str(error.abort_reason).split())
        return BibProblem(source, line, key, f"BibTeX syntax error ({reason}); the entry was "
                          "skipped: fix it and import the file again")
    return BibProblem(source, line, key, f"cannot read this entry ({error}); fix it and "
                      "import the file again")


def parse_bib_library(text: str, source: str = "<bib>") -> BibLibrary:
    """Every entry of a .bib text, and a problem (file, line, key) for each block that
    could not be read. Raises InputError when no entry could be read at all."""
    from bibtexparser.entrypoint import parse_string
    from bibtexparser.middlewares import MonthIntMiddleware, SeparateCoAuthors
    from bibtexparser.model import Entry

    try:
        library = parse_string(
            text, append_middleware=[MonthIntMiddleware(), SeparateCoAuthors()])
    except Exception as exc:  # bibtexparser raises assorted types on malformed input
        raise InputError(f"cannot read {source} as BibTeX: {exc}; check the file") from exc
    out = BibLibrary()
    blocks = list(library.entries)
    for failed in library.failed_blocks:
        problem = _problem(failed, source)
        out.problems.append(problem)
        if problem.imported and isinstance(failed.ignore_error_block, Entry):
            blocks.append(failed.ignore_error_block)
    blocks.sort(key=lambda b: b.start_line or 0)
    strings = {k.lower(): str(s.value) for k, s in library.strings_dict.items()}
    fields = {b.key.lower(): _fields(b, strings) for b in blocks}
    inherit({b.key.lower(): b.entry_type.lower() for b in blocks}, fields)
    # xdata entries lend their fields to others and are no works of their own
    blocks = [b for b in blocks if b.entry_type.lower() != "xdata"]
    items = pandoc_items(text, source) if blocks else {}
    for block in blocks:
        try:
            work = to_work(block.entry_type, fields[block.key.lower()])
            if block.key in items:
                work = work_from_item(items[block.key], work)
        except (ValueError, TypeError) as exc:  # a value the Work model refuses
            out.problems.append(BibProblem(source, (block.start_line or 0) + 1, block.key,
                                           f"cannot read this entry ({exc}); fix it and "
                                           "import the file again"))
            continue
        out.entries.append(BibEntry(block.key, work, work.doi, work.arxiv_id))
    if not out.entries:
        if out.problems:
            raise InputError(f"no entry of {source} could be read: {out.problems[0]} "
                             f"({len(out.problems)} problem(s) in all)")
        raise InputError(f"{source} holds no BibTeX entry (entries look like "
                         "@article{key, title = {...}}); check that it is a .bib file")
    return out


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc}; check the path") from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        log.warning("%s is not UTF-8; read as Windows-1252", path.name)
        return data.decode("cp1252", errors="replace")


def read_bib_library(path: Path) -> BibLibrary:
    return parse_bib_library(_read_text(path), path.name)


def _logged(library: BibLibrary) -> list[BibEntry]:
    for problem in library.problems:
        log.warning("%s", problem)
    return library.entries


def parse_bib(text: str, source: str = "<bib>") -> list[BibEntry]:
    """The entries of a .bib text; problems are logged (parse_bib_library returns them)."""
    return _logged(parse_bib_library(text, source))


def read_bib(path: Path) -> list[BibEntry]:
    return _logged(read_bib_library(path))
