"""Block classification: headings, lists, equations (display formula pieces too), paragraphs."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vaultd.parse.paras import Line, PageInfo
from vaultd.parse.sentence_ends import is_scrap
from vaultd.parse.structure import build_blocks


def _page(*texts: str) -> tuple[list[list[Line]], list[PageInfo]]:
    lines = [
        Line(text=t, bbox=(72.0, 100.0 + 40 * i, 300.0, 110.0 + 40 * i), size=10.0, bold=False, block=i, page=1)
        for i, t in enumerate(texts)
    ]
    return [lines], [_info(1, has_images=False)]


def test_short_fragment_with_an_unmapped_bracket_glyph_is_an_equation_not_a_paragraph() -> None:
    pages, infos = _page("The loss is defined below for every triple of papers in the set.",
                         "\ufffdP Q, P +\ufffd", "\ufffd, 0")
    kinds = [b.type for b in build_blocks(pages, infos, "pymupdf")]
    assert kinds == ["paragraph", "equation", "equation"]


def test_short_prose_with_an_unmapped_glyph_stays_a_paragraph() -> None:
    pages, infos = _page("See caf\ufffd menu.")
    assert [b.type for b in build_blocks(pages, infos, "pymupdf")] == ["paragraph"]


def _styled_page(*lines: tuple[str, float, bool]) -> tuple[list[list[Line]], list[PageInfo]]:
    """One page of (text, size, bold) lines, each its own block, 40 pt apart."""
    pages, infos = _page(*(t for t, _, _ in lines))
    pages[0] = [replace(ln, size=size, bold=bold)
                for ln, (_, size, bold) in zip(pages[0], lines, strict=True)]
    return pages, infos


BODY = "Attention maps a query and a set of key-value pairs to an output, computed as a sum."


def test_numbered_heading_bullets_and_numbered_display_equation_get_their_types() -> None:
    pages, infos = _styled_page(
        ("3.2 Scaled Dot-Product Attention", 10.0, True),
        (BODY, 10.0, False), (BODY, 10.0, False),
        ("• queries and keys of dimension d", 10.0, False),
        ("Attention(Q, K, V) = softmax(QK^T / √d) V (1)", 10.0, False),
        (BODY, 10.0, False),
    )
    blocks = build_blocks(pages, infos, "pymupdf")
    kinds = [(b.type, b.text) for b in blocks]
    assert kinds[0] == ("heading", "3.2 Scaled Dot-Product Attention")
    assert ("list", "• queries and keys of dimension d") in kinds
    assert ("equation", "Attention(Q, K, V) = softmax(QK^T / √d) V (1)") in kinds
    assert all(b.section == "3.2 Scaled Dot-Product Attention" for b in blocks[1:])


def test_a_short_body_sentence_is_not_taken_for_a_heading() -> None:
    pages, infos = _styled_page((BODY, 10.0, False), ("This holds for all pairs.", 10.0, False),
                                ("Results in Table 2 hold as well", 10.0, False), (BODY, 10.0, False))
    kinds = [b.type for b in build_blocks(pages, infos, "pymupdf")]
    assert "heading" not in kinds


def _line(text: str, y: float, page: int, block: int) -> Line:
    return Line(text=text, bbox=(72.0, y, 300.0, y + 10.0), size=10.0, bold=False,
                block=block, page=page)


def _info(page: int, has_images: bool = True) -> PageInfo:
    return PageInfo(number=page, label=None, width=612.0, height=792.0,
                    to_user=(1.0, 0.0, 0.0, -1.0, 0.0, 792.0), has_images=has_images)


def test_a_paragraph_continued_after_a_figure_skips_the_sub_figure_labels_above_the_caption() -> None:
    # Page 1 ends mid-sentence; page 2 opens with a figure (sub-labels, then its caption)
    # and the sentence goes on below it: the labels must not be glued to that sentence.
    pages = [
        [_line("The projections of our embeddings are compared with the baseline", 700.0, 1, 0)],
        [_line("(a) SPECTER (b) SciBERT", 180.0, 2, 0),
         _line("Figure 2: t-SNE visualization of paper embeddings.", 196.0, 2, 1),
         _line("for a random set of papers, as the clusters show.", 240.0, 2, 2)],
    ]
    blocks = build_blocks(pages, [_info(1), _info(2)], "pymupdf")
    texts = [(b.type, b.text) for b in blocks]
    assert ("paragraph", "The projections of our embeddings are compared with the baseline "
            "for a random set of papers, as the clusters show.") in texts
    assert ("paragraph", "(a) SPECTER (b) SciBERT") in texts


def test_pieces_of_a_display_formula_are_equations_and_the_prose_after_them_starts_anew() -> None:
    pages, infos = _page(
        "The triplet loss is defined as follows for each query paper:",
        "L = max", "\u2212 d", "+ m",
        "where d is a distance function and m is the loss margin.",
        "f (xi ,Pj,\u03c4) = f0(q)",
    )
    kinds = [(b.type, b.text) for b in build_blocks(pages, infos, "pymupdf")]
    assert kinds == [
        ("paragraph", "The triplet loss is defined as follows for each query paper:"),
        ("equation", "L = max"), ("equation", "\u2212 d"), ("equation", "+ m"),
        ("paragraph", "where d is a distance function and m is the loss margin."),
        ("equation", "f (xi ,Pj,\u03c4) = f0(q)"),
    ]


def test_short_lines_with_a_symbol_but_prose_words_stay_paragraphs() -> None:
    pages, infos = _page("Results = good.", "See Table 2 \u2212 3.", "Set k = 5 here")
    assert [b.type for b in build_blocks(pages, infos, "pymupdf")] == ["paragraph"] * 3


@pytest.mark.parametrize(("caption", "caption_y"), [
    ("Figure 1: Overview.", 400.0),  # far below the body text: not its label
    # A table's caption is set above the table, directly under the body text before it.
    ("Table 2: Scores on the test set.", 116.0),
])
def test_body_text_above_a_caption_still_continues_after_the_float(
        caption: str, caption_y: float) -> None:
    pages = [[_line("The model is trained on pairs of papers that cite", 100.0, 1, 0),
              _line(caption, caption_y, 1, 1),
              _line("each other, and on random negatives.", 440.0, 1, 2)]]
    blocks = build_blocks(pages, [_info(1)], "pymupdf")
    assert blocks[0].text == ("The model is trained on pairs of papers that cite "
                              "each other, and on random negatives.")


@pytest.mark.parametrize("carried", [
    "by 5 \u03bcm, as measured.",  # a sentence's end carried to the next column
    "in C++.",
    "of the 2 \u00d7 2",
    "\uac1c\uc815 \uc804\u00b7\ud6c4 \ube44\uad50",  # Korean: a middle dot between words
    "xB \u2261 mB",  # inline math set on its own line around a built-up fraction
])
def test_a_short_line_that_goes_on_with_an_open_sentence_is_not_taken_for_a_formula(
        carried: str) -> None:
    pages, infos = _page("The layer was grown across the whole substrate and then etched", carried)
    blocks = build_blocks(pages, infos, "pymupdf")
    assert [b.type for b in blocks] == ["paragraph"] * len(blocks)
    assert carried in " ".join(b.text for b in blocks)


def test_body_text_right_above_a_caption_set_over_its_figure_is_not_a_label() -> None:
    # APA style: the caption comes first and the picture below it, so body text can run
    # right down to a caption; its sentence goes on after the figure.
    pages = [[_line("The distribution of the measured response times across all the", 160.0, 1, 0),
              _line("runs is plotted in", 172.0, 1, 0),
              _line("Figure 3: Response times.", 186.0, 1, 1),
              _line("the upper panel, for each of the servers.", 500.0, 1, 2)]]
    blocks = build_blocks(pages, [_info(1)], "pymupdf")
    assert blocks[0].text.endswith("runs is plotted in the upper panel, for each of the servers.")


def _ocr_block(rows: list[tuple[str, float]], top: float = 120.0, block: int = 0,
               font: str = "GlyphLessFont") -> list[Line]:
    """One block of an OCR text layer (one invisible font): (text, right edge) per row."""
    return [Line(text=t, bbox=(307.0, top + 12 * i, right, top + 12 * i + 9.0), size=8.5 + (i % 3) * 0.3,
                 bold=False, block=block, page=1, font=font)
            for i, (t, right) in enumerate(rows)]


OCR_ROWS = [("Results", 340.0), ("Opsin sequencing", 378.0),
            ("We amplified the target fragment of the SWS1-opsin", 541.0),
            ("gene in 56 passerine species from thirty families and", 541.0),
            ("one falconiform species, as the appendix lists.", 520.0)]


def test_in_an_ocr_layer_short_lines_over_a_paragraph_are_its_section_headings() -> None:
    pages = [_ocr_block(OCR_ROWS)]
    blocks = build_blocks(pages, [_info(1)], "pymupdf")
    assert [(b.type, b.text.strip()) for b in blocks][:2] == [("heading", "Results"),
                                                              ("heading", "Opsin sequencing")]
    body = blocks[2]
    assert body.type == "paragraph" and body.text.startswith("We amplified")
    assert body.section is not None and "Opsin sequencing" in body.section


def test_a_layer_with_real_fonts_keeps_a_short_first_line_in_its_paragraph() -> None:
    # The same shape in a born-digital layer: fonts decide there, not the line's length.
    pages = [_ocr_block(OCR_ROWS, font="")]
    texts = [(b.type, b.text) for b in build_blocks(pages, [_info(1)], "pymupdf")]
    assert not any(kind == "heading" for kind, _ in texts)


def test_in_an_ocr_layer_a_short_line_ending_a_sentence_is_not_a_heading() -> None:
    rows = [("It holds.", 360.0), ("We amplified the target fragment of the opsin gene", 541.0),
            ("in every species we sampled from the thirty families.", 530.0)]
    blocks = build_blocks([_ocr_block(rows)], [_info(1)], "pymupdf")
    assert "heading" not in [b.type for b in blocks]


def test_in_an_ocr_layer_the_figure_text_stacked_over_a_caption_is_not_a_paragraph() -> None:
    ticks = Line(text="300 350 400 450 500 550 600 650 700", bbox=(73.0, 181.0, 288.0, 188.0),
                 size=4.3, bold=False, block=1, page=1, font="GlyphLessFont")
    label = Line(text="Wavelength (nm)", bbox=(153.0, 191.0, 206.0, 198.0), size=6.8, bold=False,
                 block=2, page=1, font="GlyphLessFont")
    caption = Line(text="Figure 1. Spectral sensitivities of the cones of two birds.",
                   bbox=(65.0, 204.0, 286.0, 214.0), size=6.9, bold=False, block=3, page=1,
                   font="GlyphLessFont")
    prose = _ocr_block([("Birds see in four colours, and many of them see in the", 290.0),
                        ("ultraviolet, as the opsin genes show for the passerines.", 290.0)],
                       top=300.0, block=4)
    prose = [replace(ln, bbox=(65.0, ln.bbox[1], 290.0, ln.bbox[3])) for ln in prose]
    blocks = build_blocks([[ticks, label, caption, *prose]], [_info(1)], "pymupdf")
    paragraphs = [b.text for b in blocks if b.type == "paragraph"]
    assert not any("Wavelength" in t or "350" in t for t in paragraphs)
    assert any(t.startswith("Birds see") for t in paragraphs)
    assert [b.type for b in blocks if b.text.startswith("Figure 1.")] == ["figure"]


def _ocr_line(text: str, box: tuple[float, float, float, float], block: int, size: float = 8.5) -> Line:
    return replace(_at(text, box, block), size=size, font="GlyphLessFont")


def test_in_an_ocr_layer_a_tree_figure_s_scattered_labels_are_dropped_and_its_section_kept() -> None:
    # A scanned tree: leaf names whose OCR boxes overlap, blocks of several label lines, a
    # label that reads like a numbered heading; above the tree, a heading and body text.
    body = _ocr_block([("Phylogenetic reconstruction", 420.0),
                       ("The inferred tree is mostly well resolved and agrees with", 540.0),
                       ("the passerine trees published before, as the text shows.", 530.0)],
                      top=60.0, block=0)
    body = [replace(ln, bbox=(65.0, ln.bbox[1], ln.bbox[2], ln.bbox[3])) for ln in body]
    labels = [_ocr_line("88 Turdus (Turdidae)", (166.0, 100.0, 498.0, 112.0), 2),
              _ocr_line("20 Sturnus Sturnidae)", (165.0, 108.0, 501.0, 120.0), 3),
              _ocr_line("Regulus Regulidae e) kal Zosterops", (199.0, 118.0, 515.0, 128.0), 4),
              _ocr_line("Leiothrix Timaliidae) 0.71 Sylvia", (199.0, 128.0, 515.0, 138.0), 4),
              _ocr_line("* Ptiloris oo o Paradisaea (Paradisaeidae)", (293.0, 136.0, 521.0, 148.0), 5),
              _ocr_line("* iluroedus .", (254.0, 160.0, 533.0, 170.0), 6),
              _ocr_line("0.07", (114.0, 185.0, 131.0, 193.0), 7),
              _ocr_line("ambiguous vs uvs", (165.0, 200.0, 426.0, 212.0), 8)]
    caption = _ocr_line("Figure 2 Phylogenetic reconstruction of SWS1 opsin evolution.",
                        (65.0, 230.0, 533.0, 240.0), 9)
    blocks = build_blocks([[*body, *labels, caption]], [_info(1)], "pymupdf")
    kinds = [(b.type, b.text.strip()[:20]) for b in blocks]
    assert kinds == [("heading", "Phylogenetic reconst"), ("paragraph", "The inferred tree is"),
                     ("figure", "Figure 2 Phylogeneti")]


def test_in_an_ocr_layer_prose_right_above_a_caption_is_kept() -> None:
    # Body text whose last line sits just over a caption (a figure beside it, say) is prose:
    # it stays, even though its sentence goes on after the caption.
    prose = _ocr_block([("Birds see in four colours, and many of them see in the", 290.0),
                        ("ultraviolet, as the opsin genes of the passerines show for", 290.0)],
                       top=180.0, block=1)
    prose = [replace(ln, bbox=(65.0, ln.bbox[1], 290.0, ln.bbox[3])) for ln in prose]
    caption = _ocr_line("Figure 1. Spectral sensitivities of the cones of two birds.",
                        (65.0, 210.0, 286.0, 220.0), 2, size=6.9)
    blocks = build_blocks([[*prose, caption]], [_info(1)], "pymupdf")
    assert [b.type for b in blocks] == ["paragraph", "figure"]
    assert blocks[0].text.startswith("Birds see")


def test_in_an_ocr_layer_a_caption_set_one_line_per_block_stays_one_caption() -> None:
    # OCR sets each printed line as a block; the caption's small print goes on over the
    # blocks whatever their first letter, and the body text after it, set larger and
    # further off, is a paragraph of its own.
    caption = [_ocr_line("Figure 2 Phylogenetic reconstruction of SWS1 opsin evolution.",
                         (65.0, 606.0, 533.0, 615.0), 1, size=6.9),
               _ocr_line("3, RAG-1 and RAG-2 sequences (> 9 kbp), inferred by Bayesian inference.",
                         (65.0, 615.0, 527.0, 625.0), 2, size=6.2),
               _ocr_line("Posterior probabilities given at nodes, * indicating ≥ 0.95.",
                         (65.0, 625.0, 520.0, 635.0), 3, size=6.2)]
    body = _ocr_block([("The character optimisation infers a minimum of six changes,", 530.0),
                       ("two from VS to UVS and four from UVS back to VS, when the", 530.0),
                       ("clades with low support are kept as the Bayesian analysis", 530.0),
                       ("found them; collapsing them gives five, as the next part", 530.0),
                       ("of the results sets out for each of the families in turn.", 520.0)],
                      top=655.0, block=4)
    body = [replace(ln, bbox=(65.0, ln.bbox[1], ln.bbox[2], ln.bbox[3])) for ln in body]
    blocks = build_blocks([[*caption, *body]], [_info(1)], "pymupdf")
    assert [b.type for b in blocks] == ["figure", "paragraph"]
    assert blocks[0].text.rstrip().endswith("indicating ≥ 0.95.")
    assert blocks[1].text.startswith("The character optimisation")


def test_in_an_ocr_layer_a_sentence_skips_a_figure_label_to_go_on() -> None:
    # The label at the top of a plot ("VS UVS", far above its tick rows and caption) sits
    # between a sentence's two pieces in reading order; the sentence goes on past it.
    start = _ocr_block([("The VS class is both ancestral and the most common", 290.0),
                        ("to birds; its members are distributed", 250.0)], top=600.0, block=0)
    start = [replace(ln, page=1) for ln in start]
    label = replace(_ocr_line("VS UVS", (119.0, 94.0, 244.0, 104.0), 1), page=2)
    ticks = replace(_ocr_line("300 350 400 450 500", (73.0, 181.0, 288.0, 188.0), 2, size=4.3), page=2)
    caption = replace(_ocr_line("Figure 1. Spectral sensitivities of two birds.",
                                (65.0, 204.0, 286.0, 214.0), 3, size=6.6), page=2)
    rest = [replace(ln, page=2, bbox=(58.0, ln.bbox[1], 291.0, ln.bbox[3])) for ln in _ocr_block(
        [("throughout the avian phylogeny, and shifts to UVS have", 291.0),
         ("happened four or five times in birds as a whole.", 280.0)], top=293.0, block=4)]
    blocks = build_blocks([start, [label, ticks, caption, *rest]], [_info(1), _info(2)], "pymupdf")
    joined = [b.text for b in blocks if "distributed" in b.text]
    assert len(joined) == 1 and "distributed throughout the avian phylogeny" in joined[0]
    assert not any("VS UVS" in t and "throughout" in t for t in (b.text for b in blocks))


def test_references_on_a_line_of_its_own_in_the_body_font_start_the_reference_list() -> None:
    # IEEE sets "REFERENCES" in small capitals of the body's roman, as a block of its own.
    pages, infos = _styled_page(
        (BODY, 10.0, False), (BODY, 10.0, False), ("REFERENCES", 10.0, False),
        ("[1] A. Smith and B. Jones, “Sliding window filters,” in Proc. ACC, 2015, pp. 1–6.", 8.0, False),
        ("[2] C. Lee, “Outlier detection for GPS,” IEEE Trans. Aerosp., vol. 3, 2016.", 8.0, False),
    )
    blocks = build_blocks(pages, infos, "pymupdf")
    assert [b.type for b in blocks][-3:] == ["heading", "reference", "reference"]
    assert blocks[-1].section == "REFERENCES"


def _at(text: str, box: tuple[float, float, float, float], block: int, page: int = 1) -> Line:
    return Line(text=text, bbox=box, size=10.0, bold=False, block=block, page=page)


def test_a_sentence_split_at_a_stacked_fraction_stays_one_paragraph() -> None:
    # "for θ = ½ the scheme…": the denominator starts the next block, with the sentence.
    lines = [_at("The stability properties of the method are well known: for the", (33.0, 100.0, 284.0, 110.0), 0),
             _at("first choice, with h = 1", (33.0, 111.0, 150.0, 121.0), 0),
             _at("2 the unconditionally stable and energy preserving scheme is", (33.0, 124.0, 284.0, 134.0), 1),
             _at("recovered, as the next section shows for the collisions.", (33.0, 135.0, 270.0, 145.0), 1)]
    blocks = build_blocks([lines], [_info(1)], "pymupdf")
    assert [b.type for b in blocks] == ["paragraph"]
    assert "h = 1 2 the unconditionally stable" in blocks[0].text


def test_the_rest_of_a_line_split_off_at_a_superscript_joins_its_paragraph() -> None:
    lines = [_at("where v(t) are the linear velocities, m is the mass, and the", (33.0, 411.0, 284.0, 421.0), 0),
             _at("force fext = (fx, fy)ext", (33.0, 422.0, 100.0, 433.0), 0),
             _at("T are external forces acting on the particle.", (101.0, 422.0, 260.0, 433.0), 1)]
    blocks = build_blocks([lines], [_info(1)], "pymupdf")
    assert [b.type for b in blocks] == ["paragraph"]
    assert blocks[0].text.rstrip().endswith("(fx, fy)ext T are external forces acting on the particle.")


def test_a_paragraph_in_the_next_column_level_with_a_short_last_line_stays_apart() -> None:
    lines = [_at("The left column ends its paragraph here, and the last", (33.0, 700.0, 284.0, 710.0), 0),
             _at("line is short", (33.0, 711.0, 100.0, 721.0), 0),
             _at("Results in the right column start a paragraph of their own.", (302.0, 711.0, 553.0, 721.0), 1),
             _at("It goes on for a second line, as paragraphs do in this paper.", (302.0, 722.0, 553.0, 732.0), 1)]
    blocks = build_blocks([lines], [_info(1, has_images=False)], "pymupdf")
    assert [b.text[:9] for b in blocks if b.type == "paragraph"] == ["The left ", "Results i"]


def test_a_formula_s_scraps_are_no_paragraphs_but_a_symbol_inside_a_sentence_stays() -> None:
    lines = [_at("In particular, each training instance is a triplet of papers:", (33.0, 100.0, 284.0, 110.0), 0),
             _at("d", (60.0, 120.0, 66.0, 130.0), 1),
             _at(", 0", (200.0, 120.0, 215.0, 130.0), 2),
             _at("where the margin is chosen on the development set of the", (33.0, 140.0, 284.0, 150.0), 3),
             _at("papers, and the distance", (33.0, 151.0, 140.0, 161.0), 3),
             _at("d", (142.0, 163.0, 148.0, 173.0), 4),
             _at("is the Euclidean distance between the two vectors.", (33.0, 175.0, 284.0, 185.0), 5)]
    blocks = build_blocks([lines], [_info(1)], "pymupdf")
    assert [(b.type, b.text.strip()) for b in blocks if b.type != "paragraph"] == [
        ("equation", "d"), ("equation", ", 0")]
    assert any(b.text.rstrip().endswith("the distance d is the Euclidean distance between the two vectors.")
               for b in blocks if b.type == "paragraph")


def test_a_block_level_in_both_columns_is_read_one_column_after_the_other() -> None:
    # A word processor put the left column's figure caption and the right column's
    # section start, level with it, into one block.
    left = [_at("provide a response within 300 ms for most of the requests of a peak", (54.0, 337.0, 296.0, 347.0), 0),
            _at("load of five hundred requests per second, as the contract says.", (54.0, 348.0, 296.0, 358.0), 0)]
    mixed = [replace(_at("Figure 1: Service-oriented architecture of the platform", (60.0, 309.0, 288.0, 319.0), 7),
                     bold=True),
             replace(_at("2.3 Design Considerations", (318.0, 308.0, 465.0, 321.0), 7), bold=True),
             _at("Data replication algorithms used in commercial systems have", (318.0, 321.0, 560.0, 331.0), 7),
             _at("traditionally performed synchronous replica coordination.", (318.0, 332.0, 560.0, 342.0), 7)]
    blocks = build_blocks([[*left, *mixed]], [_info(1)], "pymupdf")
    kinds = [(b.type, b.text[:12]) for b in blocks]
    assert kinds == [("figure", "Figure 1: Se"), ("paragraph", "provide a re"),
                     ("heading", "2.3 Design C"), ("paragraph", "Data replica")]


def test_a_bold_caption_does_not_take_the_light_body_line_under_it() -> None:
    caption = Line(text="Figure 1: Service-oriented architecture of the platform", bbox=(60.0, 309.0, 288.0, 319.0),
                   size=10.0, bold=True, block=0, page=1)
    body = [_at("provide a response within 300 ms for most of the requests of a peak", (54.0, 327.0, 296.0, 337.0), 1),
            _at("load of five hundred requests per second, as the contract says.", (54.0, 338.0, 296.0, 348.0), 1)]
    blocks = build_blocks([[caption, *body]], [_info(1)], "pymupdf")
    assert [b.type for b in blocks] == ["figure", "paragraph"]


def test_pieces_of_one_printed_line_set_as_blocks_read_left_to_right() -> None:
    # Three blocks of one formula line, tops a hundredth of a point apart, right one first.
    lines = [_at("Let x denote the rover state vector, where", (323.2, 387.2, 524.9, 399.8), 0),
             _at("g(t)]⊺ ∈ Rns,", (482.1, 407.19, 537.6, 422.2), 1),
             _at("a(t), b⊺", (454.9, 407.2, 486.6, 422.2), 2),
             _at("x(t) = [p⊺(t), v⊺(t), q⊺(t), b⊺", (333.6, 407.2, 459.4, 420.4), 3)]
    text = " ".join(b.text for b in build_blocks([lines], [_info(1, has_images=False)], "pymupdf"))
    assert text.index("x(t) =") < text.index("a(t), b⊺") < text.index("g(t)]⊺")


def test_a_formula_in_a_mis_mapped_font_set_large_is_no_section() -> None:
    pages, infos = _styled_page(
        ("3.2 Consequences of associated sliding", 11.0, True), (BODY, 10.0, False),
        ("Duy ¼ lk \ufffd g0", 12.0, True), (BODY, 10.0, False))
    blocks = build_blocks(pages, infos, "pymupdf")
    assert [b.text for b in blocks if b.type == "heading"] == ["3.2 Consequences of associated sliding"]
    assert all(b.section == "3.2 Consequences of associated sliding" for b in blocks[1:])


def test_references_and_notes_start_the_reference_list() -> None:
    # MDPI 2012 heads its list "References and Notes".
    pages, infos = _styled_page(
        (BODY, 10.0, False), ("References and Notes", 10.0, True),
        ("1. Machida, M.; Yamada, O. Genomics of Aspergillus oryzae. DNA Res. 2005, 12, 1–12.", 8.0, False),
        ("2. Punt, P.J.; Biezen, N.V. Filamentous fungi as cell factories. Trends Biotechnol. 2002.", 8.0, False))
    blocks = build_blocks(pages, infos, "pymupdf")
    assert [b.type for b in blocks][-3:] == ["heading", "reference", "reference"]


def test_numbered_notes_after_a_short_line_are_apart_but_a_sentence_s_items_stay() -> None:
    notes = [_at("1) 손해보험의 표준약관 규정에 따르면, 보험기간 중에 발생한 급격하고도 우연한", (57.0, 700.0, 540.0, 709.0), 0),
             _at("외래의 사고를 상해로 정의함", (57.0, 710.0, 200.0, 719.0), 0),
             _at("2) 생명보험은 표준약관 “재해분류표”에서 “우발적인 외래의 사고”를 재해라고", (57.0, 720.0, 540.0, 729.0), 0),
             _at("정의함", (57.0, 730.0, 90.0, 739.0), 0)]
    assert [b.text[:2] for b in build_blocks([notes], [_info(1)], "pymupdf")] == ["1)", "2)"]
    prose = [_at("The pipeline handles the two cases that arise in practice, namely 1) when the", (57.0, 100.0, 540.0, 109.0), 0),
             _at("source is a PDF and the full text must be parsed, and", (57.0, 110.0, 540.0, 119.0), 0),
             _at("2) when the LaTeX source is available and is parsed instead of the PDF.", (57.0, 120.0, 500.0, 129.0), 0)]
    assert len(build_blocks([prose], [_info(1)], "pymupdf")) == 1


def test_a_run_in_lead_set_as_a_line_of_its_own_stays_in_its_paragraph() -> None:
    # ACL: "What is the best highlighting algorithm? We" (bold question, then the
    # paragraph's first word in roman) is a block of its own line; the paragraph goes on.
    lead = replace(_at("What is the best highlighting algorithm? We", (306.0, 454.0, 524.0, 468.0), 0),
                   bold=True, mixed=True)
    rest = [_at("conduct a study to identify the alignment algorithm best suited for", (306.0, 468.0, 524.0, 481.0), 1),
            _at("highlighting, and report what the annotators found most useful.", (306.0, 481.0, 500.0, 494.0), 1)]
    blocks = build_blocks([[lead, *rest]], [_info(1)], "pymupdf")
    assert [b.type for b in blocks] == ["paragraph"]
    assert blocks[0].text.startswith("What is the best highlighting algorithm? We conduct a study")


def test_a_piece_ending_on_a_preposition_goes_on_into_an_acronym() -> None:
    # MDPI, across a page break: "… method 1 for" | "LC-DAD-TOF was used in this study."
    end = _at("For general procedures see [87]; method 1 for", (57.0, 760.0, 300.0, 770.0), 0)
    nxt = replace(_at("LC-DAD-TOF was used in this study, with solvents of HPLC grade.", (57.0, 60.0, 540.0, 70.0), 0), page=2)
    blocks = build_blocks([[end], [nxt]], [_info(1), _info(2)], "pymupdf")
    assert [b.text for b in blocks if b.type == "paragraph"] == [
        "For general procedures see [87]; method 1 for LC-DAD-TOF was used in this study, with solvents of HPLC grade."]
    # A new paragraph opening with an ordinary word stays apart.
    nxt2 = replace(nxt, text="The distribution of disciplines is given in Figure 2.")
    assert len(build_blocks([[end], [nxt2]], [_info(1), _info(2)], "pymupdf")) == 2


def test_a_bold_line_that_runs_on_in_lowercase_under_it_is_no_heading() -> None:
    # ACM: a contributions list whose items open in bold on a line of their own.
    item = replace(_at("C1 We present an approach for linking component-based", (69.0, 429.0, 294.0, 438.0), 0),
                   bold=True, mixed=True)
    rest = _at("software architecture models and code.", (94.0, 440.0, 237.0, 449.0), 1)
    item2 = replace(_at("C2 We combine two specialized approaches to tran-", (69.0, 451.0, 296.0, 460.0), 2),
                    bold=True, mixed=True)
    rest2 = _at("sitively link documentation and code.", (94.0, 462.0, 260.0, 471.0), 3)
    blocks = build_blocks([[item, rest, item2, rest2]], [_info(1)], "pymupdf")
    assert "heading" not in [b.type for b in blocks]
    assert blocks[0].text == "C1 We present an approach for linking component-based software architecture models and code."


@pytest.mark.parametrize(("left", "right"), [
    # a proper noun after a word no sentence ends on (BMC 2014)
    ("lions moved from West to East Africa, with movement between East and",
     "South Africa (Bayes factor: 4.83/4.66). The older lineage stayed put."),
    # a citation list broken after its ";" (Frontiers 2018)
    ("as reported before (Bradford and Yang, 1980; Grichko and Glick, 2001b;",
     "Wessjohann et al., 2003). Similarly, ethylene rises under waterlogging."),
    # a confidence interval opening the next column (BMC 2024)
    ("the odds ratios for the three groups were 0.77 (0.62–0.96), 0.75",
     "(0.61–0.93), and 0.72 (0.58–0.89), against the lowest income group."),
])
def test_a_sentence_broken_at_the_column_goes_on_whatever_the_next_column_opens_with(
        left: str, right: str) -> None:
    lines = [_at("The first column's paragraph says what was found, in full, and then", (33.0, 690.0, 284.0, 700.0), 0),
             _at(left, (33.0, 701.0, 284.0, 711.0), 0),
             _at(right, (302.0, 80.0, 553.0, 90.0), 1),
             _at("And the paragraph ends with this line of the second column.", (302.0, 91.0, 553.0, 101.0), 1)]
    blocks = build_blocks([lines], [_info(1, has_images=False)], "pymupdf")
    assert [b.type for b in blocks] == ["paragraph"]
    assert f"{left} {right}" in blocks[0].text


def test_a_list_item_after_a_semicolon_still_starts_anew() -> None:
    lines = [_at("The survey asked three things: (i) how often the tool is used;", (33.0, 690.0, 284.0, 700.0), 0),
             _at("(ii) which of its features matter most to each respondent, in order.", (302.0, 80.0, 553.0, 90.0), 1)]
    blocks = build_blocks([lines], [_info(1, has_images=False)], "pymupdf")
    assert [b.text[:6] for b in blocks if b.type == "paragraph"] == ["The su", "(ii) w"]


def test_the_title_block_after_a_publisher_s_cover_page_is_front_matter() -> None:
    # IOP: page 1 is a cover page (journal, title, download stamp); the article's own title,
    # authors and affiliation follow on page 2.
    title = "A comprehensive nutritional supplement made from germinated wheat"
    cover = [replace(_at("IOP Conference Series: Earth and Environmental Science", (39.0, 35.0, 347.0, 51.0), 0), size=12.0),
             replace(_at(title, (39.0, 136.0, 554.0, 171.0), 1), size=16.0),
             replace(_at("This content was downloaded from IP address 112.133.244.33 on 31/08/2021 at 06:37",
                         (144.0, 700.0, 451.0, 708.0), 2), size=8.0)]
    body = ["The creation of new enriched and functional products contributes to the formation of",
            "a healthy diet for the whole population of the region, and this is what we studied here."]
    page2 = [replace(_at(title, (71.0, 191.0, 529.0, 234.0), 0, page=2), size=16.0),
             _at("V V Kazina, T N Safronova and E O Nikulina", (142.0, 259.0, 502.0, 269.0), 1, page=2),
             _at("Siberian Federal University, Krasnoyarsk, Russia", (142.0, 272.0, 400.0, 282.0), 2, page=2),
             *[_at(t, (142.0, 335.0 + 11 * i, 527.0, 345.0 + 11 * i), 3, page=2) for i, t in enumerate(body)]]
    blocks = build_blocks([cover, page2], [_info(1), _info(2)], "pymupdf")
    front = " ".join(b.text for b in blocks if b.type == "front")
    assert "V V Kazina" in front and "Siberian Federal University" in front
    assert [b.text for b in blocks if b.type == "paragraph"] == [" ".join(body)]


def test_the_lines_of_a_paragraph_set_as_blocks_of_their_own_stay_one_paragraph() -> None:
    # Wiley GCB: each line of a justified paragraph is a text block of its own, and the
    # next line may open with a capital ("(R" | "Core Team, 2020)") or look like a formula.
    texts = ["Statistical analysis was performed with the R statistical software (R",
             "Core Team, 2020). Mixed-effect nonparametric ANOVA (Type III",
             "+0.81ºC ± 0.28 SD; “OAW”: +0.84ºC ± 0.29 SD). Between January",
             "Wald F test) as an aligned rank transform procedure was used."]
    lines = [_at(t, (46.0, 479.0 + 13 * i, 290.0, 489.0 + 13 * i), i) for i, t in enumerate(texts)]
    # the next paragraph: indented, after a full stop
    lines.append(_at("Linear mixed models, using the R package lme4, were", (59.0, 531.0, 290.0, 541.0), 9))
    blocks = build_blocks([lines], [_info(1, has_images=False)], "pymupdf")
    assert [(b.type, b.text) for b in blocks] == [
        ("paragraph", " ".join(texts)),
        ("paragraph", "Linear mixed models, using the R package lme4, were")]


def test_a_full_line_ending_a_sentence_or_a_gap_under_it_ends_the_paragraph() -> None:
    first = _at("The first paragraph ends here with a full line and a full stop.", (46.0, 100.0, 290.0, 110.0), 0)
    nxt = _at("The next paragraph starts at the left edge right under it.", (46.0, 113.0, 290.0, 123.0), 1)
    far = _at("Another starts at the left edge after a paragraph's gap", (46.0, 133.0, 290.0, 143.0), 2)
    open_end = _at("This line ends no sentence and reaches the right edge but", (46.0, 113.0, 290.0, 123.0), 3)
    blocks = build_blocks([[first, nxt]], [_info(1, has_images=False)], "pymupdf")
    assert len(blocks) == 2
    blocks = build_blocks([[open_end, far]], [_info(1, has_images=False)], "pymupdf")
    assert len(blocks) == 2


def test_a_sentence_ending_in_a_note_mark_ends_the_paragraph_at_a_full_line() -> None:
    # Wiley SPE: "… flexibility and evolvability.3" then a new paragraph at the left edge.
    first = _at("the goal to increase flexibility and evolvability of the system.3", (46.0, 100.0, 290.0, 110.0), 0)
    nxt = _at("From a SE perspective, microservices and DevOps have similar", (46.0, 113.0, 290.0, 123.0), 1)
    assert len(build_blocks([[first, nxt]], [_info(1, has_images=False)], "pymupdf")) == 2


def test_a_list_item_goes_on_in_the_next_column() -> None:
    # CHI: a bullet item broken at the column, its rest opening the next column in lowercase.
    item = _at("• Primary measure (LitReview): If I were to write", (54.0, 700.0, 296.0, 710.0), 0)
    rest = _at("a literature review, it would be important for me to read this paper.", (318.0, 87.0, 558.0, 97.0), 1)
    blocks = build_blocks([[item, rest]], [_info(1, has_images=False)], "pymupdf")
    assert [(b.type, b.text) for b in blocks] == [
        ("list", "• Primary measure (LitReview): If I were to write a literature review, it would be "
                 "important for me to read this paper.")]


def test_a_paragraph_broken_by_a_table_goes_on_past_the_table_s_note() -> None:
    # BMC 2024: a paragraph ends a page mid-sentence; the next page opens with a table, its
    # note in small print, and then the sentence's rest.
    end = _at("The hazard ratios for the lowest and the highest income groups were 0.42 (0.31–0.57)",
              (305.0, 727.0, 541.0, 737.0), 0)
    caption = _at("Table 2 Adjusted hazard ratios (HRs) for COPD by household income", (57.0, 85.0, 305.0, 96.0), 0, page=2)
    note = replace(_at("Multivariate models were adjusted for: model 1: age (years); sex (male or female)",
                       (57.0, 296.0, 540.0, 305.0), 1, page=2), size=7.0)
    rest = _at("for participants with annual household income of at least 20,000 yuan.", (57.0, 375.0, 293.0, 389.0), 2, page=2)
    blocks = build_blocks([[end], [caption, note, rest]], [_info(1), _info(2)], "pymupdf")
    paragraphs = [b.text for b in blocks if b.type == "paragraph"]
    assert f"{end.text} {rest.text}" in paragraphs
    assert note.text in [b.text for b in blocks if b.type == "table"]  # the table's, no paragraph


def test_a_three_column_page_is_read_down_each_column() -> None:
    # PAHO (SciELO, 2001): three columns of 162 pt; the middle column's last sentence goes
    # on at the top of the right one, and the left column's paragraph starts lower down.
    def column(x: float, top: float, texts: list[str], block: int, last: float = 162.0) -> list[Line]:
        # (justified: every line full but a paragraph's last, "estudio en la zona
        # petrolera.", short as the page's is)
        return [_at(t, (x, top + 11 * i, x + (last if i == len(texts) - 1 else 162.0), top + 11 * i + 9), block)
                for i, t in enumerate(texts)]

    left = column(54.0, 164.0, ["En 1993, una asociación local de", "promotores de salud hizo un",
                                "estudio en la zona petrolera."], 0, last=130.0)
    middle = column(231.0, 72.0, ["Este estudio presenta las", "condiciones ambientales de la",
                                  "población que vive en la zona de"], 1)
    right = column(408.0, 72.0, ["influencia de los pozos petroleros", "del nordeste del Ecuador.",
                                 "Se seleccionaron dos grupos."], 2)
    blocks = build_blocks([[*middle, *left, *right]], [_info(1, has_images=False)], "pymupdf")
    assert [b.text for b in blocks] == [
        "En 1993, una asociación local de promotores de salud hizo un estudio en la zona petrolera.",
        "Este estudio presenta las condiciones ambientales de la población que vive en la zona de "
        "influencia de los pozos petroleros del nordeste del Ecuador. Se seleccionaron dos grupos."]


def test_column_cuts_fall_in_the_gutters_of_three_columns_only() -> None:
    from vaultd.parse.reading_order import column_cuts

    three = [(54.0, 100.0, 216.0, 700.0), (231.0, 72.0, 393.0, 700.0), (408.0, 72.0, 570.0, 700.0)]
    assert column_cuts(three, 612.0) == [223.5, 400.5]
    two = [(54.0, 100.0, 290.0, 700.0), (310.0, 72.0, 558.0, 700.0)]
    assert column_cuts(two, 612.0) == []


def test_a_bare_table_label_in_bold_takes_the_caption_text_under_it() -> None:
    # AGU (Space Weather 2025): "Table 1" in bold on a line of its own over the caption.
    label = replace(_at("Table 1", (35.0, 604.0, 61.0, 612.0), 6), bold=True, size=8.0)
    text = [replace(_at("Average Mean Absolute Error (MAE) for the Solar Wind Speed",
                        (35.0, 614.0, 241.0, 622.0), 6), size=8.0),
            replace(_at("Reconstruction at Earth for the Period 01/06/2020 to 28/06/2020",
                        (35.0, 624.0, 270.0, 632.0), 6), size=8.0)]
    blocks = build_blocks([[label, *text]], [_info(1, has_images=False)], "pymupdf")
    assert [(b.type, b.text) for b in blocks] == [
        ("table", "Table 1 Average Mean Absolute Error (MAE) for the Solar Wind Speed "
                  "Reconstruction at Earth for the Period 01/06/2020 to 28/06/2020")]


def test_a_citation_list_left_open_goes_on_into_the_next_column() -> None:
    # Wiley GCB: "(Nakamura et al., 2013; Peci et al., 2017;" | "Figure 7)." past a table.
    end = _at("solely from ocean warming (Nakamura et al., 2013; Peci et al., 2017;", (46.0, 727.0, 290.0, 737.0), 0)
    rest = _at("Figure 7).", (307.0, 531.0, 341.0, 542.0), 1)
    blocks = build_blocks([[end, rest]], [_info(1, has_images=False)], "pymupdf")
    assert [b.text for b in blocks] == [f"{end.text} {rest.text}"]


def test_an_ieee_table_label_takes_its_small_capital_caption_over_two_lines() -> None:
    # IEEE: "TABLE II" at 8 pt, its caption in small capitals at 6.4 pt, centred, in
    # blocks of their own, the first line ending on "FOR".
    label = replace(_at("TABLE II", (160.0, 244.0, 193.0, 252.0), 2), size=8.0)
    first = replace(_at("RESULTS OF ONE-WAY ANOVA OF REPLICATED EXPERIMENTS FOR", (62.0, 256.0, 290.0, 264.0), 2),
                    size=6.4)
    second = replace(_at("POINT-CLOUD-BASED METHOD.", (123.0, 268.0, 230.0, 276.0), 3), size=6.4)
    blocks = build_blocks([[label, first, second]], [_info(1, has_images=False)], "pymupdf")
    assert [(b.type, b.text) for b in blocks] == [
        ("table", "TABLE II RESULTS OF ONE-WAY ANOVA OF REPLICATED EXPERIMENTS FOR POINT-CLOUD-BASED METHOD.")]


def test_a_numbered_heading_set_in_two_fonts_is_no_run_in_lead() -> None:
    # JSS's "2. The class "zoo" and its methods": bold with the class name in typewriter;
    # the stop after the number is no sentence's end, so no run-in lead either
    pages, infos = _styled_page((BODY, 10.0, False), ('2. The class "zoo" and its methods', 14.3, True),
                                (BODY, 10.0, False), (BODY, 10.0, False))
    pages[0][1] = replace(pages[0][1], mixed=True)
    blocks = build_blocks(pages, infos, "pymupdf")
    assert (blocks[1].type, blocks[1].text) == ("heading", '2. The class "zoo" and its methods')
    # a bold lead run into its paragraph's first words still is one
    pages, infos = _styled_page((BODY, 10.0, False), ("What is the best highlighting algorithm? We", 10.0, True),
                                (BODY, 10.0, False))
    pages[0][1] = replace(pages[0][1], mixed=True)
    assert build_blocks(pages, infos, "pymupdf")[1].type == "paragraph"


def _hung(text: str, left: float, y: float, block: int, right: float = 524.0) -> Line:
    return Line(text=text, bbox=(left, y, right, y + 12.0), size=12.0, bold=False,
                block=block, page=1)


def test_a_list_item_goes_on_in_its_next_line_even_when_that_line_opens_with_a_capital() -> None:
    # German capitalises nouns: an item's line set as a text block of its own (MuPDF split
    # the item where each line's font was scaled a little differently) opens with one.
    pages = [[
        _hung("• Dies hier ist ein Blindtext zum Testen von Textausgaben. Wer diesen Text", 117.0, 379.0, 0),
        _hung("liest, ist selbst schuld. Ein Blindtext bietet mir wichtige", 128.5, 397.0, 1),
        _hung("Informationen. An ihm messe ich die Lesbarkeit einer Schrift.", 128.5, 415.0, 2, 400.0),
        _hung("Nach der Liste beginnt ein neuer Absatz am linken Rand der Spalte, wie immer.", 117.0, 445.0, 3),
    ]]
    blocks = build_blocks(pages, [_info(1)], "pymupdf")
    assert [(b.type, b.text.split()[-1]) for b in blocks] == [("list", "Schrift."), ("paragraph", "immer.")]


def test_a_paragraph_after_a_list_item_that_ended_its_sentence_stays_apart() -> None:
    pages = [[
        _hung("• Assess the trustworthiness of the synthesis – Assess the trustworthiness of", 117.0, 379.0, 0),
        _hung("the interpretations leading up to the synthesis and its many parts here.", 128.5, 397.0, 1),
        _hung("Note that thematic analysis was invented for the analysis of a body of work.", 128.5, 415.0, 2),
    ]]
    blocks = build_blocks(pages, [_info(1)], "pymupdf")
    assert [b.type for b in blocks] == ["list", "paragraph"]


def test_an_appendix_after_the_references_is_body_text_again() -> None:
    # APA sets "Appendix A" centred in the body's size and weight: nothing but its words
    # says the bibliography has ended.
    pages = [[
        _line("References", 80.0, 1, 0),
        _line("Shotton, M. A. (1989). Computer addiction? A study of computer dependency.", 105.0, 1, 1),
        _line("Appendix A", 300.0, 1, 2),
        _line("As shown in Figure A1, these results are impressive and hold for all pairs.", 330.0, 1, 3),
    ]]
    kinds = [(b.type, b.text.split()[0]) for b in build_blocks(pages, [_info(1)], "pymupdf")]
    assert ("reference", "Shotton,") in kinds
    assert ("paragraph", "As") in kinds and ("reference", "As") not in kinds


def test_an_entry_with_a_half_inch_hanging_indent_stays_one_entry_line_by_line() -> None:
    # Double-spaced APA references: each line a block of its own, continuation lines set
    # in by half an inch (36 pt).
    def at(text: str, left: float, y: float, block: int) -> Line:
        return Line(text=text, bbox=(left, y, 520.0, y + 12.0), size=12.0, bold=False,
                    block=block, page=1)
    pages = [[
        at("References", 275.0, 78.0, 0),
        at("Lassen, S. R., Steele, M. M., & Sailor, W. (2006). The relationship of school-wide", 72.0, 105.0, 1),
        at("behavior support to academic achievement in an urban middle school.", 108.0, 129.0, 2),
        at("Shotton, M. A. (1989). Computer addiction? A study of computer dependency.", 72.0, 176.0, 3),
    ]]
    refs = [b.text for b in build_blocks(pages, [_info(1)], "pymupdf") if b.type == "reference"]
    assert len(refs) == 2 and refs[0].endswith("urban middle school.")


def test_a_plots_markers_drawn_as_letters_are_no_paragraph() -> None:
    assert all(is_scrap(t) for t in ("GG", "G G", "GGGG", "d", ", 0", "2 1"))
    assert not any(is_scrap(t) for t in ("Ee is small", "an", "OK", "Fig"))


def test_a_sentence_goes_on_past_a_page_break_into_a_word_in_quotation_marks() -> None:
    pages = [[_line("subfigures can be compared to one another, as these are called", 700.0, 1, 0)],
             [_line("“small multiples” by Tufte, and many papers use them.", 80.0, 2, 0)]]
    blocks = build_blocks(pages, [_info(1), _info(2)], "pymupdf")
    assert [b.text for b in blocks] == [
        "subfigures can be compared to one another, as these are called "
        "“small multiples” by Tufte, and many papers use them."]


def test_a_line_holding_a_url_in_a_smaller_typewriter_face_stays_in_its_paragraph() -> None:
    def at(text: str, y: float, size: float, font: str, mixed: bool) -> Line:
        return Line(text=text, bbox=(256.0, y, 493.0, y + 10.0), size=size, bold=False, block=0,
                    page=1, font=font, mixed=mixed)
    pages = [[
        at("The package is available at the author resources page", 311.0, 10.0, "CharisSIL", False),
        at("at Elsevier (http://www.elsevier.com/locate/latex). The", 323.0, 8.5, "Inconsolatazi4-Regular", True),
        at("class may be moved or copied to a place, usually the one", 335.0, 10.0, "CharisSIL", False),
    ]]
    blocks = build_blocks(pages, [_info(1)], "pymupdf")
    assert [b.type for b in blocks] == ["paragraph"]


def test_a_numbered_enumeration_goes_on_with_its_next_number_in_the_next_column() -> None:
    def at(text: str, x: float, y: float) -> Line:
        return Line(text=text, bbox=(x, y, x + 220.0, y + 10.0), size=10.0, bold=False, block=0, page=1)
    pages = [[
        at("1. natbib.sty for citation processing; 2. geometry.sty for margin", 12.0, 442.0),
        at("settings; 3. fleqn.clo for left aligned equations;", 12.0, 454.0),
        at("4. graphicx.sty for graphics inclusion; 5. hyperref.sty optional", 267.0, 196.0),
    ]]
    texts = [b.text for b in build_blocks(pages, [_info(1)], "pymupdf")]
    assert any("3. fleqn.clo for left aligned equations; 4. graphicx.sty" in t for t in texts)


def test_an_italic_numbered_subsection_head_on_its_own_line_is_a_heading() -> None:
    def at(text: str, y: float, italic: bool, right: float = 369.0) -> Line:
        return Line(text=text, bbox=(72.0, y, right, y + 10.0), size=10.0, bold=False, block=0,
                    page=1, italic=italic)
    # (the head and its text in one text block: only the head's italics set it apart)
    pages = [[at("4.1 Formatting your paper", 232.0, True, 181.0),
              at("We strongly prefer to receive submissions in Rich Text Format and", 246.0, False),
              at("compose your paper in a standard word-processing application.", 258.0, False)]]
    blocks = build_blocks(pages, [_info(1)], "pymupdf")
    assert [(b.type, b.text.split()[0]) for b in blocks] == [("heading", "4.1"), ("paragraph", "We")]


def test_double_spaced_lines_set_one_a_block_make_one_paragraph_but_contents_entries_do_not() -> None:
    # A double-spaced manuscript: each line a block, an em between them, paragraphs told
    # apart by their first line's indent alone; the second paragraph's first line ends
    # its sentence at the margin and the next line is flush.
    def at(text: str, left: float, y: float, block: int, right: float = 537.0) -> Line:
        return Line(text=text, bbox=(left, y, right, y + 12.0), size=12.0, bold=False, block=block, page=1)
    rows = [("Nam dui ligula, fringilla a, euismod sodales, sollicitudin vel, wisi and more", 108.0),
            ("lorem non justo. Nam lacus libero, pretium at, lobortis vitae, ultricies et", 72.0),
            ("aliquet, tortor sed accumsan bibendum, erat ligula aliquet magna, vitae", 72.0),
            ("a mi. Morbi ac orci et nisl hendrerit mollis. Suspendisse ut massa, cras", 72.0),
            ("nascetur ridiculus mus. Aliquam tincidunt urna and then it goes on for", 72.0),
            ("Pellentesque cursus luctus mauris, which the paragraph ends with now.", 72.0),
            ("Von Davier et al. (2011) said this, too, and so did many others after them.", 108.0),
            ("Further evidence comes from other sources and is reported here in full", 72.0),
            ("as malesuada porttitor diam shows, and the rest of the paragraph goes on", 72.0),
            ("libero. Vivamus viverra fermentum felis, donec non pellentesque ante", 72.0),
            ("and ends here.", 72.0)]
    body = [at(text, left, 105.0 + 24.0 * k, k, 200.0 if text == "and ends here." else 537.0)
            for k, (text, left) in enumerate(rows)]
    blocks = build_blocks([body], [_info(1)], "pymupdf")
    assert [b.text.split()[:2] for b in blocks] == [["Nam", "dui"], ["Von", "Davier"]]
    toc = [at(f"1.{k} Section number {k} . . . . . . . . . . . . . . . . . . . . . . . {k}", 72.0,
              100.0 + 24.0 * k, k) for k in range(1, 11)]
    assert len(build_blocks([toc], [_info(1)], "pymupdf")) == 10


def test_a_double_spaced_ragged_manuscript_is_split_at_indents_only() -> None:
    # APA: double-spaced (an em between lines), ragged right, every line a block of its
    # own; a paragraph goes on past lines that end a sentence short of the margin and over
    # a page break, and a new one starts only where a first line is indented.
    def at(text: str, left: float, y: float, page: int, right: float) -> Line:
        return Line(text=text, bbox=(left, y, right, y + 12.0), size=12.0, bold=False,
                    block=int(y), page=page)
    rights = (536.0, 498.0, 521.0, 475.0, 530.0, 489.0, 512.0, 468.0, 527.0, 490.0)

    def page(n: int, starts: tuple[int, ...], count: int) -> list[Line]:
        return [at(f"P{n} line {k} goes on with the words of its sentence. Then more.",
                   108.0 if k in starts else 72.0, 100.0 + 24.0 * k, n, rights[k]) for k in range(count)]
    pages = [page(1, (0, 4, 7), 10), page(2, (3,), 6)]
    blocks = build_blocks(pages, [_info(1), _info(2)], "pymupdf")
    assert [b.text.split()[:3] for b in blocks] == [
        ["P1", "line", "0"], ["P1", "line", "4"], ["P1", "line", "7"], ["P2", "line", "3"]]
    assert blocks[2].text.endswith("P2 line 2 goes on with the words of its sentence. Then more.")
