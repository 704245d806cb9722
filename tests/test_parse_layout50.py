"""Layout 50 (issue 34): a first page's note left open at one column's foot goes on at the
next column's foot, level with it, in its print: that rest is front matter too (a bioRxiv
preprint's ``Abbreviations used: … 3D structure:`` | ``coordinates of atoms in a protein
structure; APC, …``). On a real page (batch 81, out of sample)."""

from __future__ import annotations

from quote_pages import chunk_type, chunks_of, holding

BIORXIV = "biorxiv2021_protein_language_model_embeddings_two_column_excerpt.pdf"


def test_a_first_page_notes_rest_at_the_next_columns_foot_is_front_matter() -> None:
    chunks = chunks_of(BIORXIV)
    assert chunk_type(holding(chunks, "Abbreviations used:")) == "front"
    rest = holding(chunks, "CASP, Critical Assessment of protein Structure Prediction")
    assert chunk_type(rest) == "front"
    # the right column's text over it stays the paper's
    assert chunk_type(holding(chunks, "Protein structure prediction problem solved.")) == "paragraph"


def test_a_body_paragraph_at_a_columns_foot_stays_text() -> None:
    # the rule takes small print level with another column's notes only: the French OLH
    # article's body paragraphs over its footnotes keep their type
    chunks = chunks_of("olh2018_le_foucaldien_sujet_neoliberalisme_excerpt.pdf")
    assert any(chunk_type(c) == "paragraph" for c in chunks)
    assert not any(chunk_type(c) == "front" and len(c.text) > 400 for c in chunks)
