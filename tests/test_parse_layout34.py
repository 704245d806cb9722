"""Layout 34 (issue 34, batch 33's unseen works and the kinds they showed): a figure's
panel titles the figure's own; a running head that echoes its section's numbered head with
the page number after it; a running line sharing one side with the other pages' running
lines; a word processor's file stamp; batch 34's court opinion: its case caption and
judges' lines front matter, a citation's bracket left open at an abbreviation's stop and a
sentence's own "(2)" going on; batch 35's: NeurIPS' venue line, heads in a face set small
over prose, a table ruled under its header only, a head wrapped over two lines in its
face; on real pages, with property tests of the pure rules."""

from __future__ import annotations

import string
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding, pages_of, paragraphs_of

from vaultd.parse.chunker import chunk_blocks
from vaultd.parse.classify import classify
from vaultd.parse.court_filings import is_case_caption, is_judges_line
from vaultd.parse.enumerators import next_inline_mark
from vaultd.parse.figure_text import _panel_titles
from vaultd.parse.front import is_front_matter
from vaultd.parse.furniture import _FILE_STAMP_RE
from vaultd.parse.ocr_layer_lines import laid_word_by_word, reline
from vaultd.parse.paras import Line
from vaultd.parse.plain_heads import plain_caps_head
from vaultd.parse.pymupdf import PyMuPDFParser
from vaultd.parse.running_lines import shared_end

ENEURO = "eneuro_inverted_encoding_models_commentary.pdf"
FANCYHDR = "ltxdoc_fancyhdr_page_styles_manual_excerpt.pdf"
SIGCSE = "acm_sigcse26_small_lm_programming_feedback.pdf"
FDA = "fda_draft_guidance_refuse_to_file_nda_bla.pdf"
MISSOURI = "state_court_missouri_appeals_jagels_plea_opinion.pdf"
NEURIPS = "neurips_workshop_responsible_ml_workflow_excerpt.pdf"
COLLABRA = "collabra_ubiquity_free_will_inequality_excerpt.pdf"
GENOME_MEDICINE = "bmc_genome_medicine_deepprog_multiomics_excerpt.pdf"
JNER = "jner_2016_demarchis_0046d83a.pdf"
TEXTILE = "scanned_textile_america_1899_credit_reporting_excerpt.pdf"
TMLR = "tmlr_formatting_instructions_accepted_excerpt.pdf"
RESCIENCE = "rescience_backup_storage_replication.pdf"
G3 = "g3_orthofisher_gene_retrieval_excerpt.pdf"
FRONTIERS = "frontiers_bioeng_2020_methanol_dehydrogenase_excerpt.pdf"
SCIADV = "sciadv_goto_bifurcation_optimization.pdf"
CUREUS = "cureus_case_report_spinal_epidermoid_tumor_excerpt.pdf"
NJP = "iop_njp_2014_zonal_flow_symmetry_breaking_excerpt.pdf"
WILEY_DDI = "wiley_ddi_ringtail_possums_climate_excerpt.pdf"
ERICKSON = "book_erickson_algorithms_mst_chapter.pdf"


# ----------------------------------------------------------------------------- figures


def test_a_figures_panel_titles_are_the_figures_and_the_text_goes_on_past_it() -> None:
    # eNeuro's "A" | "Step 1: build encoding model" in 11 pt over a 9.5 pt body had read
    # as prose and stopped the figure's region: its labels became paragraphs and a head
    paras = paragraphs_of(ENEURO)
    for label in ("Step 1: build encoding model", "Voxels modeled as sum of neural channels",
                  "Repeat for all voxels"):
        assert not any(label in p for p in paras), label
    assert not any(c.text.startswith("Step 3: use fit encoding model") for c in chunks_of(ENEURO)
                   if chunk_type(c) == "heading")
    para = holding(chunks_of(ENEURO), "Recent analytical advances have circumvented challenges")
    assert "(fMRI voxel activation or EEG electrode activity) are modeled" in para.text
    assert pages_of(para)[:2] == [1, 2]


