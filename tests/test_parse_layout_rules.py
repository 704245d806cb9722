"""Layout rules on generated pages whose contents are known: figure text, tables ruled only
across, first-page front matter and title, headings told by their font, captions that go
on, and running headers an OCR layer reads differently on each page."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from _drawn_pdf import draw_lines, drawn_pdf
from _tables import table_quotes

from vaultd.parse.base import ParsedDocument
from vaultd.parse.pymupdf import load_pymupdf

BODY = [
    "Participants were recruited from four clinics over two years and gave written consent.",
    "Each visit lasted an hour and followed the same protocol in every clinic we visited.",
]


_pdf = drawn_pdf  # A4
_lines = draw_lines


def _texts(doc: ParsedDocument, kind: str) -> list[str]:
    """The blocks' texts of one type; for tables, each caption with its cells after it."""
    return table_quotes(doc.blocks) if kind == "table" else [b.text for b in doc.blocks if b.type == kind]


def test_labels_drawn_inside_a_figure_never_reach_the_text(tmp_path: Path) -> None:
    pymupdf = load_pymupdf()

    def page(p: Any) -> None:
        _lines(p, 72, 100, BODY)
        for i, label in enumerate(["Merging and Deduplication", "Ranking", "Clustering"]):
            box = pymupdf.Rect(100 + i * 140, 160, 220 + i * 140, 200)
            p.draw_rect(box, color=(0, 0, 0), width=1)
            p.insert_text((box.x0 + 6, box.y0 + 24), label, fontsize=9)
        p.draw_line(pymupdf.Point(220, 180), pymupdf.Point(240, 180), width=1)
        p.draw_line(pymupdf.Point(360, 180), pymupdf.Point(380, 180), width=1)
        p.insert_text((72, 230), "Figure 1: The three steps of the analysis.", fontsize=9)
        _lines(p, 72, 270, ["The analysis then went on to rank the challenges by relevance."])

    doc = _pdf(tmp_path / "f.pdf", page)
    text = " ".join(b.text for b in doc.blocks)
    for label in ("Merging and Deduplication", "Ranking", "Clustering"):
        assert label not in text
    assert _texts(doc, "figure") == ["Figure 1: The three steps of the analysis."]
    assert "The analysis then went on to rank the challenges by relevance." in _texts(doc, "paragraph")


def test_cells_of_a_table_ruled_only_across_join_their_table_not_a_paragraph(tmp_path: Path) -> None:
    pymupdf = load_pymupdf()
    rows = ["Corpus Papers Citations", "S2ORC 8.1M yes", "PubMed Central 2.6M yes"]

    def page(p: Any) -> None:
        _lines(p, 72, 80, ["The corpora compared in this study differ in size and in coverage."])
        for y in (100.0, 118.0, 160.0):  # top, mid and bottom rules: no vertical rule at all
            p.draw_line(pymupdf.Point(72, y), pymupdf.Point(400, y), width=0.5)
        _lines(p, 76, 113, rows[:1], size=9)
        _lines(p, 76, 134, rows[1:], size=9, leading=14)
        p.insert_text((72, 175), "Table 1: A comparison of corpora.", fontsize=10)
        _lines(p, 72, 210, ["S2ORC is the largest of them by a wide margin."])

    doc = _pdf(tmp_path / "t.pdf", page)
    caption, cells = [b for b in doc.blocks if b.type == "table"]
    assert caption.text == "Table 1: A comparison of corpora."
    assert cells.text == " ".join(rows)
    assert cells.markdown is not None and cells.markdown.startswith("| ")
    assert _texts(doc, "paragraph") == ["The corpora compared in this study differ in size and in coverage.",
                                        "S2ORC is the largest of them by a wide margin."]


def test_first_page_banners_dates_and_licence_are_front_matter_and_the_title_one_heading(
    tmp_path: Path,
) -> None:
    title = ["Tracking the evolutionary origins of", "dog-human cooperation: the Canine",
             "Cooperation Hypothesis"]

    def page(p: Any) -> None:
        p.insert_text((72, 60), "RESEARCH ARTICLE", fontsize=8)
        _lines(p, 72, 110, title, size=20, font="hebo", leading=24)
        p.insert_text((72, 200), "Received: 13 November 2013 / Accepted: 10 January 2014", fontsize=8)
        _lines(p, 72, 240, BODY)
        _lines(p, 72, 790, ["© 2014 The Authors. This is an open access article under the terms",
                            "of the Creative Commons Attribution License."], size=7, leading=9)

    doc = _pdf(tmp_path / "p.pdf", page)
    assert _texts(doc, "heading") == [" ".join(title)]
    front = _texts(doc, "front")
    assert "RESEARCH ARTICLE" in front
    assert any(t.startswith("Received: 13 November 2013") for t in front)
    assert any(t.startswith("© 2014 The Authors.") for t in front)
    assert _texts(doc, "paragraph") == [" ".join(BODY)]


