"""Layout 25 (issue 34, batch 9 of eval/quotes: theses, a book chapter, slides, a NIST
report, lecture notes, JOSE and ReScience papers, eLife, Nature Sustainability, OUP and
Taylor & Francis articles), on real pages, with property tests of the pure rules."""

from __future__ import annotations

import pymupdf
from hypothesis import given
from hypothesis import strategies as st
from quote_pages import QUOTES, chunk_type, chunks_of, holding, pages_of

from vaultd.parse.classify import CAPTION_RE, classify, unmarked
from vaultd.parse.front import is_credit, is_front_matter
from vaultd.parse.front_blocks import is_term_list
from vaultd.parse.glyph_names import (
    UNMAPPED,
    differences,
    named_glyphs,
    rename,
    unmapped_codes,
    widths,
)
from vaultd.parse.licences import is_licence
from vaultd.parse.reading_order import gutter

# --------------------------------------------------------------- eLife: columns off centre


def test_columns_set_right_of_a_margin_column_are_read_down_their_own_gutter() -> None:
    # eLife 2012: a margin column at the left, the text columns at 168-369 and 378-579 pt;
    # the page's centre line (306 pt) runs through the left column.
    chunks = chunks_of("elife_feature_good_life_essay.pdf")
    para = holding(chunks, "What can I say to those of you embarking on careers")
    assert "fraught with anxiety about high-profile papers" in para.text  # past the caption, up the right column
    assert pages_of(para) == [1, 1]
    crossing = holding(chunks, "When I started graduate school in 1969")
    assert "a postdoc and an assistant professor—when I thought about quitting" in crossing.text
    assert pages_of(crossing) == [1, 2]


def test_a_three_line_dropped_capital_goes_back_in_front_of_its_word() -> None:
    chunks = chunks_of("elife_feature_good_life_essay.pdf")
    first = holding(chunks, "ome years ago I had a postdoc")
    assert first.text.startswith("Some years ago I had a postdoc") and chunk_type(first) == "paragraph"
    assert not any(chunk_type(c) == "heading" and c.text == "S" for c in chunks)
    assert first.provenance.section == "A good life"


def test_front_matter_labels_under_an_authors_note_are_front() -> None:
    chunks = chunks_of("elife_feature_good_life_essay.pdf")
    note = holding(chunks, "Eve Marder is an eLife senior editor")
    assert "Published 13 December 2012" not in note.text
    assert chunk_type(holding(chunks, "Published 13 December 2012")) == "front"
    assert chunk_type(holding(chunks, "Competing interests:")) == "front"


def test_the_gutter_is_the_centre_line_unless_two_text_columns_say_otherwise() -> None:
    # a two-column paper: the centre stays
    assert gutter([(50, 100, 290, 700), (322, 100, 562, 700)], 612) == 306
    # eLife's columns right of a margin column: between them
    assert gutter([(36, 600, 158, 720), (168, 260, 369, 720), (378, 540, 579, 720)], 612) == 373.5
    # narrow labels side by side, no column of text: the centre stays
    assert gutter([(168, 100, 290, 110), (378, 100, 500, 110)], 612) == 306
    # a poster: a box's text runs over the gap between narrower blocks; the centre stays
    assert gutter([(125, 1568, 700, 1700), (1266, 1567, 2324, 1737), (1300, 1600, 2223, 1700),
                   (125, 626, 1190, 1379), (1056, 65, 2032, 139)], 2450) == 1225


# -------------------------------------------------- Erickson's Algorithms: glyphs as U+FFFF


def test_old_style_figures_mapped_to_uffff_are_read_from_their_glyph_names() -> None:
    chunks = chunks_of("book_erickson_algorithms_mst_chapter.pdf")
    assert not any(UNMAPPED in c.text for c in chunks)
    headings = [c.text for c in chunks if chunk_type(c) == "heading"]
    assert "7.1 Distinct Edge Weights" in headings and "7.5 Kruskal’s Algorithm" in headings
    caption = holding(chunks, "A weighted graph and its minimum spanning tree.")
    assert caption.text.startswith("Figure 7.1.") and chunk_type(caption) == "figure"
    assert "(July 4, 1776)" in holding(chunks, "Benjamin Franklin, at the signing").text


