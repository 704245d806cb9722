"""The title page's furniture kept out of the paragraphs: authors' addresses read out of
place, banners, first-page footnotes, small-capital section heads, notes and the abstract's label (layouts v16, v17)."""

from __future__ import annotations

from vaultd.parse.classify import classify
from vaultd.parse.front import is_front_matter
from vaultd.parse.paras import Line, PageInfo
from vaultd.parse.structure import build_blocks


def _info(page: int) -> PageInfo:
    return PageInfo(number=page, label=None, width=612.0, height=792.0,
                    to_user=(1.0, 0.0, 0.0, -1.0, 0.0, 792.0))


def _ln(text: str, box: tuple[float, float, float, float], block: int, page: int = 1, *,
        size: float = 10.0, font: str = "Times-Roman", italic: bool = False) -> Line:
    return Line(text=text, bbox=box, size=size, bold=False, block=block, page=page,
                italic=italic, font=font)


def _body(first: str, last: str, x0: float, y0: float, block: int, n: int = 6) -> list[Line]:
    """A column's paragraph of ``n`` full lines, 12 pt apart."""
    words = "and so the text of this column goes on over a full line of the body here"
    texts = [first] + [words] * (n - 2) + [last]
    return [_ln(t, (x0, y0 + 12 * i, x0 + 236, y0 + 12 * i + 10), block) for i, t in enumerate(texts)]


def _texts(blocks: list, kind: str) -> list[str]:  # type: ignore[type-arg]
    return [b.text for b in blocks if b.type == kind]


def test_an_address_over_the_second_column_neither_joins_nor_breaks_its_sentence() -> None:
    # IEEE: three authors side by side; the third one's address stands over the right
    # column, which the reading order gives after the left column. The left column's last
    # sentence ends "how to" and goes on at the right column's top, under the address.
    lines = [
        _ln("A New Requirement Prioritization Model for Products", (77, 81, 538, 96), 0, size=14.0),
        _ln("Dr. Saeed Murtaza", (428, 129, 521, 142), 1, size=12.0),
        _ln("NUST, Pakistan", (438, 155, 511, 167), 2, size=11.0, italic=True),
        _ln("shouzib@yahoo.com", (427, 168, 519, 180), 2, size=11.0, italic=True),
        *_body("Abstract- As compared to bespoke software development, in market driven",
               "development of the model the study gives is outlined at the end here.", 62, 192, 3),
        *_body("Prioritizing software requirements helps to determine which requirements",
               "release but the biggest challenge is how to", 62, 629, 4),
        *_body("prioritize large number of requirements in case of market-driven software.",
               "and the last line of the column ends its sentence here at last.", 314, 192, 5),
    ]
    blocks = build_blocks([lines], [_info(1)], "pymupdf")
    paras = _texts(blocks, "paragraph")
    joined = next(p for p in paras if p.startswith("Prioritizing"))
    assert "how to prioritize large number of requirements" in joined
    assert not any("NUST" in p or "shouzib" in p for p in paras)
    assert not any(b.type == "heading" and "Murtaza" in b.text for b in blocks)


def test_a_banner_over_the_title_is_front_matter_and_a_title_opening_with_a_is_no_section() -> None:
    lines = [
        _ln("2010 International Conference on Data Storage and Data Engineering", (167, 44, 445, 54), 0),
        _ln("A New Requirement Prioritization Model", (77, 81, 538, 96), 1, size=14.0),
        _ln("Muhammad Atif Iqbal", (63, 129, 220, 141), 2, size=12.0),
        *_body("We study how the requirements of products sold on a market are ranked.",
               "and the last line of the column ends its sentence here at last.", 62, 192, 3),
    ]
    blocks = build_blocks([lines], [_info(1)], "pymupdf")
    assert _texts(blocks, "paragraph") == [b.text for b in blocks if b.text.startswith("We study")]
    assert [b.text for b in blocks if b.type == "front"] == [
        "2010 International Conference on Data Storage and Data Engineering", "Muhammad Atif Iqbal"]