def _line(text: str, x0: float, y0: float, x1: float, size: float = 11.0, bold: bool = False) -> Line:
    return Line(text, (x0, y0, x1, y0 + size), size, bold, 0, 1)


@given(st.sampled_from(["A", "b", "(c)", "D"]), st.floats(min_value=2.0, max_value=20.0),
       st.text(alphabet=string.ascii_letters + " :", min_size=8, max_size=60))
def test_a_line_right_after_a_panels_letter_on_its_baseline_is_a_panel_title(
        letter: str, gap: float, title: str) -> None:
    mark = _line(letter, 40.0, 100.0, 48.0, 12.0, bold=True)
    head = _line(title, 48.0 + gap, 101.0, 400.0)
    far = _line(title, 48.0 + 40.0, 101.0, 400.0)  # more than 2.5 ems off: no title
    under = _line(title, 48.0 + gap, 130.0, 400.0)  # a line under it: no title
    assert _panel_titles([mark, head, under]) == {id(head)}
    assert _panel_titles([mark, far]) == set()
    # a letter in the body's face, neither bold nor bracketed, marks no panel
    plain = _line("A", 40.0, 100.0, 48.0)
    assert _panel_titles([plain, head]) == set()


# ------------------------------------------------------------------------- running lines


def test_a_running_head_echoing_its_sections_numbered_head_is_furniture() -> None:
    # ltxdoc's "24 When to change the headers and footers? 30" over the head "24 When to
    # change …": it had joined the paragraph the page break cut, which then stopped there
    paras = paragraphs_of(FANCYHDR)
    for head in ("3 Using extramarks 4", "16 Dictionary style headers 20",
                 "When to change the headers and footers? 30"):
        assert not any(head in p for p in paras), head
    para = holding(chunks_of(FANCYHDR), "There is another caveat, when switching page styles")
    assert para.text.endswith("I.e., the proper sequence is:") and pages_of(para) == [5, 6]


def test_a_running_line_sharing_a_side_with_the_other_pages_is_furniture() -> None:
    # ACM's odd page: "Title … SIGCSE TS 2026, …, USA", the even pages "SIGCSE TS 2026,
    # …, USA Koutcheme et al."; eNeuro's first page foot ends "1–5", the others "eNeuro.org"
    assert not any("SIGCSE TS 2026" in p for p in paragraphs_of(SIGCSE))
    assert not any("e0098-18.2018" in p for p in paragraphs_of(ENEURO))


_WORDS = st.lists(st.text(alphabet=string.ascii_lowercase + "#,.", min_size=1, max_size=9), min_size=1, max_size=6)


@given(_WORDS, _WORDS, _WORDS)
def test_a_shared_end_is_found_whichever_sides_share_it(run: list[str], left: list[str], right: list[str]) -> None:
    shared = " ".join(run)
    a, b = " ".join(left + run), " ".join(run + right)
    assert shared_end(a, b) >= len(shared)  # one ends with it, the other opens with it
    assert shared_end(" ".join(run + left), b) >= len(shared)  # both open with it
    assert shared_end(a, " ".join(right + run)) >= len(shared)  # both end with it
    assert shared_end(a, b) == shared_end(b, a)


def test_a_word_processors_file_stamp_is_furniture() -> None:
    # the FDA guidance's cover: "17065dft.doc" over "11/14/17", under its agency block
    chunks = chunks_of(FDA)
    assert not any("17065dft.doc" in c.text or c.text.strip() == "11/14/17" for c in chunks)
    holding(chunks, "Center for Drug Evaluation and Research (CDER)")  # (the cover's text above it stays)


@given(st.text(alphabet=string.ascii_letters + string.digits + "_-", min_size=1, max_size=20),
       st.sampled_from(["doc", "docx", "DOC", "rtf", "wpd", "indd"]),
       st.lists(st.sampled_from(["11/14/17", "2019-03-01", "10:22", "3.2"]), max_size=3))
