"""Word spaces at PyMuPDF span boundaries follow poppler's raw-order rule.

Every case is a synthetic span list with hand-computed gaps. The rule under test
(vaultd.parse.spans.space_between), in units of the left piece's font size ``em``:
a baseline jump of ≥ 0.5 em separates the pieces; otherwise a space only when the gap
between the boxes is > 0.15 em.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from vaultd.parse.layout import join_lines
from vaultd.parse.line_pieces import merge_same_baseline
from vaultd.parse.paras import Line
from vaultd.parse.spans import Piece, join_spans, needs_space, space_between


def span(text: str, x0: float, x1: float, size: float = 10.0, baseline: float = 100.0) -> dict[str, Any]:
    """A PyMuPDF ``dict`` span: box from ascender to descender, origin on the baseline."""
    return {
        "text": text,
        "bbox": (x0, baseline - 0.8 * size, x1, baseline + 0.2 * size),
        "origin": (x0, baseline),
        "size": size,
    }


def test_a_subscript_touching_its_letter_joins_it() -> None:
    # P (10 pt) then subscript A (7 pt) 1.5 pt lower, no gap: 1.5 < 0.5 em = 5; gap 0
    spans = [span("d(P", 0, 16), span("A", 16, 21, size=7, baseline=101.5), span(" ,", 21, 26)]
    assert join_spans(spans) == "d(PA ,"


def test_a_comma_after_a_superscript_with_a_tiny_gap_gets_no_space() -> None:
    # "16" (7 pt) raised 3 pt: 3 < 0.5 × 10 (dataset→16) and 3 < 0.5 × 7 = 3.5 (16→,);
    # the comma starts 0.5 pt after the mark: 0.5 ≤ 0.15 × 7 = 1.05
    spans = [
        span("the Reddit dataset", 0, 80),
        span("16", 80, 87, size=7, baseline=97),
        span(",", 87.5, 90),
        span(" Note that", 90, 130),
    ]
    assert join_spans(spans) == "the Reddit dataset16, Note that"


def test_a_superscript_mark_followed_by_a_gap_of_0_15_em_gets_a_space() -> None:
    # mark "2" (7 pt) raised 3 pt, then the next word after 1.5 pt: 0.15 em of the 10 pt
    # text, 0.21 em of the mark > 0.15 → a space
    spans = [span("Canada.", 0, 30), span("2", 32.5, 36, size=7, baseline=97), span("Department", 37.5, 80)]
    assert join_spans(spans) == "Canada. 2 Department"
    # the same mark 0.7 pt (0.1 em of 7 pt) before the word: kerning, no space
    spans[2] = span("Department", 36.7, 80)
    assert join_spans(spans) == "Canada. 2Department"


def test_a_mark_set_half_its_size_higher_is_a_separate_word() -> None:
    # affiliation mark "1" (5 pt) 4 pt above the text: 4 ≥ 0.5 × 5 = 2.5, although the
    # word overlaps it by 0.02 pt
    spans = [span("1", 0, 2.7, size=5, baseline=96), span("Department of Surgery", 2.68, 80, size=7.5)]
    assert join_spans(spans) == "1 Department of Surgery"


def test_small_caps_drawn_in_two_sizes_read_as_one_word() -> None:
    # "S" 11 pt, "PECTER" 8.8 pt on one baseline, 0.55 pt apart: 0.55 ≤ 0.15 × 11 = 1.65;
    # then "," 0.27 pt after: 0.27 ≤ 0.15 × 8.8 = 1.32
    spans = [span("in S", 0, 20, size=11), span("PECTER", 20.55, 56, size=8.8), span(",", 56.27, 59, size=11)]
    assert join_spans(spans) == "in SPECTER,"


def test_punctuation_after_an_italic_word_gets_no_space_but_a_word_gap_does() -> None:
    # italic "eV" then roman ",": 1.27 pt = 0.127 em ≤ 0.15 em (italic correction)
    assert join_spans([span("10 eV", 0, 25), span(", this", 26.27, 50)]) == "10 eV, this"
    # a font change over a 2.5 pt (0.25 em) gap is a word space
    assert join_spans([span("the", 0, 15), span("model", 17.5, 45)]) == "the model"


def test_a_blank_span_over_no_visible_gap_is_dropped() -> None:
    # TeX's \v{R}: "(" ends at 112.15, MuPDF adds a blank up to the raised caron at 113.97,
    # and "Reh" starts back at 112.15 under it: the visible gap "(" → "Reh" is 0
    spans = [
        span("Gensim (", 72, 112.15),
        span(" ", 112.15, 113.97),
        span("\u02c7", 113.97, 117.6, baseline=97.6),
        span("Reh", 112.15, 129.65),
    ]
    text = join_spans(spans)
    assert text == "Gensim (\u02c7Reh"
    assert join_lines([text]) == "Gensim (Řeh"


def test_a_blank_span_over_a_word_gap_is_kept() -> None:
    spans = [span("momentum", 0, 45), span(" ", 45, 49.6), span("p", 49.6, 54.6)]  # 4.6 pt
    assert join_spans(spans) == "momentum p"


def test_a_space_before_an_accented_letter_goes_before_the_accent() -> None:
    # "´" drawn before its "e"; the word gap (2.5 pt = 0.25 em) is measured to the "e"
    spans = [span("caf", 0, 15), span("\u00b4", 18.5, 21, baseline=97), span("e", 17.5, 22)]
    assert join_spans(spans) == "caf \u00b4e"


def test_no_second_space_where_a_span_already_has_one() -> None:
    left = Piece("a ", 0, 10, 100, 10)
    assert not needs_space(left, Piece("b", 15, 20, 100, 10))
    assert not needs_space(Piece("a", 0, 10, 100, 10), Piece(" b", 15, 20, 100, 10))
    assert needs_space(Piece("a", 0, 10, 100, 10), Piece("b", 15, 20, 100, 10))  # 0.5 em


def test_the_threshold_is_measured_in_the_left_pieces_size() -> None:
    big, small = 10.0, 5.0
    # gap 1.0: 0.1 em of the 10 pt piece (no space), 0.2 em of the 5 pt piece (space)
    assert not space_between(Piece("x", 0, 10, 100, big), Piece("y", 11, 15, 100, small))
    assert space_between(Piece("x", 0, 10, 100, small), Piece("y", 11, 15, 100, big))


def _line(text: str, bbox: tuple[float, float, float, float], size: float) -> Line:
    return Line(text=text, bbox=bbox, size=size, bold=False, block=0, page=1)


def test_pymupdf_lines_split_at_a_superscript_are_rejoined_with_the_same_rule() -> None:
    lines = [
        _line("on the Reddit dataset", (0, 90, 100, 102), 10),
        # the mark's box bottom is 4 pt higher: 4 < 0.5 × 10; no gap
        _line("16", (100, 88, 107, 98), 7),
        # back on the text's bottom after 0.5 pt: 0.5 ≤ 0.15 × 10 (the merged line's size)
        _line(", and", (107.5, 90, 130, 102), 10),
    ]
    merged = merge_same_baseline(lines)
    assert [ln.text for ln in merged] == ["on the Reddit dataset16, and"]
    assert merged[0].bbox == (0, 88, 130, 102)


def test_math_font_runs_get_word_spaces_where_the_glyphs_stand_apart(fixtures_dir: Path) -> None:
    """IOP's formulas are set in Cambria Math, spaced by glyph positions: the page (and
    poppler) shows `S = w1`, MuPDF's span text says `S=w1`."""
    from vaultd.parse.pymupdf import PyMuPDFParser

    pdf = fixtures_dir / "pdfs-eval" / "pdfs" / "iop_jpcs_2022_event_detection.pdf"
    text = " ".join(b.text for b in PyMuPDFParser().parse(pdf).blocks if b.page in (4, 5))
    assert "we denote this sentence \ufffd = \ufffd1, \ufffd2, …" in text
    assert "the relative distance \ufffd − \ufffd from" in text
    assert "\ufffd=" not in text


