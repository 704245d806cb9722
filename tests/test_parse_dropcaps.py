"""First-page repairs found on unseen papers (eval/quotes batch 4): dropped capitals read
back into their word, numbered sections that look like bylines, contact footnotes, math
letters MuPDF cut to Hangul."""

from __future__ import annotations

from vaultd.parse.bylines import is_byline
from vaultd.parse.dropcaps import join_drop_caps
from vaultd.parse.front import is_front_matter
from vaultd.parse.glyphs import scan_spans
from vaultd.parse.paras import Line


def _ln(text: str, bbox: tuple[float, float, float, float], size: float = 10.0) -> Line:
    return Line(text=text, bbox=bbox, size=size, bold=False, block=0, page=1)


def test_a_dropped_capital_goes_back_in_front_of_its_word_and_its_lines_move_out() -> None:
    lines = [
        _ln("T", (72.0, 510.6, 88.6, 535.4), size=24.8),
        _ln("his is an example of a dropped capital letter at the beginning", (88.5, 508.1, 540.0, 520.7)),
        _ln("of a paragraph, whose second line is set in beside the letter", (88.5, 522.0, 540.0, 533.0)),
        _ln("and whose third line is not.", (72.0, 535.0, 300.0, 546.0)),
    ]
    out = join_drop_caps(lines)
    assert [ln.text for ln in out] == [
        "This is an example of a dropped capital letter at the beginning",
        "of a paragraph, whose second line is set in beside the letter",
        "and whose third line is not.",
    ]
    assert [ln.bbox[0] for ln in out] == [72.0, 72.0, 72.0]


def test_a_single_capital_that_is_no_dropped_one_stays() -> None:
    for lines in (
        # a table's cell letter in the text's size, beside a lowercase line
        [_ln("A", (72.0, 100.0, 80.0, 110.0)), _ln("nother column of the table", (82.0, 100.0, 300.0, 110.0))],
        # a large letter beside a line that opens with a capital: a label, not a word's start
        [_ln("B", (72.0, 100.0, 90.0, 125.0), size=24.0), _ln("Results of the second run", (92.0, 100.0, 300.0, 110.0))],
    ):
        assert join_drop_caps(lines) == lines


def test_a_numbered_section_is_no_byline_but_initials_and_names_are() -> None:
    assert not is_byline("I. Introduction") and not is_byline("A. Background")
    assert is_byline("I. Newton and J. Smith") and is_byline("A. Smith, B. Jones")


def test_authors_addresses_and_orcids_in_a_footnote_are_front_matter() -> None:
    assert is_front_matter("jkk@example.in (J.K. Krishnan); wjh@example.org (W. J. Hansen)", at_edge=False)
    assert is_front_matter("orcid(s): 0000-0001-0000-0000 (J.K. Krishnan)", at_edge=False)
    assert not is_front_matter("Write to a@b.org or c@d.org with your questions about the data.",
                               at_edge=False)


def test_math_letters_mupdf_cut_to_hangul_are_read_as_math_letters() -> None:
    span = {"text": " 푎푏", "font": "STIXMath-Italic", "alpha": 255, "size": 10.0, "flags": 0}
    korean = {"text": "한국어", "font": "NanumGothic", "alpha": 255, "size": 10.0, "flags": 0}
    data = {"blocks": [{"lines": [{"spans": [span, korean]}]}]}
    scan_spans(data)
    assert span["text"] == " \U0001d44e\U0001d44f"  # 𝑎𝑏, as poppler reads them
    assert korean["text"] == "한국어"


def test_an_issue_banner_and_a_permission_notice_are_front_matter() -> None:
    assert is_front_matter("volume 100, no. 20", at_edge=True, banner=True)
    assert is_front_matter("january 2000", at_edge=True, banner=True)
    assert not is_front_matter("january 2000", at_edge=True, banner=False)
    assert is_front_matter("Permission is granted to distribute verbatim or modified copies of this "
                           "document provided this notice remains intact.", at_edge=False)


def test_an_authors_contact_footnote_is_front_matter() -> None:
    assert is_front_matter("Christian Gogolin: latex@quantum-journal.org, http://quantum-journal.org, "
                           "You can use the commands to add additional information.", at_edge=False)
    assert not is_front_matter("Results: the method works on 12 of 14 data sets.", at_edge=False)


def test_submission_lines_and_further_author_information_are_front_matter() -> None:
    assert is_front_matter("Submitted to ECP on January 2, 2013, final version accepted on "
                           "December 13, 2014.", at_edge=False)
    assert is_front_matter("Further author information: (Send correspondence to A.A.A.) A.A.A.: "
                           "E-mail: aaa@tbk2.edu", at_edge=False)
    assert not is_front_matter("Submitted to the committee, the plan was approved in May.", at_edge=False)
