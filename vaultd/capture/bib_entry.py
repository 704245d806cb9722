"""One BibTeX/biblatex entry as a Work (pure): the entry type's CSL type, titles with
their subtitles and addons (sentence case for English titles, as pandoc reads them),
containers and series, dates, identifiers, publishers and places, genres. The tables
follow biblatex's data model (its manual, section 2) and pandoc's biblatex reader, which
the citation oracle uses; docs/bibtex.md lists the mapping.
"""

from __future__ import annotations

import re
from typing import Any

from vaultd.capture.bib_names import list_of, people, text_of
from vaultd.capture.detect import ARXIV_ID_RE, normalise_doi, split_arxiv_version
from vaultd.capture.latex_text import decode
from vaultd.capture.names import date_parts, make_work
from vaultd.formats import markup
from vaultd.formats.bibtex import LANGIDS
from vaultd.models import CSLType, Work

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
# Fields only biblatex has: an entry using one is read with biblatex's data model, in which
# location, publisher, institution and organization are lists.
_BIBLATEX_ONLY = frozenset({"location", "journaltitle", "date", "langid", "eprinttype",
                            "maintitle", "subtitle", "titleaddon", "origdate", "eventtitle",
                            "eventdate", "booksubtitle", "journalsubtitle"})

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
