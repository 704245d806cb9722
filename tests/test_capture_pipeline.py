"""Capture end to end against a loopback server replaying recorded responses."""

from __future__ import annotations

import asyncio
import importlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from replay_server import (
    ReplayServer,
    capture_overrides,
    loopback_client,
    serve_arxiv,
    serve_crossref,
    serve_openalex,
    serve_unpaywall,
)

from vaultd.config import Settings, load_settings
from vaultd.errors import InputError
from vaultd.pipeline.capture import CaptureResult, capture
from vaultd.vault import Vault

PNAS = "10.1073/pnas.1414271111"
PNAS_TITLE = ("Developing functional musculoskeletal tissues through hypoxia and lysyl "
              "oxidase-induced collagen cross-linking")
PNAS_PDF_URL = "/_ext/www.pnas.org/content/pnas/111/45/E4832.full.pdf"
HRP = "10.1023/a:1007154515475"
HRP_TITLE = ("An essential role of active site arginine residue in iodide binding and "
             "histidine residue in electron transfer for iodide oxidation by horseradish "
             "peroxidase")
JNER = "pdfs/two_column/jner_2016_demarchis_0046d83a.pdf"


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    with ReplayServer() as s:
        yield s


def settings_for(server: ReplayServer, **extra: object) -> Settings:
    return load_settings(overrides=capture_overrides(server, **extra))


def run(vault: Vault, server: ReplayServer, text: str, settings: Settings | None = None,
        **kw: object) -> list[CaptureResult]:
    async def go() -> list[CaptureResult]:
        async with loopback_client(server) as client:
            return await capture(vault, settings or settings_for(server), text,
                                 client=client, **kw)  # type: ignore[arg-type]
    return asyncio.run(go())


def serve_pnas(server: ReplayServer, fx: Path) -> None:
    serve_crossref(server, PNAS, fx / "crossref/works/10.1073_pnas.1414271111.json")
    serve_openalex(server, PNAS, fx / "openalex/works/doi_10.1073_pnas.1414271111.json")
    serve_unpaywall(server, PNAS, fx / "unpaywall/v2/10.1073_pnas.1414271111.json")


def serve_hrp(server: ReplayServer, fx: Path) -> None:
    serve_crossref(server, HRP, fx / "crossref/works/10.1023_a_1007154515475.json")
    serve_openalex(server, HRP, fx / "openalex/works/doi_10.1023_a_1007154515475.json")
    serve_unpaywall(server, HRP, fx / "unpaywall/v2/10.1023_a_1007154515475.json")


def make_pdf(path: Path, title: str, doi: str) -> Path:
    """A one-page PDF with the title in the largest font and the DOI printed below it."""
    pymupdf: Any = importlib.import_module("pymupdf")
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(50, 60, 550, 200), title, fontsize=18)
    page.insert_text((50, 230), f"doi:{doi}", fontsize=9)
    page.insert_text((50, 250), "Abstract. A body paragraph in a small font.", fontsize=9)
    doc.save(path)
    return path


def test_doi_capture_with_three_agreeing_sources_is_reconciled_and_fetches_the_oa_pdf(
        vault: Vault, server: ReplayServer, fixtures_dir: Path) -> None:
    serve_pnas(server, fixtures_dir)
    server.route(PNAS_PDF_URL, body=fixtures_dir / JNER, content_type="application/pdf")
    [res] = run(vault, server, f"https://doi.org/{PNAS}")
    assert res.status == "created"
    assert res.meta.reconciled is True
    assert res.meta.title == PNAS_TITLE
    assert res.meta.year == 2014 and res.meta.authors[0].endswith("Makris")
    assert set(res.meta.sources) == {"crossref", "openalex", "unpaywall"}
    assert res.pdf == vault.pdf_path(res.cite_key) and res.pdf.read_bytes().startswith(b"%PDF-")
    on_disk = json.loads(vault.meta_path(res.cite_key).read_text())
    assert on_disk["doi"] == PNAS and on_disk["pdf_sha256"] == res.meta.pdf_sha256
    assert on_disk["pdf"] == f"raw/{res.cite_key}.pdf"
    ua = [r.headers.get("User-Agent", "") for r in server.requests]
    assert all("vaultd/" in u and "mailto:test@example.org" in u for u in ua)