def test_headings_set_only_in_another_font_give_the_section_path(tmp_path: Path) -> None:
    # Enough body text that the heads' face is a small share of the page, as in a paper.
    body = ["We propose a multicentre trial with teams in the province, run over two years"] * 7 \
        + ["in every clinic."]

    def page(p: Any) -> None:
        p.insert_text((72, 80), "Methods", fontsize=12, fontname="hebo")
        y = 100.0
        for head in ("Trial design and setting", "Outcome measures"):
            p.insert_text((72, y), head, fontsize=10, fontname="helv")  # sans heads, serif body
            y = _lines(p, 72, y + 13, body, font="tiro") + 12
        _lines(p, 72, y, ["Results follow in the next section of this report, for both arms."],
               font="tiro")

    doc = _pdf(tmp_path / "h.pdf", page)
    assert _texts(doc, "heading") == ["Methods", "Trial design and setting", "Outcome measures"]
    paras = [b for b in doc.blocks if b.type == "paragraph"]
    assert [b.section for b in paras[:2]] == ["Methods › Trial design and setting",
                                              "Methods › Outcome measures"]
    assert paras[0].text == " ".join(body)


def test_a_first_line_in_another_font_that_is_no_heading_stays_in_its_paragraph(tmp_path: Path) -> None:
    def page(p: Any) -> None:
        p.insert_text((72, 80), "Sample preparation followed the usual protocol for", fontsize=10,
                      fontname="tiit")  # one italic first line, found once: not a heading style
        _lines(p, 72, 93, ["Escherichia coli strains, grown overnight at 37 degrees."], font="tiro")

    doc = _pdf(tmp_path / "i.pdf", page)
    assert _texts(doc, "paragraph") == ["Sample preparation followed the usual protocol for "
                                        "Escherichia coli strains, grown overnight at 37 degrees."]
    assert _texts(doc, "heading") == []


def test_a_figure_doi_and_the_rest_of_its_caption_stay_with_the_caption(tmp_path: Path) -> None:
    def page(p: Any) -> None:
        _lines(p, 72, 80, ["The species occurs in broad sympatry with a larger relative, which"])
        p.draw_rect(load_pymupdf().Rect(72, 100, 300, 200), color=(0, 0, 0), fill=(0.8, 0.8, 0.8))
        p.insert_text((72, 215), "Fig 3. Distribution map of the species. Filled symbols:", fontsize=8)
        p.insert_text((72, 225), "males; open symbols: females.", fontsize=8)
        p.insert_text((72, 245), "doi:10.1371/journal.pone.0115884.g003", fontsize=8)
        _lines(p, 72, 280, ["inhabits fast-moving streams and is substantially larger."])

    doc = _pdf(tmp_path / "c.pdf", page)
    assert _texts(doc, "figure") == ["Fig 3. Distribution map of the species. Filled symbols: males; "
                                     "open symbols: females. doi:10.1371/journal.pone.0115884.g003"]
    assert _texts(doc, "paragraph") == [
        "The species occurs in broad sympatry with a larger relative, which inhabits fast-moving "
        "streams and is substantially larger."]


def test_a_running_header_read_a_little_differently_on_each_page_is_furniture(tmp_path: Path) -> None:
    headers = ["Odeen et al. BMC Evolutionary Biology 2011, 11:313",
               "Odeen et af, BMC Evolutionary Biology 2011, 11:313",
               "Odeen.et al: BMC Evolutionary Biology 2011, 11:313 Page 3 of 8"]

    def page(header: str, body: str) -> Callable[[Any], None]:
        def draw(p: Any) -> None:
            p.insert_text((60, 38), header, fontsize=7)
            _lines(p, 72, 120, [body])
        return draw

    bodies = ["Opsin genes were sequenced for every species.", "The tree is mostly well resolved.",
              "Shifts between violet and ultraviolet vision are frequent."]
    doc = _pdf(tmp_path / "o.pdf", *(page(h, b) for h, b in zip(headers, bodies, strict=True)))
    assert _texts(doc, "paragraph") == bodies


def test_a_caption_set_across_both_columns_keeps_its_right_half(tmp_path: Path) -> None:
    def page(p: Any) -> None:
        _lines(p, 45, 80, ["Wolves are cooperative breeders that rely on each other when",
                           "hunting. This overall high dependency on cooperative interactions"])
        _lines(p, 45, 130, ["FIGURE 3 | Social learning from a demonstrator. (B) shows"], size=7)
        _lines(p, 303, 130, ["the success of dogs in the conspecific demonstration."], size=7)
        _lines(p, 303, 160, ["with conspecifics requires wolves to pay close attention."])

    doc = _pdf(tmp_path / "w.pdf", page)
    assert _texts(doc, "figure") == ["FIGURE 3 | Social learning from a demonstrator. (B) shows "
                                     "the success of dogs in the conspecific demonstration."]
    assert _texts(doc, "paragraph") == [
        "Wolves are cooperative breeders that rely on each other when hunting. This overall high "
        "dependency on cooperative interactions with conspecifics requires wolves to pay close "
        "attention."]


