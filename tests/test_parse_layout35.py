"""Layout 35 (issue 34, batches 41 and 42's unseen works and the kinds they showed): a first page's
peer-review panel front matter; a book's running heads naming section and chapter;
Elsevier's DOI line with the article's history, Taylor & Francis's contact line, its
copyright line behind an unmapped sign and an article's ORCID list front matter; a
paragraph going on past a caption's rest atop the next page, and past a colon ending its
column; a bold sans head over serif text, and one naming a genus by its initial, heads;
batch 42's: a proofreader's notes laid over the page no text, a web address after its
number in a typewriter face a footnote, a flush line under a full first line going on
where paragraphs are indented, declarations' heads as small as their text, a licence
statement in five languages; on real pages, with property tests of the pure rules."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding, pages_of, paragraphs_of

from vaultd.parse.classify import classify
from vaultd.parse.front_blocks import is_orcid_list
from vaultd.parse.licences import is_licence
from vaultd.parse.paras import Line, Para
from vaultd.parse.review_panels import in_panel, panel_of
from vaultd.parse.running_lines import shared_sides

ENVSCI = "elsevier_envsci_vhavenda_indigenous_knowledge_excerpt.pdf"
TAXIZE = "webtool_f1000research_2013_taxize_r_package_excerpt.pdf"
WELLCOME = "wellcome_open_research_anopheles_insecticide_resistance_excerpt.pdf"
LOGIC = "coursenotes_dhbw_logic_halting_problem_excerpt.pdf"
PPAT = "ppat_vibrio_biofilm_adhesive_peptide_lipid_excerpt.pdf"
SERIALS = "routledge_serials_review_big_deals_unsub_excerpt.pdf"
REFUSAL = "acl_review_refusal_subspaces_excerpt.pdf"


# ------------------------------------------------------------------------ front matter


def test_a_peer_review_panel_is_front_matter_and_the_abstract_goes_on_past_it() -> None:
    # F1000Research 2013: "Referees 1 2 3", "report", "1 Will Pearse, University of
    # Minnesota USA" had been paragraphs, and the abstract stopped at the panel
    paras = paragraphs_of(TAXIZE)
    for text in ("University of Minnesota", "Gavin Simpson", "No Comments Yet", "report report"):
        assert not any(text in p for p in paras), text
    abstract = holding(chunks_of(TAXIZE), "All species are hierarchically related")
    assert "cran.r-project.org" in abstract.text and "open-source R platform" in abstract.text
    # Wellcome Open Research 2017, the panel's later form: "Invited Referees" and the
    # referees' names had been paragraphs, "Referee Status:" a heading over the abstract
    paras = paragraphs_of(WELLCOME)
    for text in ("Invited Referees", "Delenasaw Yewhalaw", "Comments (0)"):
        assert not any(text in p for p in paras), text
    assert chunk_type(holding(chunks_of(WELLCOME), "Referee Status:")) == "front"


def test_a_doi_line_with_the_articles_history_is_front_matter() -> None:
    # Elsevier's first-page foot: "https://doi.org/10.1016/… Received 11 February 2023; …"
    block = holding(chunks_of(ENVSCI), "Received in revised form 2 August 2024")
    assert chunk_type(block) == "front"


def test_taylor_and_francis_contact_copyright_and_orcid_lines_are_front_matter() -> None:
    chunks = chunks_of(SERIALS)
    for text in ("CONTACT Scott Chamberlain", "Published with license by Taylor & Francis",
                 "http://orcid.org/0000-0003-1444-9135"):
        assert chunk_type(holding(chunks, text)) == "front", text


@given(st.lists(st.tuples(st.lists(st.text(alphabet=string.ascii_letters, min_size=2, max_size=9), min_size=1,
                                   max_size=3),
                          st.lists(st.integers(min_value=0, max_value=9), min_size=15, max_size=15),
                          st.booleans()), min_size=1, max_size=5))
def test_names_each_with_an_orcid_are_an_orcid_list_and_a_sentence_is_not(
        people: list[tuple[list[str], list[int], bool]]) -> None:
    items = []
    for names, digits, https in people:
        d = "".join(map(str, digits))
        orcid = f"{'https' if https else 'http'}://orcid.org/{d[:4]}-{d[4:8]}-{d[8:12]}-{d[12:15]}X"
        items.append(" ".join(n.capitalize() for n in names) + " " + orcid)
    text = " ".join(items)
    assert is_orcid_list(text)
    assert not is_orcid_list(text + " We thank the reviewers for their comments.")
    assert not is_orcid_list("See " + items[0].split()[-1] + " for the author's record and")


# ------------------------------------------------------------------------ running heads


def test_running_heads_naming_section_and_chapter_are_furniture() -> None:
    # Lecture notes' "5.2. Semantics of First-Order Logic … Chapter 5. First-Order Logic":
    # the section's side changes every few pages; one had become a section heading, another
    # the first words of the paragraph the page break cut
    chunks = chunks_of(LOGIC)
    assert not any("Chapter 5. First-Order Logic" in c.text or "Chapter 4. Propositional Calculus" in c.text
                   for c in chunks)
    para = holding(chunks, "So far, all known perfect numbers are divisible by 2")
    assert "could write a program" in para.text and "exists, then the program will run indefinitely" in para.text
    assert pages_of(para) == [6, 7]


def _edge(page: int, top: float, key: str) -> tuple[int, float, str]:
    return (page, top, key)


_TITLE = st.lists(st.text(alphabet=string.ascii_lowercase, min_size=3, max_size=10), min_size=2, max_size=6)


_CHAPTER = st.lists(st.text(alphabet=string.ascii_lowercase, min_size=5, max_size=10), min_size=2, max_size=4)


@given(_CHAPTER, _TITLE, _TITLE, st.floats(min_value=20.0, max_value=60.0))
def test_heads_sharing_their_chapters_side_at_one_height_are_running(
        chapter: list[str], first: list[str], second: list[str], top: float) -> None:
    side = "chapter #. " + " ".join(chapter)  # (20 characters or more: a running side's length)
    a, b = f"#.#. {' '.join(first)} {side}", f"#.#. {' '.join(second)} {side}"
    assert shared_sides([_edge(3, top, a), _edge(6, top + 0.5, b)]) == {0, 1}
    # not on one page, not at other heights, not without a long side in common
    assert shared_sides([_edge(3, top, a), _edge(3, top, b)]) == set()
    assert shared_sides([_edge(3, top, a), _edge(6, top + 30.0, b)]) == set()
    assert shared_sides([_edge(3, top, "#.#. alpha beta gamma " + side), _edge(6, top, "#.#. delta epsilon")]) \
        == set()


# ------------------------------------------------------------------------ paragraphs


def test_a_paragraph_goes_on_past_a_captions_rest_atop_the_next_page() -> None:
    # PLOS sets a caption's last lines, in small print, atop the next page over the
    # figure's DOI: the paragraph the page break cut had gone on into them
    chunks = chunks_of(PPAT)
    para = holding(chunks, "After establishing the binding assay")
    assert "confirming the key contribution of the core motif to lipid binding" in para.text
    assert "using beads coated with various lipids" not in para.text
    assert chunk_type(holding(chunks, "journal.ppat.1013990.g002")) == "figure"


def test_a_sentence_ending_its_column_in_a_colon_goes_on_at_the_next_columns_top() -> None:
    para = holding(chunks_of(TAXIZE), "taxize uses many data sources")
    assert "provided by the data sources: name search and name resolution." in para.text
    para = holding(chunks_of(REFUSAL), "Scope of the linear representation hypothesis")
    assert "breaks both senses: its subspace is more diffuse" in para.text


# ------------------------------------------------------------------------ heads


def test_a_bold_sans_head_over_serif_text_opening_in_lowercase_is_a_head() -> None:
    # F1000's "Data sources and package details" over "taxize uses many data sources …"
    chunks = chunks_of(TAXIZE)
    assert chunk_type(holding(chunks, "Data sources and package details")) == "heading"
    assert holding(chunks, "taxize uses many data sources").text.startswith("taxize uses")


def test_a_head_naming_a_genus_by_its_initial_is_a_head() -> None:
    # "… binding of V. cholerae biofilms to host membranes": the initial's stop is no
    # run-in head's end
    block = holding(chunks_of(PPAT), "Bap1-57aa plays a key role in the binding of V. cholerae")
    assert chunk_type(block) == "heading"


# ------------------------------------------------------------------------ pure rules


def _line(text: str, box: tuple[float, float, float, float], size: float = 8.0) -> Line:
    return Line(text, box, size, False, 0, 1)


@given(st.floats(min_value=340.0, max_value=420.0), st.floats(min_value=120.0, max_value=300.0),
       st.sampled_from(["Open Peer Review", "Referee Status:", "Article Status Summary", "Invited Referees"]))
def test_a_review_panels_label_opens_a_panel_down_to_the_box_across_the_page(
        x0: float, y0: float, label: str) -> None:
    head = _line(label, (x0, y0, x0 + 90.0, y0 + 10.0))
    inside = _line("Will Pearse, University of Minnesota USA", (x0, y0 + 60.0, 560.0, y0 + 70.0))
    across = _line("Corresponding author: Scott A. Chamberlain", (50.0, y0 + 200.0, 560.0, y0 + 210.0))
    beside = _line("names to label the nodes in this hierarchy.", (50.0, y0 + 60.0, x0 - 20.0, y0 + 70.0))
    para = Para("front", [head], label, [(1, label)])
    panel = panel_of(para, [head, inside, across, beside], 612.0)
    assert panel is not None
    assert in_panel(panel, [inside]) and not in_panel(panel, [across]) and not in_panel(panel, [beside])
    # the same words in the page's left part, or other words there, open none
    left = _line(label, (60.0, y0, 150.0, y0 + 10.0))
    assert panel_of(Para("paragraph", [left], label, [(1, label)]), [left], 612.0) is None
    other = Para("paragraph", [head], "Abstract", [(1, "Abstract")])
    assert panel_of(other, [head], 612.0) is None


# ------------------------------------------------------------------------ batch 42

MATE_KD = "acl_2021_mate_kd_adversarial_distillation_excerpt.pdf"
CVPR = "cvpr_cell_counting_microscopy_deep_learning.pdf"
PROOF = "proof_peerj_2015_otu_clustering_excerpt.pdf"
OCIMUM = "bmc_cam_ocimum_micranthum_antimicrobial_excerpt.pdf"
DEEPPROG = "bmc_genome_medicine_deepprog_multiomics_excerpt.pdf"
FERRARA = "thesis_ferrara_cplint_swish_r_bachelor_it_excerpt.pdf"


def test_a_proofreaders_notes_laid_over_the_page_are_no_text() -> None:
    # the proof's typewriter boxes (FreeText annotations) had become a paragraph
    chunks = chunks_of(PROOF)
    for note in ("“datasets is pooled” should be", "“systematic a bias” should be", "“merging and splitting” should be"):
        assert not any(note in c.text for c in chunks), note
    para = holding(chunks, "Our analysis of those methods that implemented USEARCH")
    assert pages_of(para) == [7, 8]


def test_a_web_address_after_its_number_in_a_typewriter_face_is_a_footnote() -> None:
    chunks = chunks_of(MATE_KD)
    for url in ("https://pytorch.org/", "https://gluebenchmark.com/leaderboard"):
        assert chunk_type(holding(chunks, url)) == "footnote", url


def test_a_flush_line_under_a_full_first_line_goes_on_where_paragraphs_are_indented() -> None:
    # ACL: the first line under "4.1 Experimental Setup" (LaTeX indents none there), a
    # block of its own, and the flush lines under it are one paragraph
    para = holding(chunks_of(MATE_KD), "We evaluate our algorithm on two different setups.")
    assert "On the first the teacher model is RoBERTa" in para.text
    # but an indented line under an indented one starts a paragraph (CVPR's "where ŷ is
    # the model prediction …" under a formula, then "The aleatoric uncertainty …")
    para = holding(chunks_of(CVPR), "is the model prediction and")
    assert "The aleatoric uncertainty" not in para.text


def test_declarations_heads_as_small_as_their_text_head_their_sections() -> None:
    # BMC's declarations: "Funding" over its text, both 7.5 pt under a 9.8 pt body
    chunks = chunks_of(OCIMUM)
    for head in ("Funding", "Availability of data and materials", "Authors’ contributions"):
        assert any(c.text == head and chunk_type(c) == "heading" for c in chunks), head
    assert holding(chunks, "CINVESTAV-IPN funded this project.").text.startswith("CINVESTAV-IPN")
    chunks = chunks_of(DEEPPROG)
    for head in ("Consent for publication", "Competing interests"):
        assert any(c.text == head and chunk_type(c) == "heading" for c in chunks), head


def test_a_licence_statement_in_italian_is_front_matter() -> None:
    block = holding(chunks_of(FERRARA), "Quest’opera è distribuita con licenza Creative Commons")
    assert chunk_type(block) == "front"


_LICENCE_NAMES = st.sampled_from(["Creative Commons Attribution 4.0", "CC BY-SA 4.0", "Creative Commons «BY-NC»"])


@given(_LICENCE_NAMES, st.sampled_from([
    "Quest’opera è distribuita con licenza {}.", "Questa tesi è rilasciata sotto licenza {}.",
    "Esta obra está bajo una licencia {}.", "Este trabalho está licenciado com uma licença {}.",
    "Ce document est mis à disposition selon les termes de la licence {}.",
    "Dieses Werk ist lizenziert unter einer {} Lizenz."]))
def test_a_licence_statement_in_five_languages_is_one(name: str, form: str) -> None:
    assert is_licence(form.format(name))


@given(st.sampled_from(["Esta obra es importante porque", "Ce document est long et", "Dieses Werk ist eines der",
                        "Questa tesi è divisa in"]), _LICENCE_NAMES)
def test_prose_opening_as_a_licence_statement_does_is_none(opening: str, name: str) -> None:
    assert not is_licence(f"{opening} discute la {name} e i suoi usi.")


# ------------------------------------------------------------------------ batch 43

RSTA = "rsta_deep_learning_weather_prediction_excerpt.pdf"
HELIYON = "elsevier_heliyon_gas_engine_cchp_optimization_excerpt.pdf"
IJERPH = "mdpi_ijerph_2021_ai_differential_diagnosis_rct_excerpt.pdf"
ADHD = "ieeeaccess2019_ann_melatonin_adhd_actigraphy_excerpt.pdf"


def test_the_royal_societys_theme_issue_note_and_large_bylines_are_front_matter() -> None:
    chunks = chunks_of(RSTA)
    assert chunk_type(holding(chunks, "One contribution of 13 to a theme issue")) == "front"
    for line in ("M. G. Schultz, C. Betancourt", "M. Langguth, L. H. Leufen", "S. Stadtler"):
        assert chunk_type(holding(chunks, line)) == "front", line
    # so the abstract is under the title, not a section named for an author
    abstract = holding(chunks, "The recent hype about artificial intelligence")
    assert "Stadtler" not in (abstract.provenance.section or "")


def test_ieees_associate_editor_note_is_front_matter() -> None:
    note = holding(chunks_of(ADHD), "The associate editor coordinating the review of this manuscript")
    assert chunk_type(note) == "front"


def test_an_algorithm_labelled_alone_over_its_titles_line_is_the_algorithms() -> None:
    # Elsevier's "Algorithm 1" | "The pseudocode of the 4E examination" over the ruled box:
    # its steps had become paragraphs
    step = holding(chunks_of(HELIYON), "Store the result in the “exergy_destruction_rate” variable.")
    assert chunk_type(step) == "figure" and step.text.startswith("Algorithm 1")


def test_an_italic_subsection_head_under_its_bold_section_head_in_one_block_heads() -> None:
    chunks = chunks_of(IJERPH)
    assert chunk_type(holding(chunks, "2.1. Study Design")) == "heading"
    assert holding(chunks, "2.1. Study Design").text.strip() == "2.1. Study Design"
    assert (holding(chunks, "This was a single-center, open-label").provenance.section or "").endswith("2.1. Study Design")


# ------------------------------------------------------------------------ batch 44

SEALS = "springer_behav_ecol_sociobiol_seal_pup_recognition_excerpt.pdf"
COBI = "wiley_cobi_amazon_urbanization_wild_meat_excerpt.pdf"
SDSC = "slides_sdsc_summer_institute_welcome.pdf"


def test_springers_editor_line_and_an_article_impact_statement_are_front_matter() -> None:
    assert chunk_type(holding(chunks_of(SEALS), "Communicated by L. M. Moller")) == "front"
    assert chunk_type(holding(chunks_of(COBI), "Article impact statement:")) == "front"


def test_a_slides_title_holding_one_sign_among_its_words_is_a_heading() -> None:
    title = holding(chunks_of(SDSC), "Introductions – tell us about yourself")
    assert chunk_type(title) == "heading"
    section = holding(chunks_of(SDSC), "Your research and/or what you do at work").provenance.section
    assert (section or "").startswith("Introductions – tell us about yourself")


_HEAD_WORDS = st.lists(st.sampled_from(["tell", "about", "your", "work", "time", "plans", "with", "them"]),
                       min_size=4, max_size=8)  # (words of prose: three letters or more)


@given(_HEAD_WORDS, st.sampled_from(["≤", "≥", "±", "×"]))
def test_one_sign_among_words_set_large_heads_and_a_formula_does_not(words: list[str], sign: str) -> None:
    text = "Introductions " + " ".join(words) + f" ({sign} 1 minute)"
    assert classify(text, 20.0, False, 1, 12.0, True)[0] == "heading"
    assert classify(f"x {sign} y + z {sign} w = v", 20.0, False, 1, 12.0, True)[0] != "heading"


# ------------------------------------------------------------------------ batch 45

SCIADV = "aaas_sciadv2020_lithium_ion_self_heating_safety_excerpt.pdf"


def test_a_bold_usual_section_name_on_its_own_line_runs_in_its_section() -> None:
    # Science Advances' bold "Acknowledgments" over "Funding: This work was …": no stop
    # closes it, its name does
    block = holding(chunks_of(SCIADV), "This work was partially supported by U.S. Department of Energy")
    assert (block.provenance.section or "").endswith("Acknowledgments")


# ------------------------------------------------------------------------ batch 46

ESA = "esa_ecology_rhode_island_camera_trap_data_paper.pdf"


def test_a_letter_spaced_keywords_label_heads_its_terms_as_front_matter() -> None:
    # Wiley's ``K E Y W O R D S`` over its terms: the terms had been a paragraph
    terms = holding(chunks_of(ESA), "camera traps, mammals, multi-season survey")
    assert chunk_type(terms) == "front" and terms.text.startswith("K E Y W O R D S")


USGS = "usgs_hydrol_processes_prairie_pothole_storage_excerpt.pdf"


def test_a_paragraphs_next_line_is_measured_by_its_last_columns_lines() -> None:
    # Hydrological Processes: the paragraph runs from p. 2's right column to the lines
    # under a full-width figure atop p. 3's left column; its last line there, full to that
    # column's edge, goes on into the next line (``… in the Upper`` | ``Pipestem Creek
    # basin; …``), though short of p. 2's right column's edge
    para = holding(chunks_of(USGS), "Markstrom, Hay, and Clark (2016) used the Fourier Amplitude")
    assert "dominant process in the Upper Pipestem Creek basin; therefore" in para.text


ELIFE = "elife_attentional_field_fmri_excerpt.pdf"


def test_a_figure_filling_a_page_over_its_caption_keeps_its_labels_and_the_text_goes_on() -> None:
    # eLife's full-page Figure 6: its graphics cover most of the page, as a scan's image
    # does, but stand over its caption; its panel titles had been paragraphs, and the
    # paragraph the figure page broke stopped at them
    chunks = chunks_of(ELIFE)
    assert not any("Goodness of fit" in c.text for c in chunks if chunk_type(c) == "paragraph")
    para = holding(chunks, "When we systematically varied the number of TRs")
    assert "had a small but significant positive effect on FWHM estimates" in para.text
    assert pages_of(para) == [4, 6]
