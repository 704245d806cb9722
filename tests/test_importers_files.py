"""Library files: Better BibTeX JSON exports (Better BibTeX's own test libraries, from the
shared fixtures), CSL-JSON and RIS; malformed entries are one line each and the rest reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vaultd.errors import InputError
from vaultd.importers import read_library_file


def _bbt_exports(fixtures_dir: Path) -> list[Path]:
    paths = sorted((fixtures_dir / "bbt").glob("*/input.bbt.json"))
    assert paths, "no Better BibTeX exports in the shared fixtures"
    return paths


def test_every_item_of_better_bibtexs_own_test_libraries_reads(fixtures_dir: Path) -> None:
    total = 0
    for path in _bbt_exports(fixtures_dir):
        raw = json.loads(path.read_text("utf-8"))
        result = read_library_file(path)
        assert result.problems == [], path
        regular = [i for i in raw["items"] if i["itemType"] not in ("note", "attachment")]
        assert len(result.items) == len(regular), path
        for item, source in zip(result.items, regular, strict=True):
            assert item.work.title == source.get("title"), path
            names = [c.get("lastName") or c.get("name") for c in source.get("creators", [])]
            cited = [a.family_full if a.family else a.literal for a in
                     (*item.work.authors, *item.work.editors)]
            assert set(cited) <= {n.strip('"') for n in names if n}, path
        total += len(result.items)
    assert total >= 13


def test_a_better_bibtex_citation_key_is_kept_exactly(fixtures_dir: Path) -> None:
    path = next(p for p in _bbt_exports(fixtures_dir) if "full_date_field" in str(p))
    (item,) = read_library_file(path).items
    assert item.key == "tseENGG2112LectureW5S126Mar202610:00:00+AEDT"
    assert item.key_source == "better-bibtex-json"
    assert item.work.type == "speech" and item.work.authors[0].family == "Tse"
    assert item.work.event == "ENGG2112: Multi-disciplinary Engineering - Lecture"
    assert (item.work.event_place or "").startswith("University of Sydney")
    assert "note/lecture" in item.tags and "ENGG2112" in item.source_tags


def test_better_bibtex_notes_become_markdown_and_collections_tags(
        fixtures_dir: Path, tmp_path: Path) -> None:
    path = next(p for p in _bbt_exports(fixtures_dir) if "Colon_not_allowed" in str(p))
    (item,) = read_library_file(path).items
    assert item.notes[0].markdown == "p. 94, ref. to SMF ms"
    assert "Law/International" in item.tags  # '/' in a Zotero tag nests in Obsidian
    export = {"config": {}, "collections": {
        "c1": {"key": "c1", "name": "Thesis", "items": [], "collections": ["c2"]},
        "c2": {"key": "c2", "name": "Chapter 2: methods", "parent": "c1", "items": [7]}},
        "items": [{"itemType": "book", "itemID": 7, "title": "T", "citationKey": "k",
                   "attachments": [{"path": "files/t.pdf", "contentType": "application/pdf"}],
                   "extra": ["Citation Key Alias: old"]}]}
    (tmp_path / "files").mkdir()
    (tmp_path / "files" / "t.pdf").write_bytes(b"%PDF-1.4\n")
    (tmp_path / "lib.json").write_text(json.dumps(export), "utf-8")
    (item,) = read_library_file(tmp_path / "lib.json").items
    assert item.tags == ("Thesis/Chapter-2-methods",)
    assert item.collections == (("Thesis", "Chapter 2: methods"),)
    assert item.aliases == ("old",)
    assert item.pdfs[0].path == tmp_path / "files" / "t.pdf"


def test_a_malformed_better_bibtex_item_is_one_line_and_the_rest_reads(tmp_path: Path) -> None:
    export = {"config": {}, "items": [
        {"itemType": "book", "title": "Good", "citationKey": "good"},
        {"title": "No type", "citationKey": "bad"},
        "not an object",
        {"itemType": "attachment", "title": "loose.pdf"}]}
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export), "utf-8")
    result = read_library_file(path)
    assert [i.key for i in result.items] == ["good"]
    assert [str(p) for p in result.problems] == [
        f"{path}: item 2 (bad) 'No type': no itemType",
        f"{path}: item 3: not a JSON object"]
    assert result.skipped == {"standalone attachment": 1}


def test_csl_json_ids_are_keys_and_bad_items_are_named(tmp_path: Path) -> None:
    items = [
        {"id": "Doe:2020_x", "type": "article-journal", "title": "Good",
         "author": [{"family": "Doe", "given": "J.", "parse-names": True, "sequence": "first"}],
         "issued": {"date-parts": [["2020", "3"]]}, "container-title": "J"},
        {"id": 42, "type": "book", "title": "Numbered", "issued": {"raw": "May 2001"},
         "citation-key": "numbered2001"},
        {"id": "odd", "type": "video", "title": "Odd type", "URL": "https://arxiv.org/abs/2101.00001v2"},
        {"id": "nope", "title": "No type"},
        ["not", "an", "item"],
        {"id": "badnames", "type": "book", "author": "Someone", "title": "Names as a string"},
    ]
    path = tmp_path / "refs.json"
    path.write_text(json.dumps(items), "utf-8")
    result = read_library_file(path)
    by_key = {i.key: i for i in result.items}
    assert list(by_key) == ["Doe:2020_x", "numbered2001", "odd", "badnames"]
    assert by_key["Doe:2020_x"].work.issued == [2020, 3]
    assert by_key["Doe:2020_x"].work.authors[0].given == "J."
    assert by_key["numbered2001"].aliases == ("42",)
    assert by_key["numbered2001"].work.issued == [2001, 5]
    assert by_key["odd"].work.type == "document" and by_key["odd"].warnings
    assert by_key["badnames"].work.authors[0].literal == "Someone"
    assert (by_key["odd"].work.arxiv_id, by_key["odd"].work.arxiv_version) == ("2101.00001", 2)
    assert [str(p) for p in result.problems] == [
        f"{path}: item 4 (nope): no 'type'", f"{path}: item 5: not a CSL item (a JSON list)"]


RIS = """\ufeffTY  - JOUR
ID  - vaswani2017
AU  - Vaswani, Ashish
AU  - van der Maaten, Laurens
AU  - Google Brain
TI  - Attention is all you
  need