def test_one_reference_per_entry_with_hanging_indents_blocks_and_column_breaks(tmp_path: Path) -> None:
    def page(p: Any) -> None:
        _lines(p, 57, 80, ["The results agree with earlier work on the genus."])
        p.insert_text((57, 110), "Literatura citada", fontsize=12, fontname="hebo")
        y = 130.0
        for first, rest in (("Ali, I., Yisa, J. & Jacob, J.O. 2019. Corrosion inhibitory",
                             ["potential of ethanol extract of Senna obtusifolia.", "Journal of Chemistry 44: 1-9."]),
                            ("Barnaby, A.G., Reid, R. & Warren, D. 2016. Antioxidant",
                             ["activity, total phenolics and fatty acids.", "Food Research 5: 3-8."])):
            p.insert_text((57, y), first, fontsize=9)  # first line and the rest: two text blocks
            y = _lines(p, 71, y + 40, rest, size=9, leading=11) + 40
        p.insert_text((57, 780), "Coelho, E.M.P. & Ishii, E. 2016. Chemical composition of", fontsize=9)
        _lines(p, 312, 60, ["the essential oil of a Senna species. Planta 8: 1-4."], size=9)  # next column
        p.insert_text((298, 90), "Kwada, A.D. & Tella, I.O. 2009. Infochemicals in plants.", fontsize=9)
        p.insert_text((298, 130), "Received: 24 July 2014; accepted: 21 December 2014.", fontsize=9)

    doc = _pdf(tmp_path / "r.pdf", page)
    assert _texts(doc, "reference") == [
        "Ali, I., Yisa, J. & Jacob, J.O. 2019. Corrosion inhibitory potential of ethanol extract of "
        "Senna obtusifolia. Journal of Chemistry 44: 1-9.",
        "Barnaby, A.G., Reid, R. & Warren, D. 2016. Antioxidant activity, total phenolics and fatty "
        "acids. Food Research 5: 3-8.",
        "Coelho, E.M.P. & Ishii, E. 2016. Chemical composition of the essential oil of a Senna "
        "species. Planta 8: 1-4.",
        "Kwada, A.D. & Tella, I.O. 2009. Infochemicals in plants.",
    ]
    assert _texts(doc, "front") == ["Received: 24 July 2014; accepted: 21 December 2014."]


def test_korean_set_one_line_per_block_forms_paragraphs_not_one_chunk_per_line(tmp_path: Path) -> None:
    first = ["한편 코로나-19가 전 세계적 유행단계에 돌입한", "와중에 국내 보험업계에서는 코로나-19를 과연 질",
             "병으로 보아야 할지 논란이 있다."]
    second = ["보험실무상 어떤 보험사는 코로나-19를 재해로", "인정하여 재해보험금을 지급하고 있다."]

    def page(p: Any) -> None:
        y = 100.0
        for lines in (first, second):
            for i, line in enumerate(lines):  # each line its own text block, as word processors write
                p.insert_text((75 if i == 0 else 65, y), line, fontsize=11, fontname="korea")
                y += 19
    doc = _pdf(tmp_path / "k.pdf", page)
    assert _texts(doc, "paragraph") == [" ".join(first), " ".join(second)]


def test_a_figure_made_of_tiny_text_stays_out_of_the_paragraphs(tmp_path: Path) -> None:
    def page(p: Any) -> None:
        _lines(p, 72, 300, BODY * 3)  # the page's body text, set at 10 pt
        _lines(p, 72, 80, ["The workshop identified the following topics, ranked by relevance."])
        for i, row in enumerate(["PL Evolution / lifecycle of long living systems  Evolution&Maintenance 27",
                                 "MBSE & PLE & long living systems  Evolution&Maintenance 25"]):
            p.insert_text((72, 120 + 6 * i), row, fontsize=3.7)
        p.insert_text((72, 150), "Figure 2: Topics identified in the workshop.", fontsize=9)

    doc = _pdf(tmp_path / "t.pdf", page)
    assert "Evolution&Maintenance" not in " ".join(b.text for b in doc.blocks)
    assert _texts(doc, "figure") == ["Figure 2: Topics identified in the workshop."]


def test_two_tables_side_by_side_under_one_caption_both_stay_out_of_the_text(tmp_path: Path) -> None:
    pymupdf = load_pymupdf()

    def page(p: Any) -> None:
        p.insert_text((72, 80), "Table 2: Scores of the two models on each of the datasets, as the "
                      "mean of three runs.", fontsize=10)  # the caption spans both tables
        for x0, x1 in ((90.0, 270.0), (320.0, 500.0)):  # two booktabs tables, rules level
            for y in (95.0, 111.0, 160.0):
                p.draw_line(pymupdf.Point(x0, y), pymupdf.Point(x1, y), width=0.5)
        _lines(p, 94, 106, ["DS Base Ours"], size=9)
        _lines(p, 94, 126, ["AB 0.050 0.249", "AD 0.104 1.010"], size=9, leading=14)
        _lines(p, 324, 106, ["DS Base Ours"], size=9)
        _lines(p, 324, 126, ["GE 0.059 0.234", "HI 0.449 0.483"], size=9, leading=14)
        _lines(p, 72, 200, BODY)

    doc = _pdf(tmp_path / "t2.pdf", page)
    assert _texts(doc, "paragraph") == [" ".join(BODY)]
    [table] = _texts(doc, "table")
    assert "AB 0.050 0.249" in table and "HI 0.449 0.483" in table


