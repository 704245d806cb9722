"""Layout 48 (issue 34): a copyright mark the text layer maps to ``&`` before a year opens a
copyright line or licence with the publisher's sentence after it (Elsevier's ``& 2018 The
Authors. Published by Elsevier Inc. This is an open`` | ``access article under the CC BY
license (…)``, broken over two blocks at a line's end); a numbered head centred a little
off its text's centre is a head (*German History*'s ``I. A New Framework …``); an
appendix's subsection numbered on from its letter in the body's face is a head (*EPJ C*'s
``A.1 Monte Carlo programs and settings``); a Word footnote in the body's size opened by a
small raised mark is a footnote, though MuPDF sets the space after the mark on the mark's
baseline (an EU project's framework document); a display title set 2.5 times the body's
size is a head however many lines it wraps over (a command paper's cover); SCOAP3's
funding line under an HEP article's licence and the EU's reuse notice are licences; a
section's head between a table's foot rule and a shaded box under it ends the table's
stack of rules. On real pages (batches 78 and 79, out of sample), with property tests of
the pure rules."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding

from vaultd.parse.classify import classify
from vaultd.parse.licences import is_licence
from vaultd.parse.numbered_subheads import _goes_on
from vaultd.parse.spans import lead_mark

DIB = "dib_hotel_booking_demand_datasets_excerpt.pdf"
GH = "oup_german_history_2021_gdr_political_taboos_excerpt.pdf"
EPJC = "springer_epjc_2019_atlas_general_search_strategy_excerpt.pdf"
EDISON = "eu_h2020_edison_2017_data_science_body_of_knowledge_excerpt.pdf"
UKGOV = "ukgov_dsit_command_paper_2026_space_economy_response_excerpt.pdf"
PTEP = "oup_ptep_2022_kbc_algebra_string_field_solutions_excerpt.pdf"
JRC = "jrc_technical_report_2023_energy_savings_home_work_excerpt.pdf"


@given(st.sampled_from(["&", "ß", "Ó", "©"]), st.integers(1990, 2030),
       st.sampled_from(["Elsevier Inc.", "Elsevier B.V.", "Elsevier Ltd."]))
def test_a_mapped_copyright_mark_before_a_year_opens_the_publishers_licence(mark: str, year: int,
                                                                            publisher: str) -> None:
    assert is_licence(f"{mark} {year} The Authors. Published by {publisher} This is an open access article "
                      "under the CC BY license (http://creativecommons.org/licenses/by/4.0/).")
    assert is_licence(f"{mark} {year} The Authors. Published by {publisher} This is an open")
    assert is_licence(f"{mark} {year} {publisher} All rights reserved.")


@given(st.sampled_from(["Smith & Jones", "R&D", "& 12 more", "& 2018 we saw that this", "Q&A"]))
def test_an_ampersand_without_a_year_after_it_opens_no_licence(opening: str) -> None:
    assert not is_licence(f"{opening} and the authors found that this is an open question for the field.")


def test_a_licence_statements_rest_on_its_own_line_is_no_sentence_of_the_text() -> None:
    assert is_licence("access article under the CC BY license (http://creativecommons.org/licenses/by/4.0/).")
    assert not is_licence("access to the article under review was granted by the CC board.")


def test_elseviers_licence_broken_over_two_blocks_is_front_matter() -> None:
    chunks = chunks_of(DIB)
    assert chunk_type(holding(chunks, "2018 The Authors. Published by Elsevier Inc.")) == "front"
    assert chunk_type(holding(chunks, "access article under the CC BY license")) == "front"


def test_centred_roman_numbered_heads_in_a_face_of_their_own_head_their_sections() -> None:
    # pp. 3, 5, 6: Frutiger 10 pt ``I.`` + en space + title, centred about 6 pt left of the
    # Baskerville 9.8 pt text's centre, over the section's first paragraph
    chunks = chunks_of(GH)
    for head, text in (("I. A New Framework for the Study of Political Taboos",
                        "I am not the first to encounter the complex reality of political taboos"),
                       ("IV. Temporality: The Performed Taboo", "Taboos are deliberately created and perpetuated"),
                       ("V. The Perceived Taboo", "Meticulous research can spot the details")):
        para = holding(chunks, text)
        assert chunk_type(para) == "paragraph"
        assert para.provenance.section == head
        assert not any(c.text.startswith(head) and chunk_type(c) == "paragraph" for c in chunks)


def test_a_display_formula_centred_off_its_texts_centre_heads_nothing() -> None:
    # the looser centring is a numbered head's alone: pandoc's centred formulas stay text
    chunks = chunks_of("pandoc_unitn_2020_music_esprit_harmonic_estimation_excerpt.pdf")
    assert not any(chunk_type(c) == "heading" and "𝑑𝑖𝑎𝑔" in c.text for c in chunks)


def test_an_appendix_subsection_numbered_on_from_its_letter_heads_its_text() -> None:
    para = holding(chunks_of(EPJC), "Samples of multijet production were simulated")
    assert para.provenance.section == "A Details of the Monte Carlo samples › A.1 Monte Carlo programs and settings"


@given(st.sampled_from("ABCDEFGH"), st.integers(1, 9))
def test_an_appendix_letters_subsections_go_on_from_it(letter: str, n: int) -> None:
    assert _goes_on(letter, f"{letter}.1")
    assert _goes_on(f"{letter}.{n}", f"{letter}.{n + 1}")
    assert _goes_on(f"{letter}.{n}", f"{letter}.{n}.1")
    assert not _goes_on(letter, f"{letter}.2")
    assert not _goes_on(f"{letter}.{n}", f"{chr(ord(letter) + 1)}.{n + 1}")
    assert not _goes_on(str(n), f"{letter}.1")  # a letter never follows a number's section


def _span(text: str, size: float, origin_y: float, top: float, bottom: float, x: float = 70.0) -> dict[str, object]:
    return {"text": text, "size": size, "origin": (x, origin_y), "bbox": (x, top, x + 5 * len(text), bottom),
            "ascender": 0.75, "descender": -0.25}


@given(st.floats(8.0, 14.0), st.floats(0.3, 0.45), st.sampled_from(["Such", "ISO/IEC", "The", "NASA's"]))
def test_a_raised_marks_note_opens_with_it_whatever_baseline_the_space_after_it_carries(
        size: float, rise: float, word: str) -> None:
    base = 750.0
    mark = _span("1", 0.65 * size, base - rise * size, base - rise * size - 0.75 * 0.65 * size,
                 base - rise * size + 0.25 * 0.65 * size)
    # the word's span opens with a space MuPDF put on the mark's baseline: its origin is the
    # mark's, its box reaches from that space's top to the word's descenders
    rest = _span(f" {word} assumption has been confirmed", size, mark["origin"][1],  # type: ignore[index]
                 base - rise * size - 0.75 * size, base + 0.25 * size, x=74.0)
    assert lead_mark([mark, rest], size) == "1"


@given(st.floats(8.0, 14.0), st.sampled_from([" H NMR spectra were", " C labelled", "H NMR", " N isotopes"]))
def test_a_mass_number_or_a_mark_on_the_baseline_opens_no_note(size: float, rest_text: str) -> None:
    base = 750.0
    raised = _span("13", 0.65 * size, base - 0.35 * size, base - 0.35 * size - 0.49 * size, base - 0.35 * size + 0.16 * size)
    isotope = _span(rest_text, size, base, base - 0.75 * size, base + 0.25 * size, x=80.0)
    assert lead_mark([raised, isotope], size) == ""  # an element's one-letter symbol
    flat = _span("1", 0.65 * size, base, base - 0.49 * size, base + 0.16 * size)
    word = _span(" Such words", size, base, base - 0.75 * size, base + 0.25 * size, x=74.0)
    assert lead_mark([flat, word], size) == ""  # set small on the baseline: no raised mark


def test_a_word_reports_footnotes_in_the_body_size_are_notes_the_paragraph_goes_on_past() -> None:
    chunks = chunks_of(EDISON)
    for note in ("Such assumption has been also confirmed by user experience",
                 "ISO/IEC TR 19759:2015 Software Engineering - Guide"):
        assert chunk_type(holding(chunks, note)) != "paragraph"
    para = holding(chunks, "Knowledge areas should not directly match a particular course")
    assert "Tier 2 topics are defined differently for different programmes and specialisations." in para.text


@given(st.integers(3, 8), st.floats(2.5, 4.0))
def test_a_display_title_wrapped_over_many_lines_is_a_head(n_lines: int, times: float) -> None:
    title = "Government response to the House of Lords UK Engagement with Space Committee report"
    assert classify(title, 12.0 * times, False, n_lines, 12.0, True)[0] == "heading"


@given(st.integers(5, 8))
def test_text_set_a_little_larger_over_many_lines_stays_text(n_lines: int) -> None:
    # a pull quote or a slide's text set 1.5 to 2 times the body over five lines or more:
    # no display title (up to four lines, a head set 1.4 times the body, as before)
    title = "Government response to the House of Lords UK Engagement with Space Committee report"
    assert classify(title, 20.0, False, n_lines, 12.0, True)[0] == "paragraph"
    # and a sentence of prose set large, longer than a title's words, stays text
    prose = ("The committee heard evidence from many witnesses over the year and concluded that the "
             "government should act now on the space economy or lose its lead in the sector for good")
    assert classify(prose, 36.0, False, n_lines, 12.0, True)[0] == "paragraph"


def test_a_covers_display_title_heads_it_and_its_paper_number_is_front_matter() -> None:
    chunks = chunks_of(UKGOV)
    assert chunk_type(holding(chunks, "CP 1478")) == "front"


@given(st.sampled_from(["Funded by SCOAP3.", "Funded by SCOAP3 . SCOAP3 and OUP support the goals of the "
                        "International Year of Basic Sciences for Sustainable Development", "Funded by SCOAP 3"]))
def test_scoap3s_funding_line_is_the_licences(line: str) -> None:
    assert is_licence(line)


def test_the_funding_line_under_ptep_s_licence_is_front_matter() -> None:
    chunks = chunks_of(PTEP)
    assert chunk_type(holding(chunks, "SCOAP3 and OUP support the goals")) == "front"


def test_the_eus_reuse_notice_is_a_licence() -> None:
    assert is_licence("The reuse policy of the European Commission is implemented by Commission Decision "
                      "2011/833/EU of 12 December 2011 on the reuse of Commission documents (OJ L 330, "
                      "14.12.2011, p. 39). Unless otherwise noted, the reuse of this document is authorised "
                      "under the Creative Commons Attribution 4.0 International (CC BY 4.0) licence.")
    assert is_licence("Unless otherwise noted, the reuse of this document is authorised under the CC BY 4.0 licence.")
    assert not is_licence("The reuse policy of the library was changed in 2011 after the review of its documents.")


def test_a_section_head_under_a_tables_foot_rule_ends_the_table() -> None:
    # p. 5: Table 1 (booktabs), its Takeaways list, ``3 Saving energy at work`` and a
    # shaded Key Points box whose edges had stacked on Table 1's rules
    chunks = chunks_of(JRC)
    table = next(c for c in chunks if chunk_type(c) == "table" and "Information nudges" in c.text)
    assert "Saving energy at work" not in table.text and "Encouraging energy savings" not in table.text
    para = holding(chunks, "One possible solution is to offer rewards when staff achieves")
    assert para.provenance.section.startswith("3 Saving energy at work")
    assert chunk_type(holding(chunks, "The reuse policy of the European Commission")) == "front"
