"""The oracle's CrossRef → CSL-JSON mapping, written from the CSL 1.0.2 specification and
the style manuals, in test code that shares nothing with vaultd's own mapping.

Rules (each from the CSL specification's variable and type definitions, or from what APA,
MLA, Chicago and IEEE print for the kind of work):

- type: CSL's item types by definition (a preprint or working paper posted to a
  repository is ``article``; a blog post is ``post-weblog``; a posted peer review or
  decision letter is a ``document`` with its own title: CSL ``review`` is a review *of
  another work*; an entry in a reference work is ``entry-encyclopedia``);
- title: the first non-empty ``title`` (else ``original-title``), plus ``subtitle`` as
  "Title: Subtitle" (a space only when the title ends in ``?!:.``), unless the subtitle
  only repeats the title's words (a running head); markup as CSL rich text, entities
  decoded however often they were escaped; a value of ``null`` is no value;
- container: for parts of books (chapters, proceedings papers, reference entries) the
  book is the container and a series listed with it is ``collection-title``; for whole
  books the listed title is the series;
- issued: ``issued`` with every part CrossRef deposited; no other date is a publication date;
- publisher: the server of a preprint, the issuing institution of a report, the degree-
  granting institution of a thesis (CrossRef ``institution``), else ``publisher``;
- genre: "Preprint" for preprints; "Doctoral dissertation" / "Master's thesis" for theses;
- page: a range whose ends are equal is one page; ``article-number`` is ``number``;
- edition: a first edition is no edition statement;
- event: a paper published in proceedings is cited in them; only a paper known by its
  event alone is "presented at" it.
"""

from __future__ import annotations

import html
import re
from typing import Any

TYPES = {
    "journal-article": "article-journal", "proceedings-article": "paper-conference",
    "book-chapter": "chapter", "book-section": "chapter", "book-part": "chapter",
    "book": "book", "monograph": "book", "edited-book": "book", "reference-book": "book",
    "book-set": "book", "book-track": "book", "book-series": "book", "proceedings": "book",
    "proceedings-series": "book",
    "dissertation": "thesis", "report": "report", "report-component": "report",
    "report-series": "report", "dataset": "dataset", "database": "dataset",
    "standard": "standard", "standard-series": "standard",
    "reference-entry": "entry-encyclopedia", "peer-review": "document",
    "journal-issue": "periodical", "journal-volume": "periodical", "journal": "periodical",
    "component": "document", "other": "document", "grant": "document",
}
IN_BOOK = {"chapter", "paper-conference", "entry-encyclopedia"}
NAME_KEYS = ("family", "given", "suffix", "non-dropping-particle", "dropping-particle")

# CSL rich text (the CSL-JSON specification's HTML-like tags) for the tags sources use.
RICH = {"i": "i", "italic": "i", "em": "i", "b": "b", "bold": "b", "strong": "b",
        "sup": "sup", "sub": "sub", "inf": "sub",
        "scp": "sc", "sc": "sc", "small-caps": "sc"}
OPEN = {"i": "<i>", "b": "<b>", "sup": "<sup>", "sub": "<sub>",
        "sc": '<span style="font-variant:small-caps;">'}
CLOSE = {"i": "</i>", "b": "</b>", "sup": "</sup>", "sub": "</sub>", "sc": "</span>"}
TAG = re.compile(r"<(/?)(?:[\w.-]+:)?([\w.-]+)[^<>]*?(/?)>")
ESCAPED_TAG = re.compile(r"&(?:amp;)*lt;(/?(?:[\w.-]+:)?[\w.-]+(?:\s[^&<>]*)?/?)&(?:amp;)*gt;")
SERIES_WORDS = re.compile(r"\b(series|lecture notes|notes in|briefs|monographs?|textbooks?|"
                          r"proceedings)\b", re.I)


def _strings(value: Any) -> list[str]:
    values = value if isinstance(value, list) else [value]
    out = []
    for v in values:
        if isinstance(v, int) and not isinstance(v, bool):
            v = str(v)
        if isinstance(v, str) and v.strip() and v.strip().lower() != "null":
            out.append(v)
    return out


def _unescape(text: str) -> str:
    """Entities decoded as often as they were escaped (``&amp;lt;sup&amp;gt;`` → ``<sup>``)."""
    for _ in range(3):
        text = ESCAPED_TAG.sub(lambda m: "<" + html.unescape(m.group(1)) + ">", text)
    return text


def rich(text: str) -> str:
    """Source markup → CSL rich text; other tags dropped, entities decoded."""
    text = _unescape(text)
    out: list[str] = []
    stack: list[str | None] = []
    pos = 0
    for m in TAG.finditer(text):
        out.append(_decode(text[pos:m.start()]))
        pos = m.end()
        closing, name, empty = m.group(1), m.group(2).lower(), m.group(3)
        kind = RICH.get(name)
        if name == "span" and "small-caps" in m.group(0):
            kind = "sc"
        if name in ("br", "break"):
            out.append(" ")
        elif empty:
            continue
        elif closing:
            if stack:
                top = stack.pop()
                if top:
                    out.append(CLOSE[top])
        else:
            stack.append(kind)
            if kind:
                out.append(OPEN[kind])
    out.append(_decode(text[pos:]))
    out.extend(CLOSE[k] for k in reversed(stack) if k)
    result = " ".join("".join(out).split())
    return re.sub(r"<(i|b|sup|sub)>\s*</\1>", "", result)


def _decode(text: str) -> str:
    for _ in range(3):
        decoded = html.unescape(text)
        if decoded == text:
            break
        text = decoded
    return text


def plain(text: str) -> str:
    return re.sub(r"<[^>]+>", "", rich(text))


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", plain(text).casefold()))