def test_a_figure_s_grid_between_two_table_captions_is_neither_table(tmp_path: Path) -> None:
    pymupdf = load_pymupdf()

    def booktabs(p: Any, y: float, rows: list[str]) -> None:
        for ry in (y, y + 16.0, y + 50.0):
            p.draw_line(pymupdf.Point(200, ry), pymupdf.Point(400, ry), width=0.5)
        _lines(p, 204, y + 11.0, rows[:1], size=9)
        _lines(p, 204, y + 30.0, rows[1:], size=9, leading=14)

    def page(p: Any) -> None:
        p.insert_text((72, 70), "Table 2: DCR scores of the two models on each dataset.", fontsize=10)
        booktabs(p, 80.0, ["DS Base Ours", "AB 0.050 0.249", "AD 0.104 1.010"])
        for x in range(120, 281, 40):  # a plot's grid, ruled both ways, between the tables
            p.draw_line(pymupdf.Point(x, 160), pymupdf.Point(x, 280), width=0.3)
        for y in range(160, 281, 30):
            p.draw_line(pymupdf.Point(120, y), pymupdf.Point(280, y), width=0.3)
        p.insert_text((150, 292), "Validation score", fontsize=8)
        p.insert_text((72, 320), "Figure 4: Scores against privacy for each dataset.", fontsize=9)
        _lines(p, 72, 350, BODY)
        p.insert_text((72, 420), "Table 3: MLE when a quarter of the values are missing.", fontsize=10)
        booktabs(p, 430.0, ["DS MLE Delta", "AD 0.813 -0.001", "KI 0.868 -0.008"])

    doc = _pdf(tmp_path / "g.pdf", page)
    first, second = _texts(doc, "table")
    assert "AD 0.104 1.010" in first and "KI 0.868 -0.008" in second
    assert "Validation" not in first + second
    assert _texts(doc, "paragraph") == [" ".join(BODY)]


def test_labels_set_on_a_diagram_s_top_edge_are_the_figure_s(tmp_path: Path) -> None:
    pymupdf = load_pymupdf()

    def page(p: Any) -> None:
        _lines(p, 72, 100, BODY)
        # "OR 1  Alice  website" stand on the boxes' top edge, mostly above it.
        for i, label in enumerate(["OR 1", "Alice", "website"]):
            x = 100 + i * 140
            p.draw_rect(pymupdf.Rect(x, 200, x + 100, 260), color=(0, 0, 0), width=1)
            p.insert_text((x + 10, 198), label, fontsize=9)
        p.insert_text((72, 290), "Figure 1: Alice builds a two-hop circuit and begins fetching a "
                      "web page from the website, one cell at a time.", fontsize=9)
        _lines(p, 72, 330, ["The circuit is then extended hop by hop, as the next section explains."])

    doc = _pdf(tmp_path / "e.pdf", page)
    text = " ".join(_texts(doc, "paragraph"))
    assert "Alice" not in text and "website" not in text
    assert "The circuit is then extended hop by hop" in text


def test_lines_of_code_in_a_typewriter_face_are_no_headings(tmp_path: Path) -> None:
    body = ["We propose a multicentre trial with teams in the province, run over two years"] * 7 \
        + ["in every clinic."]

    def page(p: Any) -> None:
        y = 80.0
        for code in ("R> hod <- join(hod)", "R> all <- sum(freq)"):
            p.insert_text((72, y), code, fontsize=10, fontname="cour")  # code, then prose
            y = _lines(p, 72, y + 20, body, font="tiro") + 12

    doc = _pdf(tmp_path / "c.pdf", page)
    assert _texts(doc, "heading") == []


def test_a_face_the_captions_also_use_heads_sections_at_its_own_size(tmp_path: Path) -> None:
    # PLOS 2012: subsection heads in the sans face at 10 pt, the same face the (long)
    # captions use at 8 pt; section heads in another face, straight over a subsection head.
    body = ["We propose a multicentre trial with teams in the province, run over two years"] * 5 \
        + ["in every clinic."]
    caption = ["Figure 1. Absorption spectra of the variants at four pH values, normalised"] * 6

    def page(p: Any) -> None:
        y = 70.0
        for section, subsection in (("Materials and Methods", "Mutagenesis"), ("Results", "Data analysis")):
            p.insert_text((72, y), section, fontsize=10, fontname="hebo")
            p.insert_text((72, y + 20), subsection, fontsize=10, fontname="helv")
            y = _lines(p, 72, y + 34, body, size=9, font="tiro", leading=11) + 14
            y = _lines(p, 72, y, caption, size=8, font="helv", leading=10) + 20

    def first(p: Any) -> None:  # (page 1 has rules of its own: title, front matter)
        _lines(p, 72, 80, body, size=9, font="tiro", leading=11)

    doc = _pdf(tmp_path / "p.pdf", first, page)
    assert _texts(doc, "heading") == ["Materials and Methods", "Mutagenesis", "Results", "Data analysis"]
    paras = [b for b in doc.blocks if b.type == "paragraph" and b.page == 2]
    assert paras[0].section == "Materials and Methods › Mutagenesis"


