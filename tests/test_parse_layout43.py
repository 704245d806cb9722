"""Layout 43 (issue 34): a section's statement set small at a column's foot, under a head
the face rules find only later, is no footnote; ``Date received: …`` and an author's name
and e-mail address alone are front matter; a running head ending on ``et al.`` and the
page's number is furniture on the one page it stands; a page's last line of text that
merely ends on a heading's word is no running head, and a running head repeating a
heading short of its number is. On real pages (batch 72, out of sample, and earlier
ones), with property tests of the pure rules."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding, pages_of

from vaultd.parse.footnotes import section_text
from vaultd.parse.front import is_contact, is_front_matter
from vaultd.parse.furniture import drop_echoed_headings
from vaultd.parse.lone_folios import lone_value
from vaultd.parse.paras import Line, Para

SAGE = "sage_ijdsn_2016_internet_of_vehicles_fog_excerpt.pdf"
WILEY = "wiley_am_j_addictions_2022_buprenorphine_retention_primary_care.pdf"
SPRINGER = "springer_umuai_2024_popularity_bias_recommender_survey_excerpt.pdf"
TYPST = "typst_muzero_masters_thesis_excerpt.pdf"
GAMMAPY = "aa_gammapy_gamma_ray_python_package.pdf"

# ------------------------------------------- a statement set small under its head


def test_a_funding_statement_at_a_columns_foot_goes_on_atop_the_next_column() -> None:
    # SAGE's "Funding" (10 pt, an unflagged face) over its 9 pt statement at the left
    # column's foot, "… by the National Research" | "Foundation of Korea (NRF) …" atop the
    # right column: one paragraph in two pieces, the section's, no footnote
    para = holding(chunks_of(SAGE), "The author(s) disclosed receipt of the following financial support")
    assert chunk_type(para) == "paragraph"
    assert "National Research Foundation of Korea (NRF) funded by the Ministry" in para.text
    assert pages_of(para) == [5, 5]
    assert (para.provenance.section or "").endswith("Funding")


def _small(text: str, top: float) -> list[Line]:
    return [Line(text, (50.0, top, 285.0, top + 9.0), 9.0, False, 1, 5, font="AdvPS8E86")]


def _head(text: str, bold: bool, font: str, size: float) -> Para:
    line = Line(text, (50.0, 693.0, 50.0 + 6.0 * len(text), 693.0 + size), size, bold, 0, 5, font=font)
    return Para("paragraph", [line], text, [(5, text)])


@given(st.sampled_from(["Funding", "Declaration of conflicting interests", "Data availability",
                        "Acknowledgements", "Author contributions"]),
       st.booleans())
def test_small_print_right_under_a_short_head_line_is_the_sections_text(head: str, bold: bool) -> None:
    # bold, or in a face of its own a point larger than the print under it
    prev = _head(head, bold, "AdvPS8E82" if not bold else "Helvetica-Bold", 10.0 if not bold else 9.0)
    assert section_text(prev, _small("The author(s) disclosed receipt of the following", 709.0),
                        "The author(s) disclosed receipt of the following", None)


@given(st.sampled_from(["The results are shown below.", "as reported in the trial,", "Funding was"]),
       st.floats(min_value=30.0, max_value=200.0))
def test_small_print_under_a_sentence_or_far_below_a_head_is_no_sections_text(text: str, gap: float) -> None:
    # a line that ends a sentence (or a clause) heads nothing; a note far under a head
    # (more than three ems) is the page's note
    sentence = _head(text, True, "Times-Bold", 9.0)
    if text.rstrip().endswith((".", ",")):
        assert not section_text(sentence, _small("1 A note at the foot of the page", 709.0),
                                "1 A note at the foot of the page", None)
    far = _head("Funding", True, "Times-Bold", 9.0)
    assert not section_text(far, _small("A note at the foot of the page", 703.0 + gap),
                            "A note at the foot of the page", None)


# ------------------------------------------------------------- article history


@given(st.sampled_from(["Date received", "Date accepted", "Date revised", "Date submitted"]),
       st.integers(min_value=1, max_value=28), st.sampled_from(["April", "July", "December"]),
       st.integers(min_value=1990, max_value=2030))
def test_a_dates_line_opening_with_date_is_front_matter(label: str, day: int, month: str, year: int) -> None:
    assert is_front_matter(f"{label}: {day} {month} {year}; accepted: 17 July {year}", at_edge=False)


def test_sages_article_history_line_is_front_matter_not_a_paragraph() -> None:
    chunk = holding(chunks_of(SAGE), "Date received: 15 April 2016")
    assert chunk_type(chunk) == "front"


def test_a_sentence_about_dates_is_no_front_matter() -> None:
    assert not is_front_matter("Date and time of each reading were received by the logger.", at_edge=False)


# ------------------------------------------- a running head ending on ``et al. N``


@given(st.sampled_from(["Lee", "García", "O'Neil", "van der Berg"]), st.integers(min_value=1, max_value=9999),
       st.sampled_from([" ", "  ", " | "]))
def test_a_running_heads_number_after_et_al_is_its_folio(name: str, number: int, gap: str) -> None:
    assert lone_value(f"{name} et al.{gap}{number}") == number


@given(st.integers(min_value=1, max_value=9999))
def test_a_number_after_a_stop_that_ends_no_word_is_no_folio(number: int) -> None:
    # "… in 2019. 3" has a figure before its stop; "p.3" runs into its word
    assert lone_value(f"as in 2019. {number}") is None
    assert lone_value(f"see p.{number}") is None


def test_a_running_head_standing_on_one_page_of_an_excerpt_is_furniture() -> None:
    # odd pages carry "Lee et al. 3"; the excerpt keeps one odd page: its number agrees
    # with the even pages' "2 International Journal of Distributed Sensor Networks"
    chunks = chunks_of(SAGE)
    assert not [c for c in chunks if c.text.strip() == "Lee et al. 3"]
    assert not [c for c in chunks if "International Journal of Distributed Sensor Networks" in c.text
                and chunk_type(c) == "paragraph"]


# ------------------------------------------------------ an author's contact alone


@given(st.sampled_from(["Dietmar Jannach", "Mehdi Elahi", "Anne-Marie O'Brien", ""]),
       st.from_regex(r"[a-z]{1,8}(\.[a-z]{1,8})?@[a-z]{2,8}\.(no|at|edu|ac\.uk)", fullmatch=True))
def test_a_name_and_its_address_alone_is_a_contact(name: str, address: str) -> None:
    assert is_contact(f"{name} {address}".strip())


@given(st.from_regex(r"[a-z]{1,8}@[a-z]{2,8}\.org", fullmatch=True))
def test_a_sentence_giving_an_address_is_no_contact(address: str) -> None:
    assert not is_contact(f"Requests for data may be sent to {address}")
    assert not is_contact(f"{address} and the code is available on request")


def test_springers_contact_block_at_the_first_pages_foot_is_front_matter() -> None:
    chunks = chunks_of(SPRINGER)
    for words in ("Anastasiia.Klimashevskaia@uib.no", "Dietmar Jannach Dietmar.Jannach@aau.at"):
        assert chunk_type(holding(chunks, words)) == "front"


# ----------------------------------------------------------- echoed headings


def _page(lines: list[tuple[str, float, float]], page: int) -> list[Line]:
    return [Line(text, (72.0, top, 520.0, top + size), size, False, k, page)
            for k, (text, top, size) in enumerate(lines)]


def _text_column(top: float, n: int) -> list[tuple[str, float, float]]:
    return [(f"a line of the body's text running on, number {k}", top + 12.0 * k, 10.0) for k in range(n)]


@given(st.sampled_from(["results", "methods", "discussion", "background"]))
def test_a_pages_last_line_ending_on_a_headings_word_is_kept(word: str) -> None:
    # Wiley: "use, buprenorphine dose, and additional urine toxicology results." is page 3's
    # last line, under a 12 pt "RESULTS" elsewhere: a sentence's end, at the text's spacing
    head = [(word.upper(), 100.0, 12.0), *_text_column(120.0, 50)]
    last = f"use, buprenorphine dose, and additional urine toxicology {word}."
    pages = [_page(head, 1), _page([*_text_column(72.0, 54), (last, 720.0, 10.0)], 2)]
    drop_echoed_headings(pages, [782.0, 782.0], small=9.0)
    assert last in [ln.text for ln in pages[1]]


@given(st.sampled_from([("II - A 3: Policies and Value Functions", "Policies and Value Functions"),
                        ("2.4. Modeling and fitting", "Modeling and fitting"),
                        ("B. Simulation and rollout", "Simulation and rollout")]))
def test_a_running_head_repeating_a_heading_short_of_its_number_is_dropped(pair: tuple[str, str]) -> None:
    heading, words = pair
    running = f"Theory - Reinforcement Learning {words}"
    pages = [_page([(heading, 300.0, 12.0), *_text_column(320.0, 20)], 1),
             _page([(running, 43.0, 10.0), *_text_column(72.0, 50)], 2)]
    drop_echoed_headings(pages, [842.0, 842.0], small=9.0)
    assert running not in [ln.text for ln in pages[1]]


def test_wileys_last_line_under_the_results_head_stays_in_its_paragraph() -> None:
    para = holding(chunks_of(WILEY), "This study has several strengths")
    assert para.text.endswith("use, buprenorphine dose, and additional urine toxicology results.")


def test_a_theses_running_heads_are_furniture_and_a_heading_at_a_pages_foot_is_kept() -> None:
    typst = chunks_of(TYPST)
    assert not [c for c in typst if c.text.strip() in ("Theory Reinforcement Learning", "Theory Game Theory")]
    # A&A's "2.4. From DL4 to DL5/6: modeling and fitting" at page 3's foot had been read
    # as a running head (it ends on a word of a larger heading): its section again
    para = holding(chunks_of(GAMMAPY), "The next step is then typically to model the datasets")
    assert (para.provenance.section or "").endswith("2.4. From DL4 to DL5/6: modeling and fitting")
