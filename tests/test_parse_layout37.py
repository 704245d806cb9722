"""Layout 37 (issue 34, batches 52 to 54's unseen works and the kinds they showed): a report's
figure titled over a note that says what it shows, its charts under the note; a caption's
statistics in a mis-mapped font and its next panel's part going on with it, and a caption
line ending on a genus's abbreviation; a sidebar's paragraph under its head in the margin,
short last lines and all; a first page's keywords set in a row between bars; Cell Press's
heads in Advent's heavy face, a legend going on at the next page's foot, a printer's
imprint; batch 54's: a side column's editor line, a table ruled over and under its head
only; on real pages, with property tests of the pure rules."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding, paragraphs_of

from vaultd.parse.captions import legend_rest, next_panel
from vaultd.parse.figure_text import NOTE_WORDS, caption_extent
from vaultd.parse.fontnames import is_bold_font
from vaultd.parse.front import is_front_matter
from vaultd.parse.open_tables import letter_note
from vaultd.parse.paras import Line

WORLDBANK = "worldbank_commodity_markets_outlook_2025_price_forecast_excerpt.pdf"
PLOSBIO = "plos_biology_2006_invasive_plant_mycorrhizal_mutualisms.pdf"
PNAS = "nas_pnas_2024_parp1_ufmylation_fork_stability_excerpt.pdf"


def _line(text: str, box: tuple[float, float, float, float], size: float = 8.0, font: str = "Sans-Oblique") -> Line:
    return Line(text, box, size, False, 0, 1, font=font)


# ------------------------------------------------------------------------ a figure under its caption's note


def test_a_reports_charts_under_their_captions_note_are_no_paragraphs() -> None:
    # the World Bank sets "FIGURE 1 Recent developments in commodity markets" over eight
    # italic lines saying what the charts show, the charts under them: their axis titles,
    # legends and panel titles had been read as paragraphs and headings
    paras = paragraphs_of(WORLDBANK)
    for label in ("Index, 100 = Jan 2024", "Gold Silver (RHS)", "Millions of vehicles", "United States Rest of world"):
        assert not any(label in p for p in paras), label
    assert not any(chunk_type(c) == "heading" and c.text.startswith(("A. Commodity prices", "B. Average"))
                   for c in chunks_of(WORLDBANK))


def test_a_paragraph_goes_on_past_a_report_figure_at_the_next_pages_top() -> None:
    # "… gold has surged …" at p. 2's foot goes on in p. 3's right column, beside Figure 1
    para = holding(chunks_of(WORLDBANK), "Among precious metals, for which prices have risen")
    assert chunk_type(para) == "paragraph"
    assert "U.S. monetary easing, and heightened policy uncertainty" in para.text


@given(st.integers(min_value=2, max_value=10), st.floats(min_value=9.5, max_value=12.0))
def test_a_captions_note_reaches_to_its_last_line(lines: int, body: float) -> None:
    cap = _line("FIGURE 1 Recent developments in markets", (36.0, 83.0, 300.0, 93.0), 10.0, "Sans-Bold")
    note = [_line("prices have fallen since the beginning of the year, largely driven",
                  (36.0, 102.0 + 9.5 * k, 300.0, 110.0 + 9.5 * k)) for k in range(lines)]
    under = _line("A paragraph of the body text set at its own size beside it", (36.0, 130.0 + 9.5 * lines,
                                                                                 300.0, 141.0 + 9.5 * lines), body, "Serif")
    extent = caption_extent(cap, [cap, *note, under], body)
    assert extent[1] == cap.bbox[1] and extent[3] == note[-1].bbox[3]


@given(st.lists(st.sampled_from(["Index, 100 = 2010", "Percent", "US$/mt", "Energy Metals"]), min_size=1, max_size=4))
def test_a_plots_labels_under_its_caption_are_no_note(labels: list[str]) -> None:
    # a legend or an axis title of a few words right under the caption is the figure's
    cap = _line("Figure 3: The Percentage of Managers", (36.0, 83.0, 300.0, 93.0), 10.0, "Sans-Bold")
    rows = [_line(t, (36.0, 96.0 + 9.0 * k, 120.0, 104.0 + 9.0 * k)) for k, t in enumerate(labels)]
    assert all(len(t.split()) < NOTE_WORDS for t in labels)
    assert caption_extent(cap, [cap, *rows], 11.0) == cap.bbox


# ------------------------------------------------------------------------ a caption's rest


def test_a_captions_statistics_in_a_mis_mapped_font_go_on_with_it() -> None:
    # PLoS Biology 2006 maps "=" to "¼": the caption's "maple ¼ 11.7, df ¼ 4,49" had been
    # typed a formula, splitting the caption, and the paragraph broken at the column's foot
    # ("… highly mycor-") no longer found its rest under the caption
    fig = holding(chunks_of(PLOSBIO), "Figure 3. Experiments 3 and 4")
    assert chunk_type(fig) == "figure" and "df ¼ 4,49" in fig.text and "pbio.0040140.g003" in fig.text
    para = holding(chunks_of(PLOSBIO), "Because plants vary in their dependency on AMF")
    assert "highly mycorrhizal-dependent tree seedlings than less-mycorrhizal" in para.text


def test_a_captions_next_panel_and_a_genus_abbreviation_go_on_with_it() -> None:
    # Figure 4's "(B) Effect of …" had been a paragraph; its last line "… 15 ¼ Ac." |
    # "rubrum (59.5 6 5.7) …" ends on a genus's abbreviation, and the rest had been read
    # into the paragraph broken at p. 3's foot ("… particularly under-")
    fig = holding(chunks_of(PLOSBIO), "Figure 4. Experiment 5")
    assert chunk_type(fig) == "figure"
    assert "(B) Effect of mycorrhizal dependency" in fig.text and "rubrum (59.5" in fig.text
    para = holding(chunks_of(PLOSBIO), "Further research in these directions is needed")
    assert "understory and have particularly negative effects" in para.text and "rubrum" not in para.text


@given(st.sampled_from("BCDEFGH"), st.booleans())
def test_the_next_panels_mark_goes_on_with_a_caption(letter: str, upper: bool) -> None:
    mark = letter if upper else letter.lower()
    before = chr(ord(mark) - 1)
    assert next_panel(f"Figure 4. Experiment 5 ({before}) Effect of dependency.", f"({mark}) Effect of growth")
    assert not next_panel(f"Figure 4. Experiment 5 ({before}) Effect of dependency.", f"({chr(ord(mark) + 1)}) Effect")
    assert not next_panel("Figure 4. Experiment 5 Effect of dependency.", "(A) Effect of growth")


# ------------------------------------------------------------------------ a sidebar under its head; keywords


def test_a_sidebars_paragraph_under_its_head_is_a_paragraph() -> None:
    # PNAS's Significance: 8.5 pt beside a 10 pt body in the first page's side column; a
    # short last line ("stress.") had made the whole block a margin note, its chunk a
    # footnote's
    sig = holding(chunks_of(PNAS), "UFMylation, the latest addition to the ubiquitin")
    assert chunk_type(sig) == "paragraph"


def test_a_first_pages_keywords_in_a_row_between_bars_are_front_matter() -> None:
    row = holding(chunks_of(PNAS), "UFMylation | DNA replication | PARP1")
    assert chunk_type(row) != "paragraph"


@given(st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyz ", min_size=3, max_size=30).map(str.strip)
                .filter(lambda w: len(w) >= 3), min_size=3, max_size=6))
def test_terms_between_bars_are_front_matter(terms: list[str]) -> None:
    assert is_front_matter(" | ".join(terms), at_edge=False)
    assert not is_front_matter("The cells were grown | as described. We then measured the yield.", at_edge=False)


# ------------------------------------------------------------------------ batch 53: Cell Press, a UK inquiry's report

CELL = "cellpress_cancer_cell_2022_kras_g12c_hapten_immunotherapy_excerpt.pdf"
INQUIRY = "ukinquiry_covid19_2024_module1_risk_assessment_excerpt.pdf"


def test_cell_press_heads_in_advents_heavy_face_are_heads() -> None:
    # Cell Press sets its heads in ``AdvPSHN-H`` at the body's 8.5 pt: "INTRODUCTION",
    # "RESULTS" and the run-on subsection heads had been read into paragraphs
    chunks = chunks_of(CELL)
    para = holding(chunks, "KRAS G12C is one of the most prevalent oncogenic driver")
    assert para.text.startswith("KRAS G12C is one of the most prevalent")
    assert "ARS1620 modified K-Ras G12C peptides are competent" in (para.provenance.section or "")


@given(st.sampled_from(["AdvPSHN-H", "ABCDEF+AdvPSHN-H", "AdvPSGaramond-H"]),
       st.sampled_from(["Ryumin-Light-H", "HeiseiMin-W3-H", "AdvPSA183", "AdvPSHN-R"]))
def test_advents_heavy_face_is_bold_and_a_cjk_horizontal_encoding_is_not(heavy: str, other: str) -> None:
    assert is_bold_font(heavy) and not is_bold_font(other)


def test_a_legend_going_on_at_the_next_pages_foot_is_no_paragraph() -> None:
    # "(G) Mice bearing H358 xenografts were treated …", 7 pt across both columns at the
    # page's foot: a figure's legend going on from the page before
    assert chunk_type(holding(chunks_of(CELL), "(G) Mice bearing H358 xenografts")) == "figure"
    assert chunk_type(holding(chunks_of(CELL), "(H) ARS1620-modified peptide-stabilized")) == "figure"
    # and the part before it in its block, which opens in lowercase ("viability was …")
    assert chunk_type(holding(chunks_of(CELL), "viability was monitored by live fluorescence")) == "figure"


@given(st.sampled_from("ABCDEFGH"), st.sampled_from(["Mice bearing", "Tumor growth", "Cells were"]))
def test_a_panels_part_after_a_sentence_is_a_legends(mark: str, words: str) -> None:
    def rest(text: str) -> bool:
        return legend_rest([], [_line(text, (53.0, 719.0, 543.0, 727.0), 7.0)], text)

    assert rest(f"({mark}) {words} treated with inhibitors.")
    assert rest(f"Data are means with SDs indicated. ({mark}) {words} treated.")
    assert not rest(f"as shown in Figure 2 ({mark}) and {words.lower()} treated.")
    assert not rest(f"1 See the appendix, section {mark}, for the {words.lower()} data.")


def test_a_printers_imprint_is_front_matter() -> None:
    row = holding(chunks_of(INQUIRY), "Printed in the UK by HH Associates Ltd.")
    assert chunk_type(row) != "paragraph"
    assert is_front_matter("Printed on paper containing 40% recycled fibre content minimum", at_edge=False)
    assert not is_front_matter("Printed matter was rare in the colony before 1800.", at_edge=False)


# ------------------------------------------------------------------------ batch 54: a side column's entries

MSPHERE = "asm_msphere_2024_acinetobacter_resistance_virulence_excerpt.pdf"
CHEMSCI22 = "rsc_chemsci_2022_red_fluorescent_protein_design_excerpt.pdf"


def test_a_side_columns_editor_and_declarations_are_front_matter() -> None:
    # ASM's first page sets "Editor Paul D. Fey, University of …" and "See the funding table
    # on p. 17." in its side column, each a block of its own: they had been paragraphs
    chunks = chunks_of(MSPHERE)
    for words in ("Editor Paul D. Fey", "See the funding table on p. 17", "AUTHOR AFFILIATIONS See affiliation list"):
        assert chunk_type(holding(chunks, words)) != "paragraph", words
    charges = holding(chunks_of(CHEMSCI22), "All publication charges for this article have been paid")
    assert chunk_type(charges) != "paragraph"


@given(st.sampled_from(["Editor Paul D. Fey, University of Nebraska", "Editor Jane Q. Public, Acme Institute"]))
def test_an_editors_line_is_front_matter_and_a_sentence_on_an_editor_is_not(line: str) -> None:
    assert is_front_matter(line, at_edge=False)
    assert not is_front_matter("The editor of the volume, who chose the essays, wrote the preface.", at_edge=False)


# ------------------------------------------------------------------------ a table ruled over and under its head only

CHEMRXIV = "chemrxiv_peterson_olefination_preprint.pdf"


def test_a_tables_rows_under_its_heads_rule_with_none_at_its_foot_are_the_tables() -> None:
    # the RSC rules Table 1 over and under its head, none at its foot: the stack of rules
    # ended at the head, and every row ("mSandy0.7 584 612 0.16 94 15 V L R S …") was read
    # into paragraphs; they run on to the note led by its letter ("a n ≥ 3 independent …")
    assert not any("mSandy0.7 584 612" in p for p in paragraphs_of(CHEMSCI22))
    assert chunk_type(holding(chunks_of(CHEMSCI22), "mSandy0.7 584 612")) == "table"
    assert not any("1a TMSCH2K 2.0 1.5" in p for p in paragraphs_of(CHEMRXIV))


@given(st.sampled_from("abcd"), st.floats(min_value=300.0, max_value=520.0))
def test_a_note_led_by_a_letter_runs_across_its_table(mark: str, width: float) -> None:
    note = Line(f"{mark} n ≥ 3 independent experiments for each variant (mean ± s.d.)", (43.0, 668.0, 43.0 + width, 679.0),
                8.0, False, 0, 2)
    row = Line(f"{mark} 584 612", (43.0, 640.0, 120.0, 650.0), 8.0, False, 0, 2, cells=3)
    assert letter_note(note, width)
    assert not letter_note(row, width)
    assert not letter_note(Line("mCherry 586 609 0.23", (43.0, 655.0, 43.0 + width, 663.0), 8.0, False, 0, 2), width)
