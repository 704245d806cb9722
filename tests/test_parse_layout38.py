"""Layout 38 (issue 34, batches 55 and 56's unseen works and the kinds they showed): a Word draft's
line numbers beside its text under a banner that reaches further out; a name's initials
going on with their verb past a page break; a book's section heads centred over its text
and its chapter head; a head's second line centred under it (in its bold face, or in
small capitals after a roman number); a first line split off for its face left for the
heads to decide; a hanging caption's next paragraph; a thesis's citation of itself under
its abstract's head; Maney's licence line; batch 56's: a third column beside a title block
across two, a narrow column's indented first line, a bold head wrapped over two blocks, a
bracket closed atop the next column, a checklist's lettered records across pages, a
record's field line repeating near the page's foot, a label in the margin beside a head,
an OCR layer's last word alone on its line, a head told by the space around it; batch
57's: a recital's bracketed mark set small, an address announced at a page's foot, an
item's text under its colon, a note's mark before a tab. On real pages, with property
tests of the pure rules."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding, paragraphs_of

from vaultd.parse.captions import caption_goes_on
from vaultd.parse.centred_heads import centred_heads
from vaultd.parse.continuation import abbreviation_goes_on
from vaultd.parse.furniture import drop_furniture
from vaultd.parse.imprints import is_own_citation
from vaultd.parse.licences import is_licence
from vaultd.parse.line_numbers import drop_line_numbers
from vaultd.parse.paras import Line, Para
from vaultd.parse.scan_text import is_label
from vaultd.parse.sentence_ends import announces_address
from vaultd.parse.spaced_heads import spaced_heads
from vaultd.parse.spans import note_mark

BIORXIV = "preprint_biorxiv_2025_sh3_motif_pbs2_sho1_excerpt.pdf"
BOOK = "book_penguin_2004_free_culture_pirates_chapter_excerpt.pdf"
APS = "aps_prr_2020_quantum_pigeonhole_footprints_excerpt.pdf"
IEEE = "ieee_iotj_2025_iot_wot_information_retrieval_survey_excerpt.pdf"
MANEY = "maney_neurological_research_2015_ms_medication_excerpt.pdf"
THESIS = "msc_usp_latitude_chronotype_excerpt.pdf"


def _line(text: str, box: tuple[float, float, float, float], size: float = 11.0, font: str = "ArialMT",
          page: int = 1) -> Line:
    return Line(text, box, size, False, 0, page, font=font)


def _para(kind: str, lines: list[Line]) -> Para:
    text = " ".join(ln.text for ln in lines)
    return Para(kind, lines, text, [(lines[0].page, text)], None, [len(lines)])  # type: ignore[arg-type]


# ------------------------------------------------------------------------ a Word draft's line numbers


def test_a_word_drafts_line_numbers_under_a_banner_are_no_words_of_its_text() -> None:
    # bioRxiv's 8 pt licence banner starts at 54 pt, where the draft's 11 pt line numbers
    # end: they had not stood wholly left of the page's text and were read into every line
    # ("… Sho1-693 Pbs2 structure …", every passage lost)
    para = holding(chunks_of(BIORXIV), "To understand the basis of Pbs2 binding specificity")
    assert chunk_type(para) == "paragraph"
    assert "Sho1-Pbs2 structure with NMR structures" in para.text
    assert not any(w.isdigit() and len(w) == 3 for w in para.text.split()[:3])


@given(st.integers(min_value=8, max_value=30), st.integers(min_value=1, max_value=900),
       st.floats(min_value=0.0, max_value=20.0))
def test_line_numbers_left_of_the_text_go_whatever_small_print_stands_over_them(
        count: int, first: int, reach: float) -> None:
    numbers = [_line(str(first + k), (36.0, 72.0 + 14.5 * k, 54.0, 84.0 + 14.5 * k)) for k in range(count)]
    text = [_line("the text of the line, set in the draft's own size and face", (72.0, 72.0 + 14.5 * k,
                                                                                  540.0, 84.0 + 14.5 * k))
            for k in range(count)]
    banner = _line("bioRxiv preprint doi: https://doi.org/10.1101/…", (54.0 - reach, 3.0, 544.0, 14.0), 8.0, "Helvetica")
    kept = drop_line_numbers([banner, *numbers, *text])
    assert kept == [banner, *text]
    # text as large as the numbers further left, above them (a listing's body text), keeps them
    body = _line("Listing 1 prints the body text further left", (20.0, 40.0, 540.0, 52.0))
    assert len(drop_line_numbers([body, *numbers, *text])) == 1 + 2 * count


# ------------------------------------------------------------------------ a name's initials


def test_a_paragraph_ending_on_initials_goes_on_at_the_next_pages_top() -> None:
    # "… research grant RGP34/2018. D.B." | "was funded by the EMBO …" (p. 5 → 6)
    para = holding(chunks_of(BIORXIV), "This work was supported by Canadian Institutes of Health Research")
    assert "D.B. was funded by the EMBO Long-Term Fellowship" in para.text


@given(st.lists(st.sampled_from("ABCDEFGHJKLMNPRSTW"), min_size=2, max_size=4),
       st.sampled_from(["was funded by", "is supported by", "thanks the lab"]))
def test_initials_go_on_with_a_lowercase_verb(letters: list[str], verb: str) -> None:
    initials = "".join(f"{c}." for c in letters)
    assert abbreviation_goes_on(f"… research grant RGP34/2018. {initials}", f"{verb} the EMBO.")
    assert not abbreviation_goes_on(f"… research grant RGP34/2018. {initials}", "The next paragraph.")
    assert not abbreviation_goes_on("… grant RGP34/2018.", f"{verb} the EMBO.")


# ------------------------------------------------------------------------ centred heads


def test_a_books_centred_heads_and_chapter_head_name_the_sections() -> None:
    chunks = chunks_of(BOOK)
    for words, section in (("Every important sector of", "CHAPTER FOUR"), ("California was remote enough", "Film"),
                           ("A statutory license is a license", "Recorded Music"),
                           ("As I described above, the law gives", "Radio")):
        assert (holding(chunks, words).provenance.section or "").split(" › ")[-1].startswith(section), words


def _centred(text: str, font: str, size: float, top: float, x0: float, x1: float) -> Para:
    return _para("paragraph", [_line(text, (x0, top, x1, top + size), size, font)])


def _text(top: float, lines: int = 3) -> Para:
    return _para("paragraph", [_line("The record industry was born of another kind of piracy, though to see",
                                     (54.0, top + 12.5 * k, 348.0, top + 10.5 + 12.5 * k), 10.5, "Caslon")
                               for k in range(lines)])


@given(st.sampled_from(["Film", "Recorded Music", "Radio", "Cable TV"]), st.floats(min_value=-2.0, max_value=2.0))
def test_a_style_of_two_centred_lines_over_prose_heads_sections(name: str, shift: float) -> None:
    width = 6.0 * len(name)
    x0 = 201.0 - width / 2 + shift
    paras = [_centred(name, "Mono", 10.0, 100.0, x0, x0 + width), _text(124.0),
             _centred("Radio Days", "Mono", 10.0, 200.0, 171.0, 231.0), _text(224.0)]
    centred_heads(paras)
    assert [p.type for p in paras] == ["heading", "paragraph", "heading", "paragraph"]


def test_one_centred_line_heads_nothing_unless_a_chapters() -> None:
    paras = [_centred("An Interlude", "Mono", 10.0, 100.0, 170.0, 232.0), _text(124.0)]
    centred_heads(paras)
    assert paras[0].type == "paragraph"
    paras = [_centred("CHAPTER FOUR: “Pirates”", "Mono", 11.0, 100.0, 114.0, 288.0), _text(124.0)]
    centred_heads(paras)
    assert paras[0].type == "heading"
    # flush left, not centred: no head; a date line: no head
    paras = [_centred("Film", "Mono", 10.0, 100.0, 54.0, 78.0), _text(124.0),
             _centred("Radio", "Mono", 10.0, 200.0, 54.0, 84.0), _text(224.0)]
    centred_heads(paras)
    assert [p.type for p in paras] == ["paragraph"] * 4


def test_a_reports_small_capital_heads_centred_over_their_text_head_its_sections() -> None:
    # GPO's ``ECONOMIC IMPACT``, 7.8 pt small capitals centred over the 10 pt text
    para = holding(chunks_of("senate_report_youth_sports_concussion_act.pdf"),
                   "This legislation is not expected to have an adverse economic impact")
    assert (para.provenance.section or "").upper().endswith("ECONOMIC IMPACT")


# ------------------------------------------------------------------------ a head's second line


def test_a_bold_heads_second_line_centred_under_it_is_the_heads() -> None:
    # APS: "A. Demonstration of the failure of the pigeonhole" | "principle with neutrons"
    para = holding(chunks_of(APS), "The experiment includes a source of individual neutrons")
    assert (para.provenance.section or "").endswith("principle with neutrons")


def test_a_small_capital_heads_second_line_after_a_roman_number_is_the_heads() -> None:
    # IEEE: "IV. TAXONOMIES OF SEARCH ENGINES FOR IOT—WOT" | "BY DIMENSIONS", the number
    # drawn at the capitals' size
    para = holding(chunks_of(IEEE), "Taxonomies categorise IR systems for IoT and WoT")
    section = (para.provenance.section or "").upper()
    assert "TAXONOMIES OF SEARCH ENGINES" in section and section.endswith("BY DIMENSIONS")


def test_a_subsection_head_in_a_face_of_its_own_over_its_text_in_one_block_heads_it() -> None:
    # Maney: "Over the counter, prescription and herbal agents" over "The number of …", one
    # source block: it had been read as the paragraph's first line
    para = holding(chunks_of(MANEY), "The number of participants taking over the counter")
    assert (para.provenance.section or "").endswith("Over the counter, prescription and herbal agents")
    assert not para.text.startswith("Over the counter")


# ------------------------------------------------------------------------ captions, front matter, licences


def test_a_hanging_captions_next_paragraph_is_the_captions() -> None:
    # ABNT: "Figure 15 – Variables measured …", its lines hanging past the label, and its
    # legend's next paragraph "BT = Local time of going to bed. …" at the same hang
    assert not any("BT = Local time of going to bed" in p for p in paragraphs_of(THESIS))
    fig = holding(chunks_of(THESIS), "BT = Local time of going to bed")
    assert chunk_type(fig) == "figure"


@given(st.floats(min_value=-1.0, max_value=1.0), st.floats(min_value=20.0, max_value=80.0))
def test_lines_under_a_captions_hang_go_on_with_it(shift: float, hang: float) -> None:
    left = 85.0
    cap = _para("figure", [_line("Figure 15 – Variables measured by the questionnaire. In its",
                                 (left, 161.0, 538.0, 171.0), 10.0, "Poppins"),
                           _line("standard version, these are collected on workdays.", (left + hang, 173.0, 538.0, 183.0),
                                 10.0, "Poppins")])
    under = [_line("BT = Local time of going to bed. SPrep = Local time of", (left + hang + shift, 189.0, 538.0, 199.0),
                   10.0, "Poppins")]
    assert caption_goes_on([cap], under, under[0].text, 12.0)
    body = [_line("Participants completed an online questionnaire, which", (left, 189.0, 538.0, 199.0), 10.0, "Poppins")]
    assert not caption_goes_on([cap], body, body[0].text, 12.0)


def test_a_theses_citation_of_itself_under_its_abstracts_head_is_front_matter() -> None:
    cite = holding(chunks_of(THESIS), "Vartanian, D. (2024). Is latitude associated with chronotype?")
    assert chunk_type(cite) == "front"


@given(st.sampled_from(["Master’s Thesis", "Doctoral dissertation", "PhD thesis", "Master's thesis"]),
       st.integers(min_value=1990, max_value=2030))
def test_a_citation_naming_a_thesis_is_the_works_own(kind: str, year: int) -> None:
    assert is_own_citation(f"Vartanian, D. ({year}). Is latitude associated with chronotype? [{kind}, "
                           "University of São Paulo].")
    assert is_own_citation(f"SILVA, Maria. Um estudo. {year}. Dissertação (Mestrado em Física) – USP, São Paulo.")
    assert not is_own_citation(f"Although significant progress has been made since {year}, further research "
                               "with larger samples is needed.")


def test_maneys_licence_line_at_the_first_pages_foot_is_no_paragraph() -> None:
    assert not any("MORE OpenChoice articles are open access" in p for p in paragraphs_of(MANEY))
    assert is_licence("\ufffd W. S. Maney & Son Ltd 2015 MORE OpenChoice articles are open access and distributed "
                      "under the terms of the Creative Commons Attribution Non-Commercial License 3.0")
    assert not is_licence("Articles in the sample are open access and were read in full by two reviewers.")


# ------------------------------------------------------------------------ batch 56: Science, Kowsar, Pensoft, Current Protocols, a scan

SCIENCE = "aaas_science_2022_kir_cd8_regulatory_t_cells_excerpt.pdf"
KOWSAR = "kowsar_ircmj_2016_migraine_prevalence_iran_excerpt.pdf"
BDJ = "bdj_2025_darwin_wasps_pantalica_checklist_excerpt.pdf"
PROTOCOLS = "wiley_current_protocols_2024_phykit_phylogenomics_excerpt.pdf"
NASA = "scanned_nasa_sp_1964_clarity_technical_reporting_excerpt.pdf"


def test_a_third_column_beside_a_title_block_across_two_is_read_after_them() -> None:
    # Science's first page: title and abstract across the left two columns, the third
    # column beside them from the page's top; it had been read first, before the title
    chunks = chunks_of(SCIENCE)
    texts = [c.text for c in chunks]
    title = next(i for i, t in enumerate(texts) if t.startswith("KIR+ CD8+ T cells suppress pathogenic"))
    third = next(i for i, t in enumerate(texts) if "Next, we investigated whether KIR+ CD8+ T cells were also" in t)
    assert title < third
    para = holding(chunks, "Both mouse Ly49 and human KIR receptors are known to bind")
    assert "based inhibitory motifs (ITIMs) in their cytoplasmic tails" in para.text


def test_a_narrow_columns_indented_first_line_and_a_wrapped_bold_head_go_on() -> None:
    chunks = chunks_of(SCIENCE)
    assert chunk_type(holding(chunks, "Next, we investigated whether KIR+ CD8+ T cells were also present")) == "paragraph"
    para = holding(chunks, "We next performed scRNA-seq analysis on peripheral blood")
    assert (para.provenance.section or "").endswith("Commonality and heterogeneity of KIR+ CD8+ T cells")


def test_a_bracket_left_open_closes_atop_the_next_pages_column_under_a_figure() -> None:
    # Kowsar: "… publication bias among the studies (P =" | Figure 2 | "0.000)."
    para = holding(chunks_of(KOWSAR), "For robustness of result, sensitivity analysis was performed")
    assert para.text.rstrip().endswith("(P = 0.000).")


def test_a_checklists_records_are_items_whole_across_pages() -> None:
    chunks = chunks_of(BDJ)
    # "… identifiedBy: F." | p. 3 "Di Giovanni; …"; "… day:" | p. 4 "17; individualCount: …"
    for words, rest in (("eventDate: 27/04/2023; year: 2023; month: 4; day: 27; individualCount: 2",
                         "F. Di Giovanni; dateIdentified: 2025; institutionCode: FDGC; occurrenceID: AF2E4220"),
                        ("eventDate: 17/06/2023; year: 2023; month: 6; day: 17; individualCount: 1; sex: male",
                         "occurrenceID: 200E1545-1E6D-5B8C-B26D-A2CD1C907CD7")):
        para = holding(chunks, words)
        assert rest in para.text and para.text.count("country: Italy") == 1, words
    # page 2's records are no title page's front matter
    assert chunk_type(holding(chunks, "Notes: This is the first record of the species for Italy")) == "paragraph"


def _page(lines: list[tuple[str, float]], x0: float = 97.0) -> list[Line]:
    return [Line(text, (x0, top, 415.0, top + 9.0), 8.0, False, 0, 1, font="Arial") for text, top in lines]


@given(st.lists(st.integers(min_value=1, max_value=28), min_size=3, max_size=3))
def test_a_records_field_line_repeating_near_the_pages_foot_inside_its_text_is_kept(days: list[int]) -> None:
    head = [Line(f"{k + 7} Di Giovanni F et al", (52.0, 24.0, 200.0, 32.0), 8.0, False, 1, 1, font="Arial")
            for k in range(len(days))]
    pages = [[*_page([("country: Italy; countryCode: IT; stateProvince: Sicily; municipality: Sortino,", 597.0),
                      (f"locality: Riserva Naturale di Pantalica; eventDate: {d:02d}/04/2023; day:", 608.0),
                      (f"{d}; individualCount: 2; sex: females; recordedBy: S. Cantone, A. Di Giulio", 619.0),
                      ("Body text of the page set in the column well above the record.", 300.0)]), head[k]]
             for k, d in enumerate(days)]
    drop_furniture(pages, [680.0] * 3, [467.0] * 3)
    for page in pages:
        assert any(ln.text.startswith("locality: Riserva") for ln in page)
        assert not any("Di Giovanni F et al" in ln.text for ln in page)


def test_a_label_in_the_margin_beside_a_head_is_no_paragraph() -> None:
    assert not any(p.strip() == "BASIC PROTOCOL 5" for p in paragraphs_of(PROTOCOLS))


def test_an_ocr_layers_last_word_alone_on_its_line_goes_on_with_its_sentence() -> None:
    # NASA SP-7010's OCR layer: "… hopeless almost from the very" | "beginning." (a block
    # of its own, once taken for a label, which sentences skip)
    para = holding(chunks_of(NASA), "Such sentences might well be the introductory sentences")
    assert "almost from the very beginning." in para.text


@given(st.sampled_from(["beginning.", "end;", "(again)", "“there”"]))
def test_a_lowercase_word_with_its_stop_is_no_label(word: str) -> None:
    assert not is_label(word)
    assert is_label("VS UVS") and is_label("Table 2 A B")
    assert not is_label("0.000).")


def test_heads_set_in_the_texts_size_told_by_the_space_around_them_head_their_sections() -> None:
    # 3 Biotech: "Plant material and DNA extraction" in the body's face and size, a line's
    # height over and under it, the paragraphs parted by an indent and no space
    chunks = chunks_of("3biotech_ocimum_rapd_issr_markers.pdf")
    for words, head in (("Ten plants of each accession were grown in pots", "Plant material and DNA extraction"),
                        ("Principal component analysis was carried out", "Data analysis"),
                        ("Marker index value for ISSR was 17.99.", "ISSR analysis")):
        assert (holding(chunks, words).provenance.section or "").endswith(head), words


def _spaced(text: str, top: float, lines: int = 1) -> Para:
    return _para("paragraph", [_line(text, (306.0, top + 12.5 * k, 544.0 if lines > 1 else 450.0, top + 10.0 + 12.5 * k),
                                     10.0, "Times") for k in range(lines)])


@given(st.floats(min_value=12.0, max_value=30.0), st.floats(min_value=0.0, max_value=3.0))
def test_one_line_paragraphs_with_space_around_them_head_sections_only_when_paragraphs_stand_close(
        space: float, apart: float) -> None:
    prose = "Seeds of seventeen genotypes were procured from the centre and grown in pots for"
    paras = [_spaced(prose, 60.0, 3), _spaced(prose, 97.5 + apart, 3),
             _spaced("Plant material and DNA extraction", 135.0 + apart + space)]
    top = 145.0 + apart + 2 * space
    paras += [_spaced(prose, top, 4), _spaced("Data analysis", top + 50.0 + space)]
    paras += [_spaced(prose, top + 60.0 + 2 * space, 4)]
    for p in paras:
        p.text = p.text if len(p.lines) == 1 else " ".join([prose] * len(p.lines))
    spaced_heads(paras)
    assert [p.type for p in paras] == ["paragraph", "paragraph", "heading", "paragraph", "heading", "paragraph"]
    # with the document's paragraphs as far apart as the lines, none
    loose = [_spaced(prose, 60.0, 3), _spaced(prose, 97.5 + space, 3), _spaced("Plant material", 135.0 + 2 * space),
             _spaced(prose, 145.0 + 3 * space, 3), _spaced("Data analysis", 182.5 + 4 * space),
             _spaced(prose, 192.5 + 5 * space, 3)]
    spaced_heads(loose)
    assert all(p.type == "paragraph" for p in loose)


# ------------------------------------------------------------------------ batch 57: the Official Journal, a CDC guide, a WHO guideline

OJEU = "eurlex_oj_l_2010_intelligent_transport_systems_directive_excerpt.pdf"
CDC = "cdc_brfss_2013_module_data_analysis_guide_excerpt.pdf"
WHO = "who_guideline_2022_hcv_testing_treatment_excerpt.pdf"


def test_a_recitals_mark_in_brackets_set_smaller_than_its_text_leaves_it_a_paragraph() -> None:
    # the Official Journal sets "(11)" at 8.4 pt before its 9.5 pt text: the line had
    # taken the mark's size, small print, and the recital broke after its first line
    chunks = chunks_of(OJEU)
    para = holding(chunks, "The deployment and use of ITS applications and services will entail")
    assert chunk_type(para) == "paragraph"
    assert chunk_type(holding(chunks, "The increase in the volume of road transport in the Union")) == "paragraph"
    # its notes "(2) OJ L 201, 31.7.2002, p. 37." are footnotes
    assert not any("OJ L 218, 13.8.2008, p. 82." in p for p in paragraphs_of(OJEU))


def test_an_address_announced_at_a_pages_foot_and_an_items_text_under_its_colon_go_on() -> None:
    chunks = chunks_of(CDC)
    para = holding(chunks, "If users intend to analyze the variables from the core section only")
    assert para.text.rstrip().endswith("is available at http://www.cdc.gov/brfss/annual_data/2012/pdf/Compare_2012.pdf")
    item = holding(chunks, "To download the landline telephone and cellular telephone dataset with questionnaire version 2:")
    assert "Go to the combined landline and cellular telephone multiple version questionnaire" in item.text


@given(st.sampled_from(["is available at", "can be downloaded from", "please visit the following URL:",
                        "is described on the project's web page:"]))
def test_a_sentence_announcing_an_address_goes_on_into_it(ending: str) -> None:
    para = _para("paragraph", [_line(f"More information about the changes to the data set {ending}", (54.0, 700.0, 552.0, 712.0))])
    assert announces_address(para.text)
    assert not announces_address(_para("paragraph", [_line("View the article online", (54.0, 700.0, 200.0, 712.0))]).text)
    assert not announces_address(_para("paragraph", [_line(f"The changes are described in full {ending} below.",
                                                          (54.0, 700.0, 552.0, 712.0))]).text)


def test_a_tab_read_as_a_replacement_glyph_after_a_notes_mark_leaves_it_a_note() -> None:
    assert not any("Tang W, Tao Y, Fajardo E" in p for p in paragraphs_of(WHO))
    assert not any(p.startswith("Design and layout by") for p in paragraphs_of(WHO))


def test_a_heads_note_mark_set_small_and_raised_is_no_part_of_its_sections_name() -> None:
    # WHO: "8.3.2 Diagnostic accuracy" and a small raised "1": the text keeps it as the
    # page gives it ("accuracy1"), the section is named without it
    para = holding(chunks_of(WHO), "A total of 25 studies were included, comprising data from")
    assert (para.provenance.section or "").endswith("8.3.2 Diagnostic accuracy")


def _span(text: str, x: float, base: float, size: float) -> dict[str, object]:
    return {"text": text, "size": size, "origin": (x, base), "bbox": (x, base - size, x + 5.0 * len(text), base)}


@given(st.sampled_from(["1", "12", "*", "†"]), st.floats(min_value=9.0, max_value=14.0))
def test_a_small_raised_mark_ending_a_line_is_a_notes(mark: str, size: float) -> None:
    words = _span("Diagnostic accuracy", 100.0, 200.0, size)
    assert note_mark([words, _span(mark, 190.0, 200.0 - 0.35 * size, 0.65 * size)], size) == mark
    # on the line's baseline, or as large as its words: the text's own (``CD8``, ``H1N1``)
    assert note_mark([words, _span(mark, 190.0, 200.0, 0.65 * size)], size) == ""
    assert note_mark([words, _span(mark, 190.0, 200.0 - 0.35 * size, size)], size) == ""


def test_a_bold_head_wrapped_over_three_lines_of_a_narrow_column_heads_its_section() -> None:
    # Cell Press and Ecography set long subsection heads in their bold face over three
    # lines of a column: a head of one or two lines only had been looked for
    para = holding(chunks_of("wiley_ecography_species_abundance_niche_excerpt.pdf"),
                   "All analyses were performed in R, ver. 4.0")
    assert (para.provenance.section or "").endswith("on the abundance–suitability relationship")
    head = holding(chunks_of("cellpress_cancer_cell_2022_kras_g12c_hapten_immunotherapy_excerpt.pdf"),
                   "ARS-1620 targeted immunotherapies show efficacy against KRAS G12C cell lines")
    assert chunk_type(head) == "heading"
