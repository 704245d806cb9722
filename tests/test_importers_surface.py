"""The importers' public surface: the names other packages may use (vaultd/importers)."""

from __future__ import annotations

from pathlib import Path

import vaultd.importers as importers
from tests.test_layers import ROOT, imports


def test_the_public_surface_is_the_stated_one() -> None:
    assert sorted(importers.__all__) == [
        "Annotation", "Attachment", "ImportProblem", "ImportResult", "ImportedItem", "ItemNote",
        "ItemOrigin", "KeySource", "default_data_dir", "page_words", "read_library_file",
        "read_pdf_highlights", "read_zotero"]
    for name in importers.__all__:
        assert getattr(importers, name) is not None


def test_the_importers_import_only_the_core_of_vaultd() -> None:
    """An adapter (docs/architecture.md): errors, models and config, and itself."""
    allowed = ("vaultd.errors", "vaultd.models", "vaultd.config", "vaultd.importers")
    found = []
    for path in sorted((ROOT / "importers").glob("*.py")):
        rel = path.relative_to(ROOT)
        for line, module in imports(path.read_text(encoding="utf-8"), rel):
            if module.startswith("vaultd") and not module.startswith(allowed):
                found.append(f"{Path('vaultd') / rel}:{line} imports {module}")
    assert found == []