def test_a_title_disagreement_becomes_a_specific_warning(
        vault: Vault, server: ReplayServer, fixtures_dir: Path) -> None:
    serve_pnas(server, fixtures_dir)
    # OpenAlex answers with another paper's (real) record.
    serve_openalex(server, PNAS, fixtures_dir / "openalex/works/doi_10.1023_a_1007154515475.json")
    [res] = run(vault, server, PNAS)
    assert any(w.startswith('title: crossref "Developing functional') and "openalex" in w
               for w in res.warnings)
    assert any(w.startswith("first author: crossref Makris vs openalex Adak") for w in res.warnings)
    assert any(w == "year: crossref 2014 vs openalex 2001" for w in res.warnings)
    # CrossRef and Unpaywall agree, but Unpaywall repeats CrossRef: not two witnesses.
    assert res.meta.reconciled is False


def test_html_served_instead_of_a_pdf_is_never_saved(
        vault: Vault, server: ReplayServer, fixtures_dir: Path) -> None:
    serve_pnas(server, fixtures_dir)
    server.route(PNAS_PDF_URL, body=fixtures_dir / "openalex/errors/404_not_in_openalex.html",
                 content_type="text/html")
    [res] = run(vault, server, PNAS)
    assert res.status == "metadata-only" and res.pdf is None
    assert not vault.pdf_path(res.cite_key).exists()
    assert any("served a web page instead of a PDF" in w for w in res.warnings)
    assert any("drop the PDF into the Inbox" in w for w in res.warnings)


def test_a_doi_nobody_knows_asks_for_the_cite_key_flag(
        vault: Vault, server: ReplayServer, fixtures_dir: Path) -> None:
    doi = "10.48550/arxiv.2312.07559"
    serve_crossref(server, doi, fixtures_dir / "crossref/errors/404_10.48550_arxiv.2312.07559.txt",
                   status=404, content_type="text/plain")
    serve_openalex(server, doi, fixtures_dir / "openalex/errors/404_not_in_openalex.html",
                   status=404, content_type="text/html")
    with pytest.raises(InputError, match="--cite-key"):
        run(vault, server, doi, settings_for(server, email=None))
    [res] = run(vault, server, doi, settings_for(server, email=None), cite_key="paperqa2023")
    assert res.cite_key == "paperqa2023" and res.status == "metadata-only"
    assert res.meta.doi == doi


def test_a_source_timing_out_is_named_and_crossref_with_unpaywall_alone_is_unreconciled(
        vault: Vault, server: ReplayServer, fixtures_dir: Path) -> None:
    serve_pnas(server, fixtures_dir)
    server.route(f"/openalex/works/doi:{PNAS}",
                 body=fixtures_dir / "openalex/works/doi_10.1073_pnas.1414271111.json",
                 delay_seconds=5.0)
    settings = settings_for(server, timeout_seconds=0.3, max_retries=0)
    [res] = run(vault, server, PNAS, settings)
    assert res.meta.title == PNAS_TITLE
    assert any(w.startswith("openalex unavailable:") and "timed out" in w for w in res.warnings)
    # Unpaywall's metadata is CrossRef's: it agrees, but it is not a second witness.
    assert "openalex" not in res.meta.sources and "unpaywall" in res.meta.sources
    assert res.meta.reconciled is False
    assert any("unpaywall repeats crossref" in w for w in res.warnings)


