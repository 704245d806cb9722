"""Layout 30 (issue 34, the failures eval/quotes' 145 papers still showed): a printed line's
pieces drawn out of order or split into blocks at an inline formula, a paragraph going on
at the next page's top in a document set ragged right, a scheme's marks, run-in heads that
fill their line, a heading at a page's foot; on real pages, with property tests of the
pure rules."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding, pages_of

from vaultd.parse.hex_glyphs import HexFont, decode, hex_font
from vaultd.parse.line_pieces import merge_same_baseline
from vaultd.parse.paras import Line

F1000 = "f1000research_shark_longevity_note.pdf"
PEERJ = "peerj_cs_vespa_selective_pressure_article.pdf"
NICKEL = "natcomms_nickel_catalysed_amine_arylation.pdf"
SCIREP = "scireports_lah10_room_temperature_superconductors.pdf"
SPRINGER = "springer_anncomb_cluster_algebra_dominance_regions_excerpt.pdf"
MEDRXIV = "medrxiv_hael_exercise_hypertension_trial.pdf"

# ------------------------------------------------------- one printed line, read in order


def test_a_line_whose_italic_name_and_link_are_drawn_last_reads_left_to_right() -> None:
    # F1000's pages draw a line's italic species name and its link-coloured citation after
    # the rest: "of are stated … but R. terranovae Loefer and" had been read
    para = holding(chunks_of(F1000), "I recommend two revisions to the research note")
    assert "longevities’ of R. terranovae are stated to be 7.1 and 6.9 years" in para.text
    assert "respectively, but Loefer and Sedberry (2003) reported actual longevities" in para.text
    abstract = holding(chunks_of(F1000), "Longevity of Rhizoprionodon terraenovae and Carcharhinus")
    assert "acronotus in the western North Atlantic Ocean" in abstract.text


def test_a_line_split_into_blocks_at_its_inline_formula_stays_one_sentence() -> None:
    # Scientific Reports sets T with its subscript C and superscript a as blocks of their
    # own: the abstract had come out as a paragraph, five formula scraps and another
    abstract = holding(chunks_of(SCIREP), "Thermodynamic parameters of the LaH10 superconductor")
    assert chunk_type(abstract) == "paragraph"
    assert "= 215 K (pa = 150 GPa) and TC b = 260 K (pb = 190 GPa). It belongs to the group" in abstract.text


def test_a_paragraph_broken_by_an_inline_radical_is_one_paragraph() -> None:
    # a Springer article's radical over "bc(bc − 4)" came as a block of its own, and the
    # sentence's end with the rest of the paragraph in another
    para = holding(chunks_of(SPRINGER), "When bc ≤ 3, the cluster algebra")
    assert "Lattice points outside of I are precisely the g-vectors of cluster monomials" in para.text


def _piece(text: str, x0: float, x1: float, block: int = 1, y: float = 100.0, size: float = 10.0) -> Line:
    return Line(text, (x0, y, x1, y + size), size, False, block, 1)


def test_pieces_drawn_out_of_order_are_joined_left_to_right() -> None:
    line = merge_same_baseline([_piece("of", 91, 100), _piece("are stated to be", 110, 200),
                                _piece("R. terranovae", 102, 108)])
    assert [ln.text for ln in line] == ["of R. terranovae are stated to be"]


def test_a_table_row_drawn_out_of_order_is_not_joined_across_its_gaps() -> None:
    # cells standing apart (more than an em and a half) keep MuPDF's order: the row is not
    # read as one line "Name Value 2019"
    pieces = [_piece("2019", 300, 330), _piece("Name", 72, 110), _piece("Value", 200, 240)]
    assert merge_same_baseline(pieces)[0].text == "2019"


def test_a_block_going_on_a_line_where_the_block_before_stops_joins_it() -> None:
    # one printed line given as two blocks, the second starting where the first stops
    lines = merge_same_baseline([_piece("the critical temperature", 72, 180, block=1),
                                 _piece("is 215 K, and", 183, 240, block=2)])
    assert [ln.text for ln in lines] == ["the critical temperature is 215 K, and"]
    # a block further right (a column, a table's cell) stays a block of its own
    apart = merge_same_baseline([_piece("the critical temperature", 72, 180, block=1),
                                 _piece("Table 2", 200, 240, block=2)])
    assert [ln.block for ln in apart] == [1, 2]


@given(st.permutations(range(5)))
def test_any_drawing_order_of_a_lines_words_reads_the_same(order: list[int]) -> None:
    words = ["one", "two", "three", "four", "five"]
    pieces = [_piece(w, 72 + 40 * k, 72 + 40 * k + 30) for k, w in enumerate(words)]
    merged = merge_same_baseline([pieces[k] for k in order])
    assert [ln.text for ln in merged] == ["one two three four five"]


# ------------------------------------------------------- paragraphs over pages and floats


def test_a_paragraph_set_ragged_right_goes_on_flush_at_the_next_pages_top() -> None:
    # PeerJ sets its text ragged right and indents its paragraphs: "… in the Selectome
    # database." ends a full line at p. 7's foot, and p. 11 (after three pages of tables)
    # goes on flush with "However, the results presented in Table 3 …"
    para = holding(chunks_of(PEERJ), "One challenge in performing these analyses")
    assert "as under positive selection in the Selectome database. However, the results presented" in para.text
    assert pages_of(para)[0] == 7 and pages_of(para)[-1] == 11


def test_a_schemes_plus_sign_does_not_keep_a_paragraph_from_its_next_page() -> None:
    # Nature Communications' "+" between a reaction scheme's reactants, set in the body's
    # size, had stood between the Discussion's first paragraph and its last lines
    para = holding(chunks_of(NICKEL), "The pre-catalyst C1, featuring the sterically demanding")
    assert "reactions involving primary alkylamines and ammonia, including reactions" in para.text
    assert pages_of(para) == [5, 6]
    assert not any(c.text.strip() == "+" for c in chunks_of(NICKEL))


# ------------------------------------------------------------------------------ heads


def test_a_bold_run_in_head_filling_its_line_heads_its_paragraph() -> None:
    chunks = chunks_of(NICKEL)
    para = holding(chunks, "Primary alkylamines represent an important yet relatively challenging")
    assert para.provenance.section.endswith("Primary alkylamine monoarylation substrate scope using C1")


def test_a_heading_at_a_pages_foot_heads_the_text_at_the_next_pages_top() -> None:
    chunks = chunks_of(MEDRXIV)
    head = holding(chunks, "Participants, recruitment, and blinding")
    assert chunk_type(head) == "heading"
    para = holding(chunks, "Randomization followed a 1:1 ratio with permuted blocks")
    assert para.provenance.section.endswith("Participants, recruitment, and blinding")


# ----------------------------------------------------------------- furniture out


CRS = "crs_report_senate_fy2026_budget_resolution.pdf"
WOO = "natcomms_woo_cerebral_pain_contributions.pdf"


def test_a_tables_source_note_after_its_unit_line_is_the_tables() -> None:
    # a CRS report's "In Millions of Dollars" under the table's caption is read after the
    # table's cells, and had kept "Source: Section 1101 of …" from the table as body text
    chunks = chunks_of(CRS)
    assert chunk_type(holding(chunks, "Source: Section 1101 of S.Con.Res. 33")) == "table"
    assert chunk_type(holding(chunks, "In Millions of Dollars")) == "table"
    prose = [c.text for c in chunks if chunk_type(c) in ("paragraph", "list")]
    assert not any("Source: Title II, Sections 2001 and 2002" in t for t in prose)


def test_a_panels_large_letter_does_not_make_its_title_body_text() -> None:
    # Nature Communications sets a panel's "c" in 10 pt on the baseline of its 7 pt title;
    # read as one 10 pt line of eleven words, it stood as body text in the figure and kept
    # the figure's region from growing over the panels above: their labels were paragraphs
    prose = [c.text for c in chunks_of(WOO) if chunk_type(c) in ("paragraph", "list")]
    for label in ("Pain variations after controlling for stimulus intensity", "Trials (sorted by stimulus intensity)",
                  "Nociceptive pain"):
        assert not any(label in t for t in prose), label


def test_a_label_letter_takes_the_size_of_the_text_it_labels() -> None:
    line = merge_same_baseline([_piece("c", 65, 70, size=10.0),
                                _piece("Pain ratings for each stimulus intensity level", 73, 277, size=7.0)])
    assert len(line) == 1 and line[0].size == 7.0
    # a formula's large operator keeps its size (no label)
    big = merge_same_baseline([_piece("∑", 65, 75, size=14.0), _piece("a_i over the terms", 77, 200, size=10.0)])
    assert big[0].size == 14.0


DIB = "dib_hotel_booking_demand_datasets_excerpt.pdf"
JAMA = "jama_netw_open_llm_risk_of_bias_assessment.pdf"
ASCIIDOC = "asciidoctor_mastersim_cosimulation_user_guide_excerpt.pdf"
EPTCS = "eptcs_fsm_zksnark_category_paper.pdf"


def test_elseviers_first_page_notes_are_front_matter() -> None:
    chunks = chunks_of(DIB)
    for words in ("Corresponding author.", "E-mail address: nuno_miguel_antonio@iscte-iul.pt",
                  "https://doi.org/10.1016/j.dib.2018.11.126 2352-3409/"):
        assert chunk_type(holding(chunks, words)) == "front", words


def test_a_licence_after_its_open_access_label_and_jamas_sidebar_are_front_matter() -> None:
    chunks = chunks_of(JAMA)
    for words in ("Open Access. This is an open access article distributed under the terms of the CC-BY License.",
                  "+ Supplemental content", "Author affiliations and article information are listed at the end"):
        assert chunk_type(holding(chunks, words)) == "front", words
    springer = chunks_of(SPRINGER)
    assert chunk_type(holding(springer, "Open Access. This article is licensed under a Creative Commons")) == "front"


def test_a_document_set_one_line_a_block_is_known_to_set_its_paragraphs_flush() -> None:
    # Asciidoctor gives each printed line as a block of its own and parts paragraphs by
    # space: "… simulation scenarios." ends a full line and "With simulation scenario I
    # mean …" goes on under it at the line pitch, one paragraph
    para = holding(chunks_of(ASCIIDOC), "MasterSim has a fairly convenient graphical user interface")
    assert "adjust simulation scenarios. With simulation scenario I mean the definition" in para.text


def test_a_block_starting_over_a_lines_subscript_goes_on_with_it() -> None:
    # EPTCS's "Up to now, circuits in B_G" ends its block in a subscript; the next block,
    # "Graph have the problem …", starts over it (the subscript "Graph" runs on)
    para = holding(chunks_of(EPTCS), "Up to now, circuits in")
    assert "have the problem that the topology of G is used to define" in para.text
    assert pages_of(para) == [7, 8]


def test_run_in_heads_in_a_bold_face_no_font_name_tells_head_their_paragraphs() -> None:
    # Nature Communications sets its Methods' run-in heads in a bold face named
    # "AdvOTcb88df00", flagged neither bold nor italic; "Participants" opens a paragraph and
    # ". The study included …" follows in the text's face
    para = holding(chunks_of(WOO), "The study included a total of 183 healthy participants")
    assert para.provenance.section.endswith("Participants")
    nickel = holding(chunks_of(NICKEL), "Unless otherwise stated, all reactions were setup inside")
    assert nickel.provenance.section.endswith("General considerations")


def test_a_font_lead_needs_a_stop_after_it_in_the_next_font() -> None:
    from vaultd.parse.spans import font_lead

    def span(text: str, font: str, size: float = 7.5) -> dict[str, object]:
        return {"text": text, "font": font, "size": size, "flags": 4}

    assert font_lead([span("Participants", "AdvOTcb"), span(".", "AdvOT1e", 9.5), span(" The study", "AdvOT1e")]) \
        == ("Participants", "AdvOTcb")
    # a word in another font inside a sentence is no lead
    assert font_lead([span("numpy", "Courier"), span(" is a library", "Times")]) == ("", "")


MMWR = "mmwr_foodnet_foodborne_infections_2022.pdf"


def test_a_heading_centred_over_its_column_heads_it() -> None:
    # MMWR centres its 10 pt sans "Discussion" over the 11 pt text of its column
    chunks = chunks_of(MMWR)
    assert chunk_type(holding(chunks, "Discussion")) == "heading"
    para = holding(chunks, "Many COVID-19 pandemic-related factors influencing enteric disease")
    assert para.provenance.section.endswith("Discussion")


def test_an_issues_inside_box_and_suggested_citation_are_no_sections() -> None:
    # MMWR's "INSIDE" box lists the issue's other reports ("707 Prevalence of …"), and its
    # masthead's "Suggested citation:" had headed the rest of the report
    chunks = chunks_of(MMWR)
    assert chunk_type(holding(chunks, "INSIDE")) == "front"
    assert chunk_type(holding(chunks, "707 Prevalence of Adverse Childhood Experiences")) == "front"
    assert chunk_type(holding(chunks, "Suggested citation:")) == "front"
    for c in chunks:
        assert "INSIDE" not in (c.provenance.section or "") and "Suggested citation" not in (c.provenance.section or "")


RSOS = "rsos_giant_panda_milk_transition_excerpt.pdf"


def test_a_table_ruled_with_rows_of_full_stops_is_a_table() -> None:
    # the Royal Society rules Table 1's rows with lines of ". . . ." set as text: its cells
    # ("bile salt-activated lipase F, O also termed …") had stood as paragraphs
    chunks = chunks_of(RSOS)
    prose = [c.text for c in chunks if chunk_type(c) in ("paragraph", "list")]
    assert not any("also termed bile-stimulated or -dependent lipase" in t for t in prose)
    assert not any(set(t.replace(" ", "")) == {"."} for t in prose)
    assert chunk_type(holding(chunks, "also termed bile-stimulated or -dependent lipase")) == "table"


def test_the_royal_societys_sidebar_and_licence_without_its_mark_are_front_matter() -> None:
    chunks = chunks_of(RSOS)
    for words in ("Subject Category:", "Author for correspondence:",
                  "Published by the Royal Society under the terms of the Creative Commons"):
        assert chunk_type(holding(chunks, words)) == "front", words
    # the abstract under the sidebar's last label, broken at the page's foot, stays text
    assert chunk_type(holding(chunks, "Bears produce the most altricial neonates")) == "paragraph"


HEIRLOOM = "troff_heirloom_nroff_troff_users_manual_excerpt.pdf"


def test_a_section_name_heads_its_text_whatever_word_opens_it() -> None:
    # "Introduction" in bold over "nroff and troff are text processors …" (a program's
    # name in lowercase) had been read as the start of that sentence
    chunks = chunks_of(HEIRLOOM)
    assert chunk_type(holding(chunks, "Introduction")) == "heading"
    para = holding(chunks, "troff produces its output in a device-independent form")
    assert para.provenance.section == "Introduction"


def test_a_line_ending_on_a_small_capitals_acronym_goes_on_its_paragraph() -> None:
    # "UTF" is set a point smaller than "-8." after it: the line had taken the smaller size
    # and ended the paragraph broken over pages 1 and 2
    para = holding(chunks_of(HEIRLOOM), "troff provides convenient access to any character")
    assert para.text.rstrip().endswith("in almost any character encoding, including UTF-8.")
    assert pages_of(para) == [1, 2]


TUFTE = "workingpaper_tufte_democracy_trade_agreements_es.pdf"


def test_the_works_own_reference_at_the_first_pages_foot_is_front_matter() -> None:
    chunks = chunks_of(TUFTE)
    ref = holding(chunks, "Cuevas, R. (2022). Democracia y acuerdos de libre comercio")
    assert chunk_type(ref) == "front"


def test_a_sentences_bracketed_rest_at_the_next_columns_top_goes_on() -> None:
    # MMWR: "… during 2016–2018: Enteritidis" | "(IRR = 0.88, 95% CrI = 0.79–0.97) and …"
    # at the right column's top had been typed a formula for its figures
    para = holding(chunks_of(MMWR), "Among 7,032 Salmonella infections with positive culture results")
    assert para.text.rstrip().endswith("(IRR = 0.69, 95% CrI = 0.56–0.86).")


def test_a_panels_letter_a_line_over_its_plot_is_the_figures() -> None:
    # the Royal Society sets Figure 4's "(b)" a line over its plot's top; it had stood as a
    # formula scrap between p. 5's last paragraph and its rest under the figure on p. 6
    para = holding(chunks_of(RSOS), "In a more detailed analysis, we found dramatic changes")
    assert "was initially close to zero in concentration and then rose dramatically after 20 days" in para.text
    assert pages_of(para)[0] == 5 and set(pages_of(para)) == {5, 6}


PLAN9 = "troff_plan9_organization_of_networks.pdf"


def test_a_font_naming_its_glyphs_by_hexadecimal_code_points_reads_as_the_page_shows() -> None:
    # the Plan 9 paper's Lucida names each glyph by its code point in hexadecimal ("0065"
    # for e); MuPDF read the names as decimal ("A") or as none (U+FFFD): "6DA" for "The"
    chunks = chunks_of(PLAN9)
    para = holding(chunks, "Networks play a central role in any distributed system.")
    assert "This is particularly true in Plan 9 where most resources are provided by servers" in para.text
    assert "\ufffd" not in para.text
    assert chunk_type(holding(chunks, "The network code in the kernel is divided into three layers")) == "paragraph"
    # its punctuation font names its few glyphs in digits alone ("2019"): read so too, as
    # its sibling on the page shows the producer names them
    assert "attributes that aren’t hashed or whose hash table is out-of-date" in "".join(c.text for c in chunks)


def _hex_font_of(text: str) -> tuple[HexFont, list[tuple[str, str, float, float]]]:
    """A hex-named font of the printable ASCII letters, 500 units wide each, and ``text``'s
    glyphs as MuPDF reads them: a name of four decimal digits as that decimal code, one
    with a letter as U+FFFD (its code in the second reading); glyphs 5 pt wide at 10 pt."""
    encoding = [".notdef"] * 256
    for code in range(0x20, 0x7F):
        encoding[code] = f"{code:04x}"
    font = hex_font(encoding, {code: 500.0 for code in range(256)})
    assert font is not None
    glyphs = []
    for k, ch in enumerate(text):
        name = f"{ord(ch):04x}"
        read = chr(int(name)) if name.isdigit() else "\ufffd"
        glyphs.append((read, ch, 5.0 * k, 5.0 * k + 5.0))
    return font, glyphs


@given(st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=30))
def test_any_word_of_a_hex_named_font_reads_back(word: str) -> None:
    font, glyphs = _hex_font_of(word)
    assert decode(glyphs, 10.0, font) == word


def test_a_font_whose_names_are_decimal_is_not_read_as_hexadecimal() -> None:
    # names of digits only might be decimal codes (as MuPDF reads them): no letter, no font
    encoding = [".notdef"] * 256
    for code in range(48, 58):
        encoding[code] = f"{code:04d}"
    assert hex_font(encoding, {}) is None


def test_a_templates_unfilled_dates_line_is_front_matter() -> None:
    # a journal's Word template as its authors left it: "Received xx xxx 20xx; Revised …"
    chunks = chunks_of("sinta_bittech_cat_disease_certainty_factor_pso_excerpt.pdf")
    assert chunk_type(holding(chunks, "Received xx xxx 20xx; Revised xx xxx 20xx")) == "front"
