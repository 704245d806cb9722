"""Layout 57 (issue 34): two words or more set bold at a paragraph's start, closed by the
sentence opening after them, are a run-in heading (*Diabetologia*'s **Western blotting**,
closed by an en space the text layer reads as a plain space); two italic words so set are
not (a species' name). On real pages (batch 86, and earlier papers' back matter), with
property tests of the rule."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunks_of, holding

from vaultd.parse.paras import Line, Para
from vaultd.parse.run_in import run_in_heads

DIABETOLOGIA = "springer_diabetologia_2024_kcnj11_loss_of_function_diabetes_excerpt.pdf"


def _section(name: str, words: str) -> str:
    section = holding(chunks_of(name), words).provenance.section
    assert section is not None
    return section


def test_bold_words_closed_by_the_sentence_after_them_head_their_paragraph() -> None:
    assert _section(DIABETOLOGIA, "Western blotting was performed on total protein").endswith("Western blotting")
    assert _section(DIABETOLOGIA, "was measured based on their ability to chaperone").endswith("Surface expression")
    # a Nature Portfolio paper's back matter, an earlier paper of the set
    assert _section("npj_amr_2025_aspergillus_mitogenomes_azole_resistance_excerpt.pdf",
                    "The online version contains supplementary material").endswith("Supplementary information")


def _para(lead: str, rest: str, bold: bool) -> Para:
    text = f"{lead} {rest}"
    line = Line(text, (50.0, 100.0, 290.0, 110.0), 10.0, False, 1, 1, mixed=True, lead=lead, lead_bold=bold)
    return Para("paragraph", [line], text, [(1, text)], None, [1])


_LEADS = st.sampled_from(["Western blotting", "Surface expression", "Clinical history", "Escherichia coli"])
_RESTS = st.sampled_from(["Western blotting was performed on total protein.", "A previously healthy woman was seen.",
                          "Strains were grown overnight at room temperature."])


@given(_LEADS, _RESTS)
def test_two_bold_words_before_a_sentence_are_a_run_in_head(lead: str, rest: str) -> None:
    para = _para(lead, rest, bold=True)
    run_in_heads([para])
    assert para.runin == lead


@given(_LEADS, _RESTS)
def test_two_italic_words_before_a_sentence_are_none(lead: str, rest: str) -> None:
    para = _para(lead, rest, bold=False)  # (a species' name set italic opens many a sentence)
    run_in_heads([para])
    assert para.runin is None
