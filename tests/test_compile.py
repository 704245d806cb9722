"""compile_note and `vaultd compile`: the sample paper becomes a verbatim, stable note."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from vaultd.cli import main_group
from vaultd.config import Settings
from vaultd.errors import ParseError
from vaultd.models import Author, MetaFile, Work
from vaultd.notes.markdown import render_note
from vaultd.notes.reader import parse_note
from vaultd.pipeline.compile import compile_note
from vaultd.samplepdf import write_sample_paper
from vaultd.vault import Vault

KEY = "lovelace2024verbatim"


def _meta(vault: Vault, key: str = KEY, pdf: bool = True) -> None:
    work = Work(
        title="Verbatim Quotes from Two-Column Papers",
        authors=[Author(family="Lovelace", given="Ada"), Author(family="Babbage", given="Charles")],
        issued=[2024],
        container_title="Journal of Careful Notes",
        doi="10.1234/vaultd.sample.2024",
    )
    meta = MetaFile.from_work(key, work, pdf=f"raw/{key}.pdf" if pdf else None,
                              captured_at="2024-01-15T12:00:00+00:00")
    vault.meta_path(key).write_text(meta.model_dump_json(by_alias=True), encoding="utf-8")


@pytest.fixture
def sample_vault(vault: Vault) -> Vault:
    write_sample_paper(vault.pdf_path(KEY))
    _meta(vault)
    return vault


def test_compiling_the_sample_paper_writes_a_note_with_verbatim_chunks(sample_vault: Vault) -> None:
    result = compile_note(sample_vault, Settings(), KEY)
    assert result.parser == "pymupdf" and result.pages == 2
    note = parse_note(result.note_path.read_text(encoding="utf-8"))
    assert note.meta.parser == "pymupdf" and note.meta.chunks == result.chunks == len(note.chunks)
    assert note.meta.pdf_sha256 and note.meta.raw == f"raw/{KEY}.pdf"
    texts = [c.text for c in note.chunks]
    assert any(t.startswith("The method reads") and "representation of the layout" in t for t in texts)
    assert set(note.citations) >= {"apa", "bibtex"}
    assert all(c.enrichment == "pending" for c in note.chunks)


def test_compiling_twice_gives_a_byte_identical_note(sample_vault: Vault) -> None:
    path = compile_note(sample_vault, Settings(), KEY).note_path
    first = path.read_bytes()
    compile_note(sample_vault, Settings(), KEY)
    assert path.read_bytes() == first
    assert len(list(sample_vault.wiki.glob("*.md"))) == 1


def test_figure_region_is_cropped_to_raw_figs_and_linked(sample_vault: Vault) -> None:
    note = parse_note(compile_note(sample_vault, Settings(), KEY).note_path.read_text("utf-8"))
    fig = next(c for c in note.chunks if c.provenance.chunk_type == "figure")
    assert fig.figure == f"raw/figs/{KEY}_fig1.png"
    png = sample_vault.root / fig.figure
    assert png.read_bytes().startswith(b"\x89PNG")
    import pymupdf

    from vaultd.samplepdf import write_sample_paper as _w

    box = _w(sample_vault.root / "check.pdf").figure_box
    # the crop spans the drawn shapes (plus 4 pt padding) at 2x zoom, not the whole column
    assert abs(pymupdf.Pixmap(str(png)).width - (box[2] - box[0] + 8) * 2) <= 4


def test_figure_crop_has_exactly_the_pixels_mupdf_renders_for_its_region(sample_vault: Vault) -> None:
    import pymupdf

    from vaultd.parse.figures import figure_region

    compile_note(sample_vault, Settings(), KEY)
    png = sample_vault.figs / f"{KEY}_fig1.png"
    index = json.loads((sample_vault.figs / f".{KEY}_figs.json").read_text("utf-8"))
    _, page_no, caption, column, zoom, _, _ = json.loads(index[png.name][0])
    crop = pymupdf.Pixmap(str(png))
    with pymupdf.open(sample_vault.pdf_path(KEY)) as doc:
        page = doc[page_no - 1]
        region = figure_region(page, tuple(caption), tuple(column) if column else None)
        assert region is not None
        want = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), clip=region, alpha=False,
                               colorspace=pymupdf.csRGB)
    assert (crop.width, crop.height, crop.n) == (want.width, want.height, 3)
    assert crop.samples == want.samples


def test_png_encoder_round_trips_rgb_and_gray_rows_with_padding() -> None:
    import pymupdf

    from vaultd.parse.figures import png_bytes

    width, height, stride = 7, 3, 24  # rows of 7 RGB pixels and 3 padding bytes
    samples = bytes((i * 37 + 11) % 256 for i in range(stride * height))
    pix = pymupdf.Pixmap(png_bytes(width, height, 3, stride, samples, (144, 144)))
    assert (pix.width, pix.height, pix.n, pix.xres) == (7, 3, 3, 144)
    assert pix.samples == b"".join(samples[y * stride:y * stride + 21] for y in range(3))
    gray = pymupdf.Pixmap(png_bytes(5, 2, 1, 5, bytes([0, 50, 100, 150, 255] * 2)))
    assert gray.n == 1 and gray.samples == bytes([0, 50, 100, 150, 255] * 2)
    with pytest.raises(ValueError, match="cannot encode"):
        png_bytes(2, 2, 4, 8, bytes(16))


def test_recompile_keeps_the_users_own_section(sample_vault: Vault) -> None:
    path = compile_note(sample_vault, Settings(), KEY).note_path
    note = parse_note(path.read_text("utf-8"))
    note.user_blocks.append("## My notes\n\nThis is mine.\n")
    path.write_text(render_note(note), encoding="utf-8")
    compile_note(sample_vault, Settings(), KEY)
    assert "This is mine." in path.read_text("utf-8")


def test_a_comment_typed_after_a_quote_stays_after_it_on_recompile(sample_vault: Vault) -> None:
    path = compile_note(sample_vault, Settings(), KEY).note_path
    text = path.read_text("utf-8")
    third = parse_note(text).chunks[2]
    end = text.index("<!-- /chunk -->\n\n", text.index(f"<!-- chunk id={third.id} -->"))
    at = end + len("<!-- /chunk -->\n\n")
    mine = "Check this against my pilot data.\n\n"
    path.write_text(text[:at] + mine + text[at:], encoding="utf-8")
    compile_note(sample_vault, Settings(), KEY)
    again = path.read_text("utf-8")
    assert again == text[:at] + mine + text[at:]


def test_bad_pdf_fails_with_one_line_and_writes_nothing(vault: Vault, fixtures_dir: Path) -> None:
    shutil.copy(fixtures_dir / "pdfs" / "encrypted" / "password-example_pw-test.pdf", vault.pdf_path(KEY))
    _meta(vault)
    with pytest.raises(ParseError, match="encrypted"):
        compile_note(vault, Settings(), KEY)
    assert list(vault.wiki.iterdir()) == []


def test_metadata_only_record_compiles_to_a_note_with_citations_and_no_chunks(vault: Vault) -> None:
    _meta(vault, pdf=False)
    result = compile_note(vault, Settings(), KEY)
    note = parse_note(result.note_path.read_text("utf-8"))
    assert result.chunks == 0 and note.chunks == [] and note.citations


def test_compile_command_reports_the_tier_as_json(sample_vault: Vault) -> None:
    res = CliRunner().invoke(main_group, ["--vault", str(sample_vault.root), "compile", KEY, "--json"],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["parser"] == "pymupdf" and data["note"] == f"wiki/{KEY}.md" and data["chunks"] > 10


def test_compile_command_with_pdftotext_tier(sample_vault: Vault) -> None:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext not installed")
    res = CliRunner().invoke(main_group, ["--vault", str(sample_vault.root), "compile", KEY,
                                          "--parser", "pdftotext"], catch_exceptions=False)
    assert res.exit_code == 0
    assert "2 chunks from 2 pages (parser: pdftotext)" in res.stdout


def test_verify_source_is_clean_right_after_compile(sample_vault: Vault) -> None:
    from vaultd.pipeline.verify_source import verify_sources

    compile_note(sample_vault, Settings(), KEY)
    # The user's own notes in wiki/ are not paper notes: no MALFORMED for them.
    (sample_vault.wiki / "reading list.md").write_text("# To read\n\n- more\n", encoding="utf-8")
    (sample_vault.wiki / "ideas").mkdir()
    (sample_vault.wiki / "ideas" / "idea.md").write_text("---\ntags: [x]\n---\nHmm.\n",
                                                         encoding="utf-8")
    report = verify_sources(sample_vault)
    assert report.notes == 1 and report.chunks > 10 and report.ok, report.findings


def test_verify_source_reports_pdf_changed_and_stale_chunks(sample_vault: Vault) -> None:
    import pymupdf

    from vaultd.pipeline.verify_source import verify_sources

    compile_note(sample_vault, Settings(), KEY)
    pdf = sample_vault.pdf_path(KEY)
    doc = pymupdf.open(pdf)
    page = doc[1]
    hit = page.search_for("Every paragraph of this paper")[0]
    page.add_redact_annot(hit)
    page.apply_redactions()
    data = doc.tobytes()
    doc.close()
    pdf.write_bytes(data)
    report = verify_sources(sample_vault, KEY)
    kinds = [f.kind for f in report.findings]
    assert "PDF CHANGED" in kinds
    stale = [f for f in report.findings if f.kind == "STALE"]
    assert len(stale) == 1 and stale[0].chunk_id is not None and stale[0].chunk_id.startswith("p2s3")


def test_compile_command_on_a_bad_pdf_prints_one_error_line_and_exits_1(
    vault: Vault, fixtures_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from vaultd.cli.common import run_command

    shutil.copy(fixtures_dir / "pdfs" / "corrupt" / "broken-pdf.pdf", vault.pdf_path(KEY))
    _meta(vault)
    import sys

    argv = sys.argv
    sys.argv = ["vaultd", "--vault", str(vault.root), "compile", KEY]
    try:
        code = run_command(main_group)
    finally:
        sys.argv = argv
    assert code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("Error: ") and "not a PDF" in err[0]
    assert not vault.note_path(KEY).exists()


def test_a_record_without_a_title_gets_no_citation_but_says_how_to_fix_it(vault: Vault) -> None:
    key = "scan2024"
    write_sample_paper(vault.pdf_path(key))
    meta = MetaFile.from_work(key, Work(), pdf=f"raw/{key}.pdf",
                              captured_at="2024-01-15T12:00:00+00:00")
    vault.meta_path(key).write_text(meta.model_dump_json(by_alias=True), encoding="utf-8")
    compile_note(vault, Settings(), key)
    text = vault.note_path(key).read_text(encoding="utf-8")
    assert "(n.d.)" not in text and "@article{scan2024,\n}" not in text
    assert f"`vaultd capture raw/{key}.pdf --doi DOI --refresh`" in text
    assert parse_note(text).citations == {}
    runner = CliRunner()
    cite = runner.invoke(main_group, ["--vault", str(vault.root), "cite", key])
    assert cite.exit_code == 1  # run_command prints the error as one line on stderr
    assert "has no title yet" in str(cite.exception) and "--doi DOI --refresh" in str(cite.exception)
    verify = runner.invoke(main_group, ["--vault", str(vault.root), "verify", key])
    assert verify.exit_code == 0, verify.output


def test_a_compiled_note_is_searchable_without_running_index(sample_vault: Vault) -> None:
    runner = CliRunner()
    res = runner.invoke(main_group, ["--vault", str(sample_vault.root), "compile", KEY])
    assert res.exit_code == 0, res.output
    found = runner.invoke(main_group, ["--vault", str(sample_vault.root), "search",
                                       "two-column papers", "--keywords-only", "--json"])
    assert found.exit_code == 0, found.output
    assert KEY in {h["cite_key"] for h in json.loads(found.stdout)["hits"]}


def test_a_compiled_note_has_its_title_as_alias_and_the_paper_tag(vault: Vault) -> None:
    _meta(vault, pdf=False)
    note = parse_note(compile_note(vault, Settings(), KEY).note_path.read_text("utf-8"))
    assert note.meta.aliases == ["Verbatim Quotes from Two-Column Papers"]
    assert note.meta.tags == ["paper"]


def test_recompile_keeps_the_tags_and_aliases_the_user_added(vault: Vault) -> None:
    _meta(vault, pdf=False)
    path = compile_note(vault, Settings(), KEY).note_path
    text = path.read_text("utf-8")
    text = text.replace("tags:\n- paper\n", "tags:\n- to-read\n- paper\n", 1)
    text = text.replace("aliases:\n", "aliases:\n- Lovelace & Babbage\n", 1)
    path.write_text(text, encoding="utf-8")
    note = parse_note(compile_note(vault, Settings(), KEY).note_path.read_text("utf-8"))
    assert note.meta.tags == ["to-read", "paper"]
    assert note.meta.aliases == ["Lovelace & Babbage", "Verbatim Quotes from Two-Column Papers"]


def test_figure_crops_are_rerendered_only_when_their_source_pdf_changes(sample_vault: Vault) -> None:
    import os

    compile_note(sample_vault, Settings(), KEY)
    png = sample_vault.figs / f"{KEY}_fig1.png"
    first = png.read_bytes()
    inode = png.stat().st_ino  # a crop with the same source is kept, not written again
    compile_note(sample_vault, Settings(), KEY)
    assert png.stat().st_ino == inode and png.read_bytes() == first
    png.write_bytes(b"")  # a crop damaged (say by a crash) is drawn again
    compile_note(sample_vault, Settings(), KEY)
    assert png.read_bytes() == first
    # A different PDF (even one whose file time is older) gets its figures re-cropped.
    pdf = sample_vault.pdf_path(KEY)
    pdf.write_bytes(pdf.read_bytes() + b"\n% changed\n")
    os.utime(pdf, (0, 0))
    compile_note(sample_vault, Settings(), KEY)
    assert png.read_bytes() == first
    # A deleted crop is drawn again, with the same bytes.
    png.unlink()
    compile_note(sample_vault, Settings(), KEY)
    assert png.read_bytes() == first


def test_figure_graphics_are_pymupdfs_own_drawing_clusters_on_every_fixture_page(fixtures_dir: Path) -> None:
    """PyMuPDF's own ``cluster_drawings`` of the drawings as they show (each cut to its
    clip: ``visible_drawings``, tested on its own in test_parse_drawings.py)."""
    import pymupdf

    from vaultd.parse.drawings import visible_drawings
    from vaultd.parse.figures import graphics_rects

    pages = 0
    for pdf in sorted((fixtures_dir / "pdfs").rglob("*.pdf")):
        try:
            doc = pymupdf.open(pdf)
        except Exception:  # the corrupt fixtures
            continue
        with doc:
            if doc.needs_pass:
                continue
            for page in doc:
                pages += 1
                shown = [dict(path, rect=pymupdf.Rect(path["rect"])) for path in visible_drawings(page)]
                clusters = [tuple(r) for r in page.cluster_drawings(drawings=shown)]
                images = [tuple(i["bbox"]) for i in page.get_image_info()]
                want = [r for r in clusters + images if r[2] - r[0] > 2 and r[3] - r[1] > 2]
                assert graphics_rects(page) == want, (pdf.name, page.number)
    assert pages >= 30


def test_the_parse_reads_each_caption_page_s_graphics_as_pymupdf_does(fixtures_dir: Path) -> None:
    """The parse reads text and images from each page's display list (the content stream
    runs once): the boxes must be those PyMuPDF's own page methods give."""
    import pymupdf

    from vaultd.parse.figures import graphics_rects
    from vaultd.parse.pymupdf import PyMuPDFParser

    pages = 0
    for pdf in sorted((fixtures_dir / "pdfs").rglob("*.pdf")) + sorted((fixtures_dir / "pdfs-eval").rglob("*.pdf")):
        try:
            parsed = PyMuPDFParser().parse(pdf)
        except Exception:  # the corrupt and encrypted fixtures
            continue
        with pymupdf.open(pdf) as doc:
            for number, boxes in parsed.graphics.items():
                pages += 1
                assert boxes == graphics_rects(doc[number - 1]), (pdf.name, number)
    assert pages >= 40


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_a_rotated_page_reads_as_pymupdf_reads_the_page(tmp_path: Path, rotation: int) -> None:
    import pymupdf

    from vaultd.parse.pymupdf import _read_page, display_list

    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 100), "Results of the second experiment are shown below.", fontsize=10)
    page.insert_text((72, 114), "Each run took about 1.5 s on two cores.", fontsize=10)
    page.set_rotation(rotation)
    doc.save(tmp_path / "r.pdf")
    doc.close()
    with pymupdf.open(tmp_path / "r.pdf") as doc:
        page = doc[0]
        lines = _read_page(page, pymupdf.TEXT_MEDIABOX_CLIP, display_list(page))
        want = [(ln["spans"][0]["text"], tuple(round(v) for v in ln["bbox"]))
                for b in page.get_text("dict")["blocks"] for ln in b["lines"]]
        assert [(ln.text, tuple(round(v) for v in ln.bbox)) for ln in lines] == want


