"""Layout 24 (issue 34, batch 8 of eval/quotes: real published articles), on real pages:
licence statements and affiliations are front matter wherever they stand, notes over a
smaller footer are footnotes, a table's rows end where its notes begin, reference lists
numbered ``(1)`` are split at their numbers, a paragraph goes on past PeerJ's sidebar."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding

from vaultd.parse.front import is_affiliation, is_front_matter
from vaultd.parse.hyphens import hyphen_evidence
from vaultd.parse.layout import join_lines
from vaultd.parse.licences import is_licence
from vaultd.parse.open_tables import rule_stacks
from vaultd.parse.paras import Line


def test_a_licence_at_the_articles_end_and_the_affiliations_are_front_matter() -> None:
    chunks = chunks_of("scireports_ion_crystal_micromotion.pdf")
    licence = holding(chunks, "This work is licensed under a Creative Commons Attribution 4.0")
    assert licence.provenance.page == 5 and chunk_type(licence) == "front"
    affiliations = holding(chunks, "Department of Physics, University of Michigan")
    assert chunk_type(affiliations) == "front"
    # the sidebar's correspondence note no longer runs on into the body text
    note = holding(chunks, "Correspondence and requests for materials")
    assert chunk_type(note) == "front" and "high-fidelity quantum gates" not in note.text


def test_a_book_reviews_notes_over_its_licence_footer_are_footnotes() -> None:
    # Aestimatio: two notes in 9 pt at p. 1's foot, then an 8 pt copyright and CC BY-NC-ND footer
    chunks = chunks_of("bookreview_aestimatio_alchemy.pdf")
    author = holding(chunks, "Gabriele Ferrario is a research associate")
    quote = holding(chunks, "Practitioners of alchemy should know")
    assert chunk_type(author) == "footnote" and chunk_type(quote) == "footnote"
    assert author.text.endswith("Judaeo­Arabic manuscripts.") or "manuscripts." in author.text
    assert "works on a project on alchemy" in author.text  # its next lines, a block of their own
    assert chunk_type(holding(chunks, "This open access publication is distributed")) == "front"
    assert chunk_type(holding(chunks, "University of Bologna")) == "front"


def test_a_paragraph_goes_on_past_peerjs_sidebar_and_citation_footer() -> None:
    chunks = chunks_of("peerj_cs_vespa_selective_pressure_article.pdf")
    para = holding(chunks, "Estimating selective pressure variation across homologous")
    assert "is part of the PAML package" in para.text and chunk_type(para) == "paragraph"
    assert [r[0] for r in para.provenance.regions or []] == [1, 2]
    for words in ("How to cite this article", "Distributed under Creative Commons CC-BY 4.0",
                  "Additional Information and Declarations can be found", "OPEN ACCESS"):
        assert chunk_type(holding(chunks, words)) == "front", words


def test_a_tables_rows_end_where_its_notes_begin_and_the_paragraph_goes_on_past_it() -> None:
    # Clinical Science Table 2: its bottom rule is drawn under its notes (∗Rsymm …)
    chunks = chunks_of("portland_clinsci_ace_inhibitor_article.pdf")
    row = holding(chunks, "Total/unique reflections")
    assert chunk_type(row) == "table" and "Completeness" in row.text and "Rsymm =" not in row.text
    para = holding(chunks, "The SHOP modelling procedure yielded a list of fragments.")
    assert "selected for synthesis and inhibition analysis given the prominence of the P2" in para.text
    assert [r[0] for r in para.provenance.regions or []] == [3, 3]


def test_a_reference_list_numbered_in_brackets_is_split_at_its_numbers() -> None:
    # ChemRxiv (ACS template): (1) … (10), MuPDF's blocks cutting across the entries;
    # notes (8) and (9) are sentences, no references
    chunks = chunks_of("chemrxiv_peterson_olefination_preprint.pdf")
    refs = [c for c in chunks if chunk_type(c) == "reference"]
    assert [c.text[:4] for c in refs] == ["(1) ", "(2) ", "(3) ", "(4) ", "(5) ", "(6) ", "(7) ", "(10)"]
    assert refs[3].text.endswith("Synlett 2021, 32, 14–22.")
    note = holding(chunks, "The 3E/3Z ratios were determined by 1H NMR analysis")
    assert chunk_type(note) == "paragraph" and note.text.startswith("(8) ")
    assert chunk_type(holding(chunks, "5ik decomposed during column chromatography")) == "paragraph"


def test_a_web_prints_article_banner_is_front_matter() -> None:
    chunks = chunks_of("webprint_hindawi_patch_antenna_article.pdf")
    assert chunk_type(holding(chunks, "Volume 2014 (2014), Article ID 791521")) == "front"


@given(st.lists(st.sampled_from(["results", "show", "that", "we", "measured", "were", "found", "by"]),
                min_size=4, max_size=12))
def test_prose_about_a_university_is_no_affiliation(words: list[str]) -> None:
    assert not is_affiliation("University of Michigan " + " ".join(words) + ".")


@given(st.lists(st.sampled_from(["Department of Physics", "University of Leeds", "Ann Arbor", "Michigan 48109",
                                 "USA", "School of Biology", "Beijing 100084", "China"]), min_size=1, max_size=6))
def test_an_institution_and_its_address_is_an_affiliation(parts: list[str]) -> None:
    assert is_affiliation("1 Department of Chemistry, " + ", ".join(parts))


def test_licence_statements_and_what_is_not_one() -> None:
    assert is_licence("© 2014 Dominika Tkaczyk. This document is distributed under the Creative Commons "
                      "Attribution 3.0 license.")
    assert is_licence("Distributed under Creative Commons CC-BY 4.0")
    assert not is_licence("We distributed the survey under the terms agreed with the clinics.")
    assert is_front_matter("Subjects Bioinformatics, Computational Biology", at_edge=False)
    assert not is_front_matter("Subjects were recruited from two clinics.", at_edge=False)


def test_a_document_that_draws_its_hyphens_as_soft_hyphens_keeps_them() -> None:
    # Aestimatio's text layer writes the hyphens it draws as U+00AD (``pseudo\xadAvicenne``)
    chunks = chunks_of("bookreview_aestimatio_alchemy.pdf")
    assert any("du pseudo-Avicenne by Sébastien Moureau" in c.text for c in chunks)
    assert any("Arabo-Islamic world" in c.text for c in chunks)


def test_soft_hyphens_no_page_draws_still_go() -> None:
    lines = ["Mixed-\u00adeffect models of the data set were fitted per par\u00ad", "ticipant group."]
    with hyphen_evidence(lines):
        assert join_lines(lines) == "Mixed-effect models of the data set were fitted per participant group."
    drawn = ["the pseudo\u00adAvicennian and Arabo\u00adIslamic", "treatises"]
    with hyphen_evidence(drawn):
        assert join_lines(drawn) == "the pseudo-Avicennian and Arabo-Islamic treatises"


def _line(text: str, top: float, size: float) -> Line:
    return Line(text=text, bbox=(309.0, top, 537.0, top + size), size=size, bold=False, block=1, page=3)


def test_a_table_ruled_off_under_its_notes_ends_at_its_last_row() -> None:
    # Clinical Science's Table 2, as its rules and lines stand: caption, a rule over the
    # header, one under it, 24 rows of 7.5 pt, 6 pt notes, and the bottom rule 327 pt down
    caption = _line("Table 2 Crystallographic statistics of N-ACE–33RE complex", 84.0, 7.5)
    rules = [(104.6, 308.0, 538.0), (119.4, 309.4, 536.5), (446.7, 308.0, 538.0)]
    rows = [_line(f"Protein atom group {n} (chain A/B) 26.{n}/30.3", 121.0 + 11.5 * n, 7.5) for n in range(24)]
    notes = [_line("∗Rsymm = Σh Σi[|Ii(h)–<I(h)>|/Σh Σi Ii(h)], where Ii is the ith", 405.0, 6.0),
             _line("is the weighted mean of all the measurements of the reflection", 414.0, 6.0),
             _line("†Rcryst is computed over the observed and calculated amplitudes", 423.0, 6.0)]
    (box,) = rule_stacks(rules, caption, [], 48.0, [*rows, *notes])
    assert box[1] == 104.6 and rows[-1].bbox[3] <= box[3] < notes[0].bbox[1]
    # notes in the rows' own size are no notes: the rules' stack stops at the header
    same = [_line(ln.text, ln.bbox[1], 7.5) for ln in notes]
    assert rule_stacks(rules, caption, [], 48.0, [*rows, *same]) == [(308.0, 104.6, 538.0, 119.4)]
