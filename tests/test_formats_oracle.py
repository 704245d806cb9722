"""vaultd's citations of every recorded work against the oracle: pandoc's citeproc with
the official CSL styles fed the source's *own* data (tests/_citeproc_oracle.py).

- CrossRef records: the record itself in CrossRef's CSL conventions (what its content
  negotiation serves: the same keys, lists of one title flattened, CrossRef types named
  by their CSL type), made below without any vaultd code;
- arXiv Atom entries: the fields Zotero's arXiv translator and arXiv's DataCite DOI carry
  (type article, publisher arXiv, number arXiv:<id>, DOI 10.48550/arXiv.<id>);
- OpenAlex works: their CrossRef type, display name, authorships, date, journal, biblio;
- .bib files: pandoc reads the file itself.

vaultd's side goes through its real source parsers and its real renderer. Plain text,
whitespace-normalised, must be equal in all four styles.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from _citeproc_oracle import STYLE_NAMES, normalise, render_bibliography, render_items

from vaultd.formats import CitationRenderer
from vaultd.models import Work

# CrossRef work types → CSL types, as CrossRef's CSL output and citeproc-js name them.
CROSSREF_CSL_TYPES = {
    "journal-article": "article-journal", "proceedings-article": "paper-conference",
    "book-chapter": "chapter", "book-section": "chapter", "book-part": "chapter",
    "book": "book", "monograph": "book", "edited-book": "book", "reference-book": "book",
    "dissertation": "thesis", "report": "report", "posted-content": "article",
    "dataset": "dataset", "standard": "standard", "peer-review": "review",
}
NAME_KEYS = ("family", "given", "suffix", "non-dropping-particle", "dropping-particle",
             "literal")


def _names(people: list[dict[str, Any]]) -> list[dict[str, str]]:
    out = []
    for p in people:
        name = {k: p[k] for k in NAME_KEYS if p.get(k)}
        if p.get("name") and not name:
            name = {"literal": p["name"]}
        out.append(name)
    return out


def _first(value: Any) -> Any:
    return value[0] if isinstance(value, list) and value else value


def crossref_csl(message: dict[str, Any], item_id: str) -> dict[str, Any]:
    """A CrossRef record as CrossRef's own CSL-JSON: its keys, CSL-typed."""
    item: dict[str, Any] = {"id": item_id,
                            "type": CROSSREF_CSL_TYPES.get(message["type"], "document")}
    title = _first(message.get("title")) or _first(message.get("original-title"))
    if title:
        item["title"] = title
    for key in ("container-title", "ISBN", "ISSN"):
        if _first(message.get(key)):
            item[key] = _first(message[key])
    if _first(message.get("short-container-title")):
        item["container-title-short"] = _first(message["short-container-title"])
    for key in ("volume", "issue", "page", "publisher", "DOI", "language"):
        if message.get(key):
            item[key] = message[key]
    renamed = {"publisher-location": "publisher-place", "article-number": "number",
               "edition-number": "edition"}
    for theirs, ours in renamed.items():
        if message.get(theirs):
            item[ours] = message[theirs]
    for role in ("author", "editor", "translator"):
        if message.get(role):
            item[role] = _names(message[role])
    event = message.get("event") or {}
    if event.get("name"):
        item["event-title"] = event["name"]
    if event.get("location"):
        item["event-place"] = event["location"]
    for date in ("issued", "published-print", "published-online"):
        parts = (message.get(date) or {}).get("date-parts")
        if parts and parts[0] and parts[0][0] is not None:
            item["issued"] = {"date-parts": [parts[0]]}
            break
    if message.get("URL"):
        item["URL"] = message["URL"]
    return item


def _crossref_records(root: Path) -> dict[str, dict[str, Any]]:
    records: dict[str, dict[str, Any]] = {}
    for path in sorted((root / "crossref" / "works").glob("*.json")):
        records[path.stem] = json.loads(path.read_text(encoding="utf-8"))["message"]
    for path in sorted((root / "crossref" / "search").glob("*.json")):
        for n, item in enumerate(json.loads(path.read_text(encoding="utf-8"))["message"]["items"]):
            records[f"{path.stem}-{n}"] = item
    cn = root / "csl" / "crossref_content_negotiation" / "10.1126_science.169.3946.635.csl.json"
    records["science.169.3946.635"] = json.loads(cn.read_text(encoding="utf-8"))
    # One record per DOI (a search hit repeating a /works record would be a second work
    # with the same author and year, which the oracle's one reference list tells apart).
    by_doi: dict[str, tuple[str, dict[str, Any]]] = {}
    for name, message in records.items():
        by_doi.setdefault(str(message.get("DOI", name)).lower(), (name, message))
    return dict(by_doi.values())