def test_an_inline_image_is_a_figure_graphic_and_the_letters_bi_are_not(tmp_path: Path) -> None:
    import pymupdf

    from vaultd.parse.figures import graphics_rects

    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 72), "BI ID EI, BIOLOGY", fontsize=10)  # the operators' letters, as text
    text_only = page.get_contents()[0]
    image = doc.new_page(width=595, height=842)
    image.insert_text((72, 72), "Figure 1. A 2 x 2 grey image drawn inline.", fontsize=10)
    xref = image.get_contents()[0]
    inline = b"q 120 0 0 90 100 500 cm BI /W 2 /H 2 /CS /G /BPC 8 ID \x00\xff\xff\x00 EI Q\n"
    doc.update_stream(xref, doc.xref_stream(xref) + b"\n" + inline)
    doc.save(tmp_path / "inline.pdf")
    doc.close()
    with pymupdf.open(tmp_path / "inline.pdf") as doc:
        assert doc[0].get_contents() == [text_only] and not doc[0].get_images(full=True)
        assert graphics_rects(doc[0]) == []
        boxes = graphics_rects(doc[1])
        assert boxes == [tuple(i["bbox"]) for i in doc[1].get_image_info()]
        assert [tuple(round(v) for v in b) for b in boxes] == [(100, 252, 220, 342)]


