"""vaultd's citations of every recorded work against the oracle: pandoc's citeproc with
the official CSL styles fed the source's *own* data (tests/_citeproc_oracle.py).

- CrossRef records: through the mapping written from the CSL specification and the style
  manuals in tests/_crossref_oracle.py, without any vaultd code;
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
from _citeproc_oracle import STYLE_NAMES, normalise, render_bib_file, render_items
from _crossref_oracle import TYPES as CROSSREF_CSL_TYPES
from _crossref_oracle import crossref_csl

from vaultd.formats import CitationRenderer
from vaultd.models import Work


def _crossref_records(root: Path) -> dict[str, dict[str, Any]]:
    records: dict[str, dict[str, Any]] = {}
    for path in sorted((root / "crossref" / "works").glob("*.json")):
        records[path.stem] = json.loads(path.read_text(encoding="utf-8"))["message"]
    for path in sorted((root / "crossref" / "search").glob("*.json")):
        for n, item in enumerate(json.loads(path.read_text(encoding="utf-8"))["message"]["items"]):
            records[f"{path.stem}-{n}"] = item
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
        theirs = render_bib_file(path, style, list(works))
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