def test_a_section_marked_with_a_symbol_is_named_without_it() -> None:
    chunks = chunks_of("book_erickson_algorithms_mst_chapter.pdf")
    para = holding(chunks, "In practice, however, this improvement is rarely faster")
    assert para.provenance.section is not None
    assert para.provenance.section.endswith("7.4 Jarník’s (“Prim’s”) Algorithm › Improving Jarník’s Algorithm")
    assert unmarked("™Improving Jarník’s Algorithm") == "Improving Jarník’s Algorithm"
    assert unmarked("7.5 Kruskal’s Algorithm") == "7.5 Kruskal’s Algorithm"


def test_a_footnote_broken_at_the_page_foot_goes_on_at_the_next_pages_foot() -> None:
    chunks = chunks_of("book_erickson_algorithms_mst_chapter.pdf")
    note = holding(chunks, "Amortized time is an accounting trick")
    assert chunk_type(note) == "footnote" and "longer in the worst case. Amortization uses" in note.text
    assert pages_of(note) == [10, 11]


def test_the_books_cmaps_send_variant_glyphs_to_uffff() -> None:
    # old-style figures and small capitals (``seven.oldstyle``, ``I.c2sc``) map to U+FFFF;
    # the body font's own old-style figures map to digits
    doc = pymupdf.open(QUOTES / "book_erickson_algorithms_mst_chapter.pdf")
    found = {}
    for xref, *_rest in doc[3].get_fonts():
        cmap, diffs = doc.xref_get_key(xref, "ToUnicode"), doc.xref_get_key(xref, "Encoding/Differences")
        if cmap[0] == "xref" and diffs[0] == "array":
            names = differences(diffs[1])
            codes = unmapped_codes(doc.xref_stream(int(cmap[1].split()[0])).decode("latin-1"))
            found[xref] = {names[c] for c in codes}
    assert any(found.values()) and not all(found.values())
    assert all("." in name for names in found.values() for name in names)


_CMAP = "1 beginbfchar\n<21> <FFFF>\nendbfchar\n2 beginbfrange\n<22> <22> <ffff>\n<23> <24> [<FFFF> <0041>]\nendbfrange"


def test_codes_to_uffff_are_found_in_chars_ranges_and_range_arrays() -> None:
    assert unmapped_codes(_CMAP) == {0x21, 0x22, 0x23}
    assert differences("[33/seven.oldstyle/one.oldstyle 40/uring]") == {33: "seven.oldstyle", 34: "one.oldstyle",
                                                                        40: "uring"}


def _agl(name: str) -> str:
    return {"seven.oldstyle": "7", "one.oldstyle": "1", "a.sc": "a"}.get(name, "")


def test_a_glyph_is_named_only_when_its_width_names_one_character() -> None:
    named = named_glyphs(_CMAP, "[33/seven.oldstyle/one.oldstyle/a.sc]", widths("[522 550 550]", 33), _agl)
    assert named == [(522.0, "7"), (550.0, "1"), (550.0, "a")]
    # 522 thousandths at 10 pt: a 5.22 pt box is the seven; 5.5 pt could be one or a.sc
    assert rename("\uffff.\uffff", [5.22, 2.5, 5.5], 10.0, named) == "7.\uffff"


@given(st.lists(st.sampled_from(["a", "b", "7", UNMAPPED]), max_size=12),
       st.lists(st.floats(min_value=0.0, max_value=20.0), min_size=12, max_size=12))
def test_renaming_touches_only_uffff(text: list[str], widths: list[float]) -> None:
    named = [(500.0, "1"), (600.0, "2")]
    out = rename("".join(text), widths[:len(text)], 10.0, named)
    assert len(out) == len(text)
    for before, after, width in zip(text, out, widths, strict=False):
        if before != UNMAPPED:
            assert after == before
        else:
            assert after in {UNMAPPED, "1", "2"}
            assert after == UNMAPPED or abs(width * 100 - (500.0 if after == "1" else 600.0)) <= 0.6


# ------------------------------------------------------------ front matter of other kinds


def test_keyword_labels_and_their_lists_are_front() -> None:
    tandf = chunks_of("tandf_biopharm_survival_stacking_article.pdf")
    keywords = holding(tandf, "Pseudo-observations; pseudo-observation-based AUC")
    assert chunk_type(keywords) == "front" and keywords.text.startswith("KEYWORDS")
    assert chunk_type(holding(tandf, "Full Terms & Conditions of access and use")) == "front"
    nist = chunks_of("techreport_nist_sp800_207_zero_trust.pdf")
    assert chunk_type(holding(nist, "architecture; cybersecurity; enterprise; network security; zero trust")) == "front"
    uba = chunks_of("thesis_uba_smart_contracts_es.pdf")
    assert chunk_type(holding(uba, "Palabras claves: Contratos inteligentes")) == "front"