def test_a_file_name_with_its_dates_is_a_stamp_and_prose_naming_one_is_not(
        stem: str, ext: str, dates: list[str]) -> None:
    assert _FILE_STAMP_RE.match(" ".join([f"{stem}.{ext}", *dates]))
    assert not _FILE_STAMP_RE.match(f"Open {stem}.{ext} to fill in the form")


# ------------------------------------------------------------------------------ courts


def test_a_case_caption_and_the_judges_lines_are_front_matter() -> None:
    # the caption's parties and docket parted by a column of ")" had read as the first
    # paragraph (over 40 words: front matter was taken to end there), the panel and the
    # signature with the others' concurrence as paragraphs
    chunks = chunks_of(MISSOURI)
    for words in ("NICHOLE MARIE JAGELS", "Angela T. Quigless, P.J., Kurt S. Odenwald, J.",
                  "James M. Dowd, Judge"):
        assert chunk_type(holding(chunks, words)) == "front", words
    assert chunk_type(holding(chunks, "Appellant Nichole M. Jagels appeals the judgment")) == "paragraph"


def test_a_citations_bracket_and_a_sentences_own_enumeration_go_on() -> None:
    # "(Mo." | "banc 2009)." and "… circumstances, and" | "(2) that he was prejudiced":
    # the paragraph had stopped at each, and the next one's lines were taken for its rest
    chunks = chunks_of(MISSOURI)
    para = holding(chunks, "In order to prevail on a claim of ineffective assistance of counsel")
    assert "circumstances, and (2) that he was prejudiced thereby." in para.text
    assert "(Mo. banc 2009). To overcome this presumption" in " ".join(para.text.split())
    after = holding(chunks, "When a claim of ineffective assistance of counsel follows a guilty plea")
    assert "the claim of ineffective assistance is “immaterial" in after.text
    assert after.text.rstrip().endswith("306 (Mo. App. E.D. 2010).")


_NAMES = st.lists(st.sampled_from(["Angela T. Quigless", "Kurt S. Odenwald", "James M. Dowd", "Smith"]),
                  min_size=1, max_size=3)


@given(_NAMES, st.sampled_from(["J.", "P.J.", "C.J.", "Judge"]), st.booleans())
def test_judges_names_with_their_titles_are_a_judges_line_and_a_sentence_is_not(
        names: list[str], title: str, concur: bool) -> None:
    line = ", ".join(f"{n}, {title}" for n in names) + (", concur." if concur else "")
    assert is_judges_line(line)
    assert is_judges_line("______________________________ " + line)
    assert not is_judges_line(f"The court, per {names[0]}, held that the plea was voluntary.")


@given(st.integers(min_value=3, max_value=8), st.sampled_from([")", "§"]))
def test_a_column_of_brackets_is_a_caption_and_a_bracket_or_two_in_prose_is_not(n: int, mark: str) -> None:
    rows = [f"PARTY {i}, {mark} No. {i}" for i in range(n)]
    assert is_case_caption(" ".join(rows))
    assert not is_case_caption("The counts (1) and (2) were dismissed (see § 565.253).")


@given(st.sampled_from([("1", "2"), ("a", "b"), ("i", "ii"), ("iii", "iv")]))
def test_the_next_enumerator_of_a_sentence_goes_on_and_a_lists_next_item_does_not(pair: tuple[str, str]) -> None:
    first, second = pair
    assert next_inline_mark(f"a movant must show ({first}) that counsel failed, and", f"({second}) that he")
    # the mark opening the paragraph before: a list's items, each its own
    assert not next_inline_mark(f"({first}) that counsel failed, and", f"({second}) that he")
    assert not next_inline_mark("a movant must show that counsel failed, and", f"({second}) that he")
    # an item ended on a semicolon: the list's next item
    assert not next_inline_mark(f"three things: ({first}) how often it is used;", f"({second}) which")


