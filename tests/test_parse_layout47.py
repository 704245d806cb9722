"""Layout 47 (issue 34): a licence whose copyright mark the text layer maps to another
glyph (``& 2016 The Authors.``) is still a licence; a section's first subsection's head,
the one head of its style in an excerpt, right under the section's heading, is a head.
On real pages (batch 77, out of sample), with property tests of the pure rule."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding

from vaultd.parse.licences import is_licence

RS = "royalsociety_phil_trans_b_2016_fossil_biogeography_des_model_excerpt.pdf"
MBE = "oup2016_mbe_siberian_admixture_history_excerpt.pdf"


@given(st.sampled_from(["&", "ß", "Ó", ""]), st.integers(1990, 2030),
       st.sampled_from(["the Royal Society", "Informa UK Limited", "SAGE Publications"]))
def test_a_licence_after_a_copyright_mark_read_as_another_glyph_is_a_licence(
        mark: str, year: int, publisher: str) -> None:
    text = (f"{mark} {year} The Authors. Published by {publisher} under the terms of the Creative Commons "
            "Attribution License http://creativecommons.org/licenses/by/4.0/, which permits unrestricted use.")
    assert is_licence(text.strip())


@given(st.sampled_from(["Smith & Jones (2016) showed", "Results & Discussion of", "R&D budgets in 2016 rose"]))
def test_an_ampersand_in_prose_opens_no_licence(opening: str) -> None:
    assert not is_licence(f"{opening} the authors' claims about licences and their terms.")


def test_the_royal_societys_licence_box_is_front_matter() -> None:
    box = holding(chunks_of(RS), "Published by the Royal Society under the terms of the Creative Commons")
    assert chunk_type(box) == "front"


def test_a_sections_first_subsection_head_alone_in_its_style_heads_its_text() -> None:
    # MBE p. 3: 13 pt "Results and Discussion" over 11.5 pt "The Structure of Genetic
    # Variation in Siberia" over the 9.5 pt text; the excerpt holds no other head in 11.5 pt
    para = holding(chunks_of(MBE), "To understand the general patterns of relatedness between the samples")
    assert para.provenance.section == "Results and Discussion › The Structure of Genetic Variation in Siberia"
    assert not para.text.startswith("The Structure of Genetic")
