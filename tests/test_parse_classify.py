"""Block kinds from text and typography: the heading forms real papers use."""

from __future__ import annotations

from vaultd.parse.classify import classify

BODY = 10.0


def test_a_numbered_italic_line_on_its_own_is_a_subsection_heading() -> None:
    # MDPI and Elsevier set "2.1. Main Objectives" in italics at the body size.
    assert classify("2.1. Main Objectives", BODY, False, 1, BODY, True, italic=True) \
        == ("heading", "2.1")
    # The same words in roman type, or an italic sentence, stay body text.
    assert classify("2.1. Main Objectives", BODY, False, 1, BODY, True)[0] == "paragraph"
    assert classify("2. The patients were followed up.", BODY, False, 1, BODY, True,
                    italic=True)[0] == "paragraph"


def test_a_bold_line_in_capitals_is_a_heading_even_set_small() -> None:
    # Frontiers sets subsection heads in 8.5 pt bold capitals beside 9.5 pt body text.
    assert classify("THE SOCIAL ECOLOGY OF WOLVES", 8.5, True, 1, 9.5, True)[0] == "heading"
    # Not bold, one acronym, or part of a longer block: not a heading.
    assert classify("THE SOCIAL ECOLOGY OF WOLVES", 8.5, False, 1, 9.5, True)[0] == "paragraph"
    assert classify("NASA ESA", 8.5, True, 1, 9.5, True)[0] == "paragraph"
    assert classify("THE SOCIAL ECOLOGY OF WOLVES", 8.5, True, 1, 9.5, False)[0] == "paragraph"