@given(st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=20),
       st.lists(st.floats(0, 30), min_size=20, max_size=20))
def test_respacing_only_adds_spaces_between_glyphs_that_stand_apart(text: str, gaps: list[float]) -> None:
    from vaultd.parse.glyphs import MIN_WORD_SPACING, math_spaced

    chars, x = [], 0.0
    for i, _ in enumerate(text):
        x0 = x + (gaps[i] if i else 0.0)
        chars.append({"bbox": (x0, 0.0, x0 + 5.0, 10.0)})
        x = x0 + 5.0
    out = math_spaced(text, chars, 10.0)
    assert out.replace(" ", "") == text.replace(" ", "") and out.startswith(text[0])
    apart = [chars[i]["bbox"][0] - chars[i - 1]["bbox"][2] for i in range(1, len(text))]
    wanted = sum(1 for i in range(1, len(text)) if apart[i - 1] > MIN_WORD_SPACING * 10.0
                 and not text[i].isspace() and not text[i - 1].isspace())
    assert out.count(" ") == text.count(" ") + wanted


def test_a_line_stretched_by_a_math_font_keeps_its_caption(fixtures_dir: Path) -> None:
    """Cambria Math declares an ascent of several ems, so MuPDF gives a caption line with a
    formula in it a box five lines high; read from the glyphs' baselines the line stays
    under the one before, in its caption, instead of becoming a paragraph of its own."""
    from vaultd.parse.pymupdf import PyMuPDFParser

    pdf = fixtures_dir / "pdfs-eval" / "pdfs" / "iop_jpcs_2022_event_detection.pdf"
    blocks = [b for b in PyMuPDFParser().parse(pdf).blocks if b.page == 4]
    [caption] = [b for b in blocks if b.type == "figure"]
    assert "sentence, and a graph encoder component incorporates" in caption.text
    assert "Finally, a classifier module is employed" in caption.text
    assert not any("graph encoder component incorporates" in b.text
                   for b in blocks if b.type == "paragraph")