# ------------------------------------------------------------------------ batch 35


def test_neurips_venue_line_is_front_matter() -> None:
    line = holding(chunks_of(NEURIPS), "Workshop at the 33rd Conference on Neural Information Processing Systems")
    assert chunk_type(line) == "front"


@given(st.integers(min_value=1, max_value=60), st.sampled_from(["NeurIPS", "ICML", "CoRL"]),
       st.integers(min_value=1990, max_value=2030))
def test_a_conference_venue_line_is_front_matter_and_prose_naming_one_is_not(n: int, acronym: str, year: int) -> None:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10 if n % 100 not in (11, 12, 13) else 0, "th")
    line = f"{n}{suffix} Conference on Neural Information Processing Systems ({acronym} {year}), Vancouver, Canada."
    assert is_front_matter(line, at_edge=True)
    assert is_front_matter(f"Robust AI Workshop at the {line}", at_edge=True)
    assert not is_front_matter(f"We compare our method at the {line}", at_edge=True)


def test_heads_in_a_face_set_small_over_prose_head_their_sections() -> None:
    # Ubiquity Press's third-level heads, 8 pt sans over a 10 pt serif body, had run into
    # their first paragraphs
    chunks = chunks_of(COLLABRA)
    assert chunk_type(holding(chunks, "Support for Meritocracy")) == "heading"
    para = holding(chunks, "Support for meritocracy was measured using the Support for Meritocracy Scale")
    assert (para.provenance.section or "").endswith("Support for Meritocracy")
    assert para.text.startswith("Support for meritocracy was measured")


def test_a_table_ruled_under_its_header_only_keeps_its_rows_and_note() -> None:
    # Collabra's Table 1: a short rule under "Model 1 … Model 2 …", one across under the
    # column heads, none at the foot; its rows had become headings and paragraphs
    chunks = chunks_of(COLLABRA)
    table = holding(chunks, "Party Identification (Republican)")
    assert chunk_type(table) == "table" and "Model 1: Only Free Will" in table.text
    assert not any(chunk_type(c) in ("paragraph", "heading") and ("Gender (Female)" in c.text or "Note:" in c.text)
                   for c in chunks)


def test_a_head_wrapped_over_two_lines_in_its_face_heads_its_text(fixtures_dir: Path) -> None:
    # BMC's subsection heads over two lines in one block with their text
    para = holding(chunks_of(GENOME_MEDICINE), "To obtain a more robust model, we aggregate multiple DeepProg models")
    assert para.provenance.section == "Methods › Boosting procedure to enhance the robustness of DeepProg"
    assert para.text.startswith("To obtain")
    jner = chunk_blocks(PyMuPDFParser().parse(fixtures_dir / "pdfs" / "two_column" / JNER).blocks, "pymupdf")
    para = holding(jner, "In order to determine subsets of optimal stimulation patterns")
    assert (para.provenance.section or "").endswith("Scanning the array and selecting the optimal stimulation patterns")


def test_an_ocr_layers_typewriter_face_sets_no_code() -> None:
    # an 1899 scan's OCR layer, set in an invisible Courier: every paragraph had been read
    # as a program's listing
    chunks = chunks_of(TEXTILE)
    assert not any(chunk_type(c) == "code" for c in chunks)
    assert chunk_type(holding(chunks, "The issuing of a prospectus for a new scheme")) == "paragraph"


def test_an_ocr_layer_laid_a_word_a_line_is_read_in_its_printed_lines() -> None:
    # each word its own line at its own size, three columns a few points apart: no
    # paragraph had formed; the words are put back into the columns' lines
    chunks = chunks_of(TEXTILE)
    para = holding(chunks, "The first credit report was a question asked by one merchant of another")
    assert chunk_type(para) == "paragraph" and "a dozen traders" in para.text
    para = holding(chunks, "Among numerous credit-reporting organs a struggle has begun")
    assert pages_of(para)[:2] == [1, 2]  # from p. 1's third column to p. 2's first
    assert chunk_type(holding(chunks, "NATURE OF CREDIT REPORTING.")) == "heading"