def test_a_first_page_footnote_in_another_face_does_not_join_the_sentence_it_interrupts() -> None:
    # Scientific Reports: the affiliation note (8.5 pt Corbel) under a 9 pt Minion body,
    # between a sentence's two halves on pages 1 and 2.
    minion = "MinionPro-Regular"
    page1 = [_ln(f"Line {i} of the body text of the report, set in the body face as a whole line",
                 (156, 400 + 11 * i, 556, 409 + 11 * i), 0, size=9.0, font=minion) for i in range(20)]
    page1.append(_ln("there are many reports strongly highlight", (156, 620, 556, 629), 0, size=9.0,
                     font=minion))
    note = ["Department of Bioprocess development, Genetic Engineering and Biotechnology",
            "Research Institute, City of Scientific Research. Correspondence to S.H."]
    page1 += [_ln(t, (156, 709 + 10 * i, 556, 718 + 10 * i), 1, size=8.5, font="Corbel")
              for i, t in enumerate(note)]
    page2 = [_ln("that the low concentration of the nano-MgO is less toxic to human cells.",
                 (156, 48, 556, 57), 0, page=2, size=9.0, font=minion)]
    page2 += [_ln(f"Line {i} of the next page's body text, set in the body face as a whole line",
                  (156, 59 + 11 * i, 556, 68 + 11 * i), 0, page=2, size=9.0, font=minion) for i in range(20)]
    blocks = build_blocks([page1, page2], [_info(1), _info(2)], "pymupdf")
    body = next(b for b in blocks if b.text.startswith("Line 0 of the body"))
    assert "strongly highlight that the low concentration" in body.text
    assert "Department" not in body.text
    note_block = next(b for b in blocks if b.text.startswith("Department"))
    assert "that the low" not in note_block.text


def test_a_line_drawn_twice_over_itself_is_read_once() -> None:
    from vaultd.parse.line_pieces import drop_doubles

    banner = _ln("2010 International Conference on Data Storage", (167.0, 44.0, 445.0, 54.0), 0)
    again = _ln("2010 International Conference on Data Storage", (167.2, 44.1, 445.1, 54.2), 1)
    other = _ln("2010 International Conference on Data Storage", (167.0, 744.0, 445.0, 754.0), 2)
    assert drop_doubles([banner, again, other]) == [banner, other]


def test_numbered_heads_in_small_capitals_and_in_a_keywords_block_are_sections() -> None:
    from vaultd.parse.fontnames import is_small_caps_font

    # amsart: "1. Introduction" in CMCSC10, at the body's size
    assert is_small_caps_font("ABCDEF+CMCSC10") and is_small_caps_font("MinionPro-RegularSC")
    assert not is_small_caps_font("CMR10") and not is_small_caps_font("Arial-Desc")
    assert classify("1. Introduction", 12.0, False, 1, 12.0, True, small_caps=True) == ("heading", "1")
    assert classify("1. Introduction", 12.0, False, 1, 12.0, True)[0] == "paragraph"
    # IEEE: "I. INTRODUCTION" in the block that holds the keywords above it
    assert classify("I. INTRODUCTION", 10.0, False, 1, 10.0, False) == ("heading", "I")


def test_amsart_first_page_footnotes_are_front_matter() -> None:
    for text in ("Date: September 12, 2016.", "2010 Mathematics Subject Classification. 05B45, 52C20.",
                 "Key words and phrases. Tilings, triple diagrams."):
        assert is_front_matter(text, at_edge=False), text
    assert not is_front_matter("Date of the study was fixed in advance.", at_edge=False)


def test_a_copyright_mark_the_text_layer_maps_to_a_feminine_ordinal_is_still_one() -> None:
    # Cell Press's fonts map © to ª: "ª 2022 The Authors." in the first page's footer
    footer = "Steffen et al., 2022, Cell Reports 38, 110564 March 29, 2022 ª 2022 The Authors."
    assert is_front_matter(footer, at_edge=True, small=True)
    assert not is_front_matter("a 1ª 2022 edição do relatório", at_edge=True, small=True)


