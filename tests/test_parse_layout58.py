"""Layout 58 (issue 34): a Nature journal's ``Methods`` set after the main text's
references, in their heading's style, ends the bibliography (*Nature Nanotechnology*
2024, whose Methods had read as reference entries); the publisher's boilerplate set after
the entries (``Publisher's note …``) is front matter; a sentence ended on a ragged
column's full last line goes on atop the next page where the measure widens past the
first pages' side column, and a side column's list left open on a comma goes on in a
capital atop the next page (PLOS 2025). On real pages (batch 89, out of sample, and an
earlier paper)."""

from __future__ import annotations

from quote_pages import chunk_type, chunks_of, holding

NANOTECH = "springernature_nature_nanotech_2024_vesicle_protein_corona_excerpt.pdf"


def test_methods_after_the_references_are_the_papers_text() -> None:
    chunks = chunks_of(NANOTECH)
    para = holding(chunks, "All animal experiments were performed in compliance with the UK Animals")
    assert chunk_type(para) == "paragraph"
    assert para.provenance.section is not None and "References" not in para.provenance.section
    assert para.provenance.section.endswith("Animals")
    # the entries before the Methods stay the bibliography's
    assert chunk_type(holding(chunks, "Simon, J. et al. Protein denaturation caused by heat")) == "reference"


def test_the_publishers_note_after_the_entries_is_front_matter() -> None:
    assert chunk_type(holding(chunks_of(NANOTECH), "Springer Nature remains neutral")) == "front"
    frontiers = chunks_of("frontiers_pubhealth_2022_smartphone_vision_loss_case_report.pdf")
    assert chunk_type(holding(frontiers, "All claims expressed in this article are solely those")) == "front"



PLOS = "plos_ntd_2025_dengue_temperature_imported_cases_excerpt.pdf"


def test_a_paragraph_goes_on_where_the_next_page_widens_past_the_side_column() -> None:
    para = holding(chunks_of(PLOS), "and local intervention measures.")
    assert "The results showed that imported dengue cases, mosquito density" in para.text


def test_a_side_columns_list_left_open_goes_on_in_a_capital_overleaf() -> None:
    chunks = chunks_of(PLOS)
    funding = holding(chunks, "Fundamental Research Funds for the Central Universities")
    assert chunk_type(funding) == "front" and funding.text.startswith("Funding:")
    # the body's text beside it on p. 2 stays the paper's
    assert chunk_type(holding(chunks, "Dengue is one of the most common mosquito-borne")) == "paragraph"
