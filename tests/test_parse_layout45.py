"""Layout 45 (issue 34): a bibliography's head standing alone between two stretches of
two columns cuts the page into bands, so the columns over it (a Discussion's end, the back
matter) are read before the references under it. On real pages (batch 75, out of sample,
and earlier ones), with a property test of the pure geometry."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from quote_pages import chunk_type, chunks_of, holding

from vaultd.parse.column_bands import column_bands
from vaultd.parse.paras import Line

PLOS = "plos_one_2011_ant_nest_soil_recognition_cues_excerpt.pdf"
F1000 = "f1000research_shark_longevity_note.pdf"
MODY = "plos_one_mody_exome_sequencing_body_pages.pdf"


def _column(x0: float, x1: float, top: float, n: int, block: int, size: float = 9.0) -> list[Line]:
    return [Line("words of a column's text set in lines", (x0, top + 12 * k, x1, top + 12 * k + 9), size,
                 False, block, 1) for k in range(n)]


def _boxed(blocks: list[list[Line]]) -> list[tuple[tuple[float, float, float, float], list[Line]]]:
    return [((min(ln.bbox[0] for ln in g), min(ln.bbox[1] for ln in g), max(ln.bbox[2] for ln in g),
              max(ln.bbox[3] for ln in g)), g) for g in blocks]


@given(st.sampled_from(["References", "REFERENCES", "Literature Cited", "Bibliography"]),
       st.floats(50.0, 60.0))
def test_a_bibliographys_head_alone_between_two_column_stretches_cuts_a_band(head: str, x0: float) -> None:
    # PLoS ONE 2011's last page: the Discussion's end (left) and the back matter (right)
    # over "References", set in the left column only, over the references in two columns
    line = Line(head, (x0, 312.0, x0 + 52.0, 322.0), 10.0, False, 9, 1)
    blocks = [_column(58.0, 297.0, 61.0, 20, 1), _column(315.0, 554.0, 61.0, 19, 2), [line],
              _column(58.0, 297.0, 329.0, 30, 3, 7.0), _column(315.0, 554.0, 329.0, 30, 4, 7.0)]
    bands = column_bands(_boxed(blocks), 306.0, 18.0)
    assert len(bands) == 2
    assert [line] in [g for _, g in bands[1]]
    assert all(g[0].bbox[1] < 312.0 for _, g in bands[0])


@given(st.sampled_from(["Discussion of the results", "Methods", "the sentence goes on here"]))
def test_any_other_line_alone_there_leaves_the_page_one_band(text: str) -> None:
    # (a column's own head or line beside the other column's gap heads that column only)
    line = Line(text, (58.0, 312.0, 180.0, 322.0), 10.0, False, 9, 1)
    blocks = [_column(58.0, 297.0, 61.0, 20, 1), _column(315.0, 554.0, 61.0, 19, 2), [line],
              _column(58.0, 297.0, 329.0, 30, 3), _column(315.0, 554.0, 329.0, 30, 4)]
    assert len(column_bands(_boxed(blocks), 306.0, 18.0)) == 1


def test_the_discussions_end_over_a_references_band_is_a_paragraph_before_them() -> None:
    chunks = chunks_of(PLOS)
    summary = holding(chunks, "In summary, we show that cuticular hydrocarbons can be transferred")
    assert chunk_type(summary) == "paragraph"
    assert "Hamilton WD" not in summary.text
    acknowledgements = holding(chunks, "We would like to thank P. d")
    assert (acknowledgements.provenance.section or "").endswith("Acknowledgments")
    order = [c.text for c in chunks]
    first_reference = next(i for i, c in enumerate(chunks) if chunk_type(c) == "reference")
    assert order.index(summary.text) < first_reference


def test_earlier_papers_back_matter_over_their_references_band_keeps_its_sections() -> None:
    # F1000Research's Acknowledgements and PLOS ONE 2012's Supporting Information,
    # Acknowledgments and Author Contributions stand over the page's references band
    f1000 = holding(chunks_of(F1000), "We are grateful to the many folks")
    assert (f1000.provenance.section or "").endswith("Acknowledgements")
    mody = chunks_of(MODY)
    entry = holding(mody, "Horikawa Y, Iwasaki N, Hara M")
    assert chunk_type(entry) == "reference"