def test_notes_to_the_title_and_an_author_set_in_the_body_size_are_front_matter() -> None:
    # ACM sig-alternate (STOC 2007): LaTeX's \thanks notes at the first column's foot, in
    # the body's face and size, marked like the title and an author's name above them.
    lines = [
        _ln("Smooth Sensitivity and Sampling in Private Data Analysis∗", (54, 72, 546, 90), 0, size=17.0),
        _ln("Kobbi Nissim†", (120, 127, 194, 139), 1, size=12.0),
        *_body("We introduce a new, generic framework for private data analysis. The goal",
               "of instance-based noise in the context of data privacy.", 54, 224, 2, n=14),
        _ln("∗Part of the work was done while the authors were visiting", (54, 545, 293, 554), 3),
        _ln("the Institute for Pure and Applied Mathematics at UCLA.", (54, 556, 293, 565), 3),
        _ln("†Research partially supported by the Israel Science Foun-", (54, 594, 293, 603), 4),
        _ln("dation, and by the Frankel Center for Computer Science.", (54, 609, 293, 618), 4),
    ]
    blocks = build_blocks([lines], [_info(1)], "pymupdf")
    assert [p[:20] for p in _texts(blocks, "paragraph")] == ["We introduce a new, "]
    fronts = _texts(blocks, "front")
    assert any(t.startswith("∗Part of the work") for t in fronts)
    assert any(t.startswith("†Research partially") for t in fronts)


def test_a_paragraph_opening_with_a_mark_no_title_carries_stays_a_paragraph() -> None:
    lines = [
        _ln("Smooth Sensitivity and Sampling in Private Data Analysis", (54, 72, 546, 90), 0, size=17.0),
        *_body("We introduce a new, generic framework for private data analysis. The goal",
               "of instance-based noise in the context of data privacy.", 54, 224, 2, n=14),
        _ln("*Significant results are marked with an asterisk in every table.", (54, 545, 293, 554), 3),
    ]
    blocks = build_blocks([lines], [_info(1)], "pymupdf")
    assert any(t.startswith("*Significant") for t in _texts(blocks, "paragraph"))


def test_everything_between_the_title_and_the_abstract_s_label_is_the_title_block() -> None:
    # MDPI 2013: 14 authors (45 words) and two long addresses, then "Abstract:".
    authors = ", ".join(f"Author{i} Name{i} {i % 3 + 1}" for i in range(14))
    lines = [
        _ln("The Anticancer Effect of Fucoidan in PC-3 Prostate Cancer Cells", (50, 168, 456, 208), 0, size=18.0),
        _ln(authors[:95], (50, 222, 505, 234), 1), _ln(authors[95:190], (50, 236, 505, 248), 1),
        _ln(authors[190:], (50, 250, 505, 262), 1),
        _ln("1 Department of Pharmacology, School of Medicine, Jeju National University, 102", (50, 285, 541, 297), 2),
        _ln("Jejudaehakno, Jeju 690-756, Korea; E-Mails: one@example.org (H.-J.B.);", (50, 299, 541, 311), 2),
        _ln("two@example.org (J.-Y.H.); three@example.org (S.-C.K.); the lab of the institute.", (50, 313, 541, 325), 2),
        *_body("Abstract: Fucoidan, a sulfated polysaccharide, has a variety of activities.",
               "which shows that fucoidan is a candidate for the treatment of the cancer.", 78, 596, 3, n=8),
    ]
    blocks = build_blocks([lines], [_info(1)], "pymupdf")
    assert [p[:9] for p in _texts(blocks, "paragraph")] == ["Abstract:"]
    assert any(t.startswith("1 Department of Pharmacology") for t in _texts(blocks, "front"))


