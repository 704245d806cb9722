"""Layout 41 (issue 34): a note opened by its small raised mark is no paragraph's rest;
run-in heads set bold whole with an italic word in them, wrapped onto their paragraph's
second line, or with their number set apart; a first page's head in capitals over its
subsection's; footnotes in the body's size; listings, inline code and a table's rules kept
to what they hold. On real pages (batches 64 to 67, out of sample), with property tests of
the pure rules."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding, pages_of

from vaultd.parse.continuation import continues
from vaultd.parse.headings import continue_title
from vaultd.parse.paras import Line, Para
from vaultd.parse.run_in import run_in_heads
from vaultd.parse.spans import lead_mark, run_in_lead

MYCOBIOLOGY = "korean_mycobiology_2017_colletotrichum_microsatellite_typing_excerpt.pdf"
AGU = "agu_plus_preprint_two_column.pdf"
SCIADV = "aaas_sciadv2020_lithium_ion_self_heating_safety_excerpt.pdf"

# ------------------------------------------------------------- a note opened by its raised mark


def test_a_paragraph_left_open_at_a_page_foot_skips_the_table_note_atop_the_next_page() -> None:
    # p. 2 ends "… polymorphism of all microsatellite"; p. 3 is two full-width tables, Table 1's
    # note "ᵃ The given strain number is …" under the first, the sentence going on under the
    # second ("loci were initially screened …"), then in the next column and atop p. 4
    chunks = chunks_of(MYCOBIOLOGY)
    para = holding(chunks, "polymorphism of all microsatellite loci were initially screened")
    assert chunk_type(para) == "paragraph" and pages_of(para) == [2, 3, 3, 4]
    assert "The given strain number" not in para.text
    assert para.text.endswith("three different isolates after each passage for up to fifteen passages.")
    assert "full accession number" not in holding(chunks, "Detection of microsatellite polymorphisms").text


def test_a_tables_lettered_notes_are_not_the_paragraph_over_the_table() -> None:
    # AGU's planotable sample: "… A typical example would look like" ends its column; the
    # table's notes "ᵃ Latitute, north > 0 ᵇ Longitude, east > 0" are not its next words
    para = holding(chunks_of(AGU), "A typical example would look like")
    assert para.text.endswith("A typical example would look like")


def _span(text: str, size: float, baseline: float, x0: float, font: str = "Minion-Regular",
          flags: int = 4) -> dict[str, Any]:
    width = 0.5 * size * len(text)
    return {"text": text, "size": size, "font": font, "flags": flags, "origin": (x0, baseline),
            "bbox": (x0, baseline - 0.8 * size, x0 + width, baseline + 0.2 * size)}


_MARKS = st.one_of(st.sampled_from("abcdefgh*†‡§"), st.integers(1, 99).map(str))


@given(_MARKS, st.floats(7.0, 12.0), st.sampled_from(["The", "Data", "Values", "Source"]))
def test_a_small_raised_mark_before_a_capital_opens_a_note(mark: str, size: float, word: str) -> None:
    raised = _span(mark, 0.5 * size, 100.0 - 0.35 * size, 50.0)
    rest = _span(f"{word} given strain number is a temporary number", size, 100.0, 50.0 + size)
    assert lead_mark([raised, rest], size) == mark
    # in the line's own size, on its baseline, or before a word in lowercase: no note's mark
    assert lead_mark([_span(mark, size, 100.0 - 0.35 * size, 50.0), rest], size) == ""
    assert lead_mark([_span(mark, 0.5 * size, 100.0, 50.0), rest], size) == ""
    lower = _span(f"{word.lower()} is what the cited work found", size, 100.0, 50.0 + size)
    assert lead_mark([raised, lower], size) == ""


def _line(text: str, y: float, *, page: int = 1, x0: float = 50.0, x1: float = 290.0, size: float = 10.0,
          bold: bool = False, lead: str = "", mark: str = "") -> Line:
    return Line(text, (x0, y, x1, y + size), size, bold, 0, page, lead=lead, lead_mark=mark)


def test_a_paragraph_never_goes_on_into_a_line_opened_by_a_notes_raised_mark() -> None:
    prev = Para("paragraph", [_line("The uniform presence and repeat number polymorphism of all", 740.0),
                              _line("microsatellite", 752.0, x1=110.0)], "… of all microsatellite")
    note = Para("paragraph", [_line("a The given strain number is a temporary number; a full accession",
                                    60.0, page=2, mark="a")], "a The given strain number is a temporary number")
    assert not continues(prev, note, top=True)
    # the same words without the raised mark would go on (a lowercase opening)
    plain = Para("paragraph", [_line("loci were initially screened in 18 randomly selected", 60.0, page=2)],
                 "loci were initially screened in 18 randomly selected")
    assert continues(prev, plain, top=True)


# ---------------------------------------------------------------------- run-in heads


_BOLD, _BOLD_ITALIC, _REGULAR = ("Myriad-Bold", 20), ("Myriad-BoldIt", 22), ("Minion-Regular", 4)


def _styled(parts: list[tuple[str, tuple[str, int]]]) -> list[dict[str, Any]]:
    spans, x = [], 50.0
    for text, (font, flags) in parts:
        spans.append(_span(text, 10.0, 100.0, x, font, flags))
        x = spans[-1]["bbox"][2]
    return spans


def test_an_italic_word_inside_a_line_set_bold_to_its_end_makes_no_run_in_words() -> None:
    # Mycobiology's "*In-silico* identification of microsatellites and primers." bold whole
    assert run_in_lead(_styled([("In-silico", _BOLD_ITALIC),
                                (" identification of microsatellites and primers.", _BOLD)])) == ""
    # IEEE's bold abstract after its "*Abstract*—": the italic word closed by its dash is the lead
    assert run_in_lead(_styled([("Abstract", _BOLD_ITALIC), ("—The automated recognition of", _BOLD)])) == "Abstract"
    # a species' name in bold italic before bold and plain words: its own words still (a caption's rest)
    assert run_in_lead(_styled([("Rhizoprionodon terraenovae", _BOLD_ITALIC), (" L5242.", _BOLD),
                                (" Consensus band count was 20", _REGULAR)])) == "Rhizoprionodon terraenovae"


def test_mycobiologys_run_in_heads_head_their_paragraphs() -> None:
    chunks = chunks_of(MYCOBIOLOGY)
    for words, head in (("Computational analysis of C. gloeosporioides", "In-silico identification of "
                         "microsatellites and primers"),  # bold whole, an italic word in it
                        ("As a preliminary proof of repeat", "Microsatellite polymorphisms and "
                         "discriminatory power"),  # wrapped onto the second line
                        ("Graphical representation of minimum spanning tree", "High genotypic diversity "
                         "and host specificity in C. gloeosporioides")):  # wrapped after "in C."
        assert holding(chunks, words).provenance.section == f"RESULTS › {head}"


@given(st.lists(st.sampled_from(["Microsatellite", "polymorphisms", "and", "discriminatory", "genotypic",
                                 "diversity", "host"]), min_size=3, max_size=6),
       st.sampled_from(["power.", "stability.", "primers:"]))
def test_a_bold_head_wrapped_at_the_measures_end_runs_in_to_its_seconds_lines_bold_words(
        words: list[str], rest: str) -> None:
    first = " ".join(words).capitalize()  # (a head opens with a capital)
    second = f"{rest} As a preliminary proof of repeat number polymorphism, the PCR"
    third = "products of CG1, CG2, CG3, CG4, and CG5 were resolved on PAGE."
    para = Para("paragraph", [_line(first, 448.0, bold=True, x1=543.0), _line(second, 460.0, x1=543.0, lead=rest),
                              _line(third, 472.0, x1=543.0)], f"{first} {second} {third}")
    run_in_heads([para])
    assert para.runin == f"{first} {rest}".rstrip(".:")
    # a short bold line (a section's name alone) over the next line's bold words: only the name
    name = Para("paragraph", [_line("Acknowledgments", 448.0, bold=True, x1=140.0),
                              _line(f"Funding: {third}", 460.0, x1=543.0, lead="Funding:"),
                              _line(third, 472.0, x1=543.0)], f"Acknowledgments Funding: {third} {third}")
    run_in_heads([name])
    assert name.runin == "Acknowledgments"


def test_science_advances_acknowledgments_stay_one_section() -> None:
    funding = holding(chunks_of(SCIADV), "This work was partially supported by U.S. Department of Energy")
    assert (funding.provenance.section or "").endswith("› Acknowledgments")


# ------------------------------------------------- a first page's section head over its subsection's


BMJOPEN = "bmjopen_covid_cytokines_cohort_excerpt.pdf"


def test_a_first_pages_head_in_capitals_over_its_first_subsections_is_two_heads() -> None:
    # BMJ Open's p. 1: METHODS | Study design and participants, RESULTS | Characteristics of
    # COVID-19 patient cohort, each pair in one face at the body's size (no title's lines)
    chunks = chunks_of(BMJOPEN)
    heads = [c.text for c in chunks if chunk_type(c) == "heading"]
    assert {"METHODS", "Study design and participants", "RESULTS",
            "Characteristics of COVID-19 patient cohort"} <= set(heads)
    # (in one face and size, the two heads stand at one depth, as BMJ Global Health's do)
    assert holding(chunks, "Data were collected at the time of admission.").provenance.section \
        == "Study design and participants"


@given(st.sampled_from(["METHODS", "RESULTS", "DISCUSSION", "BACKGROUND"]),
       st.sampled_from(["Study design and participants", "Statistical analysis", "Data sources"]))
def test_a_title_goes_on_in_its_next_block_but_no_capitals_head_into_a_subheads(caps: str, sub: str) -> None:
    head = Para("heading", [_line(caps, 215.0, x1=80.0, bold=True)], caps, [(1, caps)], None, [1])
    assert not continue_title([head], [_line(sub, 227.0, x1=160.0, bold=True)], sub)
    # a title in capitals broken over two blocks stays one (No Starch's PELLENTESQUE HABITANT | MORBI)
    title = Para("heading", [_line("PELLENTESQUE HABITANT", 131.0, x1=443.0)], "PELLENTESQUE HABITANT",
                 [(1, "PELLENTESQUE HABITANT")], None, [1])
    assert continue_title([title], [_line("MORBI", 144.0, x0=401.0, x1=443.0)], "MORBI")
    assert title.text == "PELLENTESQUE HABITANT MORBI"


# ----------------------------------------------- notes in the body's size, listings, inline code


CIDR = "cidr_2011_bloom_calm_consistency_analysis_excerpt.pdf"
CENSUS = "census_jsm_2016_tax_revenue_pdf_web_scraping_excerpt.pdf"
ASME = "asme_journal_template.pdf"


def test_a_footnote_in_the_bodys_size_opened_by_its_raised_number_floats() -> None:
    # CIDR 2011 sets its notes in the body's 9 pt under a rule: "¹ Formally, …" at the left
    # column's foot, between "… regardless of any read-write dataflow dependencies in the
    # code. As" and "students of the logic programming literature will recognize" atop the next
    chunks = chunks_of(CIDR)
    assert chunk_type(holding(chunks, "Formally, in a monotonic logic program")) == "footnote"
    para = holding(chunks, "in the code. As students of the logic programming literature will recognize")
    assert "Formally" not in para.text and pages_of(para) == [2, 2]


def test_a_listing_set_smaller_atop_the_next_column_takes_no_broken_words_rest() -> None:
    # "… Line 15 in Fig-" ends the left column; the right column opens with Figure 2's 7 pt
    # listing in txfonts' typewriter, then its caption, then "ure 2 defines a collection …"
    chunks = chunks_of(CIDR)
    para = holding(chunks, "Line 15 in Figure 2 defines a collection named send_buf")
    assert chunk_type(para) == "paragraph" and "module DeliveryProtocol" not in para.text
    assert chunk_type(holding(chunks, "module DeliveryProtocol")) == "code"


def test_a_first_pages_unmarked_small_print_at_its_foot_is_front_matter() -> None:
    # the Census Bureau's disclaimer under a short rule at p. 1's foot, in 9 pt italics
    assert chunk_type(holding(chunks_of(CENSUS), "Disclaimer: Any views expressed are those")) == "front"


def test_inline_code_wrapped_over_two_lines_stays_in_its_sentence() -> None:
    # asmejour: "… When the en-" | "tries @article{.., @book{.., …" | "@proceedings{.., or
    # @techreport{.. include doi={..}, the" | "document title, …": one paragraph
    para = holding(chunks_of(ASME), "When the entries @article{.., @book{..")
    assert chunk_type(para) == "paragraph" and "the document title, paper number" in para.text


def test_txfonts_typewriter_faces_are_typewriter_faces() -> None:
    from vaultd.parse.fontnames import is_mono_font

    assert all(is_mono_font(name) for name in ("t1xtt", "t1xbtt", "txtt", "rtxtt", "ABCDEF+t1xtt"))
    assert not any(is_mono_font(name) for name in ("TeXGyreTermesX-Regular", "txsy", "Times-Roman", "t1xr"))


# ------------------------------------------- batch 66: a table's rules, numbered run-in heads


WILEY = "wiley_developmental_science_2026_youth_climate_worry_motivation_excerpt.pdf"
JFM = "cambridge_jfm_2022_faraday_waves_brimful_cylinders_excerpt.pdf"


def test_a_tables_rules_stop_short_of_the_page_text_under_it() -> None:
    # Wiley's Table 2, in the body's 9 pt, ruled over, under its head and at its foot; under
    # it its notes, then the page's two columns of text, then the rule over the running
    # foot: the text had been read as the table's rows (three passages lost)
    chunks = chunks_of(WILEY)
    para = holding(chunks, "We assessed climate-related worry using the 10-item")
    assert chunk_type(para) == "paragraph" and pages_of(para) == [2, 3]
    assert para.text.endswith("with higher scores reflecting more worry about climate change.")
    assert not any(chunk_type(c) == "table" and "Pro-environmental behavior was measured" in c.text for c in chunks)


def test_a_run_in_heads_number_set_apart_is_the_heads() -> None:
    # Wiley's bold "2.2.2.1" | "Climate-Related Worry." | "We assessed …", the number a
    # line of MuPDF's own: the run-in head had been lost with the number read as its words
    chunks = chunks_of(WILEY)
    section = holding(chunks, "Pro-environmental behavior was measured with a single self-report").provenance.section
    assert section == "2 Method › 2.2 Survey Study › 2.2.2 Measures › 2.2.2.2 Pro-Environmental Behavior"


def test_urws_nimbus_roman_medium_is_its_bold() -> None:
    from vaultd.parse.fontnames import is_bold_font, is_italic_font

    assert all(is_bold_font(n) for n in ("NimbusRomNo9-Med", "NimbusRomNo9L-Medi", "NimbusRomNo9-MedIta"))
    assert is_italic_font("NimbusRomNo9-MedIta") and not is_italic_font("NimbusRomNo9-Med")
    assert not any(is_bold_font(n) for n in ("HelveticaNeue-Medium", "Roboto-Medium", "NimbusRomNo9L-Regu"))
    # JFM's section head in NimbusRomNo9-Med over its text in the Regular
    para = holding(chunks_of(JFM), "In this section, the numerical tools presented")
    assert para.provenance.section == "5. Weakly nonlinear model for subharmonic Faraday thresholds with contact angle effects"


def test_a_head_ending_on_an_ellipsis_heads_its_section() -> None:
    # AGU's 11 pt bold "1. A Long Time Ago, in a Galaxy Far, Far Away..." over 9 pt text:
    # read as a sentence's end, it had been a paragraph and the section lost
    chunks = chunks_of("james_agu_2019_simpler_atmospheres_jet_response_excerpt.pdf")
    assert chunk_type(holding(chunks, "A Long Time Ago, in a Galaxy Far, Far Away")) == "heading"
    assert holding(chunks, "Four planets orbit stars just like our own Sun.").provenance.section \
        == "1. A Long Time Ago, in a Galaxy Far, Far Away..."
