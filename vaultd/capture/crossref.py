"""CrossRef ``/works/{doi}`` provider: DOI → partial Work, faithful for every CrossRef type.

Real shapes handled: ``issued`` of ``[[null]]``, year-only or full dates; titles as
arrays with embedded newlines and HTML/JATS markup; an empty ``title`` whose text is in
``original-title``; no ``author`` at all; organisations as a single ``name``; JATS
abstracts; editorial notices in ``updated-by`` (on the work) and ``update-to`` (on the
notice); a plain-text 404 ("Resource not found.") and a JSON 400; arXiv DOIs (DataCite)
answering 404.

The type table and the notice handling are described in docs/sources.md.
"""

from __future__ import annotations

import re
from typing import Any

from vaultd.capture.http import Fetcher
from vaultd.capture.jsonapi import api_url, get_json, orcid_id
from vaultd.capture.names import clean_text, make_author, make_work
from vaultd.capture.reconcile import RETRACTING, merge_notices
from vaultd.formats import markup
from vaultd.models import Author, CSLType, Notice, NoticeKind, Work

SOURCE = "crossref"

# CrossRef work type (https://api.crossref.org/types) → CSL 1.0.2 item type.
# CrossRef's own CSL transform (CrossRef/cayenne, api/transform.clj) translates only
# journal-article, book-chapter and proceedings-article and passes every other CrossRef
# type through, most of which are not CSL types; those follow the CSL 1.0.2 type
# definitions (whole proceedings volume → book, entry in a reference work →
# entry-encyclopedia, posted peer review → review, full issue or run of a periodical →
# periodical, preprints and working papers posted to a repository → article).
TYPES: dict[str, CSLType] = {
    "journal-article": "article-journal",
    "book-chapter": "chapter",
    "book-section": "chapter",
    "book-part": "chapter",
    "proceedings-article": "paper-conference",
    "book": "book",
    "monograph": "book",
    "edited-book": "book",
    "reference-book": "book",
    "book-set": "book",
    "book-series": "book",
    "book-track": "book",
    "proceedings": "book",
    "proceedings-series": "book",
    "dissertation": "thesis",
    "report": "report",
    "report-component": "report",
    "report-series": "report",
    "posted-content": "article",
    "dataset": "dataset",
    "database": "dataset",
    "reference-entry": "entry-encyclopedia",
    "standard": "standard",
    "standard-series": "standard",
    # A posted peer review or decision letter is cited by its own title; CSL `review`
    # means a review *of* another work (and prints "[Review of …]").
    "peer-review": "document",
    "journal-issue": "periodical",
    "journal-volume": "periodical",
    "journal": "periodical",
    "component": "document",
    "other": "document",
    "grant": "document",
}
UNKNOWN_TYPE: CSLType = "document"  # CSL's catch-all, for types CrossRef adds later
# A deposited string that means "nothing here" (seen in real records' titles).
_NO_VALUE = frozenset({"null", "none", "undefined", "n/a"})
# A title of a series, when a part of a book lists two container titles: the series is
# usually listed first, but some deposits list it last ("Series in Computer Science").
_SERIES_RE = re.compile(
    r"\b(?:series|lecture\s+notes|notes\s+in|briefs|monographs?|textbooks?|proceedings)\b",
    re.IGNORECASE)
# posted-content subtypes that are preprints or working papers (CSL `article`); CrossRef's
# `other` subtype carries blog posts (Rogue Scholar) and is cited as a post.
_PREPRINT_SUBTYPES = frozenset({"preprint", "working_paper", "working-paper", "report",
                                "dissertation", "letter", "review"})

# Whole books and series: their container-title is the series they belong to.
_BOOK_TYPES = {"book", "monograph", "edited-book", "reference-book", "book-set", "book-series",
               "book-track", "proceedings", "proceedings-series"}
# Parts of a book: with several container titles, Springer lists the series first and the
# book (or proceedings volume) last.
_IN_BOOK_TYPES = {"book-chapter", "book-section", "book-part", "proceedings-article",
                  "reference-entry"}

