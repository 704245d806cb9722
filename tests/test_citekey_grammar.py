"""The cite-key grammar (keys the user wrote, kept as written) and the key ↔ file-name
encoding: reversible, collision-free, and never a path outside its folder."""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from vaultd.citekey import (
    GENERATED_KEY_RE,
    MAX_KEY_FILENAME_BYTES,
    filename_to_key,
    fold_key,
    is_valid_key,
    key_problem,
    key_to_filename,
    same_key,
    unique_key,
)
from vaultd.errors import InputError
from vaultd.vault import Vault

# Keys from real .bib files (Better BibTeX's issue fixtures, public repositories).
REAL_KEYS = ["Sen.2016.BV", "Lüscher_2011_ÜberAmbivalenz", "baez/article", "c++primer+",
             "o'neil2016", "教育部国家语言文字工作委员2018", "Smith:2020-a_b", "DBLP:conf/nips/X17",
             "müller_2020", "Ångström2001", "a[b]", "x&y", "key?", "*star*", "pipe|key",
             "..", ".hidden", "trail.", "50$", "at@sign", "a^b", "back`tick"]


@pytest.mark.parametrize("key", REAL_KEYS)
def test_keys_bibtex_and_biber_accept_are_valid(key: str) -> None:
    assert key_problem(key) is None and is_valid_key(key)


@pytest.mark.parametrize("key", ["", "a b", "a\tb", "a\nb", "a,b", "a{b", "a}b", "a(b",
                                 "a)b", 'a"b', "a#b", "a%b", "a~b", "a=b", "a\\b",
                                 "a\u200bb", "a\x00b", "a\u00a0b", "x" * 201])
def test_keys_that_break_bibtex_or_latex_are_refused_in_one_clause(key: str) -> None:
    problem = key_problem(key)
    assert problem is not None and problem.startswith("a cite key ") and "\n" not in problem
    assert not is_valid_key(key)


@pytest.mark.parametrize(("key", "name"), [
    ("vaswani2017attention", "vaswani2017attention"),
    ("Smith:2020-a_b", "Smith:2020-a_b"),
    ("Sen.2016.BV", "Sen.2016.BV"),
    ("Lüscher_2011_ÜberAmbivalenz", "Lüscher_2011_ÜberAmbivalenz"),
    ("教育部国家语言文字工作委员2018", "教育部国家语言文字工作委员2018"),
    ("baez/article", "baez%2Farticle"),
    ("..", "%2E%2E"),
    ("../x", "%2E.%2Fx"),
    (".hidden", "%2Ehidden"),
    ("trail.", "trail%2E"),
    ("pipe|key", "pipe%7Ckey"),
    ("a[b]", "a%5Bb%5D"),
    ("key?", "key%3F"),
    ("c++primer+", "c++primer+"),
    ("o'neil2016", "o'neil2016"),
])
def test_file_names_of_real_keys(key: str, name: str) -> None:
    assert key_to_filename(key) == name
    assert filename_to_key(name) == key


def test_the_encoding_of_any_string_escapes_percent_so_decoding_is_exact() -> None:
    for text in ["50%", "%2F", "a%25b", "a b", "tab\there", "ctl\x01", "\u202eevil"]:
        name = key_to_filename(text)
        assert filename_to_key(name) == text
        assert re.fullmatch(r"(?:[^%]|%[0-9A-F]{2})*", name)
    assert key_to_filename("%2F") == "%252F"


def test_a_name_vaultd_did_not_make_decodes_to_itself() -> None:
    assert filename_to_key("50%off") == "50%off"
    assert filename_to_key("bad%FFbyte") == "bad%FFbyte"