def test_open_journals_licence_notes_are_front() -> None:
    jose = chunks_of("jose_rcourse_livecoding_paper.pdf")
    assert chunk_type(holding(jose, "Authors of papers retain copyright and release the work")) == "front"
    assert is_licence("Copyright © 2025 S.D. Wagner et al., released under a Creative Commons Attribution "
                      "4.0 International license.")
    assert not is_licence("The authors retain the data and released the code under an MIT licence.")
    assert is_front_matter("KEYWORDS", at_edge=False) and is_front_matter("ARTICLE HISTORY", at_edge=False)
    assert not is_front_matter("Keywords are matched against the index.", at_edge=False)


@given(st.lists(st.text(alphabet="abcdefgh ", min_size=1, max_size=30).map(str.strip).filter(bool),
                min_size=2, max_size=8))
def test_short_terms_separated_by_semicolons_are_a_term_list(terms: list[str]) -> None:
    text = "; ".join(terms)
    assert is_term_list(text) == (len(text) <= 400 and all(len(t.split()) <= 6 for t in terms))


def test_a_sentence_is_no_term_list() -> None:
    assert not is_term_list("We used three methods. Each is described below, with its data.")
    assert not is_term_list("zero trust")


# ----------------------------------------------------------- headings, items, page numbers


def test_a_heading_numbered_three_levels_deep_in_the_body_face_is_a_heading() -> None:
    assert classify("5.4.3.5. Tiempos de ejecución", 10.9, False, 1, 10.9, True) == ("heading", "5.4.3.5")
    assert classify("5.4 Tiempos de ejecución", 10.9, False, 1, 10.9, True)[0] == "paragraph"
    chunks = chunks_of("thesis_uba_smart_contracts_es.pdf")
    para = holding(chunks, "El modelo con el bug fue ligeramente más rápido")
    assert (para.provenance.section or "").endswith("5.4.3.5. Tiempos de ejecución")


def test_a_chapters_page_number_at_its_foot_does_not_break_the_paragraph_it_falls_in() -> None:
    # the chapter's first page is numbered at its foot (59), the others in their running heads
    chunks = chunks_of("thesis_uba_smart_contracts_es.pdf")
    para = holding(chunks, "En primer lugar, se presentará una variante del contrato")
    assert "para un primer acercamiento al código que modela los contratos." in para.text
    assert pages_of(para) == [4, 5] and "59" not in para.text.split()


def test_an_enumerated_item_with_a_bold_lead_is_no_heading() -> None:
    chunks = chunks_of("jose_python_packaging_course_paper.pdf")
    item = holding(chunks, "4. Version control, collaborative development, and open source contribution")
    assert chunk_type(item) == "paragraph"
    assert "revert to previous states, and maintain a clear project history" in item.text  # p. 2 → 3
    assert "By participating in such environments" in item.text
    assert sorted(set(pages_of(item))) == [2, 3]
    para = holding(chunks, "Figure 1 provides an overview of the course timeline")
    assert para.provenance.section == "Learning objectives and outline"


def test_a_paragraph_goes_on_past_a_nature_box() -> None:
    chunks = chunks_of("natsust_livestock_climate_priorities.pdf")
    para = holding(chunks, "Climate change seriously threatens livestock productivity")
    assert "that US$994 billion per year in livestock value" in para.text
    assert pages_of(para) == [1, 2]


def test_a_slides_bullets_stay_with_their_text() -> None:
    chunks = chunks_of("slides_kubernetes_new_contributor_orientation.pdf")
    item = holding(chunks, "Kubernetes has a lot of moving parts")
    assert "also prove to be overwhelming! There are a few reasons:" in item.text
    assert "around will compound." in holding(chunks, "But there is good news").text


def test_a_sentence_opening_with_a_tables_number_is_no_caption() -> None:
    assert CAPTION_RE.match("Table 4.4 shows that the cophenetic distances") is None
    assert CAPTION_RE.match("Table 4.4. Cophenetic distances") is not None
    assert CAPTION_RE.match("Figure 7.1. A weighted graph") is not None
    chunks = chunks_of("thesis_openuniversity_software_forks_msc.pdf")
    assert chunk_type(holding(chunks, "Table 4.4 shows that the cophenetic distances")) == "paragraph"