def test_same_arxiv_id_twice_makes_one_record_even_without_state_db(
        vault: Vault, server: ReplayServer, fixtures_dir: Path) -> None:
    serve_arxiv(server, "1605.08386", fixtures_dir / "arxiv/1605.08386.atom.xml")
    server.route("/arxiv/pdf/1605.08386v1", body=fixtures_dir / JNER,
                 content_type="application/pdf")
    [first] = run(vault, server, "https://arxiv.org/abs/1605.08386")
    assert first.status == "created" and first.meta.arxiv_id == "1605.08386"
    assert first.meta.title == "Heat-bath random walks with Markov bases"
    assert "/arxiv/pdf/1605.08386v1" in server.paths()
    [again] = run(vault, server, "arXiv:1605.08386v1")
    assert (again.status, again.cite_key) == ("existing", first.cite_key)
    vault.state_db.unlink()
    [third] = run(vault, server, "1605.08386")
    assert (third.status, third.cite_key) == ("existing", first.cite_key)
    assert len(list(vault.raw.glob("*.meta.json"))) == 1


def test_refresh_re_asks_the_sources_and_keeps_the_key(
        vault: Vault, server: ReplayServer, fixtures_dir: Path) -> None:
    serve_hrp(server, fixtures_dir)
    [first] = run(vault, server, HRP)
    asked = len(server.requests)
    [cached] = run(vault, server, f"doi:{HRP}")
    assert cached.status == "existing" and len(server.requests) == asked
    [res] = run(vault, server, HRP, refresh=True)
    assert (res.status, res.cite_key) == ("refreshed", first.cite_key)
    assert len(server.requests) > asked


def test_a_local_pdf_is_copied_and_reconciled_by_its_printed_doi(
        vault: Vault, server: ReplayServer, fixtures_dir: Path, tmp_path: Path) -> None:
    serve_pnas(server, fixtures_dir)
    pdf = make_pdf(tmp_path / "paper.pdf", PNAS_TITLE, PNAS)
    [res] = run(vault, server, str(pdf))
    assert pdf.exists(), "capture must copy, never move"
    assert res.status == "created" and res.meta.reconciled and res.meta.doi == PNAS
    assert res.pdf is not None and res.pdf.read_bytes() == pdf.read_bytes()
    [again] = run(vault, server, str(pdf))
    assert (again.status, again.cite_key) == ("existing", res.cite_key)


def test_a_pdf_printing_a_wrong_doi_falls_back_to_its_own_metadata(
        vault: Vault, server: ReplayServer, fixtures_dir: Path) -> None:
    # The DOI printed in the PDF resolves (here) to another paper's real record.
    printed = "10.1186/s12984-016-0129-6"
    serve_crossref(server, printed, fixtures_dir / "crossref/works/10.1073_pnas.1414271111.json")
    [res] = run(vault, server, str(fixtures_dir / JNER), settings_for(server, email=None))
    assert res.meta.doi is None
    assert res.meta.title.startswith("Multi-contact functional electrical stimulation")  # type: ignore[union-attr]
    assert res.meta.reconciled is False
    assert res.cite_key.startswith("demarchis2016")
    assert any(w.startswith(f"doi {printed} printed in the PDF belongs to") for w in res.warnings)


def test_a_local_pdf_with_every_source_down_is_saved_for_retry(
        vault: Vault, tmp_path: Path, server: ReplayServer) -> None:
    _, _, res = _captured_while_offline(vault, tmp_path)
    assert res.needs_retry is True and res.meta.reconciled is False
    assert res.pdf is not None and res.pdf.is_file()
    assert any(w.startswith("crossref unavailable") for w in res.warnings)
    # The DOI printed on the page is kept for the retry pass, but never cited: it could be
    # a reference's.
    assert res.meta.work.printed_ids == [f"doi:{PNAS}"] and res.meta.doi is None
    assert f"ids printed in the PDF, not yet confirmed (no source answered): doi:{PNAS}" \
        in res.warnings


