"""The importers' public surface: the names other packages may use (vaultd/importers)."""

from __future__ import annotations

import vaultd.importers as importers


def test_the_public_surface_is_the_stated_one() -> None:
    assert sorted(importers.__all__) == [
        "Annotation", "Attachment", "ImportProblem", "ImportResult", "ImportedItem", "ItemNote",
        "ItemOrigin", "KeySource", "default_data_dir", "read_library_file", "read_zotero"]
    for name in importers.__all__:
        assert getattr(importers, name) is not None
