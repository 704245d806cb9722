"""OCR: a page that shows nothing is not sent to tesseract; what tesseract reads becomes
the page's lines, structured as a text layer is."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vaultd.parse.ocr import OCR_FONT, OcrLine, blank, parse_hocr, to_lines
from vaultd.parse.pymupdf import load_pymupdf
from vaultd.parse.tiers import parse_pdf


def test_samples_of_one_value_are_blank_and_any_mark_is_not() -> None:
    assert blank(b"\xff" * 1000)
    assert blank(b"")
    assert not blank(b"\xff" * 999 + b"\x80")


def test_a_page_left_blank_between_text_pages_costs_no_tesseract_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A patent application's second page: nothing drawn on it but a colour setting.
    runs: list[list[str]] = []
    real_run = subprocess.run

    def run(args: list[str], *a: Any, **k: Any) -> Any:
        runs.append(args)
        return real_run(args, *a, **k)

    monkeypatch.setattr("vaultd.parse.ocr.subprocess.run", run)
    monkeypatch.setattr("vaultd.parse.ocr.tesseract_available", lambda: True)
    doc = load_pymupdf().open()
    doc.new_page().insert_text((72, 100), "Describe the field of the invention like this.", fontsize=11)
    doc.new_page()  # blank
    doc.new_page().insert_text((72, 100), "The present invention relates to widgets.", fontsize=11)
    pdf = tmp_path / "patent.pdf"
    doc.save(pdf)
    parsed = parse_pdf(pdf)
    assert parsed.textless_pages == [2]
    assert runs == []
    assert "tesseract" not in parsed.parser_version
    assert not any("OCR" in w for w in parsed.warnings)
    assert [b.text for b in parsed.blocks] == ["Describe the field of the invention like this.",
                                               "The present invention relates to widgets."]


#: tesseract 5.3.0's hOCR of a scanned page's table header (S2ORC's p. 2 rendered at 240
#: dpi; two of its lines, as tesseract wrote them)
HOCR = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"
    "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
 <head>
  <title></title>
  <meta http-equiv="Content-Type" content="text/html;charset=utf-8"/>
  <meta name='ocr-system' content='tesseract 5.3.0' />
  <meta name='ocr-capabilities' content='ocr_page ocr_carea ocr_par ocr_line ocrx_word ocrp_wconf'/>
 </head>
 <body>
  <div class='ocr_page' id='page_1' title='image "/tmp/s46/acl2.png"; bbox 0 0 1985 2807; ppageno 0; scan_res 240 240'>
   <div class='ocr_separator' id='block_1_1' title="bbox 247 208 1745 213"></div>
   <div class='ocr_carea' id='block_1_2' title="bbox 1042 225 1196 244">
    <p class='ocr_par' id='par_1_1' lang='eng' title="bbox 1042 225 1196 244">
     <span class='ocr_line' id='line_1_1' title="bbox 1042 225 1196 244; baseline 0 0; x_size 24.296295; x_descenders 5.2962961; x_ascenders 6">
      <span class='ocrx_word' id='word_1_1' title='bbox 1042 225 1166 244; x_wconf 96'>References</span>
      <span class='ocrx_word' id='word_1_2' title='bbox 1175 228 1196 244; x_wconf 93'>to</span>
     </span>
    </p>
   </div>
   <div class='ocr_carea' id='block_1_4' title="bbox 263 239 1723 565">
    <p class='ocr_par' id='par_1_2' lang='eng' title="bbox 263 239 1723 561">
     <span class='ocr_line' id='line_1_2' title="bbox 700 239 1622 272; baseline 0 -10; x_size 25; x_descenders 6; x_ascenders 6">
      <span class='ocrx_word' id='word_1_3' title='bbox 700 243 773 268; x_wconf 93'>Papers</span>
      <span class='ocrx_word' id='word_1_4' title='bbox 782 243 810 262; x_wconf 93'>w/</span>
      <span class='ocrx_word' id='word_1_5' title='bbox 878 239 968 272; x_wconf 96'>Citation</span>
     </span>
    </p>
   </div>
  </div>
 </body>
</html>
"""


def test_tesseracts_hocr_gives_lines_in_page_points_with_size_and_confidence() -> None:
    lines = parse_hocr(HOCR, 72.0 / 240)
    assert [ln.text for ln in lines] == ["References to", "Papers w/ Citation"]
    first = lines[0]
    assert first.bbox == (312.6, 67.5, 358.8, 73.2)  # pixels × 0.3
    assert first.conf == 94.5 and first.par == 0 and lines[1].par == 1
    assert round(first.size, 1) == round(24.296295 * 0.3 / 0.91, 1)


@given(st.lists(st.floats(min_value=-0.07, max_value=0.07), min_size=3, max_size=12),
       st.floats(min_value=1.3, max_value=2.0))
def test_the_bodys_paragraphs_share_one_size_and_a_heading_keeps_its_own(jitter: list[float], head: float) -> None:
    # tesseract's x_size varies by a tenth or so from line to line of one font (±7 % here)
    body = [OcrLine(f"line {k}", (50.0, 100.0 + 12 * k, 500.0, 110.0 + 12 * k), 10.0 * (1 + j), k, 90.0)
            for k, j in enumerate(jitter)]
    heading = OcrLine("Methods", (50.0, 60.0, 150.0, 75.0), 10.0 * head, 99, 95.0)
    lines = to_lines({1: [heading, *body]}, body=10.9)[1]
    assert {ln.size for ln in lines[1:]} == {10.9}
    assert lines[0].size == round(10.0 * head, 1) or lines[0].size == 10.0 * head
    assert all(ln.conf >= 0 and ln.font == OCR_FONT for ln in lines)


def test_a_scanned_vignette_reads_as_a_text_layer_would_title_authors_headings() -> None:
    # spatstat's vignette maps its letters to dingbats: every page is read by tesseract
    pdf = Path(__file__).resolve().parents[1] / "eval" / "quotes" / "pdfs" / "r_spatstat_getting_started.pdf"
    parsed = parse_pdf(pdf)
    assert parsed.ocr_pages == list(range(1, 9)) and "tesseract" in parsed.parser_version
    heads = [b.text for b in parsed.blocks if b.type == "heading"]
    assert heads[0] == "Getting started with spatstat"
    assert "What kind of data does spatstat handle?" in heads and "What can spatstat do?" in heads
    assert any(b.type == "front" and b.text.startswith("Adrian Baddeley") for b in parsed.blocks)
    under = next(b for b in parsed.blocks if b.text.startswith("Spatstat is mainly designed"))
    assert under.section == "What kind of data does spatstat handle?"
    assert all(b.ocr and 0.0 < (b.ocr_confidence or 0.0) <= 1.0 for b in parsed.blocks)
    assert not any(b.text.strip().isdigit() for b in parsed.blocks)  # its page numbers are furniture
