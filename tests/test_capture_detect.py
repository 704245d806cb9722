"""Input detection: every id form the issue lists, link files, and no crashes."""

from __future__ import annotations

import plistlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vaultd.capture.detect import (
    detect,
    detect_id,
    links_in_text,
    links_in_url_file,
    links_in_webloc,
    trim_id,
)

ARXIV_FORMS = [
    ("https://arxiv.org/abs/1706.03762", "1706.03762", None),
    ("https://arxiv.org/pdf/1706.03762v5", "1706.03762", 5),
    ("arxiv.org/abs/hep-th/9901001", "hep-th/9901001", None),
    ("1706.03762", "1706.03762", None),
    ("1706.03762v2", "1706.03762", 2),
    ("arXiv:1706.03762", "1706.03762", None),
    ("astro-ph/0601001", "astro-ph/0601001", None),
    ("https://arxiv.org/abs/astro-ph/0601001v1", "astro-ph/0601001", 1),
    ("http://arxiv.org/pdf/1605.08386v1.pdf", "1605.08386", 1),
    ("arxiv.org/abs/1706.03762?context=cs", "1706.03762", None),
    ("https://arxiv.org/abs/1706.03762v2#", "1706.03762", 2),
    ("https://arxiv.org/abs/hep-th/9901001?context=hep-ph", "hep-th/9901001", None),
]

# Real DOIs (CrossRef fixtures and published Wiley SICI DOIs with ()<>;:).
DOI_FORMS = [
    ("https://doi.org/10.1073/pnas.1414271111", "10.1073/pnas.1414271111"),
    ("http://dx.doi.org/10.1023/A:1007154515475", "10.1023/a:1007154515475"),
    ("doi:10.1101/2024.04.01.587366", "10.1101/2024.04.01.587366"),
    ("10.1007/978-3-0348-8720-5_13", "10.1007/978-3-0348-8720-5_13"),
    ("10.1002/(SICI)1097-0118(199711)26:3<119::AID-JGT1>3.0.CO;2-U",
     "10.1002/(sici)1097-0118(199711)26:3<119::aid-jgt1>3.0.co;2-u"),
    ("https://doi.org/10.1002/(SICI)1099-0771(199806)11:2<85::AID-BDM282>3.0.CO;2-K",
     "10.1002/(sici)1099-0771(199806)11:2<85::aid-bdm282>3.0.co;2-k"),
    ("https://www.doi.org/10.1073/pnas.1414271111", "10.1073/pnas.1414271111"),
    ("doi.org/10.1000/182?x=1", "10.1000/182"),
    ("https://doi.org/10.1023/A:1007154515475#abstract", "10.1023/a:1007154515475"),
]


@pytest.mark.parametrize(("text", "arxiv_id", "version"), ARXIV_FORMS)
def test_every_arxiv_form_is_detected_with_its_version(text: str, arxiv_id: str,
                                                       version: int | None) -> None:
    found = detect(text)
    assert found is not None and found.kind == "arxiv"
    assert (found.value, found.version) == (arxiv_id, version)


@pytest.mark.parametrize(("text", "doi"), DOI_FORMS)
def test_every_doi_form_is_detected_with_special_characters_kept(text: str, doi: str) -> None:
    found = detect(text)
    assert found is not None and found.kind == "doi"
    assert found.value == doi


def test_youtube_and_pdf_urls_are_told_apart() -> None:
    assert detect_id("https://www.youtube.com/watch?v=JjQDik3yNhA").kind == "youtube"  # type: ignore[union-attr]
    assert detect_id("https://youtu.be/gogEJyoSB9s").kind == "youtube"  # type: ignore[union-attr]
    assert detect_id("https://www.pnas.org/content/pnas/111/45/E4832.full.pdf").kind == "pdf_url"  # type: ignore[union-attr]


@pytest.mark.parametrize("url", [
    "https://www.youtube.com/playlist?list=PLZHQObOWTQDPD3MizzM2xVFitgF8hE_ab",
    "https://www.youtube.com/@3blue1brown",
    "https://www.youtube.com/channel/UCYO_jab_esuFRV4b17AJtAw",
    "https://www.youtube-nocookie.com/embed/gogEJyoSB9s",
])
def test_youtube_playlists_channels_and_nocookie_embeds_are_youtube(url: str) -> None:
    found = detect_id(url)
    assert found is not None and found.kind == "youtube"


def test_bare_old_style_arxiv_ids_in_a_text_file_are_found_once() -> None:
    text = ("See hep-th/9901001, and math.AG/0601001v2 (old ids).\n"
            "Again https://arxiv.org/abs/hep-th/9901001 -- not items/1234567.\n")
    assert links_in_text(text) == ["hep-th/9901001", "math.AG/0601001v2"]