# CrossRef update types (CrossRef/cayenne ids/update_type.clj) → Notice kinds.
NOTICE_KINDS: dict[str, NoticeKind] = {
    "retraction": "retraction",
    "withdrawal": "withdrawal",
    "removal": "withdrawal",
    "correction": "correction",
    "corrigendum": "correction",
    "erratum": "erratum",
    "err": "erratum",
    "expression_of_concern": "expression_of_concern",
    "addendum": "addendum",
}


def works_url(base: str, doi: str, email: str | None = None) -> str:
    return api_url(base, "works/", doi, email)


def csl_type(crossref_type: str | None) -> CSLType:
    """The CSL item type of a CrossRef work type (``document`` when unknown)."""
    return TYPES.get((crossref_type or "").strip().lower(), UNKNOWN_TYPE)


def _texts(value: Any) -> list[str]:
    """The non-empty strings of a CrossRef string-or-array field, raw (markup kept);
    numbers (an ``edition-number`` of 2) as their digits."""
    items = value if isinstance(value, list) else [value]
    return [str(v) for v in items if (isinstance(v, str) and v.strip()
                                      and v.strip().lower() not in _NO_VALUE)
            or (isinstance(v, int) and not isinstance(v, bool))]


def _plain(value: Any) -> str | None:
    """First non-empty string, markup and entities turned into plain text."""
    texts = _texts(value)
    return (markup.parse(texts[0])[0] or None) if texts else None


def _date(obj: Any) -> list[int] | None:
    parts = (obj or {}).get("date-parts") if isinstance(obj, dict) else None
    if not parts or not parts[0] or parts[0][0] is None:
        return None
    return [int(p) for p in parts[0] if p is not None]


def contributor(entry: Any) -> Author | None:
    """One CrossRef contributor as a CSL name, or None when it carries no name at all.

    ``family`` present: a person (``name`` then ignored). Only ``name``: an organisation,
    kept whole as a literal. Only ``given``: kept as given. Nothing is ever invented."""
    if not isinstance(entry, dict):
        raise _shape("a contributor", entry)
    family, given, literal, suffix = (
        clean_text(v) if isinstance(v, str) else None
        for v in (entry.get("family"), entry.get("given"), entry.get("name"), entry.get("suffix")))
    if not (family or given or literal):
        return None
    fields: dict[str, Any] = {"given": given or None, "suffix": suffix or None,
                              "orcid": orcid_id(entry.get("ORCID"))}
    if family:
        fields["family"] = family
    else:
        fields["literal"] = literal or None
    return make_author(**fields)


def _names(value: Any) -> list[Author]:
    found = (contributor(e) for e in _list(value))
    return [a for a in found if a is not None]


def _shape(what: str, value: Any) -> TypeError:
    # A shape the parser does not know: the capture names the source and goes on without
    # it, rather than citing the work with an author or a notice silently missing.
    return TypeError(f"{what} is a {type(value).__name__}, not an object")


def strip_jats(text: str | None) -> str | None:
    if not text:
        return None
    return clean_text(re.sub(r"<[^>]+>", " ", text)) or None


def _relation_doi(rel: dict[str, Any], name: str) -> str | None:
    for item in rel.get(name) or []:
        if isinstance(item, dict) and item.get("id-type") == "doi" and item.get("id"):
            return str(item["id"]).lower()
    return None


def notice(entry: Any) -> Notice:
    """One ``updated-by``/``update-to`` entry as a Notice (kind from its ``type``)."""
    if not isinstance(entry, dict):
        raise _shape("an update entry", entry)
    raw = re.sub(r"[\s-]+", "_", str(entry.get("type") or "").strip().lower())
    label = entry.get("label")
    src = entry.get("source")
    return Notice(
        kind=NOTICE_KINDS.get(raw, "other"),
        doi=str(entry["DOI"]).lower() if entry.get("DOI") else None,
        date=_date(entry.get("updated")),
        # "publisher" means deposited by the publisher with CrossRef; other sources
        # (retraction-watch) are named as they are.
        source=str(src) if src and src != "publisher" else SOURCE,
        label=clean_text(label) if isinstance(label, str) and label.strip()
        else (raw.replace("_", " ") or None),
    )


