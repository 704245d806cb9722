"""Bold and italic from a font's PostScript name, in the conventions real PDFs use."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vaultd.parse.fontnames import is_bold_font, is_italic_font, is_mono_font


@pytest.mark.parametrize(("name", "bold", "italic"), [
    ("Times-Bold", True, False),
    ("Times-Roman", False, False),
    ("Times-BoldItalic", True, True),
    ("AdvGulliv-B", True, False),  # Elsevier: one-letter styles
    ("AdvGulliv-I", False, True),
    ("AdvGulliv-R", False, False),
    ("AdvTimes-b", True, False),
    ("NimbusRomNo9L-Medi", True, False),  # URW's Times: "Medi" is its bold
    ("NimbusRomNo9L-ReguItal", False, True),
    ("NimbusRomNo9L-MediItal", True, True),
    ("CMBX10", True, False),  # TeX: the style is in the family's name
    ("CMTI10", False, True),
    ("CMR10", False, False),
    ("SFBX1000", True, False),
    ("CMBXTI10", True, True),
    ("TimesNewRomanPS-BoldMT", True, False),
    ("TimesNewRomanPS-ItalicMT", False, True),
    ("Arial,BoldItalic", True, True),
    ("ArialMT", False, False),
    ("MinionPro-SemiboldIt", True, True),
    ("Myriad-BdIt", True, True),
    ("Helvetica-Medium", False, False),  # one step above Regular, not bold
    ("AdvOT46dcae81", False, False),
])
def test_styles_read_from_the_name(name: str, bold: bool, italic: bool) -> None:
    assert (is_bold_font(name), is_italic_font(name)) == (bold, italic)


@given(st.from_regex(r"[A-Z]{6}", fullmatch=True),
       st.from_regex(r"[A-Za-z0-9,\-]{1,24}", fullmatch=True))
def test_the_subset_prefix_never_changes_the_style(prefix: str, name: str) -> None:
    assert is_bold_font(f"{prefix}+{name}") == is_bold_font(name)
    assert is_italic_font(f"{prefix}+{name}") == is_italic_font(name)


@pytest.mark.parametrize(("name", "mono"), [
    ("CMTT10", True), ("CMSLTT10", True), ("LMMono10-Regular", True), ("Courier-Bold", True),
    ("NimbusMonL-Regu", True), ("DejaVuSansMono", True), ("SourceCodePro-Regular", True),
    ("ABCDEF+Consolas", True), ("CMR10", False), ("Times-Roman", False), ("Helvetica", False),
])
def test_typewriter_faces_are_told_from_their_names(name: str, mono: bool) -> None:
    assert is_mono_font(name) is mono