def _word(text: str, x0: float, y0: float, size: float = 8.0) -> Line:
    return Line(text, (x0, y0, x0 + 5.0 * len(text), y0 + size), size, False, 0, 1, font="Courier")


@given(st.integers(min_value=2, max_value=4), st.integers(min_value=12, max_value=30),
       st.floats(min_value=8.0, max_value=30.0), st.lists(st.floats(min_value=-0.6, max_value=0.6), min_size=1))
def test_words_laid_one_a_line_are_put_back_into_their_columns_lines(
        columns: int, rows: int, gutter: float, jitter: list[float]) -> None:
    words = ["credit", "the", "report", "of", "agency", "merchant"]
    width = 5.0 * sum(map(len, words)) + 5.0 * (len(words) - 1)  # (5 points a letter, and a space)
    lines = []
    texts = []
    for c in range(columns):
        left = 40.0 + c * (width + gutter)
        for r in range(rows):
            row = words[r % len(words):] + words[:r % len(words)]  # word gaps fall apart row to row
            texts.append(" ".join(row))
            x = left
            for k, word in enumerate(row):
                shift = jitter[(c + r + k) % len(jitter)]
                lines.append(_word(word, x, 100.0 + r * 12.0 + shift, 8.0 + shift))
                x += 5.0 * len(word) + 5.0
    assert laid_word_by_word(lines) == (len(lines) >= 600)  # (a word a piece: as many words)
    out = reline(lines)
    assert len(out) == columns * rows
    assert [ln.text for ln in out] == texts
    assert len({ln.size for ln in out}) == 1  # one size: an OCR layer's heights are noise
    # column by column, each top to bottom
    tops = [ln.bbox[1] for ln in out]
    assert all(tops[c * rows:(c + 1) * rows] == sorted(tops[c * rows:(c + 1) * rows]) for c in range(columns))


@given(st.lists(st.sampled_from(["CREDIT", "MEN", "ATTITUDE", "OF", "THE", "AGENCIES"]), min_size=2, max_size=8))
def test_a_line_in_capitals_ending_in_a_stop_is_a_plain_layers_head(words: list[str]) -> None:
    text = " ".join(words)
    if sum(map(str.isalpha, text)) < 6:
        return
    assert plain_caps_head(_word(text + ".", 40.0, 200.0))
    assert not plain_caps_head(_word(text, 40.0, 200.0))  # a title page's "A DISSERTATION"
    assert not plain_caps_head(_word(text.title() + ".", 40.0, 200.0))


def test_a_table_ruled_under_its_header_only_ends_where_its_rows_of_cells_stop() -> None:
    # TMLR's sample table: "PART DESCRIPTION", one rule, three rows of two cells, no note;
    # the rows had read as a paragraph, the header as a head
    chunks = chunks_of(TMLR)
    table = holding(chunks, "Dendrite")
    assert chunk_type(table) == "table" and "PART DESCRIPTION" in table.text and "Cell body" in table.text
    assert not any(chunk_type(c) == "heading" and c.text.strip() == "PART DESCRIPTION" for c in chunks)
    # ReScience's Table 1, ruled the same way
    table = holding(chunks_of(RESCIENCE), "Ogg Vorbis files")
    assert chunk_type(table) == "table" and table.text.startswith("Name Size Files Average Size")


def test_a_head_opening_with_a_name_in_lowercase_heads_its_section_and_its_running_head_goes() -> None:
    # GSA's bold 10 pt heads over a 7.8 pt body, opening with the tool's name
    chunks = chunks_of(G3)
    para = holding(chunks, "Among multicopy genes, we found BUSCO and OrthoFinder had nearly identical")
    assert (para.provenance.section or "").endswith("orthofisher and BUSCO perform similarly to OrthoFinder")
    # the odd page's running head ends in its folio after a rule: "J. L. Steenwyk and A. Rokas | 3"
    assert not any("Steenwyk and A. Rokas" in c.text for c in chunks if chunk_type(c) == "paragraph")