def test_only_copyright_publication_and_volume_lines_give_a_printed_year() -> None:
    from vaultd.capture.pdfmeta import printed_years

    assert printed_years("Received: 1 Jan 2015; Accepted: 2 Feb 2016\n© 2016 The Authors") \
        == [2015, 2016]
    assert printed_years("Proceedings of NAACL-HLT 2018, pages 84–91") == [2018]
    # Body text that merely mentions a year, even beside "volume" or "published".
    assert printed_years("Since the volume of data doubled in 2012, tissue grown in 2011 "
                         "and unpublished data from 2009 were published in 2010") == []


def test_a_pdf_alone_gives_no_creation_year_and_no_generic_title(fixtures_dir: Path) -> None:
    from vaultd.capture.pdfmeta import read_pdf_meta
    from vaultd.pipeline.pdf_hint import pdf_hint as _pdf_hint

    # Hindawi 2010: the file was made in 2011; its first page prints 2010 (read by hand).
    hindawi = read_pdf_meta(fixtures_dir / "pdfs/two_column_ligatures/hindawi_rrp_2010_tully_test2.pdf")
    assert hindawi.info_year == 2011
    assert _pdf_hint(hindawi).issued == [2010]  # type: ignore[union-attr]
    # NAACL 2018 prints "c⃝2017" (sic) beside "Proceedings of NAACL-HLT 2018": the file's
    # 2018 agrees with one of them, so 2018.
    naacl = read_pdf_meta(fixtures_dir / "pdfs/two_column/N18-3011_naacl2018_literature_graph.pdf")
    assert _pdf_hint(naacl).issued == [2018]  # type: ignore[union-attr]
    naacl.info_title = "Research Article"
    hint = _pdf_hint(naacl)
    # The byline under the title gives all 23 authors, in order (read from the page image).
    assert hint is not None and hint.sources == ["pdf-layout"] and len(hint.authors) == 23
    assert (hint.authors[0].family, hint.authors[-1].family) == ("Ammar", "Etzioni")
    assert hint.title == "Construction of the Literature Graph in Semantic Scholar"


def test_a_pdf_dropped_later_attaches_to_the_metadata_only_record(
        vault: Vault, server: ReplayServer, fixtures_dir: Path, tmp_path: Path) -> None:
    serve_hrp(server, fixtures_dir)  # Unpaywall: closed access, so no PDF anywhere
    [meta_only] = run(vault, server, HRP)
    assert meta_only.status == "metadata-only" and meta_only.pdf is None
    pdf = make_pdf(tmp_path / "hrp.pdf", HRP_TITLE, HRP)
    [res] = run(vault, server, str(pdf))
    assert res.cite_key == meta_only.cite_key and res.status == "refreshed"
    assert res.pdf is not None and res.pdf.is_file()
    assert res.meta.pdf_sha256 is not None


def test_youtube_offline_is_a_transient_failure(vault: Vault, server: ReplayServer) -> None:
    from vaultd.errors import VaultdError

    with pytest.raises(VaultdError, match="cannot reach YouTube") as raised:
        run(vault, server, "https://www.youtube.com/watch?v=JjQDik3yNhA")
    assert raised.value.transient


