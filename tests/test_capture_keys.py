"""Cite keys given by the user (--cite-key) or by a .bib file: validated, kept exactly as
written, and never a path (their file names are encoded)."""

from __future__ import annotations

import asyncio
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from replay_server import (
    ReplayServer,
    capture_overrides,
    loopback_client,
    serve_crossref,
    serve_openalex,
    serve_unpaywall,
)

from vaultd.config import load_settings
from vaultd.errors import InputError
from vaultd.pipeline.capture import CaptureResult, bib_cite_key, capture
from vaultd.pipeline.ingest import named_key
from vaultd.vault import Vault

HRP = "10.1023/a:1007154515475"
PNAS = "10.1073/pnas.1414271111"


@pytest.fixture
def server(fixtures_dir: Path) -> Iterator[ReplayServer]:
    with ReplayServer() as s:
        for doi, name in [(HRP, "10.1023_a_1007154515475"), (PNAS, "10.1073_pnas.1414271111")]:
            serve_crossref(s, doi, fixtures_dir / f"crossref/works/{name}.json")
            serve_openalex(s, doi, fixtures_dir / f"openalex/works/doi_{name}.json")
            serve_unpaywall(s, doi, fixtures_dir / f"unpaywall/v2/{name}.json")
        yield s


def run(vault: Vault, server: ReplayServer, text: str, **kw: object) -> list[CaptureResult]:
    async def go() -> list[CaptureResult]:
        async with loopback_client(server) as client:
            return await capture(vault, load_settings(overrides=capture_overrides(server)),
                                 text, client=client, **kw)  # type: ignore[arg-type]
    return asyncio.run(go())


@pytest.mark.parametrize("bad", ["../evil key", "x y", "", "a,b", "a{b}", "50%", "a\\b", "a\tb"])
def test_a_cite_key_flag_outside_the_key_grammar_is_refused_and_nothing_is_written(
        vault: Vault, server: ReplayServer, bad: str) -> None:
    with pytest.raises(InputError, match=r"--cite-key .* is not a valid cite key: a cite key "):
        run(vault, server, HRP, cite_key=bad)
    assert list(vault.raw.iterdir()) == [] and not (vault.root / "evil key.pdf").exists()
    assert not (vault.root / "evil key.meta.json").exists()


def test_a_cite_key_flag_differing_only_in_case_from_a_taken_key_is_refused(
        vault: Vault, server: ReplayServer) -> None:
    run(vault, server, HRP, cite_key="Adak2001")
    with pytest.raises(InputError, match="already belongs to another record"):
        run(vault, server, PNAS, cite_key="adak2001")


@pytest.mark.parametrize(("key", "expected"), [
    ("knuth1984", "knuth1984"), ("Müller2020Ü", "Müller2020Ü"), ("smith.2020", "smith.2020"),
    ("../evil", "../evil"), ("baez/article", "baez/article"), ("...", "..."),
    ("../evil key", None), ("", None), ("a,b", None),
])
def test_a_bib_key_is_kept_as_written_and_one_no_bibtex_could_carry_is_announced(
        key: str, expected: str | None) -> None:
    got, warning = bib_cite_key(key)
    assert got == expected
    assert (warning is None) == (key == expected)


def test_a_bib_entry_whose_key_looks_like_a_path_is_saved_inside_raw_under_its_own_key(
        vault: Vault, server: ReplayServer, tmp_path: Path) -> None:
    bib = tmp_path / "lib.bib"
    bib.write_text("@book{../evil, title={The {\\TeX}book}, author={Knuth, Donald E.},"
                   " year={1984}}\n")
    [res] = run(vault, server, str(bib))
    assert res.cite_key == "../evil" and not any(".bib key" in w for w in res.warnings)
    assert vault.meta_path("../evil") == vault.raw / "%2E.%2Fevil.meta.json"
    assert vault.meta_path("../evil").is_file()
    assert "%2E.%2Fevil.meta.json" in {p.name for p in vault.raw.iterdir()}
    assert not (vault.root / "evil.meta.json").exists()
    assert not (vault.root.parent / "evil.meta.json").exists()


def test_a_bib_entry_without_ids_whose_key_names_another_paper_gets_a_suffixed_key(
        vault: Vault, server: ReplayServer, tmp_path: Path) -> None:
    [first] = run(vault, server, HRP, cite_key="knuth1984")
    bib = tmp_path / "lib.bib"
    bib.write_text("@book{knuth1984, title={The {\\TeX}book}, author={Knuth, Donald E.},"
                   " year={1984}}\n")
    [res] = run(vault, server, str(bib))
    assert res.cite_key == "knuth1984a" and res.meta.title == "The TeXbook"
    assert any("'knuth1984' already belongs to a different paper" in w for w in res.warnings)
    # The first record is untouched, and importing the file again finds the new one.
    meta = vault.meta_path("knuth1984").read_text()
    assert first.meta.doi == HRP and HRP in meta and "TeXbook" not in meta
    again = run(vault, server, str(bib))
    assert [(r.cite_key, r.status) for r in again] == [("knuth1984a", "existing")]


def test_a_bib_entry_whose_doi_is_already_captured_keeps_the_record_and_names_both_keys(
        vault: Vault, server: ReplayServer, tmp_path: Path) -> None:
    [first] = run(vault, server, HRP)
    bib = tmp_path / "lib.bib"
    bib.write_text(f"@article{{myKey, title={{x}}, doi={{{HRP}}}}}\n")
    [res] = run(vault, server, str(bib))
    assert res.cite_key == first.cite_key and res.status == "existing"
    assert any("'myKey'" in w and repr(first.cite_key) in w for w in res.warnings)


@pytest.mark.parametrize(("name", "key"), [
    ("smith2020title.pdf", "smith2020title"), ("Sen.2016.BV.pdf", "Sen.2016.BV"),
    ("baez%2Farticle2005.pdf", "baez/article2005"),
    (unicodedata.normalize("NFD", "Lüscher_2011_ÜberAmbivalenz.pdf"),
     "Lüscher_2011_ÜberAmbivalenz"),
    ("download.pdf", None), ("scan 3 2020.pdf", None), ("2020smith.pdf", None),
])
def test_a_pdf_named_as_a_key_gives_that_key_composed(name: str, key: str | None) -> None:
    assert named_key(Path(name)) == key