def test_a_frame_around_a_figure_and_its_caption_still_bounds_the_figure() -> None:
    # BMC 2011 draws one cluster from the plots down past the caption's first line (469 pt
    # on an A4 page): the figure is that cluster down to the caption.
    from types import SimpleNamespace

    from vaultd.parse.figures import figure_region

    page = SimpleNamespace(rect=SimpleNamespace(width=595.3, height=793.7))
    caption = (63.0, 469.0, 532.0, 477.0)
    assert figure_region(page, caption, None, [(57.0, 90.0, 539.0, 531.0)]) == (53.0, 86.0, 543.0, 469.0)
    # A cluster that starts under the caption with another caption right under it is
    # that caption's figure; with no caption under it, it is this caption's figure, set
    # under it (MDPI 2012 sets its captions over their figures).
    below = [(57.0, 480.0, 539.0, 531.0)]
    assert figure_region(page, caption, None, below, others=[(63.0, 540.0, 532.0, 548.0)]) is None
    assert figure_region(page, caption, None, below) == (53.0, 477.0, 543.0, 535.0)


def test_a_row_of_tick_labels_is_no_prose_inside_a_figure(tmp_path: Path) -> None:
    pymupdf = load_pymupdf()

    def page(p: Any) -> None:
        _lines(p, 72, 60, BODY)
        for x in range(90, 500, 40):
            p.draw_line(pymupdf.Point(x, 120), pymupdf.Point(x + 30, 250), width=0.5)
        p.insert_text((120, 245), "2 - 0 1 - 1 0 - 2 2 - 0 1 - 1 0 - 2 1 - 1 0 - 2", fontsize=10)
        p.insert_text((66, 280), "Figure 2 Evolved parameters and the resulting dynamics of the fights.", fontsize=9)
        _lines(p, 72, 330, ["The turn-taking strategy is characterised by strongly negative values."])

    doc = _pdf(tmp_path / "ticks.pdf", page)
    text = " ".join(_texts(doc, "paragraph") + _texts(doc, "equation"))
    assert "2 - 0" not in text and "The turn-taking strategy is characterised" in text


def test_numbered_heads_in_their_own_face_smaller_than_the_body_are_headings(tmp_path: Path) -> None:
    body = ["Simulated evolutionary dynamics show that the strategy spreads in the population"] * 5 \
        + ["within a few generations."]

    def first(p: Any) -> None:
        _lines(p, 72, 80, body, font="tiro")

    def page(p: Any) -> None:
        y = 80.0
        for head in ("3.1 Evolutionary dynamics", "3.2. Competition experiments"):
            p.insert_text((72, y), head, fontsize=9.2, fontname="helv")
            y = _lines(p, 72, y + 13, body, font="tiro") + 16

    doc = _pdf(tmp_path / "n.pdf", first, page)
    assert _texts(doc, "heading") == ["3.1 Evolutionary dynamics", "3.2. Competition experiments"]


def test_a_table_under_a_long_caption_and_its_note_is_found_from_the_caption_s_end(tmp_path: Path) -> None:
    pymupdf = load_pymupdf()
    caption = ["Table 1. LC-MS de-replication of some of the important secondary metabolite",
               "pathways from the two full genome sequenced strains, with the compounds named",
               "after their producers in the literature and in the databases we searched for",
               "the presence of these types of compounds, based on UV spectra and masses.",
               "* New compounds reported here for the first time."]
    rows = ["Metabolite A. flavus A. oryzae", "Kojic acid + +", "Aflatoxin + -", "Aflatrem + -"]

    def page(p: Any) -> None:
        _lines(p, 72, 60, BODY)
        y = _lines(p, 78, 120, caption, size=9, leading=13)  # one block, 66 pt over the table
        for ry in (y + 4, y + 20, y + 80):
            p.draw_line(pymupdf.Point(68, ry), pymupdf.Point(528, ry), width=0.5)
        _lines(p, 114, y + 16, rows[:1], size=9)
        _lines(p, 117, y + 34, rows[1:], size=9, leading=15)
        _lines(p, 72, y + 120, ["The two strains share most of the pathways, as the table shows."])

    doc = _pdf(tmp_path / "t1.pdf", page)
    [table] = _texts(doc, "table")
    assert "Kojic acid + +" in table and "Aflatrem + -" in table
    assert not any("Kojic" in t for t in _texts(doc, "paragraph"))


def test_authors_set_as_large_as_headings_are_front_matter_not_sections(tmp_path: Path) -> None:
    # ACM's acmart sets each author's name at 12 pt over a 9 pt body, with the affiliation
    # and address under it: none of it heads the abstract's or any section's path.
    abstract = ["Software development involves creating various artifacts at different levels",
                "of abstraction, and links between them help to keep them consistent. We",
                "present an approach that recovers these links between the documentation",
                "and the code of a system, and we evaluate it on five open-source projects."]

    def page(p: Any) -> None:
        _lines(p, 72, 80, ["Recovering Trace Links Between Software Documentation"], size=17, font="hebo")
        for x, name in ((72, "Jan Keim"), (255, "Sophie Corallo Hey"), (430, "Anne Koziolek")):
            p.insert_text((x, 120), name, fontsize=12, fontname="helv")  # a row across the page
            _lines(p, x, 136, ["Karlsruhe Institute", "Karlsruhe, Germany"], size=9, font="helv",
                   leading=11)
        p.insert_text((72, 190), "ABSTRACT", fontsize=10, fontname="hebo")
        _lines(p, 72, 206, abstract, size=9, font="tiro", leading=11)

    doc = _pdf(tmp_path / "acm.pdf", page)
    front = " ".join(_texts(doc, "front"))
    assert "Jan Keim" in front and "Anne Koziolek" in front and "Karlsruhe, Germany" in front
    assert "Sophie Corallo Hey" in front
    assert _texts(doc, "heading") == ["Recovering Trace Links Between Software Documentation", "ABSTRACT"]
    [para] = [b for b in doc.blocks if b.type == "paragraph" and b.text.startswith("Software")]
    assert para.section == "ABSTRACT"


