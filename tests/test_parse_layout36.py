"""Layout 36 (issue 34, batches 48 and 49's unseen works and the kinds they showed, and the
REVTeX bibliography batch 46 left): a Tufte handout's sidenotes beside its ragged-right
text; an RSC caption whose panel letter follows its number; a paragraph's next line at the
pitch of its lines though superscripts swell the boxes; bold condensed and Advent 3B2 faces
told bold; a PLOS sidebar's entry going on atop the next page; a bibliography set without a
heading, and the appendix beside it; batch 49's: a table's rules not stacked past the text
over it, short margin notes set small, a figure set as text at a column's top, F1000's
channel note, a program's lone lines, a space drawn inside a ligature; on real pages, with
property tests of the pure rules."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding, paragraphs_of

from vaultd.parse.classify import CAPTION_RE, RULE_TEXT_RE
from vaultd.parse.code import is_code
from vaultd.parse.fontnames import is_bold_font, is_italic_font
from vaultd.parse.ligature_glyphs import drop_ligature_spaces
from vaultd.parse.margins import text_block_edges
from vaultd.parse.paras import Line, Para
from vaultd.parse.references import opens_headless_references

TUFTE = "tufte_handout_sample_style_guide.pdf"
CHEMSCI = "chemsci_redox_active_porous_charge_transfer_excerpt.pdf"
FRONTIERS = "frontiers_chem_2020_mg_ion_solid_electrolyte_excerpt.pdf"
BIOTECH = "3biotech_ocimum_rapd_issr_markers.pdf"
PLOSGEN = "plosgen_codon_usage_bias_yeasts_excerpt.pdf"
PRX = "aps_prx_minimum_action_phase_transitions.pdf"
BERRY = "aps_revtex_arxiv_berry_connection_projection_gauge_excerpt.pdf"
LANCET = "lancet_respmed_stopadvisor_smoking_trial_excerpt.pdf"
TACL = "tacl_convincing_arguments_bayesian_preference_excerpt.pdf"
F1000 = "f1000r2016_housing_mobility_ptsd_excerpt.pdf"
PEERJ = "peerjpreprint_gbif_clients_r_python_ruby_excerpt.pdf"


def _line(text: str, box: tuple[float, float, float, float], size: float = 10.0, page: int = 1) -> Line:
    return Line(text, box, size, False, 0, page)


# ------------------------------------------------------------------------ margin notes


def test_a_sidenote_beside_ragged_right_text_stays_out_of_its_paragraph() -> None:
    # the Tufte handout sets its text ragged right, so no right edge was shared by its
    # lines, no line stood in the margin, and "2 Edward R. Tufte. Beautiful Evidence." (a
    # sidenote level with the line citing it, in one MuPDF block with it) read into the
    # paragraph
    paras = paragraphs_of(TUFTE)
    later = next(p for p in paras if p.startswith("In his later books"))
    assert "Beautiful Evidence" not in later and "vertical space, a non-indented paragraph" in later
    prominent = next(p for p in paras if p.startswith("One of the most prominent"))
    assert "sidenote that was entered" not in prominent and "This is a margin note" not in prominent
    assert "without the sidenote mark" in prominent  # (the paragraph whole past the notes)


@given(st.floats(min_value=280.0, max_value=420.0), st.lists(st.floats(min_value=0.0, max_value=25.0),
                                                             min_size=12, max_size=40))
def test_ragged_lines_have_a_right_edge_near_their_longest(right: float, short: list[float]) -> None:
    # a ragged-right column: every line ends within 2.5 ems of its measure, none beyond it
    lines = [_line("text of a line", (72.0, 100.0 + 12 * k, right - s, 110.0 + 12 * k)) for k, s in enumerate(short)]
    (_left, edge), _even = text_block_edges([lines])
    assert edge is not None and right - 25.0 - 2.0 <= edge <= right + 1.0  # (a shared edge to the point)


# ------------------------------------------------------------------------ captions


def test_a_caption_whose_panel_letter_follows_its_number_is_a_caption() -> None:
    # Chemical Science: "Fig. 1 (a) Schematic illustration of …" was typed a paragraph
    block = holding(chunks_of(CHEMSCI), "Fig. 1 (a) Schematic illustration")
    assert chunk_type(block) == "figure"


@given(st.sampled_from(["Fig.", "Figure", "FIG."]), st.integers(min_value=1, max_value=40),
       st.sampled_from("abcdef"), st.sampled_from(["shows", "compares", "is", "gives"]))
def test_a_panel_letter_before_a_capital_opens_a_caption_and_before_a_verb_a_sentence(
        label: str, number: int, letter: str, verb: str) -> None:
    assert CAPTION_RE.match(f"{label} {number} ({letter}) Schematic view of the cell")
    assert not CAPTION_RE.match(f"{label} {number} ({letter}) {verb} the distribution of the sizes")


# ------------------------------------------------------------------------ paragraphs


def test_a_paragraphs_next_line_at_its_lines_pitch_goes_on_though_the_boxes_overlap() -> None:
    # Frontiers: "… the target is 10−3-10−4" | "S cm−1 at ambient temperature …", two MuPDF
    # blocks whose boxes (a superscript above, a space boxed tall below) overlap by a
    # quarter em: the paragraph had broken there
    paras = paragraphs_of(FRONTIERS)
    para = next(p for p in paras if p.startswith("Several key challenges"))
    assert "S cm−1 at ambient temperature" in para and para.endswith("(Janek and Zeier, 2016).")


def test_a_sidebars_entry_goes_on_atop_the_next_pages_side_column() -> None:
    # PLOS Genetics: the Data Availability Statement breaks off at p. 1's foot and goes on
    # atop p. 2's side column, which had been read as a paragraph of the Author summary
    assert not any("scores generated by stAI-calc" in p for p in paragraphs_of(PLOSGEN))
    entry = holding(chunks_of(PLOSGEN), "Data Availability Statement")
    assert chunk_type(entry) == "front" and "scores generated by stAI-calc" in entry.text


# ------------------------------------------------------------------------ faces


def test_an_advent_face_bold_by_its_trailing_letter_heads_its_section() -> None:
    # 3 Biotech's heads in "FrfvttAdvPTimesB": no flag, no "Bold" in the name
    assert chunk_type(holding(chunks_of(BIOTECH), "Materials and methods")) == "heading"


#: Words a font's name says its style with (``Boldaa`` would be a bold face's name).
STYLE_WORDS = ("bold", "black", "heavy", "demi", "italic", "oblique", "slanted")


@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=6, max_size=6),
       st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=6, max_size=6).filter(
           lambda noise: not any(word in noise for word in STYLE_WORDS)),
       st.sampled_from(["Times", "Helvetica", "Palatino", "Arial"]))
def test_advent_faces_are_named_bold_and_italic_by_their_last_letters(prefix: str, noise: str, family: str) -> None:
    # the family's random letters as Advent 3B2 writes them (``Frfvtt``), no style word among them
    name = f"{prefix}+{noise.capitalize()}AdvP{family}"
    assert not is_bold_font(name) and not is_italic_font(name)
    assert is_bold_font(name + "B") and not is_italic_font(name + "B")
    assert is_italic_font(name + "I") and not is_bold_font(name + "I")
    assert is_bold_font(name + "BI") and is_italic_font(name + "BI")


def test_bold_condensed_is_bold_and_medium_condensed_is_not() -> None:
    assert is_bold_font("ABCDEF+HelveticaNeueLTStd-BdCn")
    assert is_bold_font("HelveticaNeueLTStd-BdCnO")
    assert not is_bold_font("HelveticaNeueLTStd-MdCn") and not is_bold_font("HelveticaNeueLTStd-Cn")
    assert not is_bold_font("AdvPSSym") and not is_bold_font("AdvP4C4E46")


# ------------------------------------------------------------------------ bibliographies


def test_a_bibliography_without_a_heading_is_references() -> None:
    # REVTeX sets its references under the last appendix with no heading: the APS PRX
    # paper's 81 had been paragraphs
    chunks = chunks_of(PRX)
    assert chunk_type(holding(chunks, "P. Weiss, L’Hypothèse du Champ Moléculaire")) == "reference"
    assert chunk_type(holding(chunks, "K. G. Wilson, The Renormalization Group")) == "reference"
    assert not any(p.startswith("[") for p in paragraphs_of(PRX))


def test_the_appendix_beside_a_bibliography_without_a_heading_stays_text() -> None:
    # the REVTeX preprint's appendix goes on in the other column beside entries [1]–[11],
    # in the body's size: read after them, it is no entry
    chunks = chunks_of(BERRY)
    assert chunk_type(holding(chunks, "D. Xiao, M.-C. Chang, and Q. Niu")) == "reference"
    assert chunk_type(holding(chunks, "We multiply V † from the left")) == "paragraph"
    assert chunk_type(holding(chunks, "Here, the division by")) == "paragraph"


def _page(entries: list[str]) -> list[Line]:
    return [_line(text, (54.0, 100.0 + 11 * k, 290.0, 109.0 + 11 * k), 9.0) for k, text in enumerate(entries)]


def _para(kind: str, text: str) -> Para:
    line = _line(text, (54.0, 60.0, 290.0, 70.0))
    return Para(kind, [line], text, [(1, text)])


#: The body's last paragraph, which a bibliography without a heading follows.
_TEXT = _para("paragraph", "In summary, the analytical expression of the large deviation function is explicit.")


@given(st.sampled_from(["P. Weiss", "Hu W.", "A. B. Smith and C. D. Jones"]),
       st.integers(min_value=1850, max_value=2029), st.integers(min_value=0, max_value=3))
def test_a_first_entry_with_an_initial_and_a_year_before_a_second_opens_a_bibliography(
        author: str, year: int, extra: int) -> None:
    entry = [f"[1] {author}, A title of the work, J. Phys. 6, 661"] + ["continued over a line"] * extra
    page = _page([*entry, f"({year}).", "[2] E. F. Next, Another work, Phys. Rev. 9 (1999)."])
    assert opens_headless_references(page[:1], page, _TEXT)
    # under a heading (one the parser found: "Bibliography"), or a short line a slide may
    # yet make one ("Bibliography I"), the entries are a headed list's, not a headless one
    assert not opens_headless_references(page[:1], page, _para("heading", "Bibliography"))
    assert not opens_headless_references(page[:1], page, _para("paragraph", "Bibliography I"))


@given(st.integers(min_value=1000, max_value=9999))
def test_a_programs_numbered_output_opens_no_bibliography(count: int) -> None:
    # R's printed vectors: "[1] 2057 GTGAGTATT…" | "[2] 564 GTACGTTC…"
    page = _page([f"[1] {count} GTGAGTATTAACATATTCTCTTTTGTACCT...AATTTAAAAAAATTTTTTTTGCTTCCAAG",
                  "[2] 564 GTACGTTCAACCTAATTGCCATTTTCCTTT...ATTGTCACATACTGATTTTTTTCTTGAAG"])
    assert not opens_headless_references(page[:1], page, _TEXT)


# ------------------------------------------------------------------------ batch 49


def test_a_tables_rules_stop_at_the_columns_of_text_over_it() -> None:
    # The Lancet's Table 1 under two columns of text: its rules had been stacked up to the
    # rule under the running head, and the page's text read as the table's cells
    paras = paragraphs_of(LANCET)
    assert any(p.startswith("Development and content of the StopAdvisor website") for p in paras)
    assert any(p.startswith("After their quit date, participants had access") for p in paras)
    table = holding(chunks_of(LANCET), "Low SES (N=2142)")
    assert "Development and content" not in table.text


def test_a_short_margin_note_set_small_is_no_paragraph() -> None:
    # The Lancet's "See Online for appendix" in 6.5 pt in the margin beside 9 pt text
    assert not any("See Online for appendix" in p for p in paragraphs_of(LANCET))
    assert not any("For more about StopAdvisor see" in p for p in paragraphs_of(LANCET))


def test_a_figure_set_as_text_at_a_columns_top_is_the_figures() -> None:
    # TACL's Figure 1, an argument pair in the body's face over its caption at the right
    # column's top: "Topic: …" had been read as the rest of "… can, how-", and the
    # paragraph's "ever, overwhelm a reader." as the rest of "Crowdsourced labels: …"
    para = next(p for p in paragraphs_of(TACL) if p.startswith("Arguments are intended"))
    assert "can, however, overwhelm a reader" in para and "Topic:" not in para
    for text in ("Topic: “William Farquhar", "Stance: “No, it is Raffles!”", "Crowdsourced labels"):
        assert not any(text in p for p in paragraphs_of(TACL)), text


def test_f1000s_channel_note_is_front_matter() -> None:
    assert chunk_type(holding(chunks_of(F1000), "This article is included in the Preclinical")) == "front"


def test_a_programs_lone_lines_in_a_typewriter_face_are_code() -> None:
    # a PeerJ preprint's shaded boxes: Ruby's "require 'gbifrb'", knitr's "#> Download key:"
    assert not any("name_suggest" in p or "#> Download key" in p for p in paragraphs_of(PEERJ))
    assert chunk_type(holding(chunks_of(PEERJ), "#> Download key")) == "code"


@given(st.sampled_from(["require 'gbifrb'", "library('rgbif')", "#> Download key: 0000840", "#> [1] 2 3",
                        "species.name_suggest(q: 'Pum', limit: 6)", "pd.read_csv(path)"]))
def test_a_programs_lone_line_is_code(text: str) -> None:
    line = Line(text, (60.0, 100.0, 300.0, 110.0), 10.0, False, 0, 1, mono=True)
    assert is_code([line], text)


@given(st.sampled_from(["require the package", "see the README", "Smith et al.", "a short note"]))
def test_a_text_faces_line_of_words_is_no_code(text: str) -> None:
    line = Line(text, (60.0, 100.0, 300.0, 110.0), 10.0, False, 0, 1)
    assert not is_code([line], text)


def test_a_space_drawn_inside_a_ligature_is_no_word_space() -> None:
    # The Lancet draws a space glyph inside each ligature's box: "deﬁ ned", "eﬀ ective"
    text = " ".join(paragraphs_of(LANCET))
    assert "defined as a self-report" in text and "more effective than" in text
    assert "defi ned" not in text and "eff ective" not in text


def _glyphs(text: str, inside: set[int]) -> list[dict[str, object]]:
    """Glyphs 5 points wide, side by side; a space at an index of ``inside`` drawn from the
    middle of the glyph before it, the next glyph at that glyph's end."""
    out: list[dict[str, object]] = []
    x = 0.0
    for k in range(len(text)):
        if k in inside:
            out.append({"bbox": (x - 2.5, 0.0, x - 0.5, 10.0)})
            continue
        out.append({"bbox": (x, 0.0, x + 5.0, 10.0)})
        x += 5.0
    return out