def title(message: dict[str, Any]) -> str | None:
    titles = _strings(message.get("title")) or _strings(message.get("original-title"))
    if not titles:
        return None
    main = rich(titles[0])
    subs = _strings(message.get("subtitle"))
    if subs:
        sub = rich(subs[0])
        if sub and not _words(sub) <= _words(main):
            main = f"{main} {sub}" if plain(main).rstrip()[-1:] in "?!:." else f"{main}: {sub}"
    return main


def containers(csl_type: str, message: dict[str, Any]) -> tuple[str | None, str | None]:
    """(container-title, collection-title)."""
    titles = [rich(t) for t in _strings(message.get("container-title"))]
    if not titles:
        return None, None
    if csl_type == "book":
        return None, titles[0]
    if csl_type in IN_BOOK and len(titles) > 1:
        first, last = titles[0], titles[-1]
        # Usually series, then book; a list whose last title names a series (and whose
        # first does not) is book, then series.
        if SERIES_WORDS.search(plain(last)) and not SERIES_WORDS.search(plain(first)):
            return first, last
        return last, first
    return titles[0], None


def names(people: Any) -> list[dict[str, str]]:
    out = []
    for p in people or []:
        name = {k: " ".join(p[k].split()) for k in NAME_KEYS
                if isinstance(p.get(k), str) and p[k].strip()}
        if not name.get("family") and p.get("name"):
            name = {"literal": " ".join(str(p["name"]).split())}
        if name:
            out.append(name)
    return out


def _institution(message: dict[str, Any]) -> dict[str, Any]:
    """The issuing/granting institution: the first that is not only a funder."""
    for inst in message.get("institution") or []:
        if not isinstance(inst, dict) or not _strings(inst.get("name")):
            continue
        if _strings(inst.get("name"))[0].strip().lower() == "not available":
            continue
        if [d.lower() for d in _strings(inst.get("department"))] == ["funding"]:
            continue
        return inst
    return {}


def genre_of_degree(degree: str) -> str:
    low = degree.lower()
    if re.search(r"doctor|ph\.? ?d|dphil|doctorat|\bdr\b", low):
        return "Doctoral dissertation"
    if re.search(r"master|m\.? ?sc|\bm\.?a\b|\bmphil\b|magister", low):
        return "Master's thesis"
    if re.search(r"bachelor|b\.? ?sc|\bb\.?a\b", low):
        return "Bachelor's thesis"
    return " ".join(re.sub(r"\(.*?\)", "", degree).split())


def crossref_csl(message: dict[str, Any], item_id: str) -> dict[str, Any]:
    ctype = str(message.get("type") or "")
    subtype = str(message.get("subtype") or "")
    csl_type = TYPES.get(ctype, "document")
    if ctype == "posted-content":
        csl_type = "article" if subtype != "other" else "post-weblog"
    item: dict[str, Any] = {"id": item_id, "type": csl_type}
    t = title(message)
    if t:
        item["title"] = t
    inst = _institution(message)
    inst_name = _strings(inst.get("name"))[0] if inst else None
    publisher = _strings(message.get("publisher"))
    if csl_type == "post-weblog":
        blog = inst_name if inst_name and publisher and inst_name != publisher[0] else None
        blog = blog or next(iter(_strings(message.get("group-title"))), None)
        if blog:
            item["container-title"] = blog
    else:
        container, collection = containers(csl_type, message)
        if container:
            item["container-title"] = container
        if collection:
            item["collection-title"] = collection
    if (csl_type in ("thesis", "report", "dataset") or (
            ctype == "posted-content" and csl_type == "article")) and inst_name:
        item["publisher"] = inst_name
        if _strings(inst.get("place")):
            item["publisher-place"] = ", ".join(_strings(inst.get("place")))
    if "publisher" not in item and publisher:
        item["publisher"] = " ".join(publisher[0].split())
    if "publisher-place" not in item and _strings(message.get("publisher-location")):
        item["publisher-place"] = " ".join(_strings(message["publisher-location"])[0].split())
    if ctype == "posted-content" and csl_type == "article":
        item["genre"] = "Preprint"
    if csl_type == "thesis" and _strings(message.get("degree")):
        item["genre"] = genre_of_degree(_strings(message["degree"])[0])
    short = _strings(message.get("short-container-title"))
    if short and "container-title" in item:
        item["container-title-short"] = plain(short[0])
    for key in ("volume", "issue", "ISBN", "ISSN", "language"):
        values = _strings(message.get(key))
        if values:
            item[key] = values[0]
    pages = _strings(message.get("page"))
    if pages:
        ends = re.split(r"\s*[-–]\s*", pages[0].strip())
        item["page"] = ends[0] if len(ends) == 2 and ends[0] == ends[1] else pages[0]
    number = _strings(message.get("article-number"))
    if number:
        item["number"] = number[0]
    edition = _strings(message.get("edition-number"))
    if edition and edition[0].strip() not in ("1", "1st", "First", "first"):
        item["edition"] = edition[0]
    for role in ("author", "editor", "translator"):
        people = names(message.get(role))
        if people:
            item[role] = people
    parts = ((message.get("issued") or {}).get("date-parts") or [[None]])[0]
    parts = [p for p in parts if p is not None]
    if parts:
        item["issued"] = {"date-parts": [[int(p) for p in parts]]}
    event = message.get("event") if isinstance(message.get("event"), dict) else {}
    if "container-title" not in item and _strings(event.get("name")):
        # Only a paper known by its event alone was "presented at" it.
        item["event-title"] = " ".join(_strings(event["name"])[0].split())
        if _strings(event.get("location")):
            item["event-place"] = _strings(event["location"])[0]
    if message.get("DOI"):
        item["DOI"] = str(message["DOI"]).lower()
        item["URL"] = f"https://doi.org/{item['DOI']}"
    return item
