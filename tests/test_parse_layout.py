"""Layout repairs: the documented normalisation between the PDF text layer and a quote."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from vaultd.parse.layout import (
    CONTROL_RE,
    combine_accents,
    fix_ligatures,
    join_lines,
    repair_chars,
    t1_ligatures,
)


def test_line_break_hyphen_inside_a_word_is_removed() -> None:
    assert join_lines(["a good exam-", "ple of it"]) == "a good example of it"


def test_hyphen_of_real_compounds_is_kept() -> None:
    assert join_lines(["state-of-the-", "art results"]) == "state-of-the-art results"
    assert join_lines(["uses self-", "attention"]) == "uses self-attention"
    assert join_lines(["the Hodgkin-", "Huxley model"]) == "the Hodgkin-Huxley model"
    assert join_lines(["COVID-19-", "related"]) == "COVID-19-related"
    assert join_lines(["in 2019-", "2020"]) == "in 2019-2020"


def test_hyphen_before_a_line_that_goes_on_with_a_hyphenated_compound_is_kept() -> None:
    assert join_lines(["outperform the state-", "of-the-art on tasks"]) == "outperform the state-of-the-art on tasks"
    assert join_lines(["an end-", "to-end model"]) == "an end-to-end model"


def test_lines_of_a_paragraph_are_joined_with_one_space() -> None:
    assert join_lines(["one line  ", "  two line", "three"]) == "one line two line three"


def test_ligature_code_points_become_letters() -> None:
    assert fix_ligatures("\ufb01nd \ufb02ow e\ufb00ect o\ufb03ce ba\ufb04e") == "find flow effect office baffle"


def test_spacing_accent_stored_before_its_letter_is_combined() -> None:
    assert combine_accents("Par´e") == "Paré"
    assert repair_chars("F´ısica Lemaˆıtre") == "Física Lemaître"
    assert repair_chars("Fı\u0301sica") == "Física"


_word = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFG0123456789.,", min_size=1, max_size=12)


@given(st.lists(st.lists(_word, min_size=1, max_size=6), min_size=1, max_size=8))
def test_lines_without_hyphens_join_to_the_words_separated_by_spaces(lines: list[list[str]]) -> None:
    text = [" ".join(words) for words in lines]
    assert join_lines(text) == " ".join(w for words in lines for w in words)


@given(st.lists(_word, min_size=2, max_size=10))
def test_hyphen_joins_only_ever_drop_the_hyphen_itself(words: list[str]) -> None:
    lines = [w + "-" for w in words[:-1]] + [words[-1]]
    joined = join_lines(lines)
    assert joined.replace("-", "") == "".join(words)
    assert " " not in joined


def test_unmapped_glyph_codes_become_the_replacement_character() -> None:
    # poppler passes an unmapped glyph's code through (here 0x8d); PyMuPDF writes U+FFFD
    assert join_lines(["LSTM.gk I lmk\x8d; h"]) == "LSTM.gk I lmk\ufffd; h"
    assert join_lines(["a\tb"]) == "a\tb"  # tabs are layout whitespace, not glyphs


def test_ascii_lines_still_get_grave_accents_and_control_codes_repaired() -> None:
    assert repair_chars("Caf`e") == "Caf\u00e8"  # the one spacing accent inside ASCII
    assert repair_chars("a\x01b\x7f") == "a\ufffdb\ufffd"
    assert repair_chars("a plain line (1-2), x = y.") == "a plain line (1-2), x = y."


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_the_ascii_shortcut_gives_what_every_repair_pass_gives(text: str) -> None:
    # repair_chars returns a printable ASCII line without a grave accent untouched
    full = combine_accents(t1_ligatures(fix_ligatures(text)))
    assert repair_chars(text) == CONTROL_RE.sub("\ufffd", full)


def test_the_documents_own_spelling_decides_a_line_end_hyphen() -> None:
    from vaultd.parse.hyphens import hyphen_evidence

    doc = ["We train Citation-informed Transformers on SciBERT vectors.",
           "The model is a Citation-",
           "informed encoder, unlike SciB-",
           "ERT, and works at the document-",
           "level; documentlevel scores and document-level ones agree."]
    with hyphen_evidence(doc):
        assert join_lines(doc[1:3]) == "The model is a Citation-informed encoder, unlike SciB-"
        assert join_lines(["unlike SciB-", "ERT, and"]) == "unlike SciBERT, and"  # written whole
        # as often hyphenated as whole: the hyphen stays
        assert join_lines(["at the document-", "level; x"]) == "at the document-level; x"
    # no evidence: the heuristic of rule 2 as before
    assert join_lines(["a Citation-", "informed encoder"]) == "a Citationinformed encoder"


def test_a_hyphen_inside_an_address_or_a_number_range_is_never_dropped() -> None:
    from vaultd.parse.hyphens import hyphen_evidence

    lines = ["Correspondence: alireza.gharabaghi@uni-", "tuebingen.de, see https://github.com/allenai/science-",
             "parse and pages 3-", "5 of the unituebingen report"]
    with hyphen_evidence([*lines, "sciencepage 35 scienceparse"]):
        assert join_lines(lines[:2]).startswith("Correspondence: alireza.gharabaghi@uni-tuebingen.de,")
        assert join_lines(lines[1:3]).endswith("allenai/science-parse and pages 3-")
        assert join_lines(lines[2:]) == "parse and pages 3-5 of the unituebingen report"


@given(st.lists(st.from_regex(r"[a-z]{2,8}", fullmatch=True), min_size=2, max_size=12))
def test_evidence_only_ever_keeps_or_drops_the_hyphen(words: list[str]) -> None:
    from vaultd.parse.hyphens import hyphen_evidence

    head, tail = words[0], words[1]
    with hyphen_evidence([" ".join(words[2:]), f"{head}{tail} {head}-{tail}"]):
        joined = join_lines([f"x {head}-", f"{tail} y"])
    assert joined in (f"x {head}{tail} y", f"x {head}-{tail} y")


_evidence_line = st.lists(
    st.sampled_from(["Data", "data", "set", "dataset", "data-set", "co\u2010author", "x", "42", "-", "and"]),
    max_size=5).map(" ".join)


@given(st.lists(_evidence_line, max_size=8))
def test_evidence_counts_each_lines_words_but_the_halves_of_split_words(lines: list[str]) -> None:
    from collections import Counter

    from vaultd.parse.hyphens import HyphenEvidence

    expected: Counter[str] = Counter()  # the rule as documented, one line at a time
    split_before = False
    for line in lines:
        words = re.findall(r"\w(?:[\w\u2010-]*\w)?", line.lower().replace("\u2010", "-"))
        ends_split = line.rstrip().endswith("-")
        if split_before:
            words = words[1:]
        if ends_split:
            words = words[:-1]
        expected.update(words)
        split_before = ends_split
    assert +HyphenEvidence(lines).counts == expected


def test_chinese_and_japanese_lines_join_without_a_space_korean_with_one() -> None:
    assert join_lines(["自然语言处理是人工智能的", "一个重要方向。"]) == "自然语言处理是人工智能的一个重要方向。"
    assert join_lines(["これは日本語の", "文章です。"]) == "これは日本語の文章です。"
    assert join_lines(["코로나-19와 관련하여 보험회사에서", "판매한 상품"]) == "코로나-19와 관련하여 보험회사에서 판매한 상품"
    assert join_lines(["模型 BERT", "is used"]) == "模型 BERT is used"  # a Latin side keeps the space


def test_a_soft_hyphen_at_a_line_end_goes_with_the_break() -> None:
    # BMC 2024 sets every line-end hyphen as U+00AD: the word is written whole.
    assert join_lines(["definition for airflow obstruc\u00ad", "tion was used"]) == \
        "definition for airflow obstruction was used"


def test_a_soft_hyphen_inside_a_line_is_not_drawn_and_not_quoted() -> None:
    # Wiley: "Mixed-\u00adeffect" (a hard hyphen, then a break opportunity) on one line.
    assert join_lines(["Core Team, 2020). Mixed-\u00adeffect nonparametric", "ANOVA"]) == \
        "Core Team, 2020). Mixed-effect nonparametric ANOVA"
    assert join_lines(["with Kenward-\u00ad", "Roger approximation"]) == "with Kenward-Roger approximation"


def test_texs_dot_and_bar_accents_combine_with_their_letter_as_poppler_reads_them() -> None:
    from vaultd.parse.layout import repair_chars

    # MDPI 2019's mass flow rate and heat load (TeX's \dot), PPoPP's dequeue D-bar (\bar)
    assert repair_chars("where ˙m (kg s−1) is the mass flow rate and ˙Qloss the loss") == \
        "where \u1e41 (kg s−1) is the mass flow rate and Q\u0307loss the loss"
    assert repair_chars("the cell ¯D is visited") == "the cell D\u0304 is visited"