@given(st.lists(st.sampled_from(["effective", "defined", "first", "offer", "the", "and", "of"]), min_size=2,
                max_size=8))
def test_only_spaces_drawn_inside_the_glyph_before_them_go(words: list[str]) -> None:
    # each word's first "ff" or "fi" spelled out with a space drawn inside it, as MuPDF
    # reads The Lancet's ligatures; the spaces between the words drawn after their glyphs
    pieces: list[str] = []
    inside: set[int] = set()
    at = 0
    for w in words:
        lig = min((w.find(p) for p in ("ff", "fi") if p in w), default=-1)
        word = w if lig < 0 else w[:lig + 2] + " " + w[lig + 2:]
        if lig >= 0:
            inside.add(at + lig + 2)
        pieces.append(word)
        at += len(word) + 1
    span = {"text": " ".join(pieces)}
    drop_ligature_spaces([(span, _glyphs(span["text"], inside))])
    assert span["text"] == " ".join(words)
    plain = {"text": " ".join(words)}  # spaces all words': all kept
    drop_ligature_spaces([(plain, _glyphs(plain["text"], set()))])
    assert plain["text"] == " ".join(words)


def test_a_captions_continued_label_atop_the_next_page_heads_its_rest() -> None:
    # eLife: "Figure 2 continued recentered to 0° polar angle …" atop p. 4 had been a
    # paragraph; its crispr article's "Figure 1 continued" over the caption's rest keeps
    # that rest a caption's, and "Figure 1 continued on next page" stays furniture
    chunks = chunks_of("elife_attentional_field_fmri_excerpt.pdf")
    assert chunk_type(holding(chunks, "Figure 2 continued recentered")) == "figure"
    crispr = chunks_of("elife_crispr_sqstm1_tools_article.pdf")
    assert chunk_type(holding(crispr, "2677 genes with an average of 20 sgRNA")) == "figure"
    assert not any("continued on next page" in c.text for c in crispr)