def _ids(records: dict[str, Any]) -> dict[str, str]:
    return {name: f"w{i}" for i, name in enumerate(records)}


@cache
def _renderer() -> CitationRenderer:
    return CitationRenderer()


def _vaultd_texts(works: dict[str, Work]) -> dict[str, dict[str, str]]:
    rendered = _renderer().render(works)
    return {k: {s: normalise(r.text) for s, r in per.items()} for k, per in rendered.items()}


@cache
def _crossref_case(root: Path) -> tuple[dict[str, str], dict[str, dict[str, str]],
                                         dict[str, dict[str, str]]]:
    from vaultd.capture import crossref

    records = _crossref_records(root)
    ids = _ids(records)
    ours = _vaultd_texts({ids[n]: crossref.parse_work(m) for n, m in records.items()})
    items = [crossref_csl(m, ids[n]) for n, m in records.items()]
    theirs = {style: render_items(items, style) for style in STYLE_NAMES}
    return ids, ours, theirs


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_every_recorded_crossref_work_is_cited_as_citeproc_cites_crossrefs_own_csl(
        fixtures_dir: Path, style: str) -> None:
    ids, ours, theirs = _crossref_case(fixtures_dir)
    assert len(ids) >= 13
    wrong = {name: (ours.get(i, {}).get(style), theirs[style].get(i))
             for name, i in ids.items() if ours.get(i, {}).get(style) != theirs[style].get(i)}
    assert not wrong, json.dumps(wrong, indent=1, ensure_ascii=False)


ATOM = {"a": "http://www.w3.org/2005/Atom", "arxiv": "http://arxiv.org/schemas/atom"}


def _arxiv_entries(root: Path) -> list[tuple[str, ET.Element]]:
    out = []
    for path in sorted((root / "arxiv").glob("*.atom.xml")):
        for entry in ET.parse(path).getroot().findall("a:entry", ATOM):
            entry_id = (entry.findtext("a:id", "", ATOM) or "").split("/abs/")[-1]
            if "/api/" in entry_id or not entry_id:
                continue  # the API's own error entry
            out.append((entry_id.rsplit("v", 1)[0], entry))
    return list(dict(out).items())


def arxiv_csl(arxiv_id: str, entry: ET.Element, item_id: str) -> dict[str, Any]:
    """An arXiv entry as Zotero's arXiv translator records it."""
    # Names split by BibTeX's "First von Last" rule; citeproc's parse-names then takes a
    # particle apart.
    authors = [_first_von_last(a.findtext("a:name", "", ATOM) or "")
               for a in entry.findall("a:author", ATOM)]
    published = (entry.findtext("a:published", "", ATOM) or "")[:10]
    return {"id": item_id, "type": "article",
            "title": " ".join((entry.findtext("a:title", "", ATOM) or "").split()),
            "author": authors,
            "issued": {"date-parts": [[int(p) for p in published.split("-")]]},
            "publisher": "arXiv", "number": f"arXiv:{arxiv_id}",
            "DOI": f"10.48550/arXiv.{arxiv_id}", "URL": f"https://arxiv.org/abs/{arxiv_id}"}


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_every_recorded_arxiv_preprint_is_cited_as_citeproc_cites_its_record(
        fixtures_dir: Path, style: str) -> None:
    from vaultd.capture import arxiv

    entries = _arxiv_entries(fixtures_dir)
    assert len(entries) >= 10
    ids = {aid: f"a{i}" for i, (aid, _) in enumerate(entries)}
    works = {}
    for aid, entry in entries:
        feed = ET.tostring(ET.Element("{http://www.w3.org/2005/Atom}feed"), encoding="unicode")
        feed = feed.replace("/>", ">" + ET.tostring(entry, encoding="unicode") + "</ns0:feed>")
        work = arxiv.parse_feed(feed, aid)
        assert work is not None, aid
        works[ids[aid]] = work
    ours = _vaultd_texts(works)
    theirs = render_items([arxiv_csl(aid, e, ids[aid]) for aid, e in entries], style)
    wrong = {aid: (ours[i][style], theirs.get(i)) for aid, i in ids.items()
             if ours[i][style] != theirs.get(i)}
    assert not wrong, json.dumps(wrong, indent=1, ensure_ascii=False)