def test_an_abstract_in_another_face_goes_on_at_the_next_page_s_top() -> None:
    # PLOS Medicine: the abstract, 12 lines of 9.5 pt Helvetica under a 10 pt Minion body,
    # ends a sentence's first half at the first page's foot; it is no footnote.
    minion, helvetica = "MinionPro-Regular", "Helvetica"
    page1 = [_ln(f"Abstract line {i} of the study of the meetings, set across the whole column",
                 (200, 547 + 12 * i, 572, 556 + 12 * i), 0, size=9.5, font=helvetica) for i in range(11)]
    page1.append(_ln("the HIV/AIDS UNGASS was the only one followed by a", (200, 679, 563, 688), 0,
                     size=9.5, font=helvetica))
    page2 = [_ln("level of commitment that has likely contributed to the reversal of the trend.",
                 (200, 77, 576, 86), 0, page=2, size=9.5, font=helvetica)]
    page2 += [_ln(f"Body line {i} of the article in its own face, a full line of the column here",
                  (200, 300 + 12 * i, 576, 310 + 12 * i), 1, page=2, font=minion) for i in range(40)]
    blocks = build_blocks([page1, page2], [_info(1), _info(2)], "pymupdf")
    abstract = next(b for b in blocks if b.text.startswith("Abstract line 0"))
    assert "followed by a level of commitment" in abstract.text


def test_a_sentence_goes_on_after_an_article_into_a_number() -> None:
    page1 = [_ln(f"Line {i} of the body text of the paper, set as a whole line of its column",
                 (200, 400 + 12 * i, 570, 410 + 12 * i), 0) for i in range(25)]
    page1.append(_ln("commitments on NCDs made in 2011, as highlighted in a", (200, 700, 560, 710), 0))
    page2 = [_ln("2013 WHO Director-General's report describing that many plans were not", (200, 416, 567, 426),
                 0, page=2),
             _ln("multisectoral enough in their approach to the problem [45].", (200, 428, 567, 438), 0, page=2)]
    blocks = build_blocks([page1, page2], [_info(1), _info(2)], "pymupdf")
    body = next(b for b in blocks if b.text.startswith("Line 0"))
    assert "highlighted in a 2013 WHO Director-General's report" in body.text


def test_no_sentence_goes_on_from_a_formula_s_variable_or_into_a_running_head() -> None:
    from vaultd.parse.continuation import continues
    from vaultd.parse.paras import Para

    def para(text: str, page: int, y: float) -> Para:
        line = _ln(text, (200, y, 560, y + 10), 0, page=page)
        return Para("paragraph", [line], text, [(page, text)])

    prose = "The algorithm displays sensitivity to the threshold used in the merging step, the"
    assert not continues(para(prose, 1, 700), para("318 IEEE TRANSACTIONS ON VISUALIZATION AND GRAPHICS", 2, 40))
    assert not continues(para("|u′ (s)| 2 ds a", 1, 300), para("1", 1, 376))
    assert continues(para(prose, 1, 700), para("2013 WHO Director-General's report describing that", 2, 40))


def test_small_print_right_under_a_table_is_the_table_s_not_a_paragraph() -> None:
    # SciELO 2004: "Tasa de cambio: …" and "Fuentes: …" in 7 pt under a full-width table.
    lines = [_ln(f"Body line {i} of the results, a full line of the column in the body size",
                 (87, 100 + 12 * i, 529, 110 + 12 * i), 0, size=9.0) for i in range(30)]
    lines += [
        _ln("Tabla - Tendencias en la composición del gasto en salud por tipo de aportación.",
            (87, 492, 529, 501), 1, size=8.0),
        _ln("Tasa de cambio: 1990-2665, 1991-2948, 1992-3090, 1993-3,11, 1994-3,39.", (87, 726, 529, 733), 2,
            size=7.0),
        _ln("Fuentes: Secretaría de Salud y Servicios (SSA) Coordinados de Salud Pública.", (87, 742, 529, 749),
            3, size=7.0),
    ]
    blocks = build_blocks([lines], [_info(1)], "pymupdf")
    assert not any(t.startswith(("Tasa de cambio", "Fuentes")) for t in _texts(blocks, "paragraph"))
    assert any(t.startswith("Fuentes") for t in _texts(blocks, "table"))