@given(st.sampled_from(["Figure", "Fig.", "Table"]), st.integers(min_value=1, max_value=30))
def test_a_continued_label_opens_a_caption_and_continued_on_next_page_does_not(label: str, number: int) -> None:
    assert CAPTION_RE.match(f"{label} {number} continued recentered to the cue")
    assert not CAPTION_RE.match(f"{label} {number} continued on next page")


# ------------------------------------------------------------------------ batch 50


def test_a_paragraphs_indented_first_line_is_no_box_the_text_goes_on_past() -> None:
    # a LibreOffice thesis sets each double-spaced line a block: the indented first line
    # "Como este TCC … de se prever" was taken for a box set narrower than the column, and
    # its next line "vendas semanais se torna …" went on with p. 2's list before it
    thesis = "thesis_usp_esalq_multinivel_vendas_pt_excerpt.pdf"
    paras = paragraphs_of(thesis)
    para = next(p for p in paras if p.startswith("Como este TCC"))
    assert "a questão de se prever vendas semanais se torna mais precisa" in para
    assert para.endswith("nenhuma abre as portas.")
    # a Fifth Circuit opinion: a line of p. 6's paragraph had gone on with p. 5's
    opinion = "ca5_slip_opinion_st_pierre_life_insurance.pdf"
    appeal = next(p for p in paragraphs_of(opinion) if p.startswith("On appeal, St. Pierre argues"))
    assert "the district court erred by concluding that the City could not act" in appeal