@given(st.sampled_from(ARXIV_FORMS[:3] + ARXIV_FORMS[7:]),
       st.sampled_from(["?context=cs", "#", "#abstract", "?context=hep-ph#x"]))
def test_arxiv_urls_with_a_query_or_fragment_keep_their_id(form: tuple[str, str, int | None],
                                                          tail: str) -> None:
    found = detect(form[0] + tail)
    assert found is not None and (found.kind, found.value, found.version) == \
        ("arxiv", form[1], form[2])


def test_local_files_are_detected_by_kind(tmp_path: Path, fixtures_dir: Path) -> None:
    pdf = fixtures_dir / "pdfs/two_column/jner_2016_demarchis_0046d83a.pdf"
    assert detect(str(pdf)).kind == "pdf"  # type: ignore[union-attr]
    for name, kind in [("a.url", "url_file"), ("a.webloc", "webloc"), ("a.txt", "link_list"),
                       ("a.md", "link_list"), ("a.bib", "bib")]:
        (tmp_path / name).write_text("x")
        assert detect(str(tmp_path / name)).kind == kind  # type: ignore[union-attr]


def test_link_files_yield_their_urls() -> None:
    url_file = "[InternetShortcut]\r\nURL=https://arxiv.org/abs/1706.03762\r\n"
    assert links_in_url_file(url_file) == ["https://arxiv.org/abs/1706.03762"]
    webloc = plistlib.dumps({"URL": "https://doi.org/10.1073/pnas.1414271111"})
    assert links_in_webloc(webloc) == ["https://doi.org/10.1073/pnas.1414271111"]
    assert links_in_webloc(b"not a plist") == []
    md = ("Read [the paper](https://arxiv.org/abs/1605.08386) and doi:10.1023/a:1007154515475.\n"
          "Also 10.1002/(SICI)1097-0118(199711)26:3<119::AID-JGT1>3.0.CO;2-U, arXiv:astro-ph/0601001\n")
    assert links_in_text(md) == [
        "https://arxiv.org/abs/1605.08386",
        "doi:10.1023/a:1007154515475",
        "10.1002/(SICI)1097-0118(199711)26:3<119::AID-JGT1>3.0.CO;2-U",
        "arXiv:astro-ph/0601001",
    ]


def test_unrecognised_input_is_none() -> None:
    for text in ["", "   ", "hello world", "10.12/x", "arxiv:", "ftp://example.org/a.pdf"]:
        assert detect(text) is None


@given(st.text(max_size=200))
def test_detection_never_crashes(text: str) -> None:
    detect(text)
    links_in_text(text)
    links_in_url_file(text)


@given(st.sampled_from(ARXIV_FORMS), st.sampled_from(["", " ", "\n", "\t"]))
def test_arxiv_forms_survive_surrounding_whitespace(form: tuple[str, str, int | None],
                                                    pad: str) -> None:
    found = detect(pad + form[0] + pad)
    assert found is not None and (found.kind, found.value) == ("arxiv", form[1])


@given(st.sampled_from(DOI_FORMS), st.sampled_from(["https://doi.org/", "doi:", ""]))
def test_doi_forms_are_detected_whatever_the_prefix(form: tuple[str, str], prefix: str) -> None:
    bare = form[1]
    found = detect_id(prefix + bare)
    assert found is not None and (found.kind, found.value) == ("doi", bare)


# ---------------------------------------------------------------- an id's end (stop 65)

_DOI_BODY = st.from_regex(r"10\.\d{4,6}/[a-z0-9][a-z0-9.\-]{0,12}[a-z0-9]", fullmatch=True)
_BRACKETED = st.tuples(st.sampled_from(["()", "[]", "{}", "<>"]),
                       st.from_regex(r"[a-z0-9]{1,6}", fullmatch=True))


@given(_DOI_BODY, st.lists(_BRACKETED, max_size=2),
       st.text(alphabet=".,;\"')]}>", max_size=4))
def test_an_id_keeps_its_balanced_brackets_and_loses_what_follows_it(
        body: str, groups: list[tuple[str, str]], tail: str) -> None:
    # Prose, BibTeX and HTML close around a DOI with stops, quotes and brackets of their
    # own; a bracket the DOI opened itself is the DOI's.
    doi = body + "".join(pair[0] + inner + pair[1] for pair, inner in groups)
    assert trim_id(doi + tail) == doi


def test_a_bibtex_field_printed_in_a_template_gives_its_doi_without_the_braces() -> None:
    # asmejour's template prints `doi = {10.1115/1.4042912}}` in a BibTeX sample on p. 2.
    assert trim_id("10.1115/1.4042912}}") == "10.1115/1.4042912"
    assert trim_id("10.1002/(SICI)1097-4636(199606)31:2<147::AID-JBM1>3.0.CO;2-O).") == \
        "10.1002/(SICI)1097-4636(199606)31:2<147::AID-JBM1>3.0.CO;2-O"
