"""Keys kept exactly as the user wrote them: a .bib with real keys (a dot, umlauts, a
slash, '+', an apostrophe, CJK) captured through the real pipeline, then cited by the CLI,
exported to library.bib, served over MCP and found by draft verify."""

from __future__ import annotations

import json
import shutil
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from replay_server import ReplayServer

from vaultd.cli import main_group
from vaultd.config import Settings
from vaultd.library_bib import export_library_bib
from vaultd.mcp.server import build_server
from vaultd.models import MetaFile, Work
from vaultd.notes.reader import parse_note
from vaultd.pipeline.compile import compile_note
from vaultd.vault import Vault
from vaultd.verify.draft import check_text

BBT_LUSCHER = "bbt/Generating_citation_keys_and_special_letters_(i.e._o_u_a)_#3351/expected.biblatex"
LUSCHER = "Lüscher_2011_ÜberAmbivalenz"
OTHERS = """
@book{Sen.2016.BV, title={Boundary values}, author={Sen, Amartya}, year={2016},
  publisher={Press}}
@misc{baez/article, title={An article on categories}, author={Baez, John}, year={2005}}
@misc{c++primer+, title={A primer}, author={Lippman, Stanley}, year={2012}}
@misc{o'neil2016, title={Weapons of math destruction}, author={O'Neil, Cathy}, year={2016}}
@misc{教育部国家语言文字工作委员2018, title={中国语言文字使用情况}, author={{教育部}}, year={2018}}
"""
KEYS = [LUSCHER, "Sen.2016.BV", "baez/article", "c++primer+", "o'neil2016",
        "教育部国家语言文字工作委员2018"]


def _cli(vault: Vault, *args: str) -> Any:
    return CliRunner().invoke(main_group, ["--vault", str(vault.root), *args])


@pytest.fixture
def imported(vault: Vault, fixtures_dir: Path, tmp_path: Path,
             monkeypatch: pytest.MonkeyPatch) -> Iterator[Vault]:
    bib = tmp_path / "refs.bib"
    bib.write_text((fixtures_dir / BBT_LUSCHER).read_text(encoding="utf-8") + OTHERS,
                   encoding="utf-8")
    with ReplayServer() as server:  # no source knows these works: the .bib is the record
        for var, path in [("VAULTD_CROSSREF_URL", "/crossref"), ("VAULTD_OPENALEX_URL", "/openalex"),
                          ("VAULTD_UNPAYWALL_URL", "/unpaywall")]:
            monkeypatch.setenv(var, server.url + path)
        out = _cli(vault, "capture", str(bib))
    assert out.exit_code == 0, out.stderr
    assert out.stdout.split() == KEYS
    yield vault


def test_imported_keys_are_kept_byte_for_byte_in_records_notes_and_library_bib(
        imported: Vault) -> None:
    for key in KEYS:
        meta = MetaFile.model_validate_json(imported.meta_path(key).read_text(encoding="utf-8"))
        note = parse_note(imported.note_path(key).read_text(encoding="utf-8"))
        assert meta.cite_key == key == note.meta.cite_key
        assert imported.note_path(key).parent == imported.wiki
    assert {p.name for p in imported.raw.iterdir()} == {
        "Lüscher_2011_ÜberAmbivalenz.meta.json", "Sen.2016.BV.meta.json",
        "baez%2Farticle.meta.json", "c++primer+.meta.json", "o'neil2016.meta.json",
        "教育部国家语言文字工作委员2018.meta.json"}
    export_library_bib(imported)
    text = imported.library_bib.read_text(encoding="utf-8")
    for key in KEYS:
        assert f"{{{key},\n" in text


def test_cite_and_bib_take_the_keys_as_written(imported: Vault) -> None:
    for key in KEYS:
        out = _cli(imported, "cite", key, "-f", "apa", "--intext")
        assert out.exit_code == 0, out.stderr
        assert out.stdout.startswith("(") and out.stdout.strip().endswith(")")
    out = _cli(imported, "cite", LUSCHER, "-f", "apa", "--page", "325")
    assert (out.exit_code, out.stdout.strip()) == (0, "(Lüscher, 2011, p. 325)")
    out = _cli(imported, "bib", *KEYS)
    assert out.exit_code == 0, out.stderr
    assert [line for line in out.stdout.splitlines() if line.startswith("@")] == [
        "@article{Lüscher_2011_ÜberAmbivalenz,", "@book{Sen.2016.BV,", "@misc{baez/article,",
        "@misc{c++primer+,", "@misc{o'neil2016,", "@misc{教育部国家语言文字工作委员2018,"]
    ascii_folded = _cli(imported, "cite", "Luscher_2011_UberAmbivalenz")
    assert ascii_folded.exit_code == 1 and "did you mean: Lüscher_2011_ÜberAmbivalenz" in \
        str(ascii_folded.exception)