def notices(message: dict[str, Any], doi: str | None) -> tuple[list[Notice], list[str]]:
    """The notices about this work, and a warning when the record is itself a notice.

    ``updated-by`` lists notices about this work. ``update-to`` on a record says that
    the record is a notice about the DOI it names: about this work when that is its own
    DOI, else about another work, which the record does not make retracted or corrected."""
    found = [notice(e) for e in _list(message.get("updated-by"))]
    warnings: list[str] = []
    for entry in _list(message.get("update-to")):
        n = notice(entry)
        if doi is not None and n.doi == doi:
            found.append(n)
        else:
            target = n.doi or "a work it does not name"
            warnings.append(f"notice: this record is a {n.label or n.kind} of {target} "
                            f"({n.source}); it is not the work itself")
    return merge_notices(found), warnings


def _list(value: Any) -> list[Any]:
    """A CrossRef array field: absent is empty, anything but an array is not a known shape."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise _shape("an array field", value)
    return value


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _containers(ctype: str, message: dict[str, Any]) -> tuple[str | None, str | None]:
    """(container title, collection title) by type: a book's container is its series; a
    chapter's or proceedings paper's, when there are several, is series then book."""
    titles = [p for p in (markup.parse(t)[0] for t in _texts(message.get("container-title")))
              if p]
    if not titles:
        return None, None
    if ctype in _BOOK_TYPES:
        return None, titles[0]
    if ctype in _IN_BOOK_TYPES and len(titles) > 1:
        first, last = titles[0], titles[-1]
        if _SERIES_RE.search(last) and not _SERIES_RE.search(first):
            return first, last
        return last, first
    return titles[0], None


def _issuer(inst: Any) -> bool:
    """An ``institution`` entry that issued or granted the work: named, and not only its
    funder (DTIC lists the funder first, with department "Funding")."""
    if not isinstance(inst, dict):
        return False
    name = _plain(inst.get("name"))
    departments = [d.strip().lower() for d in _texts(inst.get("department"))]
    return bool(name) and (name or "").lower() != "not available" and departments != ["funding"]


def _institution(message: dict[str, Any]) -> tuple[str | None, str | None]:
    """(name, place) of the first issuing ``institution`` (who granted a thesis, issued a
    report, runs a preprint server)."""
    insts = message.get("institution")
    inst: dict[str, Any] = next((i for i in insts if _issuer(i)), {}) \
        if isinstance(insts, list) else {}
    place = ", ".join(_texts(inst.get("place"))) or None
    return _plain(inst.get("name")), clean_text(place)


def _title(message: dict[str, Any]) -> tuple[str | None, str | None]:
    """(plain, rich) title: the first title (else original title) and its subtitle as
    "Title: Subtitle" (a space after a title ending in ?!:.). A subtitle made only of the
    title's own words is a running head, not part of the title."""
    titles = _texts(message.get("title")) or _texts(message.get("original-title"))
    if not titles:
        return None, None
    title, rich = markup.parse(titles[0])
    subtitles = _texts(message.get("subtitle"))
    sub, sub_rich = markup.parse(subtitles[0]) if subtitles else ("", None)
    words = set(re.findall(r"\w+", title.casefold()))
    if not title or not sub or set(re.findall(r"\w+", sub.casefold())) <= words:
        return title or None, rich
    glue = " " if title.rstrip()[-1:] in "?!:." else ": "
    joined_rich = None
    if rich or sub_rich:
        joined_rich = (rich or markup.from_plain(title)) + glue + (sub_rich or markup.from_plain(sub))
    return title + glue + sub, joined_rich


def _pages(value: Any) -> str | None:
    """The page range; one whose two ends are the same page is that page ("61–61" → "61")."""
    page = _plain(value)
    ends = re.split(r"\s*[-\u2013]\s*", page) if page else []
    return ends[0] if len(ends) == 2 and ends[0] == ends[1] else page


def _degree_genre(degree: str | None) -> str | None:
    """The thesis genre APA and Chicago print: "Doctoral dissertation", "Master's thesis"."""
    if not degree:
        return None
    low = degree.lower()
    if re.search(r"doctor|ph\.?\s?d|d\.?phil|doctorat|\bdr\.?\b", low):
        return "Doctoral dissertation"
    if re.search(r"master|\bm\.?\s?sc?\b|\bm\.?a\.?\b|\bmphil\b|magist", low):
        return "Master's thesis"
    if re.search(r"bachelor|\bb\.?\s?sc?\b|\bb\.?a\.?\b", low):
        return "Bachelor's thesis"
    # "Doctor of Philosophy (PhD)" style: the degree as named, without its abbreviation.
    return clean_text(re.sub(r"\(.*?\)", "", degree)) or None