def test_a_missing_file_is_reported_as_missing(vault: Vault, server: ReplayServer,
                                               tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        run(vault, server, str(tmp_path / "nope.pdf"))


def test_a_link_list_captures_each_item(
        vault: Vault, server: ReplayServer, fixtures_dir: Path, tmp_path: Path) -> None:
    serve_pnas(server, fixtures_dir)
    serve_hrp(server, fixtures_dir)
    links = tmp_path / "reading.md"
    links.write_text(f"- https://doi.org/{PNAS}\n- doi:{HRP}\n")
    results = run(vault, server, str(links))
    assert [r.meta.doi for r in results] == [PNAS, HRP]


def test_bib_import_keeps_the_users_keys(
        vault: Vault, server: ReplayServer, fixtures_dir: Path, tmp_path: Path) -> None:
    doi = "10.1038/s42256-024-00832-8"
    serve_crossref(server, doi, fixtures_dir / "crossref/works/10.1038_s42256-024-00832-8.json")
    bib = tmp_path / "lib.bib"
    bib.write_text((fixtures_dir / "crossref/transform/10.1038_s42256-024-00832-8.bib").read_text()
                   + "\n@book{knuth1984tex, title={The {\\TeX}book}, author={Knuth, Donald E.},"
                     " year={1984}, publisher={Addison-Wesley}}\n")
    results = run(vault, server, str(bib), settings_for(server, email=None))
    assert [r.cite_key for r in results] == ["M_Bran_2024", "knuth1984tex"]
    assert results[0].meta.title == "Augmenting large language models with chemistry tools"
    assert results[1].status == "metadata-only" and results[1].meta.year == 1984
    again = run(vault, server, str(bib), settings_for(server, email=None))
    assert [(r.cite_key, r.status) for r in again] == [("M_Bran_2024", "existing"),
                                                        ("knuth1984tex", "existing")]


def test_a_url_shortcut_file_captures_its_link(
        vault: Vault, server: ReplayServer, fixtures_dir: Path, tmp_path: Path) -> None:
    serve_hrp(server, fixtures_dir)
    shortcut = tmp_path / "paper.url"
    shortcut.write_text(f"[InternetShortcut]\r\nURL=https://doi.org/{HRP}\r\n")
    [res] = run(vault, server, str(shortcut))
    assert res.meta.doi == HRP and res.meta.title == HRP_TITLE


def test_a_pdf_url_with_doi_is_downloaded_and_a_landing_page_is_refused(
        vault: Vault, server: ReplayServer, fixtures_dir: Path) -> None:
    serve_pnas(server, fixtures_dir)
    server.route("/_ext/example.org/paper.pdf", body=fixtures_dir / JNER,
                 content_type="application/pdf")
    server.route("/_ext/example.org/landing.pdf",
                 body=fixtures_dir / "openalex/errors/404_not_in_openalex.html",
                 content_type="text/html")
    [res] = run(vault, server, "https://example.org/paper.pdf", doi=PNAS)
    assert res.status == "created" and res.meta.doi == PNAS
    # The served PDF is another paper: the mismatch with --doi is reported.
    assert any(w.startswith('pdf: first page reads "Multi-contact') for w in res.warnings)
    assert res.pdf is not None and res.pdf.read_bytes() == (fixtures_dir / JNER).read_bytes()
    with pytest.raises(InputError, match="a web page, not a PDF"):
        run(vault, server, "https://example.org/landing.pdf")


def test_a_local_pdf_without_any_id_uses_its_embedded_metadata_unreconciled(
        vault: Vault, server: ReplayServer, fixtures_dir: Path) -> None:
    pdf = fixtures_dir / "pdfs/two_column/N18-3011_naacl2018_literature_graph.pdf"
    [res] = run(vault, server, str(pdf))
    assert res.meta.title == "Construction of the Literature Graph in Semantic Scholar"
    assert res.meta.authors[0] == "Waleed Ammar" and res.meta.year == 2018
    assert res.meta.reconciled is False and res.needs_retry is False
    assert res.cite_key.startswith("ammar2018")
    assert server.requests == []


def test_an_arxiv_preprint_records_its_published_doi_and_answers_to_both(
        vault: Vault, server: ReplayServer, fixtures_dir: Path) -> None:
    # The real search feed holds 2405.13786, whose arxiv:doi names the ICSTW 2023 paper.
    serve_arxiv(server, "2405.13786", fixtures_dir / "arxiv/search_testing_start0_max10.atom.xml")
    published = "10.1109/icstw58534.2023.00023"
    serve_crossref(server, published,
                   fixtures_dir / "crossref/errors/404_10.48550_arxiv.2312.07559.txt",
                   status=404, content_type="text/plain")
    settings = settings_for(server, email=None)
    [res] = run(vault, server, "https://arxiv.org/abs/2405.13786v1", settings)
    assert res.meta.arxiv_id == "2405.13786" and res.meta.work.arxiv_version == 1
    assert res.meta.work.doi_preprint == "10.48550/arxiv.2405.13786"
    assert res.meta.work.doi_published == published
    assert res.meta.reconciled is False  # only arXiv answered
    [again] = run(vault, server, f"https://doi.org/{published}", settings)
    assert (again.status, again.cite_key) == ("existing", res.cite_key)


def test_the_same_id_captured_concurrently_asks_arxiv_once_and_makes_one_record(
        vault: Vault, server: ReplayServer, fixtures_dir: Path) -> None:
    serve_arxiv(server, "1605.08386", fixtures_dir / "arxiv/1605.08386.atom.xml")
    settings = settings_for(server)

    async def go() -> list[list[CaptureResult]]:
        async with loopback_client(server) as client:
            return await asyncio.gather(*(capture(vault, settings, text, client=client)
                                          for text in ("1605.08386", "arXiv:1605.08386",
                                                       "https://arxiv.org/abs/1605.08386")))

    results = [r for batch in asyncio.run(go()) for r in batch]
    assert len({r.cite_key for r in results}) == 1
    assert sorted(r.status for r in results) == ["existing", "existing", "metadata-only"]
    assert server.paths().count("/arxiv/api/query?id_list=1605.08386") == 1


@pytest.mark.parametrize("rel", ["pdfs/corrupt/broken-pdf.pdf", "pdfs/corrupt/zero-size-pdf.pdf",
                                 "pdfs/encrypted/password-example_pw-test.pdf"])
def test_broken_and_encrypted_pdfs_fail_cleanly_and_leave_nothing(
        vault: Vault, server: ReplayServer, fixtures_dir: Path, rel: str) -> None:
    from vaultd.errors import ParseError

    with pytest.raises(ParseError, match=Path(rel).name):
        run(vault, server, str(fixtures_dir / rel))
    assert list(vault.raw.iterdir()) == []


def test_papers_with_the_same_base_key_captured_from_threads_get_distinct_keys(
        vault: Vault, server: ReplayServer, tmp_path: Path) -> None:
    import threading

    from test_daemon_support import sample_bytes, sample_variant

    base = sample_bytes(tmp_path)
    pdfs = []
    for n in range(6):  # same first author, year and first title word: one base key
        pdfs.append(tmp_path / f"variant{n}.pdf")
        pdfs[-1].write_bytes(sample_variant(base, n))
    settings = settings_for(server)
    keys: dict[int, str] = {}
    barrier = threading.Barrier(len(pdfs))

    def worker(n: int) -> None:
        barrier.wait()
        [res] = run(vault, server, str(pdfs[n]), settings)
        keys[n] = res.cite_key

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(len(pdfs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(set(keys.values())) == len(pdfs), keys
    for n, key in keys.items():  # each key holds its own PDF
        assert vault.pdf_path(key).read_bytes() == pdfs[n].read_bytes()


def test_every_openalex_oa_location_is_tried_in_order_until_one_serves_a_pdf(
        vault: Vault, server: ReplayServer, fixtures_dir: Path) -> None:
    serve_pnas(server, fixtures_dir)
    # Unpaywall's PDF URL is not routed (404); OpenAlex's first location serves a web page,
    # its second the PDF.
    server.route("/_ext/europepmc.org/articles/pmc4234579",
                 body=fixtures_dir / "openalex/errors/404_not_in_openalex.html",
                 content_type="text/html")
    server.route("/_ext/escholarship.org/content/qt4ws805f2/qt4ws805f2.pdf",
                 body=fixtures_dir / JNER, content_type="application/pdf")
    [res] = run(vault, server, PNAS)
    assert res.status == "created" and res.pdf is not None
    assert res.pdf.read_bytes() == (fixtures_dir / JNER).read_bytes()
    asked = [r.path for r in server.requests if r.path.startswith("/_ext/")]
    assert [p.split("/")[2] for p in asked] == ["www.pnas.org", "europepmc.org",
                                                "escholarship.org"]


def test_a_link_list_goes_on_past_a_bad_item_and_fails_only_when_every_item_does(
        vault: Vault, server: ReplayServer, fixtures_dir: Path, tmp_path: Path) -> None:
    serve_hrp(server, fixtures_dir)
    server.route("/_ext/example.org/landing.pdf",
                 body=fixtures_dir / "openalex/errors/404_not_in_openalex.html",
                 content_type="text/html")
    links = tmp_path / "reading.txt"
    links.write_text(f"https://example.org/landing.pdf\n{HRP}\n")
    results = run(vault, server, str(links))
    assert [r.meta.doi for r in results] == [HRP]
    assert [item for item, _ in results.failed] == [  # type: ignore[attr-defined]
        "https://example.org/landing.pdf"]
    bad = tmp_path / "bad.txt"
    bad.write_text("https://example.org/landing.pdf\nhttps://youtu.be/gogEJyoSB9s\n")
    with pytest.raises(InputError, match=r"none of the 2 items could be captured: "
                                         r"https://example\.org/landing\.pdf: .*web page"):
        run(vault, server, str(bad))


@pytest.mark.parametrize("body", [b'{"title": "T", "publication_year": "n/a"}',
                                  b'{"title": "T", "authorships": ["A. Author"]}'])
def test_a_source_answering_in_an_unexpected_shape_is_named_and_the_capture_goes_on(
        vault: Vault, server: ReplayServer, fixtures_dir: Path, body: bytes) -> None:
    serve_pnas(server, fixtures_dir)
    server.route(f"/openalex/works/doi:{PNAS}", body=body, content_type="application/json")
    [res] = run(vault, server, PNAS)
    assert res.meta.title == PNAS_TITLE and "openalex" not in res.meta.sources
    assert any(w.startswith("openalex answered in an unexpected shape (") for w in res.warnings), \
        res.warnings


def test_an_openalex_published_record_naming_the_arxiv_preprint_explains_the_year_in_meta_json(
        vault: Vault, server: ReplayServer, fixtures_dir: Path, tmp_path: Path) -> None:
    # arXiv's entry has no arxiv:doi; OpenAlex, asked by the arXiv DOI, answers with the
    # published record (the recorded OpenAlex shape) that lists the arXiv preprint.
    serve_arxiv(server, "1605.08386", fixtures_dir / "arxiv/1605.08386.atom.xml")
    data = json.loads((fixtures_dir / "openalex/works/doi_10.1073_pnas.1414271111.json")
                      .read_text())
    data.update(doi="https://doi.org/10.1000/heatbath.2018", publication_year=2018,
                publication_date="2018-03-01", title="Heat-bath random walks with Markov bases",
                display_name="Heat-bath random walks with Markov bases")
    data["authorships"][0]["author"]["display_name"] = "Caprice Stanley"
    data["locations"].append({**data["locations"][1], "pdf_url": None,
                              "landing_page_url": "https://arxiv.org/abs/1605.08386v2"})
    body = tmp_path / "openalex.json"
    body.write_text(json.dumps(data))
    serve_openalex(server, "10.48550/arxiv.1605.08386", body)
    [res] = run(vault, server, "arXiv:1605.08386", settings_for(server, email=None))
    expected = ("year: arxiv 2016 is the preprint, openalex 2018 the published version "
                "(expected difference)")
    assert not any(w.startswith("year:") for w in res.warnings), res.warnings
    assert res.meta.reconciled is True
    on_disk = json.loads(vault.meta_path(res.cite_key).read_text())
    assert on_disk["notes"] == [expected]


def _captured_while_offline(vault: Vault, tmp_path: Path) -> tuple[Path, Settings, CaptureResult]:
    """A local PDF captured while every metadata source is unreachable."""
    pdf = make_pdf(tmp_path / "paper.pdf", PNAS_TITLE, PNAS)
    dead = "http://127.0.0.1:9"
    down = load_settings(overrides={"capture": {
        "crossref_url": dead, "openalex_url": dead, "unpaywall_url": dead, "email": "t@e.org",
        "max_retries": 0, "timeout_seconds": 2.0}})
    [saved] = asyncio.run(capture(vault, down, str(pdf)))
    return pdf, down, saved


def test_retry_pending_re_asks_the_sources_for_a_pdf_saved_while_they_were_down(
        vault: Vault, tmp_path: Path, server: ReplayServer, fixtures_dir: Path) -> None:
    from vaultd.pipeline.capture import pending_retries, retry_pending

    pdf, _, saved = _captured_while_offline(vault, tmp_path)
    assert saved.needs_retry is True and pending_retries(vault) == [saved.cite_key]
    serve_pnas(server, fixtures_dir)  # the sources are back

    async def go() -> list[CaptureResult]:
        async with loopback_client(server) as client:
            return await retry_pending(vault, settings_for(server), client=client)
    [res] = asyncio.run(go())
    assert (res.cite_key, res.status) == (saved.cite_key, "refreshed")
    assert res.needs_retry is False and res.meta.reconciled is True and res.meta.doi == PNAS
    assert json.loads(vault.meta_path(res.cite_key).read_text())["needs_retry"] is False
    assert vault.pdf_path(res.cite_key).read_bytes() == pdf.read_bytes()
    assert pending_retries(vault) == []


def test_the_agents_retry_pass_fetches_metadata_and_recompiles_a_pdf_saved_while_offline(
        vault: Vault, tmp_path: Path, server: ReplayServer, fixtures_dir: Path) -> None:
    from vaultd.pipeline.ingest import retry_pending_records

    _, down, saved = _captured_while_offline(vault, tmp_path)
    assert retry_pending_records(vault, down) == []  # still offline: stays pending
    assert json.loads(vault.meta_path(saved.cite_key).read_text())["needs_retry"] is True
    serve_pnas(server, fixtures_dir)  # the sources are back
    assert retry_pending_records(vault, settings_for(server)) == [saved.cite_key]
    note = vault.note_path(saved.cite_key).read_text(encoding="utf-8")
    assert f"doi: {PNAS}" in note and "reconciled: true" in note
    assert json.loads(vault.meta_path(saved.cite_key).read_text())["needs_retry"] is False


def _untitled_pdf(path: Path, doi: str) -> Path:
    """A scan-like PDF: no title, no embedded metadata, only a DOI nobody knows printed."""
    pymupdf: Any = importlib.import_module("pymupdf")
    doc = pymupdf.open()
    doc.new_page().insert_text((50, 60), f"doi:{doi}", fontsize=9)
    doc.save(path)
    return path


def test_an_inbox_pdf_nobody_knows_asks_to_be_renamed_and_its_key_name_saves_it(
        vault: Vault, server: ReplayServer, fixtures_dir: Path, tmp_path: Path) -> None:
    from vaultd.pipeline.ingest import ingest_item

    doi = "10.48550/arxiv.2312.07559"
    for _ in range(2):
        serve_crossref(server, doi, fixtures_dir / "crossref/errors/404_10.48550_arxiv.2312.07559.txt",
                       status=404, content_type="text/plain")
        serve_openalex(server, doi, fixtures_dir / "openalex/errors/404_not_in_openalex.html",
                       status=404, content_type="text/html")
    settings = settings_for(server, email=None)
    dropped = _untitled_pdf(tmp_path / "download.pdf", doi)
    with pytest.raises(InputError) as err:
        ingest_item(vault, settings, dropped, action="capture", compile=False)
    message = str(err.value)
    # what an Inbox user can do, not a command-line flag
    assert "--cite-key" not in message and "rename it to the cite key you want" in message
    assert message.startswith("download.pdf: no metadata found")
    named = dropped.rename(tmp_path / "paperqa2023.pdf")
    result = ingest_item(vault, settings, named, action="capture", compile=False)
    assert result.cite_keys == ["paperqa2023"]
    assert vault.pdf_path("paperqa2023").read_bytes() == named.read_bytes()
