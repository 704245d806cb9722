"""Layout 23 (issue 34, batch 6 of eval/quotes), on real pages: footnotes are chunks of
their own type, running heads set deeper or with a page number go, a plot's labels make
its figure whole, ``Tab. 1`` is a caption, a book's imprint is front matter."""

from __future__ import annotations

import functools
from pathlib import Path

import pymupdf
from hypothesis import given
from hypothesis import strategies as st

from vaultd.models import Chunk
from vaultd.parse.chunker import chunk_blocks
from vaultd.parse.classify import is_table_caption
from vaultd.parse.footnotes import opens_note
from vaultd.parse.imprints import is_imprint
from vaultd.parse.layout import T1_LIGATURES, repair_chars
from vaultd.parse.paras import Line
from vaultd.parse.pymupdf import PyMuPDFParser
from vaultd.parse.sentence_ends import is_scrap
from vaultd.parse.textlayer import garbled, mis_mapped, unreliable
from vaultd.parse.tiers import parse_pdf
from vaultd.parse.verbatim import check_blocks

QUOTES = Path(__file__).resolve().parents[1] / "eval" / "quotes" / "pdfs"


@functools.cache
def _chunks(pdf: Path) -> list[Chunk]:
    return chunk_blocks(PyMuPDFParser().parse(pdf).blocks, "pymupdf")


def _holding(chunks: list[Chunk], words: str) -> Chunk:
    return next(c for c in chunks if words in c.text)


def test_footnotes_are_chunks_of_their_own_and_the_paragraph_they_interrupt_stays_whole() -> None:
    # Cascadilla: a title footnote (∗) and footnote 1 at p. 1's foot, 9 pt under a 10 pt
    # body; footnote 2 at p. 2's foot, under a paragraph that goes on at p. 3's top
    pdf = QUOTES / "cascadilla_linguistics_proceedings.pdf"
    chunks = _chunks(pdf)
    thanks = _holding(chunks, "I would like to thank caffeine")
    first = _holding(chunks, "Morbi viverra pellentesque velit")
    second = _holding(chunks, "Aliquam vitae risus id ante ornare rhoncus.")
    assert {c.provenance.chunk_type for c in (thanks, first, second)} == {"footnote"}
    assert thanks.text.startswith("∗ I would like") and first.text.startswith("1 Morbi")
    paragraphs = [c for c in chunks if c.provenance.chunk_type == "paragraph"]
    assert not any("Aliquam vitae risus id ante ornare" in c.text for c in paragraphs)
    # ... and footnotes are quotes like any other: checked against pdftotext
    blocks = PyMuPDFParser().parse(pdf).blocks
    notes = [b for b in blocks if b.type == "footnote"]
    assert len(notes) >= 3 and check_blocks(pdf, notes).checked == len(notes)


def test_a_footnote_at_a_column_foot_is_typed_so_in_a_two_column_journal() -> None:
    chunks = _chunks(QUOTES / "elbioimp_bioimpedance_journal_article.pdf")
    note = _holding(chunks, "all decent LATEX installations should provide scalable fonts")
    assert note.provenance.chunk_type == "footnote" and note.text.startswith("2")


def _line(text: str, mono: bool = False) -> Line:
    return Line(text, (0.0, 0.0, 100.0, 8.0), 8.0, False, 0, 1, mono=mono)


def test_small_print_opens_a_footnote_only_with_a_mark_before_its_first_word() -> None:
    for text in ("1 In principle, more general objects", "2These days, all decent", "∗ I would like to thank",
                 "¹Université de Lille", "b)Also at Physics Department", "1. Tuned for Palatino",
                 "3https://pdfbox.apache.org"):
        assert opens_note([_line(text)], text), text
    for text in ("0.0 0.2 0.4 0.6 0.8 1.0", "[1] TRUE", "[5] “An interesting talk”", "Age at diagnosis",
                 "Jp = nominal polar radii", "2285 % \\texorpdfstring"):
        assert not opens_note([_line(text)], text), text
    assert not opens_note([_line("10 Console.WriteLine(x);", mono=True)], "10 Console.WriteLine(x);")


@given(st.lists(st.decimals(min_value=-1000, max_value=1000, places=1), min_size=1, max_size=8))
def test_a_plot_s_tick_labels_never_open_a_footnote(ticks: list[object]) -> None:
    text = " ".join(str(t) for t in ticks)
    assert not opens_note([_line(text)], text)


def test_a_running_head_set_small_below_the_top_band_is_out_of_the_paragraph_it_sits_over() -> None:
    # Beilstein: "4 THE CLASS FILE      4.2 Title page" in 9 pt, 10.7 % down each page,
    # over a paragraph that runs from p. 5 into p. 6
    chunks = _chunks(QUOTES / "beilstein_nanotechnology_handbook.pdf")
    para = _holding(chunks, "The Beilstein class disables the usual section numbering mechanism")
    assert para.provenance.chunk_type == "paragraph"
    assert "by using the class option sectionnumbering=true or just sectionnumbering." in para.text
    assert not any("THE CLASS FILE" in c.text for c in chunks if c.provenance.chunk_type == "paragraph")