T2  - Advances in Neural Information Processing Systems
J2  - NeurIPS
PY  - 2017/12/04/
SP  - 5998
EP  - 6008
VL  - 30
DO  - 10.5555/3295222.3295349
KW  - transformers; attention
N1  - <p>read <b>twice</b></p>
L1  - file://{pdf}
UR  - https://example.org/a;https://example.org/b
ER  -

stray text between records
TY  - CHAP
AU  - Doe, Jane, Jr.
A2  - Editor, Ed
TI  - A chapter
T2  - The book
PB  - Press
CY  - Town
DA  - 2001/05//
SP  - 10
EP  - 20
TY  - ZZZZ
TI  - Unknown type and no ER
ER  -
TY  - JOUR
N1  - nothing else
ER  -
TY  - BOOK
TI  - Last, unterminated
"""


def test_a_ris_file_reads_by_zoteros_mapping_and_malformed_records_are_named(
        tmp_path: Path) -> None:
    pdf = tmp_path / "paper one.pdf"
    pdf.write_bytes(b"%PDF-1.4\n")
    path = tmp_path / "refs.ris"
    path.write_text(RIS.replace("{pdf}", str(pdf).replace(" ", "%20")), "utf-8")
    result = read_library_file(path)
    first, chapter, unknown, last = result.items
    work = first.work
    assert (first.key, first.key_source) == ("vaswani2017", "ris")
    assert work.type == "article-journal" and work.title == "Attention is all you need"
    assert [a.model_dump(by_alias=True, exclude_none=True) for a in work.authors] == [
        {"family": "Vaswani", "given": "Ashish"},
        {"family": "Maaten", "given": "Laurens", "non-dropping-particle": "van der"},
        {"literal": "Google Brain"}]
    assert work.container_title == "Advances in Neural Information Processing Systems"
    assert work.container_title_short == "NeurIPS" and work.issued == [2017, 12, 4]
    assert work.page == "5998-6008" and work.doi == "10.5555/3295222.3295349"
    assert work.url == "https://example.org/a"
    assert first.tags == ("transformers", "attention")
    assert first.notes[0].markdown == "read **twice**"
    assert first.pdfs[0].path == pdf
    assert chapter.work.type == "chapter" and chapter.work.container_title == "The book"
    assert chapter.work.authors[0].suffix == "Jr." and chapter.work.editors[0].family == "Editor"
    assert chapter.work.issued == [2001, 5] and chapter.work.publisher_place == "Town"
    assert unknown.work.type == "article-journal" and unknown.warnings
    assert last.work.title == "Last, unterminated" and last.work.type == "book"
    assert [str(p) for p in result.problems] == [
        f"{path}: line 21: text outside any record ('stray text between records'); a record "
        "starts with a TY line",
        f"{path}: line 22: no ER line before the next TY (line 32); read up to it",
        f"{path}: line 38: no ER line before the end of the file; read to the end",
        f"{path}: record 4 (line 35): has neither a title (TI/T1) nor an author (AU/A1)"]


def test_files_that_are_no_library_are_one_line(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text('{"hello": 1}', "utf-8")
    (tmp_path / "y.json").write_text("{not json", "utf-8")
    (tmp_path / "z.txt").write_text("", "utf-8")
    with pytest.raises(InputError, match="neither a Better BibTeX JSON export"):
        read_library_file(tmp_path / "x.json")
    with pytest.raises(InputError, match="not readable JSON"):
        read_library_file(tmp_path / "y.json")
    with pytest.raises(InputError, match="not a library file vaultd imports"):
        read_library_file(tmp_path / "z.txt")
    with pytest.raises(InputError, match="cannot be read"):
        read_library_file(tmp_path / "missing.ris")
