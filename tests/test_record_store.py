"""The record store (vaultd/record_store.py): the one reader and writer of
``raw/<key>.meta.json``, with one error for a record that is missing or unreadable."""

from __future__ import annotations

import logging

import pytest

from vaultd import record_store
from vaultd.errors import InputError
from vaultd.models import Author, MetaFile, Work
from vaultd.vault import Vault


def _meta(key: str, title: str = "A title") -> MetaFile:
    work = Work(title=title, authors=[Author(family="Smith", given="Jane")], issued=[2020])
    return MetaFile.from_work(key, work, pdf=None, captured_at="2024-01-15T12:00:00+00:00")


def test_a_written_record_is_read_back(vault: Vault) -> None:
    path = record_store.write(vault, _meta("smith2020title"))
    assert path == vault.meta_path("smith2020title")
    assert record_store.load(vault, "smith2020title").work.title == "A title"
    assert [m.cite_key for m in record_store.iter_records(vault)] == ["smith2020title"]


def test_a_missing_record_is_one_error_saying_what_to_do(vault: Vault) -> None:
    with pytest.raises(record_store.RecordError, match=r"no such record; capture it first"):
        record_store.load(vault, "nobody2020none")
    assert record_store.get(vault, "nobody2020none") is None
    assert not record_store.exists(vault, "")


def test_an_unreadable_record_names_the_file_and_the_fix(vault: Vault,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    record_store.write(vault, _meta("good2020title"))
    vault.meta_path("bad2020title").write_text("{not json", encoding="utf-8")
    with pytest.raises(InputError) as err:
        record_store.load(vault, "bad2020title")
    message = str(err.value)
    assert "raw/bad2020title.meta.json" in message
    assert "vaultd capture --refresh bad2020title" in message
    with caplog.at_level(logging.WARNING):
        assert [m.cite_key for m in record_store.iter_records(vault)] == ["good2020title"]
    assert "bad2020title.meta.json: unreadable record" in caplog.text


def test_a_record_changed_on_disk_is_read_again(vault: Vault) -> None:
    record_store.write(vault, _meta("smith2020title", "First"))
    assert record_store.load(vault, "smith2020title").work.title == "First"
    # another process replaces the file (atomic rename: a new inode)
    other = vault.meta_path("smith2020title").with_suffix(".tmp")
    other.write_text(_meta("smith2020title", "Second").model_dump_json(by_alias=True),
                     encoding="utf-8")
    other.replace(vault.meta_path("smith2020title"))
    assert record_store.load(vault, "smith2020title").work.title == "Second"


def test_key_of_a_record_file_is_its_cite_key(vault: Vault) -> None:
    path = record_store.write(vault, _meta("Lüscher_2011_ÜberAmbivalenz"))
    assert record_store.key_of(path) == "Lüscher_2011_ÜberAmbivalenz"
