"""The fixture PDFs as papers in a vault: staged as capture leaves them, ready to compile."""

from __future__ import annotations

import shutil
from pathlib import Path

from vaultd.models import MetaFile, Work
from vaultd.vault import Vault

#: Fixture folders whose PDFs have a text layer (the rest are scanned or broken on purpose).
TEXT_LAYER_DIRS = ("math", "non_english", "single_column", "two_column", "two_column_ligatures")


def text_layer_pdfs(fixtures: Path) -> list[Path]:
    return sorted(p for d in TEXT_LAYER_DIRS for p in (fixtures / "pdfs" / d).glob("*.pdf"))


def stage_pdf(vault: Vault, key: str, pdf: Path, work: Work | None = None) -> None:
    """``raw/<key>.pdf`` and its ``.meta.json`` (``work``, else titled after the file), as
    after capture."""
    shutil.copy(pdf, vault.pdf_path(key))
    meta = MetaFile.from_work(key, work or Work(title=pdf.stem), pdf=f"raw/{key}.pdf",
                              captured_at="2024-01-01T00:00:00+00:00")
    vault.meta_path(key).write_text(meta.model_dump_json(), encoding="utf-8")
