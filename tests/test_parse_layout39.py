"""Layout 39 (issue 34, batch 58's unseen works and the kinds they showed): InDesign's
*Indent to Here* mark, a control code that takes no room, left out of the text; a slide's
title wrapped over two heads; one-line heads lettered in turn read as a list; a bold lead
and its dash run in; a report's two charts side by side under one caption; a figure's
notes standing together above a page's footnotes; a book's credits and a United Nations
document symbol on an imprint page. On real pages, with property tests of the pure rules."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding

from vaultd.parse.glyphs import drop_markers
from vaultd.parse.head_lists import numbered_runs
from vaultd.parse.headings import font_headings
from vaultd.parse.imprints import is_imprint
from vaultd.parse.paras import Line, Para
from vaultd.parse.verbatim import occurs_in

BOOK = "book_inc_cpov_reader_2011_lives_of_bots_excerpt.pdf"
UNCTAD = "unctad_tir_2025_inclusive_ai_development_overview_excerpt.pdf"
SLIDES = "slides_py4e_python_para_todos_intro_es_excerpt.pdf"


def _line(text: str, box: tuple[float, float, float, float], size: float = 12.0, bold: bool = True,
          font: str = "HelveticaNeueLTStd-Bd", page: int = 1) -> Line:
    return Line(text, box, size, bold, 0, page, font=font)


def _para(kind: str, lines: list[Line], number: str | None = None) -> Para:
    text = " ".join(ln.text for ln in lines)
    return Para(kind, lines, text, [(lines[0].page, text)], number, [len(lines)])  # type: ignore[arg-type]


# ------------------------------------------------------------------------ a mark that takes no room


def test_indesigns_indent_to_here_mark_is_no_character_of_a_quote() -> None:
    # "19.\t \x07Bruno Latour, …": the mark drew nothing, was read as U+FFFD, made "20. Ibid."
    # a formula's scrap, and the footnotes under it no footnotes; the paragraph they had
    # stood between went on no further ("… a user called ZeroOne" | "noted another problem")
    chunks = chunks_of(BOOK)
    assert all("\ufffd" not in c.text for c in chunks)
    assert chunk_type(holding(chunks, "20. Ibid.")) == "footnote"
    para = holding(chunks, "In 2006, a user called ZeroOne")
    assert "a user called ZeroOne noted another problem arising in discussion spaces" in para.text
    # UNCTAD's bullets: the triangle drawn apart, the mark before the item's first word
    item = holding(chunks_of(UNCTAD), "Serving both private and public interests")
    assert item.text.startswith("Serving both private and public interests – Leading technology companies")


def _span(text: str, xs: list[float]) -> tuple[dict[str, Any], dict[str, Any]]:
    chars = [{"c": c, "origin": (x, 10.0), "bbox": (x, 0.0, x + 5.0, 12.0)} for c, x in zip(text, xs, strict=True)]
    return {"text": text}, {"chars": chars}


@given(st.text(alphabet="abcdefghij ", min_size=1, max_size=12), st.sampled_from("\x01\x02\x07\x0b\x0e\x1a"),
       st.booleans())
def test_a_control_code_goes_only_where_the_next_glyph_starts_where_it_does(
        word: str, code: str, advances: bool) -> None:
    text = code + word
    xs = [0.0] + [(5.0 if advances else 0.0) + 5.0 * k for k in range(len(word))]
    span, raw = _span(text, xs)
    data = {"blocks": [{"lines": [{"spans": [span]}]}]}
    drop_markers(data, {"blocks": [{"lines": [{"spans": [raw]}]}]})
    assert span["text"] == (text if advances else word)


def test_a_mark_in_a_span_of_its_own_goes_before_the_next_spans_word() -> None:
    mark, mark_raw = _span("\x07", [207.4])
    word, word_raw = _span("Se", [207.4, 215.2])
    data = {"blocks": [{"lines": [{"spans": [mark, word]}]}]}
    drop_markers(data, {"blocks": [{"lines": [{"spans": [mark_raw, word_raw]}]}]})
    assert (mark["text"], word["text"]) == ("", "Se")


@given(st.text(alphabet="abc. ", min_size=1, max_size=20), st.text(alphabet="xyz ", min_size=1, max_size=20))
def test_a_quote_without_the_mark_is_still_the_text_layers(before: str, after: str) -> None:
    reference = f"{before}\ufffd{after}"
    assert occurs_in(before + after, reference)
    assert not occurs_in(before + "q" + after, reference)


# ------------------------------------------------------------------------ heads


def test_a_slides_title_wrapped_over_two_heads_is_one_head() -> None:
    # "Pasos del Programa o Flujo del" | "Programa", centred under it: each line a block
    para = holding(chunks_of(SLIDES), "Algunos pasos son condicionales")
    assert (para.provenance.section or "").split(" › ")[-1] == "Pasos del Programa o Flujo del Programa"


def test_a_panels_head_in_capitals_over_two_lines_is_one_head() -> None:
    para = holding(chunks_of(UNCTAD), "Governments need to explore policies")
    assert (para.provenance.section or "").split(" › ")[-1].strip() == "POLICY FOCUS"


def _heads(texts: list[str], top: float = 100.0, x0: float = 72.0, pitch: float = 14.0) -> list[Para]:
    """One-line bold heads, one under the other at ``pitch``, flush left."""
    return [_para("heading", [_line(t, (x0, top + pitch * k, x0 + 7.0 * len(t), top + 12.0 + pitch * k))])
            for k, t in enumerate(texts)]


def test_a_section_head_over_its_first_subsection_head_stays_two() -> None:
    paras = [*_heads(["METHODS", "Study design and participants"]),
             _para("paragraph", [_line("We recruited the patients of three clinics.", (72.0, 150.0, 520.0, 162.0),
                                       10.0, False, "Times")] * 4)]
    font_headings(paras, 10.0)
    assert [p.text for p in paras if p.type == "heading"] == ["METHODS", "Study design and participants"]


def test_a_head_broken_on_a_word_no_title_ends_on_is_one_head() -> None:
    paras = [*_heads(["Convergence of the", "min-max for small but finite"]),
             _para("paragraph", [_line("We recruited the patients of three clinics.", (72.0, 150.0, 520.0, 162.0),
                                       10.0, False, "Times")] * 4)]
    font_headings(paras, 10.0)
    assert [p.text for p in paras if p.type == "heading"] == ["Convergence of the min-max for small but finite"]


# ------------------------------------------------------------------------ items lettered in turn


def test_a_list_lettered_in_discs_is_a_list_under_its_lead() -> None:
    chunks = chunks_of(UNCTAD)
    item = holding(chunks, "Leveraging AI for productivity and workers’ empowerment")
    assert chunk_type(item) == "list"
    assert chunk_type(holding(chunks, "The Report examines five core themes:")) == "paragraph"
    # the passages under the list keep the section the page's head opened
    after = holding(chunks, "E Global collaboration for inclusive and equitable AI")
    assert (after.provenance.section or "").startswith("Steering artificial intelligence")


@given(st.sampled_from(["A", "a", "1", "3"]), st.integers(min_value=3, max_value=7))
def test_heads_numbered_in_turn_one_under_the_other_are_a_list(first: str, count: int) -> None:
    numbers = [chr(ord(first) + k) if first.isalpha() else str(int(first) + k) for k in range(count)]
    heads = _heads([f"{n} Item number {n}" for n in numbers])
    for head, n in zip(heads, numbers, strict=True):
        head.number = n
    lead = _heads(["The Report examines five core themes:"], top=86.0)[0]
    paras = [lead, *heads]
    numbered_runs(paras)
    assert [p.type for p in paras] == ["paragraph"] + ["list"] * count


def test_numbered_heads_with_text_between_them_stay_heads() -> None:
    heads = _heads(["1 Introduction", "2 Methods", "3 Results"])
    for head, n in zip(heads, "123", strict=True):
        head.number = n
    spread = [heads[0], heads[1], heads[2]]
    for k, head in enumerate(spread):  # a section's text between them: a line's height and more apart
        head.lines[0] = _line(head.text, (72.0, 100.0 + 120.0 * k, 200.0, 112.0 + 120.0 * k))
    numbered_runs(spread)
    assert [p.type for p in spread] == ["heading"] * 3
    out_of_turn = _heads(["1 Introduction", "3 Results", "4 Discussion"])
    for head, n in zip(out_of_turn, "134", strict=True):
        head.number = n
    numbered_runs(out_of_turn)
    assert [p.type for p in out_of_turn] == ["heading"] * 3


# ------------------------------------------------------------------------ a report's figure


def test_two_charts_side_by_side_under_a_caption_hold_their_labels_and_notes() -> None:
    # UNCTAD's Figure 1 over its 2023 and 2033 rings: the legend and the second ring's
    # labels had been a paragraph, its source and note lines body text
    chunks = chunks_of(UNCTAD)
    assert not any("Drone technology" in c.text for c in chunks if chunk_type(c) == "paragraph")
    source = holding(chunks, "Source: UNCTAD based on various online market research reports.")
    assert chunk_type(source) != "paragraph"
    # the page's footnotes under the next paragraph are footnotes, no notes of the figure
    assert chunk_type(holding(chunks, "Nvidia and Broadcom, United States")) == "footnote"
    assert chunk_type(holding(chunks, "The leading frontier technology providers")) == "paragraph"


# ------------------------------------------------------------------------ imprints


def test_a_books_credits_and_a_document_symbol_are_imprints() -> None:
    book = holding(chunks_of(BOOK), "ISBN: 978-90-78146-13-1")
    assert chunk_type(book) != "paragraph"
    assert chunk_type(holding(chunks_of(UNCTAD), "UNCTAD/TIR/2025 (Overview)")) != "paragraph"


@given(st.sampled_from(["UNCTAD/TIR/2025", "E/CN.4/2005/1", "A/RES/70/1", "UNEP/EA.5/Res.14"]),
       st.sampled_from(["", " (Overview)", " (Summary)"]))
def test_a_document_symbol_alone_is_an_imprint(symbol: str, note: str) -> None:
    assert is_imprint(symbol + note)
    assert not is_imprint(f"The resolution {symbol} was adopted by the General Assembly in 2015.")


def test_credits_with_an_isbn_are_an_imprint_and_a_citation_is_not() -> None:
    credits = ("Editors: Geert Lovink and Nathaniel Tkacz Editorial Assistance: Ivy Roberts, Morgan Currie "
               "Copy-Editing: Cielo Lutino Design: Katja van Stiphout Cover Image: Ayumi Higuchi Printer: "
               "Ten Klei Groep, Amsterdam Publisher: Institute of Network Cultures, Amsterdam 2011 ISBN: "
               "978-90-78146-13-1")
    assert is_imprint(credits)
    assert not is_imprint("As the reader compiled by the institute (ISBN 978-90-78146-13-1) shows, bots do "
                          "much of the work: they revert vandalism, tag articles and welcome new editors, "
                          "and they were once candidates in the project's own elections, which nobody had "
                          "expected of a program.")


# ------------------------------------------------------------------------ a displayed formula


PANDOC = "pandoc_unitn_2020_music_esprit_harmonic_estimation_excerpt.pdf"
VETWORLD = "vetworld_2017_broiler_garlic_holy_basil_nutrigenomics_excerpt.pdf"
GEV = "springer_machlearn_sparse_generalized_eigenvalue_excerpt.pdf"


def test_a_sentence_goes_on_under_a_displayed_formula() -> None:
    # "… dal sottospazio del rumore:" | the formula | "dove eH è il vettore di steering …"
    para = holding(chunks_of(PANDOC), "Gli autovettori s")
    assert "del rumore: dove e" in para.text
    assert len(para.provenance.regions or []) == 2
    # its lines after the first go on with it too, not into the display (a tall brace's pieces)
    state = holding(chunks_of(PANDOC), "Una diversa rappresentazione matematica")
    assert state.text.rstrip().endswith("il vettore del rumore dovuto alla misurazione.")
    gev = holding(chunks_of(GEV), "The generalized eigenvalue (GEV) problem")
    assert "such that where A, B ∈" in gev.text
    # the formula keeps its own chunk
    assert any(chunk_type(c) == "equation" for c in chunks_of(PANDOC))


def _prose(text: str, top: float, lines: int = 2) -> list[Line]:
    return [_line(text, (72.0, top + 13.0 * k, 520.0, top + 11.0 + 13.0 * k), 11.0, False, "Times")
            for k in range(lines)]


@given(st.sampled_from([":", ",", " such that", " the"]), st.sampled_from(["where", "dove", "with", "and"]),
       st.floats(min_value=120.0, max_value=300.0))
def test_a_paragraph_left_open_over_a_formula_goes_on_under_it(end: str, word: str, centre: float) -> None:
    from vaultd.parse.display_breaks import past_display

    lead = _para("paragraph", _prose("The generalized eigenvalue problem is finding a pair" + end, 100.0))
    formula = _para("equation", [_line("Ax = λBx", (centre, 132.0, centre + 60.0, 144.0), 11.0, False, "CMMI")])
    rest = _para("paragraph", _prose(f"{word} A and B are symmetric matrices of order n.", 150.0, 1))
    assert past_display([lead, formula], rest) is lead
    assert formula.floating
    # not after a closed sentence, not into a capital, not into an indented line (but a
    # formula's legend, "where …", goes on after either: layout 40)
    closed = _para("paragraph", _prose("The generalized eigenvalue problem is this.", 100.0))
    legend = word == "where"
    assert (past_display([closed, _para("equation", formula.lines)], rest) is closed) is legend
    capital = _para("paragraph", _prose("Since A and B are symmetric matrices of order n.", 150.0, 1))
    assert past_display([lead, _para("equation", formula.lines)], capital) is None
    indented = _para("paragraph", [_line(f"{word} A and B are symmetric.", (100.0, 150.0, 520.0, 161.0), 11.0,
                                         False, "Times")])
    assert past_display([lead, _para("equation", formula.lines)], indented) is None
    # a line of prose between is no display
    prose = _para("paragraph", [_line("a line of prose with words in it and more", (centre, 132.0, 500.0, 144.0),
                                      11.0, False, "Times")])
    assert past_display([lead, prose], rest) is None


# ------------------------------------------------------------------------ small heads


def test_small_sans_heads_over_a_serif_body_head_their_sections() -> None:
    # Veterinary World: 9 pt and 8 pt bold Verdana heads over an 11 pt Times body
    chunks = chunks_of(VETWORLD)
    for words, section in (("Since time immemorial", "Introduction"),
                           ("Each treatment consisted of 4 replicate pens", "Birds, experiment design, and management"),
                           ("About 2 ml of blood was collected", "Blood collection and analysis")):
        assert (holding(chunks, words).provenance.section or "").split(" › ")[-1] == section, words
    ethics = holding(chunks, "The animal experiment was conducted in accordance")
    assert (ethics.provenance.section or "").endswith("Materials and Methods › Ethical approval")


# ------------------------------------------------------------------------ methods after the bibliography


CURRENT_BIOLOGY = "currentbiology_2024_chytrid_dna_virus_excerpt.pdf"


def test_star_methods_heads_end_the_bibliography() -> None:
    # Cell Press sets its STAR Methods after the references: its heads and paragraphs had
    # been read as more entries of the bibliography, every section named REFERENCES
    chunks = chunks_of(CURRENT_BIOLOGY)
    for words, section in (("Further information and requests for resources", "Lead contact"),
                           ("Adult Dwarf Clawed frogs", "Amphibian infection model"),
                           ("A phylogeny of the Bd strains was constructed", "Strain phylogeny")):
        chunk = holding(chunks, words)
        assert chunk_type(chunk) == "paragraph", words
        assert (chunk.provenance.section or "").split(" › ")[-1] == section, words
    # the article's dates at its end are no paragraph
    assert chunk_type(holding(chunks, "Received: April 4, 2023")) != "paragraph"


@given(st.sampled_from(["STAR★METHODS", "STAR+METHODS", "STAR Methods", "KEY RESOURCES TABLE",
                        "RESOURCE AVAILABILITY", "METHOD DETAILS", "Online Methods",
                        "QUANTIFICATION AND STATISTICAL ANALYSIS",
                        "EXPERIMENTAL MODEL AND STUDY PARTICIPANT DETAILS"]))
def test_a_methods_head_alone_after_the_entries_ends_them(head: str) -> None:
    from vaultd.parse.references import ends_references

    line = _line(head, (60.0, 449.0, 170.0, 457.0), 7.0)
    assert ends_references([line])
    # an entry's line naming a journal of methods is no head
    entry = _line("Methods in Ecology and Evolution 7, 1–9.", (60.0, 449.0, 300.0, 457.0), 7.0, False)
    assert not ends_references([entry])


# ------------------------------------------------------------------------ italic heads in the text's size


TBZMED = "tbzmed_joddd_2016_antifungal_seed_oils_candida_excerpt.pdf"


def test_italic_heads_head_their_sections_beside_italic_species_names() -> None:
    # a Word article's subsection heads in Times italic at the body's size; lines of its
    # paragraphs full of species names (C. albicans, C. krusei) are italic too, and had
    # made the style too common to be a heads'
    chunks = chunks_of(TBZMED)
    for words, section in (("Phospholipids were estimated after being separated", "Quantification of lipids"),
                           ("The values of DIZ were expressed as means", "Statistical analysis")):
        assert (holding(chunks, words).provenance.section or "").split(" › ")[-1].strip() == section, words


def test_a_paragraphs_inline_runs_make_no_style_common() -> None:
    body = [_line("the text of a paragraph set in the body's face and size, line after line", (72.0, 100.0 + 13.0 * k,
                                                                                              520.0, 111.0 + 13.0 * k),
                  11.0, False, "Times") for k in range(30)]
    italic_lines = [_line("C. albicans, C. krusei and C. tropicalis", (72.0, 500.0 + 13.0 * k, 520.0, 511.0 + 13.0 * k),
                          11.0, False, "Times-Italic") for k in range(4)]
    paras = [_para("paragraph", body[:15] + italic_lines[:2]), _para("paragraph", body[15:] + italic_lines[2:])]
    heads = []
    for k, name in enumerate(("Quantification of lipids", "Statistical analysis")):
        top = 800.0 + 60.0 * k
        heads.append(_para("paragraph", [_line(name, (72.0, top, 200.0, top + 11.0), 11.0, False, "Times-Italic")]))
        heads.append(_para("paragraph", [_line("The values were expressed as means and analysed with a test of "
                                               "their variance between the groups", (72.0, top + 13.0 + 13.0 * j,
                                                                                      520.0, top + 24.0 + 13.0 * j),
                                               11.0, False, "Times") for j in range(3)]))
    paras += heads
    font_headings(paras, 11.0)
    assert [p.text for p in paras if p.type == "heading"] == ["Quantification of lipids", "Statistical analysis"]