def test_glyph_extent_is_an_em_high_at_the_baseline_and_inside_mupdf_s_box() -> None:
    from vaultd.parse.glyphs import glyph_extent

    spans = [{"origin": (0.0, 100.0), "size": 10.0}, {"origin": (40.0, 103.0), "size": 7.0}]
    assert glyph_extent(spans, 40.0, 160.0) == (91.0, 104.75)
    assert glyph_extent(spans, 95.0, 101.0) == (95.0, 101.0)


def test_a_piece_given_after_the_piece_on_its_right_goes_first() -> None:
    # MuPDF gives "g(t)]⊺ ∈ Rns," before the formula's start, or a heading's title before
    # its number badge; the printed line reads left to right.
    merged = merge_same_baseline([_line("g(t)]⊺ ∈ Rns,", (482.1, 407.2, 537.6, 422.2), 10),
                                   _line("a(t), b⊺", (470.0, 407.2, 482.0, 422.2), 10)])
    assert [ln.text for ln in merged] == ["a(t), b⊺g(t)]⊺ ∈ Rns,"]  # 0.1 pt apart: no space
    assert merged[0].bbox == (470.0, 407.2, 537.6, 422.2)


def test_a_line_in_the_next_column_is_never_put_in_front() -> None:
    # Level, in one source block, but a gutter apart: two lines, not one.
    merged = merge_same_baseline([_line("2.3 Design Considerations", (318, 308, 465, 321), 10),
                                   _line("Figure 1: Service-oriented architecture", (60, 309, 288, 319), 10)])
    assert len(merged) == 2