def _bib_files(root: Path) -> list[Path]:
    return sorted([*root.glob("bbt/*/expected.bib*"), *root.glob("crossref/transform/*.bib"),
                   *root.glob("csl/crossref_content_negotiation/*.bib")])


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_every_fixture_bib_entry_is_cited_as_citeproc_cites_the_bib_file(
        fixtures_dir: Path, style: str) -> None:
    from vaultd.capture.bib import parse_bib

    files = _bib_files(fixtures_dir)
    assert len(files) >= 10
    wrong: dict[str, tuple[str | None, str | None]] = {}
    count = 0
    for path in files:
        entries = parse_bib(path.read_text(encoding="utf-8"), path.name)
        works = {e.key: e.work for e in entries if e.work.title}
        count += len(works)
        ours = _vaultd_texts(works)
        theirs = render_bibliography(path, style, list(works))
        for key in works:
            if ours[key][style] != theirs.get(key):
                wrong[f"{path.parent.name}/{path.name}:{key}"] = (ours[key][style],
                                                                   theirs.get(key))
    assert count >= 12
    assert not wrong, json.dumps(wrong, indent=1, ensure_ascii=False)


def openalex_csl(data: dict[str, Any], item_id: str) -> dict[str, Any]:
    """An OpenAlex work in CSL terms: its CrossRef type, display name, authorships (names
    split by BibTeX's "First von Last" rule), publication date, host source and biblio."""
    item: dict[str, Any] = {
        "id": item_id,
        "type": CROSSREF_CSL_TYPES.get(str(data.get("type_crossref")), "document"),
        "title": data["display_name"],
        "author": [_first_von_last(a["author"]["display_name"])
                   for a in data.get("authorships") or []],
        "issued": {"date-parts": [[int(p) for p in data["publication_date"].split("-")]]},
    }
    source = (data.get("primary_location") or {}).get("source") or {}
    if source.get("display_name") and source.get("type") == "journal":
        item["container-title"] = source["display_name"]
    biblio = data.get("biblio") or {}
    for theirs, ours in (("volume", "volume"), ("issue", "issue")):
        if biblio.get(theirs):
            item[ours] = biblio[theirs]
    first, last = biblio.get("first_page"), biblio.get("last_page")
    if first:
        item["page"] = f"{first}-{last}" if last and last != first else first
    if data.get("doi"):
        item["DOI"] = data["doi"].split("doi.org/", 1)[-1]
    return item


def _first_von_last(name: str) -> dict[str, Any]:
    words = name.split()
    cut = next((i for i, w in enumerate(words[:-1]) if i and w[:1].islower()), len(words) - 1)
    if not cut:
        return {"literal": name}
    return {"family": " ".join(words[cut:]), "given": " ".join(words[:cut]), "parse-names": True}


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_every_recorded_openalex_journal_work_is_cited_as_citeproc_cites_its_record(
        fixtures_dir: Path, style: str) -> None:
    from vaultd.capture import openalex

    records = {p.stem: json.loads(p.read_text(encoding="utf-8"))
               for p in sorted((fixtures_dir / "openalex" / "works").glob("*.json"))}
    assert len(records) >= 3
    ids = _ids(records)
    ours = _vaultd_texts({ids[n]: openalex.parse_work(d) for n, d in records.items()})
    theirs = render_items([openalex_csl(d, ids[n]) for n, d in records.items()], style)
    wrong = {n: (ours[i][style], theirs.get(i)) for n, i in ids.items()
             if ours[i][style] != theirs.get(i)}
    assert not wrong, json.dumps(wrong, indent=1, ensure_ascii=False)