def test_unique_key_accepts_an_imported_key_and_folds_case_and_composition() -> None:
    assert unique_key("Lüscher_2011_ÜberAmbivalenz", []) == "Lüscher_2011_ÜberAmbivalenz"
    assert unique_key("LÜSCHER2011", ["lüscher2011"]) == "LÜSCHER2011a"
    decomposed = unicodedata.normalize("NFD", "Lüscher2011")
    assert unique_key("Lüscher2011", [decomposed]) == "Lüscher2011a"
    assert unique_key("STRASSE2020", ["straße2020"]) == "STRASSE2020a"  # casefold, not lower
    with pytest.raises(InputError, match="a cite key cannot hold"):
        unique_key("a b", [])


def test_same_key_compares_composed_and_decomposed_forms() -> None:
    key = "Lüscher_2011_ÜberAmbivalenz"
    assert same_key(key, unicodedata.normalize("NFD", key))
    assert not same_key(key, "Luscher_2011_UberAmbivalenz")


# --- properties ---------------------------------------------------------------------

_any_text = st.text(min_size=1, max_size=40)
_keys = st.text(
    st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp")),
    min_size=1, max_size=40).filter(is_valid_key)


@settings(max_examples=500, deadline=None)
@given(_any_text)
def test_any_string_round_trips_exactly(text: str) -> None:
    assert filename_to_key(key_to_filename(text)) == text


@settings(max_examples=500, deadline=None)
@given(_any_text)
def test_a_file_name_never_leaves_its_folder(text: str) -> None:
    name = key_to_filename(text)
    assert "/" not in name and "\\" not in name and "\x00" not in name
    assert name not in (".", "..") and not name.startswith(".") and not name.endswith((".", " "))
    assert not any(unicodedata.category(c)[0] in "CZ" for c in name)
    for folder in ("raw", "wiki"):
        base = Path("/vault") / folder
        for suffix in (".pdf", ".meta.json", ".md"):
            path = Path(os.path.normpath(base / f"{name}{suffix}"))
            assert path.parent == base and not Path(name).is_absolute()


@settings(max_examples=300, deadline=None)
@given(_keys, _keys)
def test_distinct_keys_get_distinct_names_even_where_case_is_ignored(a: str, b: str) -> None:
    assume(fold_key(a) != fold_key(b))
    assert fold_key(key_to_filename(a)) != fold_key(key_to_filename(b))


@settings(max_examples=300, deadline=None)
@given(st.from_regex(GENERATED_KEY_RE, fullmatch=True))
def test_every_key_valid_before_is_its_own_file_name(key: str) -> None:
    assert is_valid_key(key) and key_to_filename(key) == key == filename_to_key(key)


@settings(max_examples=300, deadline=None)
@given(_keys)
def test_a_decomposed_listing_decodes_to_the_stored_key(key: str) -> None:
    listed = unicodedata.normalize("NFD", key_to_filename(key))  # as macOS may list it
    assert same_key(filename_to_key(listed), key)
    assert len(key_to_filename(key).encode("utf-8")) <= MAX_KEY_FILENAME_BYTES


def test_vault_paths_are_the_encoded_names_inside_raw_and_wiki(tmp_path: Path) -> None:
    vault = Vault(tmp_path)
    for key in REAL_KEYS:
        for path, folder in [(vault.pdf_path(key), vault.raw), (vault.meta_path(key), vault.raw),
                             (vault.note_path(key), vault.wiki),
                             (vault.new_note_path(key, "reading"), vault.wiki / "reading")]:
            assert path.parent == folder and path.name.startswith(key_to_filename(key))


def test_a_record_listed_decomposed_is_found_by_its_composed_key(vault: Vault) -> None:
    key = "Lüscher_2011_ÜberAmbivalenz"
    stored = vault.raw / (unicodedata.normalize("NFD", key) + ".meta.json")
    stored.write_text("{}", encoding="utf-8")
    assert vault.meta_path(key) == stored
    assert vault.meta_path(unicodedata.normalize("NFD", key)) == stored


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_fold_key_is_the_canonical_caseless_form(text: str) -> None:
    nfd = unicodedata.normalize
    assert fold_key(text) == nfd("NFD", nfd("NFD", text).casefold())