def test_a_figure_set_under_its_caption_keeps_its_labels_out_of_the_text(tmp_path: Path) -> None:
    # MDPI 2012: "Figure 1." over rows of structure drawings, each row with its names
    # under it, then the body text goes on.
    pymupdf = load_pymupdf()

    def page(p: Any) -> None:
        y = _lines(p, 72, 80, BODY)
        p.insert_text((150, y + 10), "Figure 1. Known compounds from the two species.", fontsize=10)
        for row in range(3):
            top = y + 24 + 90 * row
            for col in range(3):
                p.draw_rect(pymupdf.Rect(100 + 140 * col, top, 180 + 140 * col, top + 50),
                            color=(0, 0, 0), width=0.8)
                p.insert_text((110 + 140 * col, top + 30), "OH", fontsize=8)
            p.insert_text((100, top + 64), "Aflatoxin    Kojic acid    Asperfuran", fontsize=8)
        _lines(p, 72, y + 24 + 90 * 3 + 20, ["The screening found every one of these compounds in "
                                              "both strains, in the same amounts."])

    doc = _pdf(tmp_path / "f.pdf", page)
    paragraphs = _texts(doc, "paragraph")
    assert not any("OH" in t or "Aflatoxin" in t for t in paragraphs)
    assert paragraphs[-1] == ("The screening found every one of these compounds in both strains, "
                              "in the same amounts.")
    assert _texts(doc, "figure") == ["Figure 1. Known compounds from the two species."]


def test_text_over_a_white_panel_on_a_figure_page_is_no_figure_text(tmp_path: Path) -> None:
    # An old SciELO layout lays a white, unstroked rectangle under each page's text; the
    # short lines of its three columns must stay the paper's text, not a figure's.
    pymupdf = load_pymupdf()
    column = ["Los líderes de las comunidades", "colaboraron en la selección", "de las familias del estudio."]

    def page(p: Any) -> None:
        p.insert_text((100, 72), "FIGURA 1. Mapa de la zona de estudio.", fontsize=9)
        p.draw_rect(pymupdf.Rect(100, 90, 500, 260), color=(0, 0, 0), width=0.8)  # the map
        p.draw_rect(pymupdf.Rect(42, 300, 558, 700), color=None, fill=(1, 1, 1))
        for x in (50, 220, 390):
            _lines(p, x, 320, column, size=9)

    doc = _pdf(tmp_path / "w.pdf", page)
    assert sum("colaboraron en la selección" in t for t in _texts(doc, "paragraph")) == 3


def test_labels_of_a_figure_with_its_caption_beside_it_never_reach_the_text(tmp_path: Path) -> None:
    # Wiley GCB: the figure on the left, its caption in a narrow column at its right, level.
    pymupdf = load_pymupdf()

    def page(p: Any) -> None:
        _lines(p, 46, 80, BODY)
        p.draw_rect(pymupdf.Rect(46, 160, 180, 260), color=(0, 0, 0), width=0.8)
        p.draw_rect(pymupdf.Rect(200, 160, 330, 260), color=(0, 0, 0), width=0.8)
        p.draw_rect(pymupdf.Rect(46, 275, 330, 360), color=(0, 0, 0), width=0.8)  # panel (c)
        for x, label in ((60, "Present OW OAW"), (210, "Jan Feb Mar Apr May")):
            p.insert_text((x, 250), label, fontsize=6)
        p.insert_text((60, 350), "OW/OAW", fontsize=6)
        caption = ["FIGURE 2 Seasonal climatology at", "the three study locations, with the",
                   "range of each month shown."]
        _lines(p, 400, 170, caption, size=8, leading=10)
        _lines(p, 46, 400, BODY)

    doc = _pdf(tmp_path / "side.pdf", page)
    paragraphs = _texts(doc, "paragraph")
    assert not any("Present OW" in t or "Jan Feb" in t or "OW/OAW" in t for t in paragraphs)
    assert _texts(doc, "figure")[0].startswith("FIGURE 2 Seasonal climatology")


def test_a_program_listing_is_one_code_chunk_and_the_sentence_it_breaks_goes_on(tmp_path: Path) -> None:
    # PPoPP: a listing in a typewriter face, numbered in the body's face, between a
    # sentence's two halves.
    def page(p: Any) -> None:
        _lines(p, 54, 640, ["Each thread has a handle of its own,", "with a head and a tail pointer,",
                            "and a request of each kind that", "the thread publishes for help.",
                            "The queue keeps one per thread.", "Logically, an"])
        code = ["struct EnqReq", "  void *val;", "  struct { int pending : 1; } state;", "}"]
        for i, line in enumerate(code):
            p.insert_text((320, 80 + 10 * i), str(10 + i), fontsize=5)
            p.insert_text((332, 80 + 10 * i), line, fontsize=7, fontname="cour")
        p.insert_text((320, 140), "Listing 2. Structures and auxiliary methods.", fontsize=9)
        _lines(p, 320, 170, ["enqueue request is a triple of a value, a flag and an id,",
                             "and a thread fills it in before it asks for help."])

    doc = _pdf(tmp_path / "code.pdf", page)
    assert [" ".join(t.split()) for t in _texts(doc, "code")] == [
        "10 struct EnqReq 11 void *val; 12 struct { int pending : 1; } state; 13 }"]
    whole = ("Logically, an enqueue request is a triple of a value, a flag and an id, and a thread "
             "fills it in before it asks for help.")
    assert any(whole in t for t in _texts(doc, "paragraph"))


