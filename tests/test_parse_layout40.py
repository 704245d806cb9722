"""Layout 40 (issue 34): running heads an excerpt repeats nowhere, known by the page numbers
they carry; a copyright sign drawn as a circle and a small C; rows of figures no table
finder took in. On real pages, with property tests of the pure rules."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import QUOTES, chunk_type, chunks_of, holding

from vaultd.parse.bylines import is_byline
from vaultd.parse.circled_marks import join_circled_marks
from vaultd.parse.furniture import drop_furniture
from vaultd.parse.number_rows import is_number_row
from vaultd.parse.numbered_subheads import numbered_subheads
from vaultd.parse.paras import Line, Para

ICES = "oup_icesjms_stock_recovery_excerpt.pdf"
NAR = "oup_nar_webserver_clipkit_browser_excerpt.pdf"

# ------------------------------------------------------------------- heads that carry their page


def test_a_running_head_opening_with_its_page_number_leaves_the_paragraph_it_tops() -> None:
    # a three-page excerpt: "2 | R. van Gemert and K. H. Andersen" over page 2 and
    # "Challenges due to stock recovery | 3" over page 3, each once; the paragraph going on
    # from page 1 had opened with the first
    chunks = chunks_of(ICES)
    assert not any("van Gemert and K. H. Andersen have" in c.text for c in chunks)
    assert any("It takes a longer time for large-bodied fish stocks to recover" in c.text
               and "have a longer generation time, slowing their recovery" in c.text for c in chunks)
    # OUP again, the number on the other side: "ClipKIT in the Cloud | 3" over page 2
    assert not any("ClipKIT in the Cloud 3" in c.text for c in chunks_of(NAR))


def _page(head: str, number_first: bool, page: int) -> list[Line]:
    top = Line(head, (60.0, 37.0, 550.0, 48.0), 9.0, False, 0, page, cells=2)
    body = [Line(f"body line {k} of the text", (60.0, 67.0 + 11 * k, 300.0, 76.0 + 11 * k), 9.0, False, 1, page)
            for k in range(50)]
    return [top, *body]


@given(st.integers(1, 400), st.lists(st.text(alphabet="abcdefghijklmnop", min_size=3, max_size=12),
                                     min_size=2, max_size=4, unique=True))
def test_heads_whose_numbers_go_with_their_pages_are_dropped_and_others_kept(first: int, words: list[str]) -> None:
    # numbers at alternate ends, each head's words its own: only the numbers can tell
    heads = [f"{first + i} {w.title()} et al." if i % 2 == 0 else f"{w.title()} in the Cloud {first + i}"
             for i, w in enumerate(words)]
    pages = [_page(h, i % 2 == 0, i) for i, h in enumerate(heads)]
    drop_furniture(pages, [792.0] * len(pages))
    assert all(ln.text.startswith("body line") for lines in pages for ln in lines)
    # the same heads with numbers that do not count the pages stay: a top line is no head by its place alone
    heads = [f"{first + 7 * i * i} {w.title()} et al." for i, w in enumerate(words)]
    pages = [_page(h, True, i) for i, h in enumerate(heads)]
    drop_furniture(pages, [792.0] * len(pages))
    assert [lines[0].text for lines in pages] == heads


# ------------------------------------------------------------------ a circle and a C in it


def test_a_copyright_sign_drawn_as_a_circle_and_a_small_c_is_read_as_one() -> None:
    # Advent 3B2 draws © as a symbol font's circle (mapped to "V") and a 5 pt "C" inside:
    # the line "V C International Council … 2018." had been a paragraph at the page's foot,
    # between the paragraph it ends the page in and that paragraph's rest on page 2
    chunks = chunks_of(ICES)
    line = holding(chunks, "International Council for the Exploration of the Sea 2018.")
    assert line.text.startswith("© International Council") and chunk_type(line) != "paragraph"
    assert not any(c.text.strip() == "V" for c in chunks)


def _span(text: str, box: tuple[float, float, float, float], size: float) -> dict[str, object]:
    return {"text": text, "bbox": box, "size": size}


@given(st.floats(6.0, 14.0), st.floats(0.3, 0.7), st.floats(-40.0, 40.0))
def test_a_small_c_inside_a_glyph_is_a_copyright_sign_and_beside_it_is_a_letter(size: float, scale: float,
                                                                                shift: float) -> None:
    circle = _span("V", (100.0, 100.0, 100.0 + size, 100.0 + size), size)
    inner = size * scale
    middle = 100.0 + (size - inner) / 2
    letter = _span("C", (middle, middle, middle + inner * 0.7, middle + inner), inner)
    rest = _span(" Cambridge University Press 2014.", (middle + inner, 100.0, 300.0, 100.0 + size), size)
    data = {"blocks": [{"lines": [{"spans": [circle]}, {"spans": [letter, rest]}]}]}
    join_circled_marks(data, (letter,))
    assert (circle["text"], letter["text"]) == ("", "©")
    # the same letter set clear of the glyph, or as large as it, is the letter it reads as
    moved = 100.0 + size + SLACK_CLEAR + abs(shift)
    for other in (_span("C", (moved, middle, moved + inner * 0.7, middle + inner), inner),
                  _span("C", (100.0, 100.0, 100.0 + size * 0.7, 100.0 + size), size)):
        circle = _span("V", (100.0, 100.0, 100.0 + size, 100.0 + size), size)
        data = {"blocks": [{"lines": [{"spans": [circle, other]}]}]}
        join_circled_marks(data, (other,))
        assert (circle["text"], other["text"]) == ("V", "C")


#: How far beside the circle a letter stands to be clear of it (more than ``SLACK``).
SLACK_CLEAR = 2.0


# --------------------------------------------------------------- rows of figures no finder took


ONS = "ons_bulletin_consumer_price_inflation_april_2025_excerpt.pdf"


def test_rows_of_figures_under_wrapped_column_heads_are_a_table_not_paragraphs() -> None:
    # ONS's Table 1: column heads wrapped in narrow columns ("CPIH" | "Index" | "(UK," |
    # "2015=100)"), rows "2024 Apr 132.2 3.0 …" twenty points apart: no finder read it, and
    # each row was a paragraph (one, "Jul 132.9 …", a section's heading)
    chunks = chunks_of(ONS)
    table = holding(chunks, "2024 Apr 132.2 3.0 0.5 133.5 2.3 0.3 124.6 6.6")
    assert chunk_type(table) == "table"
    assert "Apr 137.7 4.1 1.2 138.2 3.5 1.2 133.2 6.9" in table.text  # the last row, the same table
    assert table.markdown is not None and "| May 132.7 2.8 0.4 133.9 2.0 0.3 125.3 6.7 |" in table.markdown.split("\n")
    assert chunk_type(holding(chunks, "CPIH Index (UK, 2015=100)")) == "table"
    assert not any(c.provenance.section and "Jul 132.9" in c.provenance.section for c in chunks)


_words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=9)
_values = st.one_of(st.integers(-999, 99999).map(str), st.floats(-99, 999, allow_nan=False).map(lambda v: f"{v:.1f}"),
                    st.integers(0, 100).map(lambda v: f"{v}%"))


@given(_words, st.lists(_values, min_size=3, max_size=10))
def test_a_label_and_its_figures_in_cells_are_a_row_and_a_sentence_is_none(label: str, values: list[str]) -> None:
    row = " ".join([label.title(), *values])
    line = Line(row, (50.0, 100.0, 450.0, 110.0), 9.0, False, 0, 1, cells=len(values) + 1)
    assert is_number_row([line], row)
    # the same figures with nothing to label them are a chart's axis or a formula's
    bare = " ".join(values)
    assert not is_number_row([Line(bare, line.bbox, 9.0, False, 0, 1, cells=len(values))], bare)
    # words a space apart are a sentence, however many figures it names
    assert not is_number_row([Line(row, line.bbox, 9.0, False, 0, 1, cells=1)], row)


# ------------------------------------------------ batch 61: legends, justified ends, notes


DEGRUYTER = "degruyter_open_agriculture_2019_fgm_cylinder_liner_vibration_excerpt.pdf"
LIBREAS = "libreas_2017_berlin_school_libraries_de_excerpt.pdf"
LWW = "lww_medicine_2019_acupoint_stimulation_ponv_excerpt.pdf"
SAGE = "sage_analytical_chemistry_insights_2018_silver_nanoparticles_excerpt.pdf"


def test_a_formulas_legend_goes_on_with_the_paragraph_over_its_display() -> None:
    # De Gruyter draws formula (1) as an image, "(1)" its only text; the paragraph closes
    # "… as presented in Eq. (1)." and goes on under it, flush: "where PU is material …"
    chunks = chunks_of(DEGRUYTER)
    para = holding(chunks, "as presented in Eq. (1).")
    assert "where PU is material property of the upper surface" in para.text
    assert chunk_type(para) == "paragraph" and len(para.provenance.regions or []) == 2
    # "Where" capitalised is a legend too ("… is given by Eq. (6)." | (6) | "Where young …")
    assert "Where young modulus varies through the thickness direction." in holding(chunks, "is given by Eq. (6).").text


def test_a_sentence_ended_on_a_justified_full_line_goes_on_overleaf() -> None:
    # LIBREAS sets its paragraphs flush, a line apart: p. 4's last body line, full to the
    # margin, ends a sentence ("… Selbst-Präsentationen auf."), and the paragraph goes on
    # atop p. 5 past four footnotes, the foot line and the running head
    para = holding(chunks_of(LIBREAS), "Selbst-Präsentationen auf.")
    assert "Dies war auch möglich, da die Schulen in Berlin dazu angehalten werden" in para.text


def test_a_first_pages_notes_between_front_blocks_are_front_matter() -> None:
    # LWW's notes block under the left column: "Editor: …" (front) over plain notes, the
    # addresses and correspondence, "Copyright © 2019 …", the journal's citation line, the dates
    chunks = chunks_of(LWW)
    for words in ("RS and WD contributed equally to this work.", "The authors have no conflicts of interest",
                  "Correspondence: Tieying Shi", "Medicine (2019) 98:10(e14713)"):
        assert chunk_type(holding(chunks, words)) == "front", words
    # its running head beside the logo's "Medicine" on three pages, beside the site's
    # address on the fourth, set 2 pt lower: in no paragraph
    assert not any("Sun et al. Medicine (2019)" in c.text for c in chunks if chunk_type(c) == "paragraph")
    # SAGE's licence under its label: "Creative Commons Non Commercial CC BY-NC: This article …"
    assert chunk_type(holding(chunks_of(SAGE), "This article is distributed under the terms of the Creative")) == "front"


def test_a_dateline_set_flush_right_over_the_text_is_no_part_of_its_paragraph() -> None:
    # Eurostat's Statistics Explained: "Data extracted: 4 August 2023" | "Planned article
    # update: 15 November 2023", italic and flush right, in one block with the lead paragraph
    chunks = chunks_of("eurostat_statistics_explained_business_cycle_clock_excerpt.pdf")
    assert chunk_type(holding(chunks, "Planned article update: 15 November 2023")) == "front"
    lead = holding(chunks, "This article presents the Eurostat Business Cycle Clock")
    assert chunk_type(lead) == "paragraph" and lead.text.startswith("This article presents")


def test_a_lone_figures_caption_labelled_without_a_number_takes_its_flowchart() -> None:
    # the Lancet numbers no figure it prints one of: "Figure: Trial profile" under a CONSORT
    # flowchart whose boxes ("7785 participants read study information", …) were paragraphs
    chunks = chunks_of("lancet_respmed_stopadvisor_smoking_trial_excerpt.pdf")
    assert chunk_type(holding(chunks, "Figure: Trial profile")) == "figure"
    for words in ("7785 participants read study information", "3172 excluded 1298 declined"):
        assert all(chunk_type(c) not in ("paragraph", "list", "footnote") for c in chunks if words in c.text)


def test_elseviers_byline_addresses_and_labels_are_front_matter() -> None:
    # "Michael E. Rose a,∗ , John R. Kitchin b" over the addresses, one block: a paragraph
    # (an affiliation's lowercase letter after a name read as a word); the letter-spaced
    # "a r t i c l e i n f o" an equation; "Article history:" a paragraph of its own
    chunks = chunks_of("elsevier_softx_pybliometrics_scopus_excerpt.pdf")
    for words in ("Michael E. Rose a,∗ , John R. Kitchin b", "a Max Planck Institute for Innovation and Competition",
                  "a r t i c l e i n f o", "Article history: Received 19 March 2019"):
        assert chunk_type(holding(chunks, words)) == "front", words


@given(st.lists(st.tuples(st.sampled_from(["Anna", "Jean-Luc", "Shuning", "Guy", "Maxim", "O'Farrell"]),
                          st.sampled_from(["Zhou", "Grossman", "Ge", "Dubois", "Zaslavsky"]),
                          st.sampled_from("abcdef")), min_size=2, max_size=5))
def test_names_marked_with_affiliation_letters_are_a_byline(names: list[tuple[str, str, str]]) -> None:
    line = ", ".join(f"{first} {last} {mark}" for first, last, mark in names)
    assert is_byline(line)
    # an article's "a" before a capitalised word is no mark: a title is no byline
    assert not is_byline(f"Towards a {names[0][1]} Theory")


def _para_of(kind: str, text: str, lines: int = 1, number: str | None = None) -> Para:
    rows = [Line(text, (46.0, 100.0 + 12 * k, 500.0, 110.0 + 12 * k), 10.0, False, 0, 1) for k in range(lines)]
    return Para(kind, rows, text, [(1, text)], number, [lines])  # type: ignore[arg-type]


@given(st.integers(1, 30), st.integers(1, 9), st.sampled_from(["Complex exponential waves", "Results", "The model"]))
def test_a_subsection_head_in_the_body_face_is_told_by_its_number_going_on(section: int, sub: int, title: str) -> None:
    prose = "Wave solutions will rely upon an interesting property of spacetime used so far."
    head = _para_of("heading", f"{section} Wave solutions", number=str(section))
    first = _para_of("paragraph", f"{section}.1 {title}")
    paras = [head, _para_of("paragraph", prose, 3), first, _para_of("paragraph", prose, 3)]
    assert numbered_subheads(paras) == [first] and first.type == "heading" and first.number == f"{section}.1"
    # a number that does not go on from the section's (a skipped one, another section's) stays text
    for number in (f"{section}.{sub + 2}", f"{section + 3}.1"):
        stray = _para_of("paragraph", f"{number} {title}")
        paras = [_para_of("heading", f"{section} Wave solutions", number=str(section)),
                 _para_of("paragraph", prose, 3), stray, _para_of("paragraph", prose, 3)]
        assert numbered_subheads(paras) == [] and stray.type == "paragraph"


def test_a_justified_two_line_end_at_a_columns_foot_goes_on_atop_the_next() -> None:
    # Wiley's DDI: two full lines at the left column's foot over a full-width figure, the
    # sentence ended ("… (Figure 2; Figure S7 and S8)."), the paragraph going on flush atop
    # the right column past the page's folio "| 5" (no longer read as a formula's scrap)
    chunks = chunks_of("wiley_ddi_ringtail_possums_climate_excerpt.pdf")
    para = holding(chunks, "(Figure 2; Figure S7 and S8).")
    assert "The increasing frequency of heatwaves had a strong negative effect" in para.text
    assert not any(c.text.strip() == "| 5" for c in chunks)


CAMBRIDGE = "cambridge_apsr_2024_ethnic_minority_turnout_letter_excerpt.pdf"


def test_a_paragraph_opening_with_a_dropped_capital_is_verbatim_and_cups_head_block_is_front() -> None:
    # CUP's abstract and introduction open with a capital three lines high: vaultd reads
    # "In Western democracies, …", pdftotext the "I" apart and "n Western democracies"
    from vaultd.parse.pymupdf import PyMuPDFParser
    from vaultd.parse.verbatim import check_blocks

    pdf = QUOTES / CAMBRIDGE
    blocks = [b for b in PyMuPDFParser().parse(pdf).blocks if b.page == 1]
    opened = [b for b in blocks if b.text.startswith("In Western democracies")]
    assert len(opened) == 2
    assert check_blocks(pdf, opened).found == 2
    # the same words with another first letter are no quote of the page
    assert check_blocks(pdf, [replace(opened[0], text="O" + opened[0].text[1:])]).found == 0
    # the head block: journal line, DOI, © line and the CC BY statement, read as one block
    head = holding(chunks_of(CAMBRIDGE), "American Political Science Review (2024) 118, 3, 1556–1562")
    assert chunk_type(head) == "front"


def test_a_display_of_several_formula_lines_read_as_one_block_is_an_equation() -> None:
    # ICLR's convLSTM gates, "i = σ(Wxi ∗G xt + …)," | "f = σ(…)," | "ct = …" read as one
    # block of three lines: a paragraph, quoted as prose; the paragraph under it stays one
    chunks = chunks_of("iclr_2017_graph_conv_recurrent_network_draft_excerpt.pdf")
    gates = holding(chunks, "i = σ(Wxi ∗G xt + Whi ∗G ht−1 + wci ⊙ ct−1 + bi)")
    assert chunk_type(gates) == "equation"
    assert chunk_type(holding(chunks, "In that setting, the support K of the graph convolutional kernels")) == "paragraph"


def test_heads_wrapped_over_a_narrow_columns_lines_head_their_sections() -> None:
    # PLOS 2012's front section: "Rule 7: Establish a Relationship with Your Academic
    # Institution at the Outset" over three lines of a three-column page, in a 10 pt face
    # whose name tells no weight, over a 9 pt body; ten such heads fill more than 5 % of
    # the editorial, and two of them, read one after the other, had been one paragraph
    chunks = chunks_of("plos_compbiol_2012_ten_simple_rules_starting_company_editorial.pdf")
    para = holding(chunks, "You need to understand the relationship you as an institutional employee")
    assert (para.provenance.section or "").endswith(
        "Rule 7: Establish a Relationship with Your Academic Institution at the Outset")
    assert not any("Successful Business Rule 5" in c.text for c in chunks)


def test_a_law_reviews_long_notes_and_a_notes_tail_overleaf_are_footnotes() -> None:
    # XeLaTeX, notes a third to half of a page: note 50's tail carried to p. 2 over note 51
    # ("J. Reid, Jr., … (1996)."), set in from the marks hanging in the margin; note 54 going
    # on over two more paragraphs and a quotation, no marks of their own
    chunks = chunks_of("unibo_bologna_law_review_2019_blackstone_natural_law_excerpt.pdf")
    for words in ("J. Reid, Jr., The Transformation of English Legal Science",
                  "Two other criticisms of the Commentaries deserve scant mention here",
                  "THE rights of persons considered in their natural capacities"):
        assert all(chunk_type(c) not in ("paragraph", "list") for c in chunks if words in c.text), words
