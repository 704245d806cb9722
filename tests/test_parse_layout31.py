"""Layout 31 (issue 34, batch 22's unseen papers and the kinds they showed): a
double-spaced preprint's paragraph indents, references' hanging lines, a Word draft's
line numbers, a paragraph's last column past a column break, tables of numbered rows and
of bulleted cells, notes' ends, code in a text face, a caption with text beside it, a
contact's addresses and a copyright notice alone; on real pages, with property tests of
the pure rules."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding, pages_of

from vaultd.parse.classify import heading_number
from vaultd.parse.code import is_code
from vaultd.parse.front_blocks import is_contact
from vaultd.parse.licences import is_licence
from vaultd.parse.paras import Line
from vaultd.parse.spacing import _run_indents

BIORXIV = "biorxiv_cyanohomoalanine_methionine_analog.pdf"
NIST = "nist_sp1800_11a_data_integrity_summary.pdf"
OSPO = "report_todo_ospology_bof_india_two_column_excerpt.pdf"
OPENINTRO = "book_openintro_biostat_numerical_data_excerpt.pdf"
GAMMAPY = "aa_gammapy_gamma_ray_python_package.pdf"
CVPR = "cvpr_cell_counting_microscopy_deep_learning.pdf"
IUCR = "iucr_jac_pdcifplotter_powder_diffraction_excerpt.pdf"
THESIS_FR = "thesis_ubo_brest_medecine_microbiote_fr_excerpt.pdf"
SURVIVAL = "r_survival_timedep_report.pdf"
POSTNOTE = "postnote_uk_information_superhighway_1995.pdf"

# ------------------------------------------------ paragraphs and references, whole


def test_a_double_spaced_preprints_abstract_goes_on_at_the_next_pages_top() -> None:
    # bioRxiv's double-spaced preprint: every line a block of its own, so its indented
    # paragraphs were not seen, and "… for the sfGFP mutants." | "Other sites of Cha …"
    # (flush at p. 2's top) was read as two paragraphs
    abstract = holding(chunks_of(BIORXIV), "Non-canonical amino acids (ncAAs) are valuable tools")
    assert "as expected for the sfGFP mutants. Other sites of Cha and Aha incorporation" in abstract.text
    assert pages_of(abstract) == [1, 2]


def test_a_references_lines_hanging_under_its_first_are_one_entry() -> None:
    # "(16) Landor … Differential Toxicity of" | "Bioorthogonal …" hangs in under the
    # entry's number; "… J. Microbiol." | "Methods 2023 …" goes on under it
    entry = holding(chunks_of(BIORXIV), "(16) Landor, L. A. I.")
    assert "Differential Toxicity of Bioorthogonal Non-Canonical Amino Acids" in entry.text
    assert "J. Microbiol. Methods 2023, 206, 106679." in entry.text
    assert "(17) Flynn" not in entry.text


def test_a_word_drafts_margin_line_numbers_are_no_words_of_its_text() -> None:
    # NIST's draft numbers its lines in the margin in the text's own font and size: each
    # number had become its line's first word ("… employee 2 records, …")
    para = holding(chunks_of(NIST), "Data integrity attacks have compromised corporate information")
    assert "including emails, employee records, financial records, and customer data." in para.text
    head = holding(chunks_of(NIST), "CHALLENGE")
    assert chunk_type(head) == "heading" and head.text.strip() == "CHALLENGE"


def test_a_paragraph_past_a_column_break_keeps_its_next_sentence() -> None:
    # the paragraph goes on at the right column's top, where "… and governments." is
    # followed by "In light of this, …" flush under it at the line pitch, each line a block
    para = holding(chunks_of(OSPO), "The 2024 Global Spotlight Insights Report indicates")
    assert "(63% identify lack of time) and funding limitations" in para.text
    assert "from their organizations and governments. In light of this, a notable proportion" in para.text


def test_a_sentence_left_open_goes_on_at_the_next_columns_top_one_line_a_block() -> None:
    para = holding(chunks_of(OSPO), "The government had announced plans to unveil")
    assert "aiming to update the previous 2012 policy with a stronger focus" in para.text


def test_a_word_split_at_a_column_foot_does_not_take_an_authors_e_mail() -> None:
    # the author's e-mail in the title block was read as the right column's top:
    # "identi-pande@stanford.edu fying"
    item = holding(chunks_of(CVPR), "Cell segmentation: Generate a mask")
    assert "capable of identifying cells in an image." in item.text
    assert "@" not in item.text


def test_text_beside_a_caption_reaching_into_its_column_is_read_before_the_next_column() -> None:
    # IUCr's Table 3 reaches into the left column, whose last lines run on beside it: the
    # appendix there was read after the right column, its URL broken from its rest
    para = holding(chunks_of(IUCR), "In testing pdCIFplotter, a series of macros")
    assert "(Evans, 2010; http://topas.dur.ac.uk/topaswiki/doku." in para.text
    assert "php?id=out_pdcif). They have been tested in TOPAS v5–7" in para.text


# ------------------------------------------------------------------- tables and notes


def test_a_data_matrix_with_numbered_rows_is_a_table_not_a_listing() -> None:
    # OpenIntro's Figure 1.6: four rows numbered 1, 2, 3, 595 between two rules; read as a
    # listing's numbered lines, its rows had gone into the paragraph broken over the page
    table = holding(chunks_of(OPENINTRO), "1 Female 27 Caucasian 65.0 199.0 CC 40.0")
    assert chunk_type(table) == "table"
    para = holding(chunks_of(OPENINTRO), "The variables age, height, weight, and ndrm.ch")
    assert "since sums, differences, and averages in this context have no meaning" in para.text
    assert "Caucasian" not in para.text


def test_a_notes_end_at_the_top_of_a_pages_notes_is_a_footnote() -> None:
    # "transformation." ends a note begun on a page the excerpt leaves out; it stands over
    # note 7 in the notes' size
    tail = next(c for c in chunks_of(OPENINTRO) if c.text.strip() == "transformation.")
    assert chunk_type(tail) == "footnote"


def test_footnotes_marked_with_roman_numerals_are_footnotes() -> None:
    note = holding(chunks_of(THESIS_FR), "Les anciennes études estimaient le poids")
    assert chunk_type(note) == "footnote"


def test_a_table_whose_cells_hold_bulleted_lists_is_one_table() -> None:
    # the OSPOlogy report's "How might we" table: a row's questions are a bulleted list
    # of several lines, so its rows stand far apart and its cells read as prose
    table = holding(chunks_of(OSPO), "How might we structure the OSPO in the most efficient way?")
    assert chunk_type(table) == "table"
    assert "How might we use a product roadmap to build an Open Source ecosystem" in table.text


# ------------------------------------------------------------- heads and sections


def test_a_books_boxed_head_goes_under_its_numbered_subsection() -> None:
    # "A COMMON CLASSIFICATION IS:" in a definition box had been read as section "A",
    # set over every later numbered section of the chapter
    para = holding(chunks_of(OPENINTRO), "The famuss dataset is a subset of the data for 595")
    assert "Types of variables" in (para.provenance.section or "")
    later = holding(chunks_of(OPENINTRO), "The median and IQR are referred to as robust estimates")
    assert (later.provenance.section or "").startswith("1.4 Numerical data")


def test_a_books_running_head_over_one_page_is_dropped_in_an_excerpt() -> None:
    # pages 11, 12, 17 … of the book: the first page's "1.2. DATA BASICS 11" went by its
    # neighbour's page number
    assert not any(c.text.startswith("1.2. DATA BASICS") for c in chunks_of(OPENINTRO))


def test_a_section_named_by_a_lowercase_package_is_a_heading() -> None:
    para = holding(chunks_of(GAMMAPY), "The gammapy.irf sub-package contains all classes")
    assert "gammapy.irf" in (para.provenance.section or "")
    assert heading_number("3.2. gammapy.data") == "3.2"
    assert heading_number("3.2 kg of salt") is None


# ------------------------------------------------------------- code and front matter


def test_an_r_sessions_lines_in_a_text_face_are_code() -> None:
    listing = holding(chunks_of(SURVIVAL), "> newcgd <- tmerge(data1=cgd0[, 1:13], data2=cgd0")
    assert chunk_type(listing) == "code"


def test_a_contacts_addresses_and_a_copyright_notice_alone_are_no_paragraphs() -> None:
    contact = holding(chunks_of(NIST), "Visit https://nccoe.nist.gov")
    assert chunk_type(contact) != "paragraph"
    notice = holding(chunks_of(POSTNOTE), "Copyright POST, 1995.")
    assert chunk_type(notice) != "paragraph"


def test_copyright_and_contact_lines_are_told_from_sentences() -> None:
    assert is_licence("© 2019 Elsevier B.V. All rights reserved.")
    assert not is_licence("Copyright law was changed in 1995 to allow more.")
    assert is_contact("Visit https://nccoe.nist.gov nccoe@nist.gov 301-975-0200")
    assert not is_contact("The data are at https://x.org and https://y.org")
    assert not is_contact("220 240 260 280 300 320 340 360")


_WORDS = st.lists(st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=9), min_size=3, max_size=14)


@given(st.lists(_WORDS, min_size=3, max_size=6))
def test_lines_of_prose_are_never_read_as_a_programs(lines: list[list[str]]) -> None:
    # a program's statements open their lines with an assignment, a call, an import or a
    # comment; sentences of words never do
    text = [" ".join(words).capitalize() + "." for words in lines]
    page = [Line(t, (72.0, 100.0 + 12 * i, 500.0, 110.0 + 12 * i), 10.0, False, 1, 1) for i, t in enumerate(text)]
    assert not is_code(page, " ".join(text))


@given(_WORDS)
def test_prose_without_addresses_is_never_a_contact(words: list[str]) -> None:
    assert not is_contact(" ".join(words))


def _line(x0: float, y: float, text: str = "words words words") -> Line:
    return Line(text, (x0, y, 400.0, y + 10.0), 10.0, False, int(y), 1)


def test_a_bulleted_items_hanging_lines_are_no_paragraph_indent() -> None:
    hanging = [_line(72.0, 100.0, "• An item that runs on"), _line(84.0, 112.0), _line(84.0, 124.0),
               _line(72.0, 136.0, "• The next item")]
    assert not _run_indents(hanging, 10.0)
    indented = [_line(72.0, 100.0, "the end of a paragraph."), _line(84.0, 112.0, "A new one opens"),
                _line(72.0, 124.0)]
    assert _run_indents(indented, 10.0)


def test_a_listing_in_a_text_face_set_a_statement_a_block_is_one_listing() -> None:
    # A&A's Python listings are set in the body's roman, a statement or two a block: the
    # paragraph at the foot of p. 6 went on into p. 7's listing and took its lines
    para = holding(chunks_of(GAMMAPY), "The gammapy.makers sub-package contains the various classes")
    assert "The MapDatasetMaker and SpectrumDatasetMaker are responsible for this task" in para.text
    assert "Path(" not in para.text
    listing = holding(chunks_of(GAMMAPY), "from pathlib import Path")
    assert chunk_type(listing) == "code"
    assert "flux_points_dataset = FluxPointsDataset.read(" in holding(chunks_of(GAMMAPY), "map_dataset = MapDataset").text


def test_a_section_head_in_the_column_beside_the_title_heads_its_text() -> None:
    # the POSTnote's "WHAT IS THE PURPOSE OF THE NII?" stands in the right column, wholly
    # right of the title: it had been taken for an author's block beside the title
    para = holding(chunks_of(POSTNOTE), "It is one thing to coin a popular phrase")
    assert "WHAT IS THE PURPOSE OF THE NII?" in (para.provenance.section or "")


def test_report_captions_contact_labels_and_jump_lines_are_told() -> None:
    from vaultd.parse.classify import is_figure_caption
    from vaultd.parse.front import is_front_matter
    from vaultd.parse.furniture import _CONTINUED_RE

    # a statistics agency's "Chart 1." captions its chart; "Chart 1 shows …" is a sentence
    assert is_figure_caption("Chart 1. One-month percent change in CPI for All Urban Consumers")
    assert not is_figure_caption("Chart 1 shows the change in prices")
    # a news release's contact lines, each under its label
    assert is_contact("Technical information: (202) 691-7000 • cpi_info@bls.gov • www.bls.gov/cpi "
                      "Media contact: (202) 691-5902 • PressOffice@bls.gov")
    assert not is_contact("Results: see https://a.org and https://b.org")
    # a newsletter's jump line, a case report's categories line
    assert _CONTINUED_RE.match("continued from page 7")
    assert is_front_matter("Categories: Pathology, Neurosurgery, Oncology", at_edge=False)


FRIEDMAN = "workingpaper_friedman_navy_strategic_planning_1947_excerpt.pdf"
EUROSTAT_WP = "eurostat_working_paper_big_data_filtering_word_excerpt.pdf"


def test_a_sentence_closed_before_its_notes_mark_takes_no_line_of_the_next_paragraph() -> None:
    # a Word paper's "… during the interwar period.2" over the next paragraph's indented
    # first line: the line after that had been read as the closed sentence's rest
    para = holding(chunks_of(FRIEDMAN), "Along these lines, readers will find")
    assert "paid to the Navy’s attempt to historically “predict” what the next major war" in para.text
    assert "the primary, assumed enemy" not in para.text


def test_an_archives_credit_under_a_scanned_chart_does_not_break_a_paragraph() -> None:
    para = holding(chunks_of(FRIEDMAN), "Nimitz additionally said that in considering the background")
    assert "Nimitz informed his subordinates that revisions" in para.text
    assert "Courtesy of" not in para.text
    assert pages_of(para) == [4, 5, 6]


def test_a_table_of_content_under_its_label_is_front_matter() -> None:
    entry = holding(chunks_of(EUROSTAT_WP), "2.3 An example of outliers in unstructured data")
    assert chunk_type(entry) == "front"


def test_a_bulleted_items_next_sentence_at_its_hang_stays_in_the_item() -> None:
    # Eurostat's "• In the upper and lower right quadrants … decrease in the growth rate."
    # with "In the first quadrant, …" under the item's text: one item, not an item and a
    # paragraph
    item = holding(chunks_of("eurostat_statistics_explained_business_cycle_clock_excerpt.pdf"),
                   "In the upper and lower right quadrants of the clock")
    assert "decrease in the growth rate. In the first quadrant, the growth rate is still above" in item.text


def test_a_charts_labels_inside_the_frame_drawn_round_its_caption_are_the_charts() -> None:
    # BLS draws a frame round each chart and its caption, the caption at the frame's top:
    # neither "above" nor "under" the caption, the charts were unfound and their axis
    # labels and legend read as paragraphs
    chunks = chunks_of("bls_news_release_cpi_july_2025_excerpt.pdf")
    assert not any("Jul'24 Aug Sep Oct" in c.text for c in chunks if chunk_type(c) == "paragraph")
    assert chunk_type(holding(chunks, "Chart 2. 12-month percent change in CPI")) == "figure"