_coord = st.floats(min_value=0, max_value=60, allow_nan=False).map(lambda v: float(np.float32(v)))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_coord, _coord, st.floats(0, 12), st.floats(0, 12)), max_size=25))
def test_drawing_clusters_match_pymupdfs_cluster_drawings(corners: list[tuple[float, float, float, float]]) -> None:
    import pymupdf

    from vaultd.parse.figures import cluster_boxes

    boxes = [(x, y, float(np.float32(x + w)), float(np.float32(y + h))) for x, y, w, h in corners]
    doc = pymupdf.open()
    page = doc.new_page(width=70, height=70)
    want = [tuple(r) for r in page.cluster_drawings(drawings=[{"rect": pymupdf.Rect(b)} for b in boxes])]
    assert cluster_boxes(boxes, (0.0, 0.0, 70.0, 70.0)) == want


def test_a_figure_whose_region_has_no_area_compiles_without_a_picture(
        sample_vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    import vaultd.pipeline.compile as compile_mod

    # a drawing cluster collapsed to a vertical line: nothing to render
    monkeypatch.setattr(compile_mod, "figure_region",
                        lambda page, bbox, hint, rects, *stops: (100.0, 100.0, 100.0, 200.0))
    result = compile_note(sample_vault, Settings(), KEY)
    note = parse_note(result.note_path.read_text(encoding="utf-8"))
    fig = next(c for c in note.chunks if c.provenance.chunk_type == "figure")
    assert fig.figure is None and fig.text.startswith("Figure 1")
    assert not list(sample_vault.figs.glob("*.png"))


def test_a_retracted_work_compiles_to_a_note_that_says_so_above_its_citations(
        vault: Vault) -> None:
    from vaultd.models import Notice

    work = Work(title="A finding that did not hold", authors=[Author(family="Doe", given="J.")],
                issued=[2019], container_title="Journal of Tests", doi="10.1234/t.1",
                retracted=True, notices=[
                    Notice(kind="retraction", doi="10.1234/t.1.retraction", source="crossref",
                           date=[2021, 3, 4]),
                    Notice(kind="correction", doi="10.1234/t.1.corr", source="crossref")])
    meta = MetaFile.from_work("doe2019finding", work)
    meta.reconciled = True
    vault.meta_path("doe2019finding").write_text(meta.model_dump_json(by_alias=True),
                                                 encoding="utf-8")
    text = compile_note(vault, Settings(), "doe2019finding").note_path.read_text("utf-8")
    callout = text.index("> [!danger] RETRACTED")
    assert callout < text.index("## Citations")
    assert "> - Retraction: https://doi.org/10.1234/t.1.retraction (crossref, 2021-03-04)" in text
    assert "> - Correction: https://doi.org/10.1234/t.1.corr (crossref)" in text
    note = parse_note(text)
    assert note.meta.retracted is True and len(note.meta.notices) == 2
    assert "UNVERIFIED" not in text  # confirmed by two sources: no unverified callout


def test_compile_loads_only_what_the_note_needs(sample_vault: Vault) -> None:
    """`vaultd compile` in a process of its own: the note is written, and the modules for
    enrichment (asyncio, the LLM client), the progress bar (no terminal) and the embedder
    (no provider) are never imported. Each costs every compile its start-up time."""
    import os
    import subprocess
    import sys

    code = ("import sys\nfrom vaultd.cli import main_group, run_command\n"
            f"sys.argv = ['vaultd', '--vault', {str(sample_vault.root)!r}, '--quiet', 'compile', {KEY!r}]\n"
            "try:\n    run_command(main_group)\nexcept SystemExit as exc:\n    assert not exc.code, exc.code\n"
            "heavy = ('asyncio', 'rich.progress', 'vaultd.pipeline.enrich', 'vaultd.enrich.ollama', 'httpx')\n"
            "print('LOADED', sorted(m for m in sys.modules if m in heavy))\n")
    env = {**os.environ, "VAULTD_EMBEDDING_PROVIDER": "none"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env=env, check=True).stdout
    assert sample_vault.note_path(KEY).is_file()
    assert "LOADED []" in out