def test_an_abbreviated_table_caption_is_a_table_chunk_not_a_paragraph() -> None:
    chunks = _chunks(QUOTES / "elbioimp_bioimpedance_journal_article.pdf")
    assert _holding(chunks, "Tab. 1: Text sizes in elbioimp").provenance.chunk_type == "table"
    for caption in ("Tab. 1: Text sizes", "Tab. 2 Sample Table", "Tabella 1: Insiemi numerici",
                    "Tabell 3. Resultat"):
        assert is_table_caption(caption), caption
    assert not is_table_caption("Tabulated values follow")


def test_a_book_s_imprint_is_front_matter_but_a_sentence_citing_an_isbn_is_not() -> None:
    chunks = _chunks(QUOTES / "book_nostarch_chapter_sample.pdf")
    isbn = _holding(chunks, "ISBN-13: 123-4-56789-012-3")
    assert isbn.provenance.chunk_type == "front"
    assert is_imprint("No rights reserved. Any part of this work may be reproduced.")
    assert not is_imprint("The book “Applied Econometrics with R” (Kleiber and Zeileis 2008, Springer-Verlag, "
                          "ISBN 978-0-387-77316-2, pp. viii+222) is the companion of the package, and it "
                          "explains every example of it at length, chapter by chapter, with exercises.")


def _plot_page(tmp_path: Path) -> Path:
    """Two pages written with PyMuPDF: a paragraph ends mid-sentence at p. 1's foot; p. 2
    opens with a plot (a frame, its markers drawn as 11.5 pt '+' text, tick labels and an
    axis title under the frame), its caption 48 pt under the frame, and the sentence's
    end under the caption."""
    doc = pymupdf.open()
    body = ("Lorem ipsum dolor sit amet, consectetuer adipiscing elit, sed diam nonummy nibh "
            "euismod tincidunt ut laoreet dolore magna aliquam erat volutpat ut wisi enim.")
    page = doc.new_page(width=612, height=792)
    y = 100.0
    for _ in range(12):
        page.insert_text((98, y), body[:84], fontsize=10)
        y += 12
    page.insert_text((98, y), "is quite common that a simple model is", fontsize=10)
    page = doc.new_page(width=612, height=792)
    page.draw_rect(pymupdf.Rect(131, 128, 503, 368), color=(0, 0, 0), width=0.7)
    for x, yy in ((151, 190), (198, 212), (245, 240), (292, 251), (340, 269), (387, 297), (482, 359)):
        page.insert_text((x, yy), "+", fontsize=11.5)
    for i, label in enumerate(("50-54", "55-59", "60-64", "65-69", "70-74", "75-79", "80-89", "90+")):
        page.insert_text((143 + 47 * i, 382), label, fontsize=7.7)
    page.insert_text((301, 400), "Age group", fontsize=7.7)
    page.insert_text((98, 426), "Figure 5: The re-weighted age distribution using logistic regression.",
                     fontsize=10)
    page.insert_text((98, 478), "not sufficient and the resulting weight adjustment is inadequate.", fontsize=10)
    y = 502.0
    for _ in range(6):
        page.insert_text((98, y), body[:84], fontsize=10)
        y += 12
    path = tmp_path / "plot.pdf"
    doc.save(path)
    return path


def test_a_plot_s_labels_tie_it_to_its_caption_so_its_markers_are_no_text_and_the_sentence_goes_on(
        tmp_path: Path) -> None:
    blocks = PyMuPDFParser().parse(_plot_page(tmp_path)).blocks
    texts = [(b.type, b.text) for b in blocks]
    assert not any(text.strip("+ ") == "" for _, text in texts)  # the markers are the figure's
    para = next(b for b in blocks if "a simple model is" in b.text)
    assert para.type == "paragraph"
    assert "a simple model is not sufficient and the resulting weight adjustment" in para.text
    assert [p for p, _, _ in para.regions] == [1, 2]


def test_t1_ligature_codes_of_a_tex_font_without_unicode_read_as_their_letters() -> None:
    # the survival package's report: dvips Type 3 fonts, T1-encoded, no ToUnicode; poppler
    # drops the ligatures ("Coecients"), MuPDF passes their codes through
    chunks = _chunks(QUOTES / "r_survival_timedep_report.pdf")
    assert _holding(chunks, "This vignette covers 3 different but interrelated concepts").provenance.chunk_type \
        == "paragraph"
    assert any(c.provenance.chunk_type == "heading" and c.text == "4 Time dependent coefficients" for c in chunks)
    assert not any(word in c.text for c in chunks for word in ("di\ufffderent", "coe\ufffdcient", "\ufffdrst"))
    assert repair_chars("Coe\x1ecients") == "Coefficients" and repair_chars("\x1crst") == "first"
    assert repair_chars("di\x1berent \x1b") == "different \ufffd"  # a code by itself is no letter


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyzé", min_size=1), st.sampled_from(sorted(T1_LIGATURES)),
       st.text(alphabet="abcdefghijklmnopqrstuvwxyzé", min_size=1))