def test_an_accent_drawn_after_the_letter_it_stands_over_goes_in_front_of_it() -> None:
    from vaultd.parse.glyphs import accents_before
    from vaultd.parse.layout import combine_accents

    # PLOS 2012's "Fo¨rster": the diaeresis's box (63.8–66.8) is over the "o" (63.0–67.5).
    text = "Fo¨rst"
    boxes = [(58.1, 63.0), (63.0, 67.5), (63.8, 66.8), (67.5, 70.8), (70.8, 73.8), (73.8, 76.0)]
    chars = [{"bbox": (x0, 0.0, x1, 10.0)} for x0, x1 in boxes]
    assert combine_accents(accents_before(text, chars)) == "Först"
    # TeX's order (the accent first, over the letter after it) is left as it is.
    tex = [{"bbox": (x0, 0.0, x1, 10.0)} for x0, x1 in [(0, 5), (5.5, 8.5), (5, 10), (10, 14)]]
    assert accents_before("r´es", tex) == "r´es"


@given(st.text(alphabet="ab´¨ ", min_size=1, max_size=12), st.lists(st.floats(0, 8), min_size=12, max_size=12))
def test_placing_accents_only_reorders(text: str, widths: list[float]) -> None:
    from vaultd.parse.glyphs import accents_before

    x, chars = 0.0, []
    for w in widths[:len(text)]:
        chars.append({"bbox": (x, 0.0, x + w, 10.0)})
        x += w * 0.5
    assert sorted(accents_before(text, chars)) == sorted(text)


_SPAN_TEXT = st.one_of(st.text(st.sampled_from("aZ1 _-`"), max_size=12),  # ASCII only
                       st.text(st.sampled_from("aZé1 _-`´¨ˆ˜¸ˇ˘˙¯˛ΩЖ中"), max_size=12))
_FACE = st.sampled_from(["Times-Roman", "CambriaMath"])


@example([[("e`a", "Times-Roman", 255)], [("1`", "Times-Roman", 255), ("_`", "Times-Roman", 0)]])  # TeX's `` quotes
@example([[("Fo¨rster", "Times-Roman", 255), ("x=y", "CambriaMath", 255)]])
@given(st.lists(st.lists(st.tuples(_SPAN_TEXT, _FACE, st.sampled_from([0, 255])), min_size=1, max_size=4),
                max_size=6))
def test_the_span_scan_finds_every_accent_after_a_letter_and_every_math_run(
        lines: list[list[tuple[str, str, int]]]) -> None:
    from vaultd.parse.glyphs import ASCII_ACCENT, scan_spans
    from vaultd.parse.layout import SPACING_ACCENTS

    assert {ch for ch in SPACING_ACCENTS if ch.isascii()} == {ASCII_ACCENT}
    data = {"blocks": [{"lines": [{"spans": [{"text": t, "font": f, "alpha": a} for t, f, a in line]}
                                  for line in lines]},
                       {"type": 1}]}  # an image block has no lines
    spans = [sp for block in data["blocks"] for line in block.get("lines", ()) for sp in line["spans"]]
    scan = scan_spans(data)
    # the plain definitions: a letter (not a digit or "_") right before a spacing accent;
    # several glyphs in a math font; characters drawn with no opacity, and the others
    assert scan.accented == [sp for sp in spans if any(
        t[i - 1].isalpha() and t[i] in SPACING_ACCENTS for t in [sp["text"]] for i in range(1, len(t)))]
    assert scan.math == any("Math" in sp["font"] and len(sp["text"].strip()) > 1 for sp in spans)
    assert scan.hidden == sum(len(sp["text"]) for sp in spans if sp["alpha"] == 0)
    assert scan.shown == sum(len(sp["text"]) for sp in spans if sp["alpha"] == 255)


def test_the_word_space_after_an_expanded_ff_ligature_is_kept() -> None:
    # AASTeX's "spill oﬀ the bottom": MuPDF boxes the ligature's second f to 509.7, past
    # the glyph and over its own space (506.7 to 510.1); "the" starts at 510.1
    spans = [span("spill", 474.7, 492.4), span(" ", 492.4, 495.9), span("off", 495.9, 509.7),
             span(" ", 506.7, 510.1), span("the", 510.1, 524.0)]
    assert join_spans(spans) == "spill off the"
    # a word not ending in a ligature's letters keeps the rule as it was: no gap, no space
    assert join_spans([span("of", 495.9, 509.7), span(" ", 506.7, 510.1), span("the", 510.1, 524.0)]) == "ofthe"