def test_a_chapters_epigraphs_are_front_and_its_text_is_not() -> None:
    chunks = chunks_of("book_erickson_algorithms_mst_chapter.pdf")
    for words in ("We must all hang together, gentlemen", "— Benjamin Franklin, at the signing",
                  "I remember seeking advice from someone", "— Joseph Kruskal, describing", "Clean ALL the things!"):
        assert chunk_type(holding(chunks, words)) == "front", words
    assert chunk_type(holding(chunks, "Suppose we are given a connected, undirected, weighted graph")) == "paragraph"


def test_a_pictures_credit_line_is_front() -> None:
    chunks = chunks_of("slides_kubernetes_new_contributor_orientation.pdf")
    assert chunk_type(holding(chunks, "Image from: https://knowyourmeme.com/memes/profit")) == "front"
    assert is_credit("Illustration by Ben Marder") and is_credit("Photo: Jane Doe")
    assert not is_credit("Photographs from the archive show that the mill stood here.")
    assert not is_credit("Images of the cells were taken every hour.")


# ------------------------------------------------- batch 10: proceedings, reports, theses


def test_margin_line_numbers_are_not_read_into_the_lines_they_number() -> None:
    # a LIPIcs review copy: 5 pt line numbers beside every line, left of the text
    chunks = chunks_of("lipics_padic_lfunctions_lean_paper.pdf")
    para = holding(chunks, "We are working on formalizing mathematics in an interactive")
    assert "one of Lean’s best features" in para.text and not para.text[:1].isdigit()
    assert chunk_type(holding(chunks, "Keywords and phrases formal math")) == "front"
    assert chunk_type(holding(chunks, "Leibniz International Proceedings in Informatics")) == "front"


def test_proceedings_apparatus_is_front() -> None:
    ieee = chunks_of("ieee_access_polyp_segmentation_article.pdf")
    for words in ("This work is licensed under a Creative Commons Attribution 4.0 License",
                  "INDEX TERMS", "Corresponding authors:"):
        assert chunk_type(holding(ieee, words)) == "front", words
    ceur = chunks_of("ceur_vertebrate_breed_ontology_workshop.pdf")
    assert chunk_type(holding(ceur, "Ontology, animal breeds, vertebrate animals")) == "front"
    assert chunk_type(holding(ceur, "CEUR Workshop Proceedings (CEUR-WS.org)")) == "front"
    assert chunk_type(holding(chunks_of("ceur_ontology_aware_annotation_workshop.pdf"),
                          "ICBO 2022, September 25-28, 2022, Ann Arbor")) == "front"
    assert chunk_type(holding(chunks_of("eptcs_fsm_zksnark_category_paper.pdf"),
                          "Final version to appear in")) == "front"
    assert chunk_type(holding(chunks_of("elife_crispr_sqstm1_tools_article.pdf"), "Reviewing editor:")) == "front"


def test_a_reports_roman_page_numbers_do_not_break_its_paragraphs() -> None:
    # HSF-TN-2020-01 numbers its pages i, ii, iii at 88 % of the page, above its footnotes
    chunks = chunks_of("techreport_hsf_project_best_practices_note.pdf")
    para = holding(chunks, "To improve on the quality of software, unit and integration testing")
    assert "document what their addition is supposed to do" in para.text
    assert " ii " not in para.text and sorted(set(pages_of(para))) == [3, 4]


def test_a_running_head_repeating_a_section_heading_a_little_lower_is_dropped() -> None:
    chunks = chunks_of("thesis_lorraine_malware_disassembly_fr.pdf")
    para = holding(chunks, "Cette thèse s'intéresse particulièrement")
    assert "2.6. Conclusion" not in para.text and sorted(set(pages_of(para))) == [17, 18]


def test_a_caption_whose_dash_maps_to_no_character_is_a_caption() -> None:
    assert CAPTION_RE.match("Figure 2.11 \ufffd Empaquetage d’un binaire") is not None
    chunks = chunks_of("thesis_lorraine_malware_disassembly_fr.pdf")
    assert chunk_type(holding(chunks, "Empaquetage d'un binaire")) == "figure"


def test_a_tables_note_in_the_body_size_goes_with_the_table() -> None:
    chunks = chunks_of("thesis_openuniversity_software_forks_msc.pdf")
    assert chunk_type(holding(chunks, "2.2e-16 is the smallest non zero floating point number")) == "table"