def test_a_keywords_label_under_a_sentences_end_in_one_block_is_front_matter() -> None:
    # the thesis's abstract and "Palavras-chave: …" in one MuPDF block, the abstract's
    # last line stopping a tenth short of the measure
    thesis = chunks_of("thesis_usp_esalq_multinivel_vendas_pt_excerpt.pdf")
    assert chunk_type(holding(thesis, "Palavras-chave: Box-Cox")) == "front"
    assert not any("Palavras-chave" in p for p in paragraphs_of("thesis_usp_esalq_multinivel_vendas_pt_excerpt.pdf"))


# ------------------------------------------------------------------------ batch 51

ECOGRAPHY = "wiley_ecography_species_abundance_niche_excerpt.pdf"


def test_a_side_columns_editor_doi_and_the_authors_orcid_line_are_front_matter() -> None:
    # Ecography's first page: "doi: 10.1111/ecog.05776", "Subject Editor and
    # Editor-in-Chief: Miguel Araújo" in the column beside the abstract, and the authors'
    # line with their ORCID iDs and e-mail under the byline had been paragraphs
    paras = paragraphs_of(ECOGRAPHY)
    for text in ("doi: 10.1111/ecog.05776", "Subject Editor", "Accepted 31 August 2021", "orcid.org"):
        assert not any(text in p for p in paras), text
    chunks = chunks_of(ECOGRAPHY)
    assert chunk_type(holding(chunks, "doi: 10.1111/ecog.05776")) == "front"
    assert chunk_type(holding(chunks, "https://orcid.org/0000-0001-9686-3844")) == "front"


