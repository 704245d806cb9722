"""Layout 49 (issue 34): a Word bullet the font maps to a private-use code opens a list's
item; a first page's number set over its proceedings' imprint, where the other pages set
theirs, is a page number; a sentence goes on past a displayed formula into a bracket
opening its rest; a line opened by a dash under a paragraph's full last line goes on its
sentence; SISSA's ``ArXiv ePrint:`` line and Medknow's ``Access this article online``
box are front matter. On real pages (batch 80, out of sample), with property tests of the
pure rules."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding

from vaultd.parse.classify import classify
from vaultd.parse.front import opens_front

ACL = "acl_conll_2005_statistical_semantic_parser_excerpt.pdf"
THESAI = "thesai_ijacsa_2023_movenet_physical_bullying_detection_excerpt.pdf"
JHEP = "springer_jhep_2019_quantum_curves_symmetry_breaking_excerpt.pdf"
OJS = "ojs_revista_direito_vicosa_2025_cancun_safeguards_compliance_excerpt.pdf"
MEDKNOW = "medknow_chin_med_j_2017_small_fiber_neuropathy_excerpt.pdf"


@given(st.sampled_from(["\uf0b7", "\uf0a7", "\uf0d8", "\uf076", "\uf0fc", "\uf06e"]),
       st.sampled_from(["video in.mov format: 44 files;", "blade design optimization,",
                        "Data integrity attacks have compromised corporate information."]))
def test_a_symbol_fonts_bullet_read_as_a_private_use_code_opens_an_item(bullet: str, item: str) -> None:
    assert classify(f"{bullet} {item}", 10.0, False, 1, 10.0, True)[0] == "list"


@given(st.sampled_from(["\ue000", "\uf8ff", "\uf041"]))
def test_another_private_use_code_opens_no_item(code: str) -> None:
    # an icon font's glyph before a heading or a word is no bullet
    assert classify(f"{code} What happened in 2015 in the project", 10.0, False, 1, 10.0, True)[0] != "list"


def test_word_bullets_in_a_private_use_code_are_list_items() -> None:
    item = holding(chunks_of(THESAI), "video in.mov format: 44 files;")
    assert chunk_type(item) == "list"
    assert "wmv" not in item.text  # each item its own


def test_a_first_pages_number_over_its_imprint_is_furniture_and_the_sentence_goes_on() -> None:
    # p. 1: ``… a coaching language for`` | ``9`` (over the CoNLL imprint) | ``robotic soccer …``
    chunks = chunks_of(ACL)
    para = holding(chunks, "The second MRL is a coaching language for")
    assert "language for robotic soccer developed for the RoboCup Coach Competition" in para.text
    assert not any(c.text.strip() == "9" for c in chunks)


def test_a_sentence_goes_on_past_a_display_into_a_bracket() -> None:
    para = holding(chunks_of(JHEP), "as long as the levels")
    assert "(with the cyclic identification" in para.text


@given(st.sampled_from(["ArXiv ePrint: 1811.06048", "arXiv ePrint: 2101.00001", "Access this article online",
                        "Website: www.cmj.org", "Quick Response Code:",
                        "Address for correspondence: Dr. Xu-Sheng Huang, Department of Neurology"]))
def test_sissa_and_medknow_labels_open_front_matter(text: str) -> None:
    assert opens_front(text)


def test_sissas_eprint_line_is_no_paragraphs_head() -> None:
    chunks = chunks_of(JHEP)
    assert chunk_type(holding(chunks, "ArXiv ePrint: 1811.06048")) == "front"
    assert not holding(chunks, "structure of the correspondence is much clearer").text.startswith("ArXiv")


def test_medknows_access_box_is_front_matter() -> None:
    chunks = chunks_of(MEDKNOW)
    assert chunk_type(holding(chunks, "Access this article online")) == "front"
    assert chunk_type(holding(chunks, "Address for correspondence")) == "front"


def test_a_dash_line_under_a_full_line_goes_on_its_sentence() -> None:
    para = holding(chunks_of(OJS), "A pauta ambiental climática sediou em 1992")
    assert para.text.rstrip().endswith("emissões de GEE – compliance ambiental.")
