"""vaultd.draft: the quotes and citations of LaTeX and Markdown drafts."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vaultd.canonical import canonical_text
from vaultd.draft.extract import Draft, Quote, draft_format, extract
from vaultd.draft.scan import Cite, Provenance, normalise_locator

SHA = "ab" * 32


def tex(text: str) -> Draft:
    return extract(text, "latex")


def md(text: str) -> Draft:
    return extract(text, "markdown")


def only(draft: Draft) -> Quote:
    assert len(draft.quotes) == 1, draft.quotes
    return draft.quotes[0]


# --- formats ---------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "fmt"), [
    ("paper.tex", "latex"), ("a/b/Paper.LTX", "latex"), ("paper.md", "markdown"),
    ("paper.markdown", "markdown"), ("paper.qmd", "markdown"), ("paper.Rmd", "markdown"),
])
def test_draft_format_follows_the_suffix(name: str, fmt: str) -> None:
    assert draft_format(name) == fmt


def test_draft_format_of_an_unknown_suffix_is_a_one_sentence_error() -> None:
    with pytest.raises(ValueError, match=r"paper\.docx: not a draft vaultd can read; give a \.tex"):
        draft_format("paper.docx")


# --- LaTeX quotes ------------------------------------------------------------------------

def test_latex_quote_across_a_line_break_keeps_the_break_as_a_space() -> None:
    draft = tex("Intro.\nAs shown, ``attention is all\nyou need''~\\cite[p.~4]{vaswani2017}.\n")
    assert draft.quotes == (Quote(
        text="attention is all you need", parts=("attention is all you need",),
        insertions=(), line=2, end_line=3, kind="latex-quotes",
        cites=(Cite(("vaswani2017",), "4", 3, r"\cite[p.~4]{vaswani2017}"),), provenance=(),
        span=(19, 44)),)
    assert draft.format == "latex"


def test_latex_hyphenation_across_lines_is_left_to_the_matcher() -> None:
    assert only(tex("``the trans-\nformer'' \\cite{k}")).text == "the trans- former"


def test_latex_accents_dashes_and_braces_become_unicode_text() -> None:
    q = only(tex(r"\enquote{Caf\'e na\"ive se\~nor -- 1--2 --- {}x\emph{y} \textit{z}~w}\cite{k}"))
    assert q.text == "Café naïve señor – 1–2 — xy z w"
    assert q.kind == "enquote"


def test_latex_escaped_specials_are_text() -> None:
    q = only(tex(r"\enquote{50\% of R\&D cost \$5 in snake\_case \#1}~\cite{k}"))
    assert q.text == "50% of R&D cost $5 in snake_case #1"


def test_latex_ellipses_split_a_quote_into_parts() -> None:
    q = only(tex(r"``one \ldots{} two [\ldots] three [\dots] four […] five...six'' \cite{k}"))
    assert q.parts == ("one", "two", "three", "four", "five", "six")
    assert q.text == "one … two […] three […] four […] five...six"
    assert q.insertions == ()


def test_latex_bracketed_insertions_are_reported() -> None:
    q = only(tex(r"``it [the model] was [sic] fine [emphasis added]'' \cite{k}"))
    assert q.insertions == ("the model", "sic", "emphasis added")
    assert q.parts == ("it [the model] was [sic] fine [emphasis added]",)


def test_latex_unicode_quotation_marks_are_quotes() -> None:
    q = only(tex("He wrote “a short line” \\citep{k}."))
    assert (q.text, q.kind, q.cites[0].keys) == ("a short line", "unicode-quotes", ("k",))


def test_latex_straight_double_quotes_are_babel_shorthands_not_quotes() -> None:
    draft = tex('He wrote "a short line" \\cite{k}.')
    assert draft.quotes == ()
    assert [c.keys for c in draft.cites] == [("k",)]


def test_latex_scare_quote_without_a_citation_is_not_a_quote() -> None:
    draft = tex("This ``so-called'' method works.\n\nLater \\cite{k} says so.\n")
    assert draft.quotes == ()
    assert len(draft.cites) == 1


def test_latex_a_later_quote_takes_the_citation() -> None:
    draft = tex("A ``scare'' word and then ``the real quote'' \\cite{k}.")
    assert [q.text for q in draft.quotes] == ["the real quote"]


def test_latex_citation_later_in_the_paragraph_counts_but_not_after_a_blank_line() -> None:
    draft = tex("``first quote'' he said. It is true \\cite{a}.\n\n``second quote''\n\n\\cite{b}")
    assert [(q.text, q.cites[0].keys) for q in draft.quotes] == [("first quote", ("a",))]


def test_latex_citations_in_the_quotes_sentence_all_attach() -> None:
    q = only(tex("``x y'' \\cite{a}, \\cite{b}. Elsewhere \\cite{c}."))
    assert [c.keys for c in q.cites] == [("a",), ("b",)]


def test_latex_comment_line_holding_quotes_is_not_read() -> None:
    draft = tex("% ``not a quote'' \\cite{x}\nText.\n")
    assert draft == Draft("latex", (), (), ())


def test_latex_escaped_percent_does_not_start_a_comment() -> None:
    q = only(tex(r"``50\% of it'' \cite{k} % a remark ``no''"))
    assert q.text == "50% of it"


def test_latex_comment_inside_a_quote_is_not_its_text() -> None:
    assert only(tex("``one % a remark\ntwo'' \\cite{k}")).text == "one two"


def test_latex_quote_environment_with_its_citation_inside() -> None:
    draft = tex("Text.\n\\begin{quote}\nA long passage,\nquoted. \\cite[p.~7]{k}\n\\end{quote}\n")
    assert only(draft) == Quote(
        text="A long passage, quoted.", parts=("A long passage, quoted.",), insertions=(),
        line=2, end_line=5, kind="quote-env",
        cites=(Cite(("k",), "7", 4, r"\cite[p.~7]{k}"),), provenance=(), span=(20, 58))


def test_latex_quotation_environment_with_its_citation_right_after() -> None:
    q = only(tex("\\begin{quotation}\n``A passage.''\n\\end{quotation}\n\\autocite[4]{k}\n"))
    assert (q.text, q.kind, q.cites[0].locator) == ("A passage.", "quote-env", "4")


def test_latex_quote_environment_without_a_citation_is_not_a_quote() -> None:
    assert tex("\\begin{quote}\nA motto.\n\\end{quote}\n\nThen \\cite{k}.\n").quotes == ()


def test_latex_quote_inside_a_quote_environment_is_one_quote() -> None:
    q = only(tex("\\begin{quote}\nHe said \\enquote{yes} twice.\n\\end{quote} \\cite{k}\n"))
    assert q.text == "He said “yes” twice."


def test_latex_nested_quotation_marks_are_one_quote() -> None:
    q = only(tex("``the ``title'' label'' \\cite{k}"))
    assert q.text == "the “title” label"


def test_latex_quote_environment_with_its_citation_as_the_next_paragraph() -> None:
    q = only(tex("\\begin{quote}\nA passage.\n\\end{quote}\n\n\\hfill\\cite[p.~2]{k}\n"))
    assert (q.text, q.cites[0].locator) == ("A passage.", "2")


def test_latex_citation_in_a_footnote_after_a_quote_attaches() -> None:
    q = only(tex("``a quote''\\footnote{See \\cite[p.~3]{k}.} and more."))
    assert (q.text, q.cites[0].locator) == ("a quote", "3")


def test_latex_footnote_inside_a_quote_is_cut_from_its_text() -> None:
    assert only(tex("``a\\footnote{note} quote.'' \\cite{k}")).text == "a quote."


def test_latex_verbatim_is_not_read() -> None:
    draft = tex("\\begin{verbatim}\n``x'' \\cite{v} % vaultd: k c sha256=1\n\\end{verbatim}\n")
    assert draft == Draft("latex", (), (), ())


# --- LaTeX citations ------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    "cite", "citep", "citet", "citealp", "citeauthor*", "parencite", "textcite", "autocite",
    "footcite", "Cite", "Parencite", "Textcite", "citep*",
])
def test_latex_cite_commands_are_citations(command: str) -> None:
    draft = tex(f"``q'' \\{command}[p.~2]{{k}}")
    assert draft.cites == (Cite(("k",), "2", 1, f"\\{command}[p.~2]{{k}}"),)
    assert only(draft).cites == draft.cites


@pytest.mark.parametrize(("cite", "locator"), [
    (r"\cite[p.~4]{k}", "4"),
    (r"\cite[see][p.~4]{k}", "4"),  # natbib: the second optional argument is the postnote
    (r"\citep[see][]{k}", None),
    (r"\citep[see][pp.~4--5]{k}", "4-5"),
    (r"\autocite[4]{k}", "4"),
    (r"\cite[xii]{k}", "xii"),
    (r"\cite[S.~12]{k}", "12"),
    (r"\cite[chap.~3]{k}", None),
    (r"\cite{k}", None),
])
def test_latex_locator_is_the_postnotes_page_part(cite: str, locator: str | None) -> None:
    assert tex(cite).cites[0].locator == locator


def test_latex_multiple_keys_in_order() -> None:
    assert tex(r"\cite{a,b, c}").cites[0].keys == ("a", "b", "c")


# --- LaTeX provenance --------------------------------------------------------------------

def test_latex_provenance_on_the_line_after_the_quote_attaches() -> None:
    draft = tex(f"``a quote'' \\cite{{k}}.\n% vaultd: k k-c3 sha256={SHA}\n")
    assert only(draft).provenance == (Provenance("k", "k-c3", SHA, 2),)
    assert draft.provenance == (Provenance("k", "k-c3", SHA, 2),)


def test_latex_provenance_far_from_any_quote_stands_alone() -> None:
    draft = tex(f"``a quote'' \\cite{{k}}.\n\nMore.\n% vaultd: k k-c3 sha256={SHA}\n")
    assert only(draft).provenance == ()
    assert draft.provenance == (Provenance("k", "k-c3", SHA, 4),)


def test_latex_provenance_makes_an_uncited_quote_a_quote() -> None:
    q = only(tex(f"``a quote''. % vaultd: k k-c3 sha256={SHA}\n"))
    assert (q.cites, q.provenance[0].chunk_id) == ((), "k-c3")


def test_latex_provenance_prefers_the_cited_quote_to_a_scare_quote_on_its_line() -> None:
    draft = tex(f"``a quote'' \\cite{{k}}, a ``so-called'' word. % vaultd: k c1 sha256={SHA}\n")
    assert [(q.text, q.provenance) for q in draft.quotes] == [
        ("a quote", (Provenance("k", "c1", SHA, 1),))]


def test_latex_verb_at_the_very_end_is_read_without_error() -> None:
    assert tex("``a quote'' \\cite{k} \\verb ").quotes[0].text == "a quote"


# --- Markdown ----------------------------------------------------------------------------

def test_markdown_curly_quote_with_pandoc_citation_and_page() -> None:
    draft = md("He wrote “attention is\nall you need” [@vaswani2017, p. 4].\n")
    assert draft.quotes == (Quote(
        text="attention is all you need", parts=("attention is all you need",), insertions=(),
        line=1, end_line=2, kind="unicode-quotes",
        cites=(Cite(("vaswani2017",), "4", 2, "[@vaswani2017, p. 4]"),), provenance=(),
        span=(10, 35)),)


def test_markdown_straight_quotes_count_like_curly_ones() -> None:
    q = only(md('He wrote "a short line" [@k, pp. 4-5].'))
    assert (q.text, q.kind, q.cites[0].locator) == ("a short line", "straight-quotes", "4-5")


def test_markdown_scare_quote_is_not_a_quote() -> None:
    assert md('A "so-called" method, and a “novel” one.\n\nLater [@k].\n').quotes == ()


def test_markdown_emphasis_escapes_links_and_entities_are_removed() -> None:
    q = only(md(r"“*very* **bold** _it_ \*star\* snake_case [a link](http://x.org) &amp; "
                r"1\[2\]” [@k]"))
    assert q.text == "very bold it *star* snake_case a link & 1[2]"
    assert q.insertions == ("2",)


def test_markdown_ellipsis_and_sic() -> None:
    q = only(md("“one … two [...] three [sic] four...” [@k]"))
    assert (q.parts, q.insertions) == (("one", "two", "three [sic] four"), ("sic",))


def test_markdown_blockquote_with_citation_inside() -> None:
    draft = md("Intro.\n\n> Quoted *text* here,\n> over two lines. [@k, p. 9]\n\nAfter.\n")
    assert only(draft) == Quote(
        text="Quoted text here, over two lines.", parts=("Quoted text here, over two lines.",),
        insertions=(), line=3, end_line=4, kind="blockquote",
        cites=(Cite(("k",), "9", 4, "[@k, p. 9]"),), provenance=(), span=(10, 58))


def test_markdown_blockquote_with_citation_on_the_next_line() -> None:
    q = only(md("> “A passage.”\n[@k, p. 2]\n"))
    assert (q.text, q.cites[0].locator) == ("A passage.", "2")


def test_markdown_blockquote_with_its_citation_as_the_next_paragraph() -> None:
    q = only(md("> A passage.\n\n— [@k, p. 2]\n"))
    assert (q.text, q.cites[0].locator) == ("A passage.", "2")


def test_markdown_nested_curly_quotes_are_one_quote() -> None:
    q = only(md("“tokens with the “title” label” [@k, p. 86]"))
    assert q.text == "tokens with the “title” label"


def test_markdown_unbalanced_mark_inside_a_quote_does_not_cut_it() -> None:
    q = only(md("“to prune entities, e.g., “Lord of the” [@k]"))
    assert q.text == "to prune entities, e.g., “Lord of the"


def test_markdown_blockquote_without_citation_is_not_a_quote() -> None:
    assert md("> A motto.\n\nLater text [@k].\n").quotes == ()


def test_markdown_code_is_not_read() -> None:
    draft = md("```\n“in code” [@x]\n```\n\nThe `“inline” [@y]` form.\n")
    assert draft == Draft("markdown", (), (), ())


def test_markdown_html_comments_are_not_read_but_provenance_is() -> None:
    draft = md(f"<!-- “hidden” [@x] -->\n“a quote” [@k]\n"
               f"<!-- vaultd: k k-c1 sha256={SHA} -->\n")
    assert only(draft).provenance == (Provenance("k", "k-c1", SHA, 3),)
    assert [c.keys for c in draft.cites] == [("k",)]


def test_markdown_front_matter_is_not_read() -> None:
    draft = md('---\ntitle: "A title"\nauthor: me @home\n---\n"Text" here.\n')
    assert draft == Draft("markdown", (), (), ())


@pytest.mark.parametrize(("text", "keys", "locator"), [
    ("[@k]", ("k",), None),
    ("[@a; @b, p. 5]", ("a", "b"), "5"),
    ("[see @k, p. 4]", ("k",), "4"),
    ("[-@k, pp. 4-5]", ("k",), "4-5"),
    ("@k [p. 4] says", ("k",), "4"),
    ("as @smith2020. shows", ("smith2020",), None),
    ("see @doe:99, then", ("doe:99",), None),
    ("[@{odd key}, xii]", ("odd key",), "xii"),
])
def test_markdown_pandoc_citations(text: str, keys: tuple[str, ...], locator: str | None) -> None:
    (cite,) = md(text).cites
    assert (cite.keys, cite.locator) == (keys, locator)


def test_markdown_email_addresses_and_crossrefs_are_not_citations() -> None:
    assert md("Write to a@b.com, see @fig-plot and [@tbl:one].").cites == ()


def test_markdown_page_after_a_quote_takes_the_key_of_the_author_in_text() -> None:
    q = only(md("As @smith writes, “a quote” [p. 4]."))
    assert q.cites == (Cite(("smith",), "4", 1, "@smith … [p. 4]"),)


def test_markdown_multiple_keys() -> None:
    q = only(md("“x” [@a; @b; @c, p. 1]"))
    assert q.cites[0].keys == ("a", "b", "c")


def test_markdown_windows_line_endings_and_hard_breaks() -> None:
    q = only(md("He wrote “one\\\r\ntwo”\r\n[@k, p. 4]\r\n\r\nNext."))
    assert (q.text, q.line, q.end_line, q.cites[0].line) == ("one two", 1, 2, 3)


def test_markdown_straight_quotes_inside_html_and_link_titles_are_not_quotes() -> None:
    assert md('<span class="x">Text</span> [link](http://x.org "title") [@k]').quotes == ()


# --- spans: where a quote's content is written -------------------------------------------

def written(text: str, q: Quote) -> str:
    return text[q.span[0]:q.span[1]]


@pytest.mark.parametrize(("fmt", "text", "content", "kind"), [
    ("latex", r"See \enquote{50\% of R\&D \{x\} \textit{is} \$5}~\cite{k}.",
     r"50\% of R\&D \{x\} \textit{is} \$5", "enquote"),
    ("latex", r"\enquote*{inner}\cite{k}", "inner", "enquote"),
    ("latex", "Café.\n\\enquote{one \\ldots{}\ntwo [\\dots] three}~\\cite{k}",
     "one \\ldots{}\ntwo [\\dots] three", "enquote"),
    ("latex", "Intro.\nAs shown, ``attention is all\nyou need''~\\cite[p.~4]{k}.\n",
     "attention is all\nyou need", "latex-quotes"),
    ("latex", "``the ``title'' label [\\ldots] end'' \\cite{k}",
     "the ``title'' label [\\ldots] end", "latex-quotes"),
    ("latex", "``one % a remark\ntwo'' \\cite{k}", "one % a remark\ntwo", "latex-quotes"),
    ("latex", "``  padded  '' \\cite{k}", "  padded  ", "latex-quotes"),
    ("latex", "Naïve “a short\nline” \\citep{k}.", "a short\nline", "unicode-quotes"),
    ("latex", "Text.\n\\begin{quote}\n  A long passage,\nquoted. \\cite[p.~7]{k}\n\\end{quote}\n",
     "A long passage,\nquoted. \\cite[p.~7]{k}", "quote-env"),
    ("latex", "\\begin{quotation}``A passage \\dots.''\\end{quotation}\n\\autocite[4]{k}\n",
     "``A passage \\dots.''", "quote-env"),
    ("latex", "\\begin{displayquote}[{\\cite[p.~4]{k}}][.]\n\tHe said \\enquote{yes} twice.\n"
     "\\end{displayquote}\n", "He said \\enquote{yes} twice.", "quote-env"),
    ("latex", f"\\begin{{quote}}\nText.\n% vaultd: k c1 sha256={SHA}\n\\end{{quote}}\n",
     f"Text.\n% vaultd: k c1 sha256={SHA}", "quote-env"),
    ("markdown", "He wrote “attention is\nall you need” [@k, p. 4].\n",
     "attention is\nall you need", "unicode-quotes"),
    ("markdown", 'He wrote "a short line" [@k, pp. 4-5].', "a short line", "straight-quotes"),
    ("markdown", r"“\*star\* snake\_case 1\[2\] &amp; `co”de` *em*” [@k]",
     r"\*star\* snake\_case 1\[2\] &amp; `co”de` *em*", "unicode-quotes"),
    ("markdown", "“one … two [...] three [sic] four...” [@k]",
     "one … two [...] three [sic] four...", "unicode-quotes"),
    ("markdown", "“to prune entities, e.g., “Lord of the” [@k]",
     "to prune entities, e.g., “Lord of the", "unicode-quotes"),
    ("markdown", "---\ntitle: “x”\n---\n<!-- “hidden” [@x] -->\n“a quote” [@k]\n", "a quote",
     "unicode-quotes"),
    ("markdown", "He wrote “one\\\r\ntwo”\r\n[@k, p. 4]\r\n\r\nNext.", "one\\\r\ntwo",
     "unicode-quotes"),
    ("markdown", "As @smith writes, “a quote” [p. 4].", "a quote", "unicode-quotes"),
    ("markdown", "Intro.\n\n> Quoted *text* here,\n> over two lines. [@k, p. 9]\n\nAfter.\n",
     "Quoted *text* here,\n> over two lines. [@k, p. 9]", "blockquote"),
    ("markdown", "> “A passage \\[…\\] ends.”\n[@k, p. 2]\n", "“A passage \\[…\\] ends.”",
     "blockquote"),
    ("markdown", "> one\r\n> two [@k]\r\n\r\nNext.", "one\r\n> two [@k]", "blockquote"),
    ("markdown", "   >> deep\n>\n> [@k]", "deep\n>\n> [@k]", "blockquote"),
])
def test_span_is_the_quotes_content_as_written(fmt: str, text: str, content: str,
                                               kind: str) -> None:
    q = only(extract(text, fmt))  # type: ignore[arg-type]
    assert (written(text, q), q.kind) == (content, kind)


def test_spans_of_several_quotes_in_one_draft() -> None:
    text = ("``first'' \\cite{a}. Then \\enquote{second}~\\cite{b}.\n\n"
            "\\begin{quote}\nthird\n\\end{quote}\\cite{c}\n")
    assert [written(text, q) for q in tex(text).quotes] == ["first", "second", "third"]


def test_replacing_the_span_replaces_the_quote() -> None:
    text = "A “misquoted line” [@k, p. 4] and “another” [@j].\n"
    q = md(text).quotes[0]
    fixed = text[:q.span[0]] + "quoted line" + text[q.span[1]:]
    assert [q.text for q in md(fixed).quotes] == ["quoted line", "another"]


# --- locators ------------------------------------------------------------------------------

@pytest.mark.parametrize(("written", "locator"), [
    ("p. 4", "4"), ("pp. 4--5", "4-5"), ("pp. 4 – 5", "4-5"), ("S. 12", "12"), ("xii", "xii"),
    ("4", "4"), ("p.~4", "4"), ("4f.", "4f"), ("pp. 4, 7", "4, 7"), ("p. 4, emphasis added", "4"),
    ("cf. below", None), ("chap. 3", None), ("", None), ("see", None),
])
def test_locator_normalisation(written: str, locator: str | None) -> None:
    assert normalise_locator(written) == locator


# --- properties ----------------------------------------------------------------------------

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_ACCENTED = "éèêëàâäöüñçøåßÉÖÜ"
_LATEX_SPECIALS = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
                   "}": r"\}", "~": r"\textasciitilde{}"}
_plain = st.text(alphabet=_LETTERS + _ACCENTED + " \n.,;:!?()", min_size=1)


def _latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIALS.get(c, c) for c in text)


def _markdown_escape(text: str) -> str:
    return "".join("\\" + c if c in "*_[]\\" else c for c in text)


def _one_paragraph(text: str) -> bool:
    return bool(text.strip()) and "\n\n" not in "\n".join(line.strip() for line in text.split("\n"))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=_LETTERS + _ACCENTED + " \n.,;:!?()" + "".join(_LATEX_SPECIALS),
               min_size=1).filter(_one_paragraph))
def test_latex_escaped_text_in_enquote_comes_back_exactly(text: str) -> None:
    draft = f"See \\enquote{{{_latex_escape(text)}}}~\\cite{{key}}."
    q = only(tex(draft))
    assert q.text == canonical_text(text)
    assert q.cites[0].keys == ("key",)
    assert written(draft, q) == _latex_escape(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=_LETTERS + _ACCENTED + " \n.,;:!?()-'/" + "*_[]\\",
               min_size=1).filter(_one_paragraph))
def test_markdown_escaped_text_in_curly_quotes_comes_back_exactly(text: str) -> None:
    draft = f"See “{_markdown_escape(text)}” [@key]."
    q = only(md(draft))
    assert q.text == canonical_text(text)
    assert q.cites[0].keys == ("key",)
    assert written(draft, q) == _markdown_escape(text)


_before = st.text(alphabet=_LETTERS + _ACCENTED + " \n.,;:!?\U0001f600", max_size=40)


@settings(max_examples=300, deadline=None)
@given(_before, st.text(alphabet=_LETTERS + _ACCENTED + " \n.,;:!?()" + "".join(_LATEX_SPECIALS),
                        min_size=1).filter(_one_paragraph))
def test_latex_enquote_span_is_the_escaped_text_after_any_preceding_text(before: str,
                                                                         text: str) -> None:
    draft = f"{before}\n\n\\enquote{{{_latex_escape(text)}}}~\\cite{{k}}"
    assert written(draft, only(tex(draft))) == _latex_escape(text)


@settings(max_examples=300, deadline=None)
@given(_before, st.text(alphabet=_LETTERS + _ACCENTED + " \n.,;:!?()-'/" + "*_[]\\`<>&\"",
                        min_size=1).filter(_one_paragraph))
def test_markdown_curly_quote_span_is_the_escaped_text_after_any_preceding_text(
        before: str, text: str) -> None:
    escaped = "".join("\\" + c if c in "*_[]\\`<>&\"" else c for c in text)
    draft = f"{before}\n\n“{escaped}” [@k]"
    assert written(draft, only(md(draft))) == escaped


@settings(max_examples=300, deadline=None)
@given(st.text(), st.sampled_from(["latex", "markdown"]))
def test_extract_never_raises(text: str, fmt: str) -> None:
    draft = extract(text, fmt)  # type: ignore[arg-type]
    assert all(q.text and (q.cites or q.provenance) for q in draft.quotes)
    assert all(0 <= q.span[0] <= q.span[1] <= len(text) for q in draft.quotes)


_SYNTAX = st.sampled_from(["``", "''", "“", "”", '"', "\\cite{k}", "[@k]", "@k", "\\enquote{",
                           "}", "{", "%", "\n", "\n\n", "> ", "```", "`", "<!--", "-->",
                           "\\begin{quote}", "\\end{quote}", "[", "]", "\\", "\\verb", " ",
                           "x", "*", "_", "...", "[p. 4]", "% vaultd: k c sha256=1"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_SYNTAX, max_size=25).map("".join), st.sampled_from(["latex", "markdown"]))
def test_extract_never_raises_on_syntax_soup(text: str, fmt: str) -> None:
    draft = extract(text, fmt)  # type: ignore[arg-type]
    spans = [q.span for q in draft.quotes]
    assert all(0 <= a <= b <= len(text) for a, b in spans)
    assert all(b1 <= a2 for (_, b1), (a2, _) in pairwise(spans))