def test_a_rule_set_as_dashes_neither_ends_nor_joins_a_paragraph() -> None:
    # Ecography draws the rule over its licence as a line of en dashes: it had ended the
    # paragraph broken at p. 1's foot ("… along many ecological axes ––––"), which then did
    # not go on atop p. 2
    para = next(p for p in paragraphs_of(ECOGRAPHY) if p.startswith("A widely held belief"))
    assert "–––" not in para and "(Hutchinson 1957, Brown 1984, Holt 2009)" in para


@given(st.sampled_from(["–", "—", "_", "-", "="]), st.integers(min_value=4, max_value=60))
def test_a_line_of_dashes_alone_is_a_rule(dash: str, count: int) -> None:
    assert RULE_TEXT_RE.fullmatch(dash * count)
    assert not RULE_TEXT_RE.fullmatch(dash * count + " Note")


def test_a_double_spaced_manuscripts_italic_heads_a_line_over_their_text_head() -> None:
    # a PeerJ preprint, double-spaced: "Registry" and "Occurrences" in italics at the body's
    # size stand 18 pt over their text, whose lines stand 9 pt apart (a head's text had to
    # stand within one and a half of its line heights)
    chunks = chunks_of("peerjpreprint_gbif_clients_r_python_ruby_excerpt.pdf")
    assert holding(chunks, "The GBIF registry API services are spread").provenance.section == "The clients › Registry"
    assert chunk_type(holding(chunks, "Occurrences")) == "heading"