@given(st.sampled_from(["orthofisher", "phykit", "clipkit", "samtools"]),
       st.lists(st.sampled_from(["and", "BUSCO", "obtain", "similar", "results"]), min_size=2, max_size=6))
def test_a_large_bold_line_opening_with_a_lowercase_name_is_a_head_but_a_titles_next_line_is_not(
        name: str, rest: list[str]) -> None:
    text = " ".join([name, *rest])
    assert classify(text, 10.0, True, 1, 7.8, True)[0] == "heading"
    assert classify(" ".join(["with", *rest]), 10.0, True, 1, 7.8, True)[0] != "heading"


# ------------------------------------------------------------------------ batch 39


def test_a_paragraph_goes_on_at_the_next_columns_top_over_the_bibliographys_band() -> None:
    # Frontiers: AUTHOR CONTRIBUTIONS breaks at the left column's foot over REFERENCES and
    # goes on at the right column's top ("editing. S-JY and S-GL: …"), read as an entry
    chunks = chunks_of(FRONTIERS)
    para = holding(chunks, "J-YL, BS, S-JY, and S-GL: conceptualization.")
    assert para.text.rstrip().endswith("project administration, and funding acquisition.")
    # an entry's rest at the column's top stays the entry's (Science Advances)
    entry = holding(chunks_of(SCIADV), "Adiabatic evolution on a spatial-photonic Ising")
    assert chunk_type(entry) == "reference" and "Optica 7, 1535" in entry.text


def test_a_side_columns_front_block_read_in_pieces_is_one_block() -> None:
    # Frontiers' sidebar citation, flush right, its lines read after the Introduction's
    chunks = chunks_of(FRONTIERS)
    citation = holding(chunks, "Citation: Lee J-Y, Park S-H")
    assert chunk_type(citation) == "front" and citation.text.rstrip().endswith("Front. Bioeng. Biotechnol. 8:67.")
    assert not any(chunk_type(c) == "paragraph" and "Rha E, Lee H" in c.text for c in chunks)
    # Cureus's copyright notice in its margin column, a line a block
    notice = holding(chunks_of(CUREUS), "© Copyright 2020")
    assert chunk_type(notice) == "front" and "Attribution License CC-BY 4.0." in notice.text


# ------------------------------------------------------------------------ batch 40


def test_iopsciences_old_cover_sheet_is_front_matter_and_its_italic_subheads_head() -> None:
    # "Home Search Collections Journals …", "This content was downloaded on …": the 2014
    # cover sheet's lines had been paragraphs; the 11 pt italic "3.1. Barotropic vorticity
    # equation" over a 12 pt body, no head
    chunks = chunks_of(NJP)
    assert not any(chunk_type(c) == "paragraph" and c.provenance.page == 1 for c in chunks)
    para = holding(chunks, "Our starting point is the (equivalent) barotropic vorticity equation")
    assert (para.provenance.section or "").endswith("3.1. Barotropic vorticity equation")


def test_a_pages_first_line_alone_in_its_column_is_measured_by_the_paragraphs_lines() -> None:
    # Wiley: "… (Urban, 2015; Williams & de la Fuente, 2021)." atop p. 2's left column, a
    # block of its own, full; "However, the mechanistic drivers …" under it went apart,
    # measured against p. 1's right column's edge
    para = holding(chunks_of(WILEY_DDI), "The long-term ecological response of species to climate change")
    assert "Fuente, 2021). However, the mechanistic drivers" in " ".join(para.text.split())
    # a book set flush: a short line's sentence still ends its paragraph (Erickson)
    chunks = chunks_of(ERICKSON)
    assert holding(chunks, "The same algorithm was rediscovered in") is not holding(chunks, "Kruskal was motivated by")
