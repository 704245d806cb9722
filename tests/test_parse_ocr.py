"""The OCR tier: a page that shows nothing is not sent to tesseract."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from vaultd.parse.ocr import blank
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