def test_mcp_cite_and_bibliography_take_the_keys_as_written(imported: Vault) -> None:
    from mcp import Client

    server = build_server(imported, None)

    async def go() -> list[Any]:
        async with Client(server, read_timeout_seconds=30) as client:
            calls = [client.call_tool("cite", {"cite_key": key, "format": "bibtex"}) for key in KEYS]
            out = [await c for c in calls]
            out.append(await client.call_tool("bibliography", {"cite_keys": KEYS,
                                                               "format": "csl-json"}))
            return out

    *cites, bib = anyio.run(go)
    for key, result in zip(KEYS, cites, strict=True):
        assert not result.is_error
        assert f"{{{key},\n" in result.content[0].text
    assert [item["id"] for item in json.loads(bib.structured_content["text"])] == KEYS
    assert bib.structured_content["unknown"] == []


def test_draft_verify_finds_every_key_in_latex_and_pandoc_markdown(imported: Vault) -> None:
    latex = ("As argued \\cite{Lüscher_2011_ÜberAmbivalenz} and \\citep[p.~4]{Sen.2016.BV,"
             "baez/article}, also \\cite{c++primer+,% a comment between keys\n o'neil2016}"
             " and \\cite{教育部国家语言文字工作委员2018}.\n")
    markdown = ("As argued [@Lüscher_2011_ÜberAmbivalenz; @Sen.2016.BV, p. 4], @baez/article "
                "shows, and [@{c++primer+}; @{o'neil2016}; @教育部国家语言文字工作委员2018].\n")
    for text, fmt in [(latex, "latex"), (markdown, "markdown")]:
        report = check_text(imported, text, fmt)
        assert [f for f in report.findings if f.kind == "UNKNOWN KEY"] == []
        cited = {k for f in report.findings for k in f.keys}
        assert cited == set(KEYS), fmt
    folded = check_text(imported, "\\cite{Luscher_2011_UberAmbivalenz}", "latex")
    assert [f.kind for f in folded.findings] == ["UNKNOWN KEY"]


def test_a_pdf_under_a_key_with_a_slash_compiles_inside_raw_and_wiki_and_is_quoted(
        vault: Vault, fixtures_dir: Path) -> None:
    key = "baez/article"
    shutil.copy(fixtures_dir / "pdfs/single_column/peerj_cs_2017_vespa_test6.pdf",
                vault.pdf_path(key))
    work = Work(title="VESPA", issued=[2017], reconciled=True, sources=["crossref", "openalex"])
    meta = MetaFile.from_work(key, work, pdf=vault.rel(vault.pdf_path(key)))
    vault.meta_path(key).write_text(meta.model_dump_json(), encoding="utf-8")
    compile_note(vault, Settings(), key)
    assert sorted(p.name for p in vault.raw.glob("baez*")) == ["baez%2Farticle.meta.json",
                                                               "baez%2Farticle.pdf"]
    note_path = vault.wiki / "baez%2Farticle.md"
    text = note_path.read_text(encoding="utf-8")
    assert "[[raw/baez%2Farticle.pdf#page=" in text and "[[raw/baez/article" not in text
    note = parse_note(text)
    assert note.meta.cite_key == key
    chunk = next(c for c in note.chunks if c.provenance.chunk_type == "paragraph"
                 and len(c.text) > 200)
    out = _cli(vault, "quote", key, chunk.id, "--json")
    assert out.exit_code == 0, out.stderr
    assert json.loads(out.stdout)["text"] == chunk.text
    report = check_text(vault, f"“{chunk.text}” \\cite{{baez/article}}\n", "latex")
    assert [f.kind for f in report.findings][:1] == ["OK"]


def test_a_record_stored_under_a_decomposed_name_keeps_the_key_its_meta_holds(
        imported: Vault) -> None:
    # A sync from macOS may deliver the file names decomposed (NFD): the key in .meta.json
    # stays the key, and the composed key the user types still finds it.
    for folder, suffix in [(imported.raw, ".meta.json"), (imported.wiki, ".md")]:
        (folder / f"{LUSCHER}{suffix}").rename(
            folder / (unicodedata.normalize("NFD", LUSCHER) + suffix))
    out = _cli(imported, "cite", LUSCHER, "-f", "bibtex")
    assert out.exit_code == 0, out.stderr
    assert out.stdout.startswith(f"@article{{{LUSCHER},")
    export_library_bib(imported)
    assert f"{{{LUSCHER},\n" in imported.library_bib.read_text(encoding="utf-8")
    assert check_text(imported, f"\\cite{{{LUSCHER}}}", "latex").findings[0].kind != \
        "UNKNOWN KEY"
    note = parse_note(imported.note_path(LUSCHER).read_text(encoding="utf-8"))
    assert note.meta.cite_key == LUSCHER
