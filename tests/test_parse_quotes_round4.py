"""Quotes on unseen papers, issue 34's last round: a small centred title heads the title
block, contents and address blocks are front matter, a table without rules is a table.
Generated pages whose contents are known, and the eval/quotes papers' own pages."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from _drawn_pdf import LETTER, draw_lines, drawn_pdf

from vaultd.models import Chunk
from vaultd.parse.base import ParsedDocument
from vaultd.parse.chunker import chunk_blocks
from vaultd.parse.pymupdf import PyMuPDFParser, load_pymupdf

QUOTES = Path(__file__).resolve().parents[1] / "eval" / "quotes" / "pdfs"

BODY = [
    "Articles published in the society's journals are converted to an XML file during the",
    "final production. Other formats such as PDF are derived from the XML, which is the",
    "version of record. Even before production, the editorial process can use its data.",
]


_pdf = functools.partial(drawn_pdf, page_size=LETTER)
_lines = functools.partial(draw_lines, font="tiro", leading=12.0)


def _centred(page: Any, y: float, text: str, size: float, font: str = "tiro") -> None:
    width = load_pymupdf().get_text_length(text, fontname=font, fontsize=size)
    page.insert_text(((612 - width) / 2, y), text, fontsize=size, fontname=font)


def _types(doc: ParsedDocument, words: str) -> list[str]:
    return [b.type for b in doc.blocks if words in b.text]


def test_a_centred_title_little_larger_than_the_body_heads_its_author_and_address_block(tmp_path: Path) -> None:
    def page(p: Any) -> None:
        _centred(p, 80, "Author Guide for the Society's Class", 12, font="tibo")
        _centred(p, 100, "American Physical Society", 10)
        _centred(p, 112, "1 Research Road, Ridge, NY 11961", 10)
        _centred(p, 124, "(Dated: December 2018)", 10)
        p.insert_text((72, 160), "I. INTRODUCTION", fontsize=10, fontname="tibo")
        _lines(p, 72, 176, BODY * 3)

    doc = _pdf(tmp_path / "t.pdf", page)
    assert _types(doc, "Author Guide for the Society") == ["heading"]
    for line in ("American Physical Society", "1 Research Road", "(Dated: December 2018)"):
        assert _types(doc, line) == ["front"], line
    assert _types(doc, "Articles published in the society") == ["paragraph"]


def test_a_centred_bold_title_in_the_body_size_under_a_banner_heads_its_author_block(tmp_path: Path) -> None:
    def page(p: Any) -> None:
        _centred(p, 50, "Typeset using LaTeX default style in AASTeX631", 8)
        _centred(p, 110, "Template Article with Examples: v6.31", 10, font="tibo")
        _centred(p, 130, "Greg J. Schwarz,1 August Muench,1", 10)
        _centred(p, 150, "1American Astronomical Society 1667 K Street NW, Suite 800", 8)
        _centred(p, 160, "Washington, DC 20006, USA", 8)
        _centred(p, 190, "ABSTRACT", 10)
        _lines(p, 72, 206, BODY * 3)

    doc = _pdf(tmp_path / "b.pdf", page)
    assert _types(doc, "Template Article with Examples") == ["heading"]
    for line in ("Greg J. Schwarz", "American Astronomical Society", "Washington, DC 20006"):
        assert _types(doc, line) == ["front"], line
    assert _types(doc, "Articles published in the society") == ["paragraph"]


def test_authors_in_a_column_beside_the_title_and_abstract_are_front_matter(tmp_path: Path) -> None:
    def page(p: Any) -> None:
        p.insert_text((230, 70), "Preprint Template for Journal Papers", fontsize=20, fontname="hebo")
        _lines(p, 230, 110, BODY * 2, size=9, font="tiit")
        for y, name, place in ((90, "Author Name", "Institution or Company Name,"),
                               (150, "John H. Lienhard", "Heat Transfer Laboratory,")):
            p.insert_text((60, y), name, fontsize=12, fontname="hebo")
            _lines(p, 60, y + 14, [place, "Cambridge, MA 02139 USA"], size=7, font="helv", leading=9)
        p.insert_text((60, 260), "1 Introduction", fontsize=10, fontname="hebo")
        _lines(p, 60, 276, BODY * 3)

    doc = _pdf(tmp_path / "s.pdf", page)
    assert _types(doc, "Preprint Template for Journal Papers") == ["heading"]
    for line in ("Author Name", "John H. Lienhard", "Heat Transfer Laboratory"):
        assert set(_types(doc, line)) == {"front"}, line
    assert not any(b.section and "Lienhard" in b.section for b in doc.blocks)
    assert _types(doc, "Articles published in the society") == ["paragraph", "paragraph"]


def test_a_flush_left_heading_little_larger_than_the_body_heads_no_title_block(tmp_path: Path) -> None:
    def page(p: Any) -> None:
        p.insert_text((72, 80), "Methods", fontsize=12, fontname="tibo")
        _lines(p, 72, 100, ["We recruited teams in the province over two years and met them weekly."])
        p.insert_text((72, 130), "Trial design", fontsize=10, fontname="tibo")
        _lines(p, 72, 146, BODY * 3)

    doc = _pdf(tmp_path / "m.pdf", page)
    assert _types(doc, "We recruited teams") == ["paragraph"]


def test_a_table_of_contents_is_front_matter_and_the_body_after_it_is_not(tmp_path: Path) -> None:
    entries = ["I. Introduction 1", "II. Formatting 1", "II.1. Preprint and reprint options 1",
               "III. Marking up front matter 2", "VIII.3. Table placement 5"]

    def page(p: Any) -> None:
        p.insert_text((72, 80), "CONTENTS", fontsize=10, fontname="tiro")
        y = 100.0
        for entry in entries:
            p.insert_text((72, y), entry, fontsize=10, fontname="tiro")
            y += 18
        p.insert_text((72, y + 20), "I. INTRODUCTION", fontsize=10, fontname="tibo")
        _lines(p, 72, y + 36, BODY * 3)
        p.insert_text((72, y + 160), "VIII.3. Table placement", fontsize=10, fontname="tibo")
        _lines(p, 72, y + 176, ["Tables should be placed as close as possible to where they are cited."])

    doc = _pdf(tmp_path / "c.pdf", page)
    assert _types(doc, "VIII.3. Table placement 5") == ["front"]
    assert all(t != "paragraph" for entry in entries for t in _types(doc, entry))
    assert _types(doc, "Articles published in the society") == ["paragraph"]
    assert _types(doc, "Tables should be placed") == ["paragraph"]


def test_the_authors_addresses_under_their_label_at_the_articles_end_are_front_matter(tmp_path: Path) -> None:
    def page(p: Any) -> None:
        p.insert_text((72, 80), "Acknowledgments", fontsize=10, fontname="tibo")
        _lines(p, 72, 96, BODY)
        p.insert_text((72, 160), "Affiliation:", fontsize=10, fontname="tibo")
        _lines(p, 72, 176, ["Achim Zeileis", "Universität Innsbruck", "E-mail: Achim.Zeileis@example.org"])
        _lines(p, 72, 224, ["Gabor Grothendieck", "GKX Associates Inc.", "E-mail: gabor@example.com"])

    doc = _pdf(tmp_path / "a.pdf", page)
    for line in ("Universität Innsbruck", "GKX Associates Inc."):
        assert _types(doc, line) == ["front"], line
    assert _types(doc, "Articles published in the society") == ["paragraph"]


def _table_page(p: Any) -> None:
    _lines(p, 72, 80, BODY)
    p.insert_text((240, 130), "Table 2: An Example Table", fontsize=10, fontname="tiro")
    for i, (name, value) in enumerate([("Dataset", "Result"), ("Data1", "0.12345"), ("Data2", "0.67890"),
                                       ("Data3", "0.54321"), ("Data4", "0.09876")]):
        p.insert_text((261, 156 + 13.5 * i), name, fontsize=10, fontname="tiro")
        p.insert_text((315, 156 + 13.5 * i), value, fontsize=10, fontname="tiro")
    _lines(p, 72, 250, ["If you want horizontal rules you can use the booktabs package, as Table 3 shows."])


def test_a_table_set_without_any_rule_is_a_table_under_its_caption(tmp_path: Path) -> None:
    doc = _pdf(tmp_path / "u.pdf", _table_page)
    tables = [b for b in doc.blocks if b.type == "table"]
    assert [b.text for b in tables] == [
        "Table 2: An Example Table", "Dataset Result Data1 0.12345 Data2 0.67890 Data3 0.54321 Data4 0.09876"]
    assert tables[1].markdown is not None
    assert tables[1].markdown.split("\n")[:3] == ["| Dataset | Result |", "|---|---|", "| Data1 | 0.12345 |"]
    assert not any("Data1" in b.text for b in doc.blocks if b.type in ("paragraph", "heading"))
    assert _types(doc, "If you want horizontal rules") == ["paragraph"]


def test_prose_under_a_table_caption_is_no_table(tmp_path: Path) -> None:
    def page(p: Any) -> None:
        p.insert_text((72, 80), "Table 1: Results of the trial, by clinic.", fontsize=10, fontname="tiro")
        _lines(p, 72, 100, BODY * 2)

    doc = _pdf(tmp_path / "p.pdf", page)
    assert [b.text for b in doc.blocks if b.type == "table"] == ["Table 1: Results of the trial, by clinic."]
    assert _types(doc, "Articles published in the society") == ["paragraph"]


@functools.cache
def _chunks(name: str) -> list[Chunk]:
    return chunk_blocks(PyMuPDFParser().parse(QUOTES / f"{name}.pdf").blocks, "pymupdf")


def _holding(chunks: list[Chunk], words: str) -> list[str]:
    return [c.provenance.chunk_type for c in chunks if words in c.text]


def test_revtex_guides_address_dateline_and_contents_are_front_matter() -> None:
    chunks = _chunks("aps_revtex_author_guide_two_column")
    assert _holding(chunks, "1 Research Road, Ridge, NY 11961") == ["front"]
    assert _holding(chunks, "(Dated: December 2018)") == ["front"]
    assert _holding(chunks, "VIII.3. Table placement 5") == ["front"]
    assert "heading" in _holding(chunks, "VIII.3. Table placement")
    assert _holding(chunks, "Tables should be placed as close as possible") == ["paragraph"]


def test_aastex_affiliations_under_its_bold_body_size_title_are_front_matter() -> None:
    chunks = _chunks("aas_aastex631_sample")
    assert _holding(chunks, "Template AASTEXArticle with Examples") == ["heading"]
    assert _holding(chunks, "American Astronomical Society 1667 K Street NW") == ["front"]
    assert _holding(chunks, "AAS Director of Publishing") == ["front"]
    assert _holding(chunks, "This example manuscript is intended to serve as a tutorial") == ["paragraph"]


def test_asme_authors_column_beside_the_title_is_front_matter() -> None:
    chunks = _chunks("asme_journal_template")
    assert _holding(chunks, "Rohsenow Kendall Heat Transfer Laboratory") == ["front"]
    assert set(_holding(chunks, "John H. Lienhard")) == {"front"}
    assert _holding(chunks, "This paper is an example and") == ["paragraph"]


def test_jss_authors_addresses_on_the_last_page_are_front_matter() -> None:
    chunks = _chunks("jss_zoo_r_vignette_ghostscript")
    assert set(_holding(chunks, "GKX Associates Inc.")) == {"front"}
    assert "paragraph" not in _holding(chunks, "Universität Innsbruck")


def test_pmlr_tables_without_rules_are_tables() -> None:
    chunks = _chunks("pmlr_proceedings_sample_tables")
    caption = next(c for c in chunks if c.text == "Table 2: An Example Table")
    cells = chunks[chunks.index(caption) + 1]
    assert cells.provenance.chunk_type == "table"
    assert cells.text == "Dataset Result Data1 0.12345 Data2 0.67890 Data3 0.54321 Data4 0.09876"
    decimal = next(c for c in chunks if c.text.startswith("Table 5: A Table With Numbers Aligned"))
    assert chunks[chunks.index(decimal) + 1].text.startswith("Dataset Result Data1 0.123 45 Data2 10.6789")
    assert not any("Data1" in c.text for c in chunks if c.provenance.chunk_type == "paragraph")