def test_a_typewriter_word_inside_prose_leaves_the_line_prose(tmp_path: Path) -> None:
    def page(p: Any) -> None:
        p.insert_text((72, 100), "The package is installed with the command", fontsize=10)
        p.insert_text((72, 112), "pip install vaultd", fontsize=10, fontname="cour")
        p.insert_text((72, 124), "and runs on every laptop we tried it on.", fontsize=10)

    doc = _pdf(tmp_path / "tt.pdf", page)
    assert _texts(doc, "code") == []
    assert _texts(doc, "paragraph") == [
        "The package is installed with the command pip install vaultd and runs on every laptop we tried it on."]


def test_addresses_set_in_a_typewriter_face_are_no_code(tmp_path: Path) -> None:
    # ACL: the authors' e-mails and footnote URLs are set in a typewriter face.
    from vaultd.parse.code import is_code
    from vaultd.parse.paras import Line

    def line(text: str) -> Line:
        return Line(text=text, bbox=(72.0, 100.0, 300.0, 110.0), size=9.0, bold=False, block=0, page=1, mono=True)

    assert not is_code([line("{kylel, lucyw}@allenai.org")], "{kylel, lucyw}@allenai.org")
    assert not is_code([line("3 https://github.com/allenai/scidocs")], "3 https://github.com/allenai/scidocs")
    assert is_code([line("R> paths <- dir(\"data\", pattern = \"csv\")")], "R> paths <- dir(\"data\", pattern = \"csv\")")
    assert is_code([line("12 return s;")], "12 return s;")
    assert not is_code([line("z = f(x,")], "z = f(x,")


def test_tick_labels_right_against_a_plots_frame_never_reach_the_text(tmp_path: Path) -> None:
    # ApJ: the y-axis values sit just left of the plot's frame, outside its drawing.
    pymupdf = load_pymupdf()

    def page(p: Any) -> None:
        p.draw_rect(pymupdf.Rect(102, 60, 270, 190), color=(0, 0, 0), width=0.8)
        for y, label in ((86, "100.0"), (120, "10.0"), (154, "1.0"), (188, "0.1")):  # the body's size
            p.insert_text((100 - pymupdf.get_text_length(label, fontsize=10), y), label, fontsize=10)
        _lines(p, 46, 215, ["Figure 1. Relative filter response curves of the four bands."], size=8)
        _lines(p, 46, 250, BODY)

    doc = _pdf(tmp_path / "ticks.pdf", page)
    assert not any(t in {"100.0", "10.0", "1.0", "0.1"} for b in doc.blocks for t in [b.text.strip()])
    assert _texts(doc, "paragraph")[0].startswith("Participants were recruited")


def test_a_figure_never_grows_over_the_text_beside_it(tmp_path: Path) -> None:
    # CIKM: a table's rules run across the page right over a chart set in the right
    # column; the left column's lines level with the chart are the paper's text.
    pymupdf = load_pymupdf()
    left = ["performed similarly. One has to take into", "consideration that we are challenging a",
            "well-established model with a novel one", "and in this last case tuned as well."]

    def page(p: Any) -> None:
        p.insert_text((46, 60), "Table 4: Results of the runs on the four collections.", fontsize=8)
        p.draw_rect(pymupdf.Rect(46, 70, 550, 150), color=(0, 0, 0), width=0.6)  # the table's frame
        p.insert_text((60, 95), "TF-IDF 0.1823 0.1923 0.2011 0.2133", fontsize=8)
        p.draw_rect(pymupdf.Rect(320, 166, 550, 330), color=(0, 0, 0), width=0.8)  # the chart
        _lines(p, 46, 190, left, size=9, leading=11)
        _lines(p, 320, 350, ["Figure 3: Retrieval against document length."], size=8)

    doc = _pdf(tmp_path / "beside.pdf", page)
    text = " ".join(_texts(doc, "paragraph"))
    assert "performed similarly. One has to take into consideration" in text
    assert "tuned as well." in text