def parse_work(message: dict[str, Any]) -> Work:
    doi = str(message.get("DOI", "")).lower() or None
    rel = message.get("relation") or {}
    ctype = str(message.get("type") or "").strip().lower()
    subtype = str(message.get("subtype") or "").strip().lower()
    wtype = csl_type(ctype)
    if ctype == "posted-content" and subtype and subtype not in _PREPRINT_SUBTYPES:
        wtype = "post-weblog"
    title, title_rich = _title(message)
    container, collection = _containers(ctype, message)
    # `issued` is CrossRef's publication date (the earliest of print and online), with
    # every part deposited; the other dates are fallbacks for records without it.
    issued = _date(message.get("issued")) or _date(message.get("published-print")) \
        or _date(message.get("published-online"))
    event = _dict(message.get("event"))
    publisher = _plain(message.get("publisher"))
    place = _plain(message.get("publisher-location"))
    inst_name, inst_place = _institution(message)
    is_preprint = ctype == "posted-content" and wtype == "article"
    if wtype in ("thesis", "report", "dataset") or is_preprint:
        # Who granted, issued or serves the work (bioRxiv), not its distributor (OSTI)
        # or corporate owner (Cold Spring Harbor Laboratory).
        publisher = inst_name or publisher
        place = inst_place or place
    if wtype == "post-weblog":
        # The blog: its own name where CrossRef lists the platform as publisher.
        group = _plain(message.get("group-title"))
        container = inst_name if inst_name and inst_name != publisher else group
    genre = "Preprint" if is_preprint else None
    if wtype == "thesis":
        genre = _degree_genre(_plain(message.get("degree")))
    edition = _plain(message.get("edition-number"))
    if edition and edition.strip().lower() in ("1", "1st", "first"):
        edition = None  # a first edition is not cited as an edition
    # A paper known by its event alone was presented there; one in the proceedings is
    # cited in them, whatever event CrossRef also lists.
    event_name = None if container else _plain(event.get("name"))
    event_place = _plain(event.get("location")) if event_name else None
    found, notice_warnings = notices(message, doi)
    work = make_work(
        type=wtype,
        title=title,
        title_rich=title_rich,
        authors=_names(message.get("author")),
        editors=_names(message.get("editor")),
        translators=_names(message.get("translator")),
        issued=issued,
        container_title=container,
        container_title_short=_plain(message.get("short-container-title")),
        collection_title=collection,
        event=event_name,
        event_place=event_place,
        edition=edition,
        volume=_plain(message.get("volume")),
        issue=_plain(message.get("issue")),
        page=_pages(message.get("page")),
        number=_plain(message.get("article-number")),
        publisher=publisher,
        publisher_place=place,
        genre=genre or None,
        doi=doi,
        isbn=_plain(message.get("ISBN")),
        issn=_plain(message.get("ISSN")),
        url=f"https://doi.org/{doi}" if doi else None,
        abstract=strip_jats(message.get("abstract")),
        language=_plain(message.get("language")),
        retracted=any(n.kind in RETRACTING for n in found),
        notices=found,
        warnings=notice_warnings,
        sources=[SOURCE],
    )
    published = _relation_doi(rel, "is-preprint-of")
    preprint = _relation_doi(rel, "has-preprint")
    if published or ctype == "posted-content":
        work.doi_preprint = doi
        work.doi_published = published
    if preprint:
        work.doi_preprint = preprint
        work.doi_published = doi
    return work


async def fetch(fetcher: Fetcher, base: str, doi: str) -> Work | None:
    """CrossRef's record for ``doi``; None on 404/400 (unknown or not a CrossRef DOI)."""
    data = await get_json(fetcher, works_url(base, doi, fetcher.email), source=SOURCE,
                          label="CrossRef", doi=doi, not_json_is_error=True)
    message = data.get("message") if data is not None else None
    return parse_work(message) if isinstance(message, dict) else None
