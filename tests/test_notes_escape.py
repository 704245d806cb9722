"""Markdown escaping of quotes: reading view shows the source's characters, verify reads them back."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vaultd.notes.escape import escape, unescape


@given(st.text())
def test_unescape_gives_back_exactly_what_was_escaped(text: str) -> None:
    assert unescape(escape(text)) == text


def test_markup_characters_are_escaped_and_plain_text_is_left_alone() -> None:
    assert escape("Click on the box saying <your name> now") == "Click on the box saying \\<your name\\> now"
    assert escape("p < 0.05 and *x* = 2, see #3") == "p \\< 0.05 and \\*x\\* \\= 2, see \\#3"
    assert escape("1. First item") == "1\\. First item"
    assert escape("- a dash line") == "\\- a dash line"
    assert escape("The model reaches 28.4 BLEU.") == "The model reaches 28.4 BLEU."


def test_a_quote_rendered_as_html_shows_every_character() -> None:
    from markdown_it import MarkdownIt

    quote = "Click on the box saying “<your name> — <date>” then *save* (1) = ok # done"
    html = MarkdownIt("commonmark").render("> " + escape(quote))
    text = html.replace("<blockquote>\n<p>", "").replace("</p>\n</blockquote>\n", "")
    assert text == quote.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