def test_a_numbered_web_address_at_a_columns_foot_is_a_footnote_not_text(tmp_path: Path) -> None:
    # CIKM: the footnote's address is set in the body's size, under the column's last
    # line; the sentence goes on at the next page's top, with a number after "and".
    first = ["For each collection we used a set of topics and their", "relevance judgments: 51-200 for the first disks and"]
    rest = ["601-700 for the robust track, as the organisers did.", "We evaluated the models over these collections."]

    def filler(n: int) -> Callable[[Any], None]:
        return lambda p: _lines(p, 46, 150, [f"{line} (part {n})" for line in BODY])

    def one(p: Any) -> None:
        _lines(p, 46, 600, BODY + first)
        p.insert_text((46, 760), "4", fontsize=6)
        p.insert_text((50, 763), "http://trec.nist.gov/data/docs_eng.html", fontsize=10)

    def two(p: Any) -> None:
        _lines(p, 46, 120, rest)

    doc = _pdf(tmp_path / "note.pdf", filler(1), filler(2), one, two)
    para = next(t for t in _texts(doc, "paragraph") if t.startswith("Participants") and "first disks" in t)
    assert "first disks and 601-700 for the robust track" in para
    assert "http" not in para


def test_a_sentence_inside_a_bracket_goes_on_in_the_next_column(tmp_path: Path) -> None:
    def page(p: Any) -> None:
        y = _lines(p, 46, 72, [f"Line {n} of the left column of the page, which is all prose." for n in range(50)],
                   size=9, leading=12)
        _lines(p, 46, y, ["The topics were 51-200 for the first disks and 601-700",
                          "for the robust track (TREC 2004 Robust"], size=9, leading=12)
        _lines(p, 310, 72, ["Track), and 451-550 for the web track of the", "same years, as the organisers chose."],
               size=9, leading=12)

    doc = _pdf(tmp_path / "bracket.pdf", page)
    assert any("(TREC 2004 Robust Track), and 451-550" in t for t in _texts(doc, "paragraph"))


def test_a_paragraph_ending_with_its_column_goes_on_into_a_flush_line_at_the_next_top(tmp_path: Path) -> None:
    # ApJ indents its paragraphs; a sentence ended with the column's last line, full to
    # its right edge, and the next column opens flush: the same paragraph. An indented
    # opening is a new one.
    column = [f"Line {n} of the left column of the page, which is all prose." for n in range(48)]
    prose = ["We first deprojected the image to obtain a view",  # 187 pt, from 10 pt in
             "of the galaxy with the orientation listed in Table 1."]  # 197 pt: to the edge
    nxt = ["An azimuthal average was calculated at each", "radius and then subtracted from the disk."]

    def page(p: Any, indent: float) -> None:
        y = _lines(p, 46, 72, column, size=9, leading=12)
        p.insert_text((56, y), prose[0], fontsize=9, fontname="helv")
        p.insert_text((46, y + 12), prose[1], fontsize=9, fontname="helv")
        _lines(p, 320 + indent, 72, nxt[:1], size=9)
        _lines(p, 320, 84, nxt[1:] + column[:10], size=9, leading=12)

    flush = _pdf(tmp_path / "flush.pdf", lambda p: page(p, 0.0))
    assert any("listed in Table 1. An azimuthal average" in t for t in _texts(flush, "paragraph"))
    indented = _pdf(tmp_path / "indented.pdf", lambda p: page(p, 10.0))
    assert not any("listed in Table 1. An azimuthal average" in t for t in _texts(indented, "paragraph"))


def test_a_figure_made_of_small_text_and_a_ruled_table_stays_out_of_the_paragraphs(tmp_path: Path) -> None:
    # ACL 2022 (TableFormer): Figure 1 is a small ruled table with questions and answers
    # set under it, in 9 pt under an 11 pt body, with no picture around them.
    pymupdf = load_pymupdf()

    def page(p: Any) -> None:
        _lines(p, 46, 80, BODY, size=11)
        p.draw_rect(pymupdf.Rect(120, 130, 260, 165), color=(0, 0, 0), width=0.5)
        _lines(p, 130, 142, ["Nation Gold Silver", "Spain 1 2"], size=9, leading=10)
        _lines(p, 46, 185, ["Question: Which nation received 2 silver medals?", "Gold Answer: Spain, Ukraine",
                            "(b) The model gives an incomplete answer here."], size=9, leading=10)
        _lines(p, 46, 230, ["Figure 1: Examples showing the limits of existing models."], size=10)
        _lines(p, 46, 260, BODY, size=11)

    doc = _pdf(tmp_path / "textfig.pdf", page)
    paragraphs = _texts(doc, "paragraph")
    assert not any("Question:" in t or "Gold Answer" in t or "Nation Gold" in t for t in paragraphs)
    assert sum(t.startswith("Participants were recruited") for t in paragraphs) == 2


def test_the_last_line_of_the_text_over_a_figure_is_no_label_of_it(tmp_path: Path) -> None:
    # MDPI 2019: a sentence from the page before ends on a short line right over the
    # figure's top edge ("in Figure 7c."); it is the text's, not the figure's.
    pymupdf = load_pymupdf()

    def page(p: Any) -> None:
        p.insert_text((46, 80), "are found to be 24.3 and 44.8 respectively, which is still within the limits shown",
                      fontsize=10)
        p.insert_text((46, 93), "in Figure 7c.", fontsize=10)
        p.draw_rect(pymupdf.Rect(46, 92, 540, 300), color=(0, 0, 0), width=0.8)
        _lines(p, 46, 320, ["Figure 7. Control results for the second scenario."], size=9)
        _lines(p, 46, 350, BODY)

    doc = _pdf(tmp_path / "over.pdf", page)
    assert any(t.endswith("within the limits shown in Figure 7c.") for t in _texts(doc, "paragraph"))