def test_a_t1_ligature_code_inside_a_word_is_its_letters(before: str, code: str, after: str) -> None:
    assert repair_chars(before + code + after) == before + T1_LIGATURES[code] + after


def test_a_page_whose_letters_map_to_dingbats_is_read_as_a_scan(tmp_path: Path) -> None:
    # spatstat's vignette: the body fonts' ToUnicode maps every letter to a dingbat
    # ("●❡tt✐♥❣ st❛rt❡❞" for "Getting started"); tesseract reads what the page shows
    # (its first page alone, as PyMuPDF writes it out, for time)
    with pymupdf.open(QUOTES / "r_spatstat_getting_started.pdf") as whole:
        whole.select([0])
        whole.save(tmp_path / "getstart_p1.pdf")
    doc = parse_pdf(tmp_path / "getstart_p1.pdf")
    assert any("map their letters to symbols" in w for w in doc.warnings)
    assert "tesseract" in doc.parser_version
    assert not any(sum("\u2600" <= c <= "\u27bf" for c in b.text) >= 10 for b in doc.blocks)
    text = " ".join(b.text for b in doc.blocks)
    assert "Spatstat is mainly designed for analysing spatial point patterns" in text
    assert garbled(["●❡tt✐♥❣ st❛rt❡❞", "✐♥ s♣❛t❛t"]) and not garbled(["✓ Installed and tested"])


def test_a_text_mostly_of_dingbats_is_marked_unreliable_and_a_checklist_is_not() -> None:
    assert unreliable("■❢②♦✉r ❈❙❱✜❧❡✐s ❝❛❧❧❡❞ ♠②❢✐❧❡✳❝s✈") and mis_mapped("●❡tt✐♥❣ st❛rt❡❞")
    assert not mis_mapped("✓ Installed, ✓ configured and ✓ tested on every platform we support")


def test_a_plot_beside_its_caption_keeps_its_ticks_and_axis_title_out_of_the_paragraph_under_it(
        tmp_path: Path) -> None:
    # vegan's layout: a plot at the page's top with its caption at its right; under the
    # frame its tick labels and axis title, set small; then the page's text
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.draw_rect(pymupdf.Rect(140, 90, 300, 288), color=(0, 0, 0), width=0.7)
    page.insert_text((178, 300), "−0.5 0.0 0.5 1.0", fontsize=5.5)
    page.insert_text((220, 312), "NMDS1", fontsize=5.5)
    page.insert_text((325, 276), "Figure 3: Convex hull, ellipsoid hull and", fontsize=10)
    page.insert_text((325, 288), "a spider web diagram in ordination.", fontsize=10)
    y = 340.0
    for words in ("hulls, ordiellipse adds ellipses enclosing all points in the group or ellipses",
                  "of standard deviation, standard error or confidence areas, and ordispider",
                  "combines items to their centroid, as the figure shows for the management levels."):
        page.insert_text((125, y), words, fontsize=10)
        y += 12
    path = tmp_path / "side.pdf"
    doc.save(path)
    blocks = PyMuPDFParser().parse(path).blocks
    para = next(b for b in blocks if "ordiellipse adds ellipses" in b.text)
    assert para.text.startswith("hulls, ordiellipse")
    assert not any("NMDS1" in b.text or "0.5 1.0" in b.text for b in blocks)


def test_an_unnumbered_heading_in_small_capitals_heads_its_section() -> None:
    # the mvtnorm R News article: "Introduction" centred in CMCSC10 at the body's size
    chunks = _chunks(QUOTES / "rnews_mvtnorm_article.pdf")
    para = _holding(chunks, "The numerical computation of a multivariate normal")
    assert para.provenance.section is not None and para.provenance.section.endswith("Introduction")


def test_a_full_first_line_ending_in_a_bracket_is_no_heading_when_its_sentence_runs_on() -> None:
    # GenomicRanges' HOWTOs p. 23: "… (currently organzied by transcript)" | "into groups …"
    chunks = _chunks(QUOTES / "bioc_genomicranges_howtos.pdf")
    para = _holding(chunks, "Our final step is to collect the coding and UTR regions")
    assert para.provenance.chunk_type == "paragraph"
    assert "(currently organzied by transcript) into groups by gene id." in para.text


def test_a_row_of_numbers_alone_is_no_paragraph() -> None:
    # the survival report's p. 3: a survival-curve plot without a caption, its x-axis
    # ticks a block of their own
    chunks = _chunks(QUOTES / "r_survival_timedep_report.pdf")
    ticks = _holding(chunks, "0.0 0.5 1.0 1.5 2.0 2.5")
    assert ticks.provenance.chunk_type != "paragraph"
    assert is_scrap("0.0 0.5 1.0 1.5 2.0 2.5") and is_scrap("1 0 15 0 25 1.3 1 15 46 0 25 1.5")
    assert not is_scrap("In 2019, 12 of 40 sites were sampled twice")
