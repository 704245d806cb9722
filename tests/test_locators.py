"""Page locators (vaultd.formats.locators): parsed, normalised, checked against the work's
known pages; `vaultd cite --page` exits 2 with one line, MCP cite takes a number."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from test_index_support import sample_vault

from vaultd.cli import main_group
from vaultd.cli.common import run_command
from vaultd.errors import LocatorError
from vaultd.formats.locators import (
    KnownPages,
    check_locator,
    note_pages,
    parse_locator,
    record_pages,
)
from vaultd.mcp.server import build_server
from vaultd.models import MetaFile
from vaultd.vault import Vault, atomic_write_text

KEY = "vaswani2017attention"


@pytest.mark.parametrize(("text", "normal"), [
    ("4", "4"), (" 4 ", "4"), ("xii", "xii"), ("XII", "XII"), ("e123", "e123"), ("S12", "S12"),
    ("4-5", "4-5"), ("4–5", "4-5"), ("4--5", "4-5"), ("4 — 5", "4-5"), ("4, 7-9", "4, 7-9"),
    ("4,7--9,12", "4, 7-9, 12"), ("123-7", "123-127"), ("4-4", "4"), ("xii-xiv", "xii-xiv"),
    ("S1-S12", "S1-S12"), ("p. 4", "4"), ("pp. 4-5", "4-5"), ("e1-e9", "e1-e9"),
])
def test_well_formed_locators_parse_and_normalise(text: str, normal: str) -> None:
    assert str(parse_locator(text)) == normal


@pytest.mark.parametrize("text", ["abc", "", " ", "4,", ",4", "4-", "-4", "4-5-6", "5-4",
                                  "4-xii", "xii-4", "S1-e2", "IIII", "p12", "4f", "4ff.",
                                  "4 5", "iv.2", "١٢", "²", "12345678", "4;5", "see 4"])
def test_anything_else_is_refused_in_one_line(text: str) -> None:
    with pytest.raises(LocatorError) as err:
        parse_locator(text)
    assert "\n" not in str(err.value) and "is not a page locator" in str(err.value)


def test_a_record_range_bounds_the_pages_and_is_named_when_a_page_is_outside() -> None:
    known = record_pages("4969-4983")
    assert known is not None
    assert check_locator("4970", known, "lo2020") == "4970"
    assert check_locator("4969-83", known, "lo2020") == "4969-4983"
    for outside in ("99", "4984", "xii", "e4970", "4980-4990"):
        with pytest.raises(LocatorError, match=r"outside the known pages of lo2020 "
                                               r"\(pages 4969–4983 of its record\)"):
            check_locator(outside, known, "lo2020")


@pytest.mark.parametrize("page", [None, "", "e33693", "145", "145-145", "A-B", "4969-4983, 5"])
def test_a_record_without_a_page_range_gives_no_bounds(page: str | None) -> None:
    # A lone value is often an article number, not the only page of the work.
    assert record_pages(page) is None


def test_note_pages_cover_printed_labels_and_the_pdf_pages() -> None:
    known = note_pages(["101", "103", "105", "xii", "S3", "S5"], 15)
    assert known is not None
    for page in ("101", "105", "1", "15", "xii", "S4", "iii"):
        check_locator(page, known, "k")
    for page in ("16", "106", "S6", "xvi", "e1"):
        with pytest.raises(LocatorError, match="PDF pages 1–15, printed 101–105, xii, S3–S5"):
            check_locator(page, known, "k")
    assert note_pages([], 0) is None


# --- properties ---------------------------------------------------------------------

_ROMAN = ["i", "ii", "iii", "iv", "v", "vi", "ix", "x", "xii", "xiv", "xl", "xc", "cd", "mcmxc"]
_pages = st.one_of(
    st.integers(1, 99999).map(str),
    st.sampled_from(_ROMAN).flatmap(lambda r: st.sampled_from([r, r.upper()])),
    st.tuples(st.sampled_from("eESsA"), st.integers(1, 9999)).map(lambda t: f"{t[0]}{t[1]}"),
)


@st.composite
def _items(draw: st.DrawFn) -> str:
    first = draw(st.integers(1, 5000))
    if draw(st.booleans()):
        return draw(_pages)
    last = first + draw(st.integers(0, 300))
    dash = draw(st.sampled_from(["-", "–", "--", " - ", "—"]))
    return f"{first}{dash}{last}"


@settings(max_examples=400, deadline=None)
@given(st.lists(_items(), min_size=1, max_size=5), st.sampled_from([",", ", ", " , "]))
def test_every_well_formed_locator_parses_and_its_normal_form_is_stable(
        items: list[str], sep: str) -> None:
    normal = str(parse_locator(sep.join(items)))
    assert str(parse_locator(normal)) == normal
    assert "–" not in normal and "--" not in normal and normal.count(",") == len(items) - 1


@settings(max_examples=1000, deadline=None)
@given(st.text(max_size=30))
def test_random_text_parses_or_is_refused_in_one_line_and_never_crashes(text: str) -> None:
    try:
        normal = str(parse_locator(text))
    except LocatorError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 200
    else:
        assert str(parse_locator(normal)) == normal


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 9000), st.integers(0, 500), st.text(max_size=12))
def test_a_checked_locator_is_inside_the_known_range_or_refused(
        first: int, span: int, text: str) -> None:
    known = KnownPages((("", first, first + span),), f"pages {first}–{first + span}")
    try:
        normal = check_locator(text, known, "k")
    except LocatorError:
        return
    for item in normal.split(", "):
        for end in item.split("-"):
            assert first <= int(end) <= first + span


# --- the CLI and MCP ----------------------------------------------------------------


def _set_pages(vault: Vault, page: str | None) -> None:
    meta = MetaFile.model_validate_json(vault.meta_path(KEY).read_text(encoding="utf-8"))
    meta.work = meta.work.model_copy(update={"page": page})
    atomic_write_text(vault.meta_path(KEY), meta.model_dump_json(indent=2, by_alias=True))


@pytest.mark.parametrize(("page", "message"), [
    ("abc", "Error: 'abc' is not a page locator; give a page (4, xii, e123, S12), a range "
            "(4-5) or a list (4, 7-9)\n"),
    ("99", f"Error: page 99 is outside the known pages of {KEY} (pages 4969–4983 of its "
           "record); check the page\n"),
])
def test_cite_with_a_bad_page_exits_2_with_one_line(
        vault: Vault, page: str, message: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    sample_vault(vault)
    _set_pages(vault, "4969-4983")
    monkeypatch.setattr("sys.argv", ["vaultd", "--vault", str(vault.root), "cite", KEY,
                                     "--page", page])
    assert run_command(main_group) == 2
    captured = capsys.readouterr()
    assert captured.err == message and captured.out == ""


def test_cite_with_a_page_in_range_prints_the_normalised_locator(vault: Vault) -> None:
    sample_vault(vault)
    _set_pages(vault, "4969-4983")
    out = CliRunner().invoke(main_group, ["--vault", str(vault.root), "cite", KEY, "-f", "apa",
                                          "--page", "4970--71", "--json"])
    assert out.exit_code == 0, out.stderr
    assert json.loads(out.stdout)["intext"] == "(Vaswani & Shazeer, 2017, pp. 4970–4971)"


def test_without_a_record_range_the_notes_pages_bound_the_locator(vault: Vault) -> None:
    sample_vault(vault)  # chunks on PDF pages 1, 3, 5 printed 101, 103, 105
    runner = CliRunner()
    ok = runner.invoke(main_group, ["--vault", str(vault.root), "cite", KEY, "-f", "chicago",
                                    "--page", "103"])
    assert (ok.exit_code, ok.stdout.strip()) == (0, "(Vaswani and Shazeer 2017, 103)")
    far = runner.invoke(main_group, ["--vault", str(vault.root), "cite", KEY, "--page", "999"])
    assert far.exit_code == 2
    assert "(PDF pages 1–5, printed 101–105 of its note)" in far.stderr


def _mcp(vault: Vault, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    from mcp import Client

    async def go() -> list[Any]:
        async with Client(build_server(vault, None), read_timeout_seconds=30) as client:
            return [await client.call_tool(name, args) for name, args in calls]

    return anyio.run(go)


def test_mcp_cite_takes_a_page_as_a_number_or_a_string_and_refuses_a_bad_one(
        vault: Vault) -> None:
    sample_vault(vault)
    _set_pages(vault, "4969-4983")
    number, text, bad, outside = _mcp(vault, [
        ("cite", {"cite_key": KEY, "format": "chicago", "page": 4970}),
        ("cite", {"cite_key": KEY, "format": "chicago", "page": "4970-4972"}),
        ("cite", {"cite_key": KEY, "format": "chicago", "page": "abc"}),
        ("cite", {"cite_key": KEY, "format": "chicago", "page": 99}),
    ])
    assert not number.is_error and "In text: (Vaswani and Shazeer 2017, 4970)" in \
        number.content[0].text
    assert not text.is_error and "In text: (Vaswani and Shazeer 2017, 4970–72)" in \
        text.content[0].text
    assert bad.is_error and "'abc' is not a page locator" in bad.content[0].text
    assert outside.is_error and "page 99 is outside the known pages" in outside.content[0].text


def test_a_letter_that_folds_to_a_roman_digit_is_no_page() -> None:
    # "İ" (U+0130) matches "i" under Unicode case folding and lowers to two characters: it
    # had crashed the parser, which must refuse it in one line
    try:
        parse_locator("İ")
    except LocatorError as exc:
        assert "\n" not in str(exc)
