"""`vaultd verify --source` tells a replaced PDF (another paper) from a re-downloaded copy."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from vaultd.cli import main_group
from vaultd.config import Settings
from vaultd.models import Author, MetaFile, Work
from vaultd.pipeline.compile import compile_note
from vaultd.vault import Vault

KEY = "ammar2018construction"


def _compiled_literature_graph(vault: Vault, fixtures_dir: Path) -> Path:
    pdf = vault.pdf_path(KEY)
    shutil.copy(fixtures_dir / "pdfs" / "two_column" / "N18-3011_naacl2018_literature_graph.pdf", pdf)
    work = Work(title="Construction of the Literature Graph in Semantic Scholar",
                authors=[Author(family="Ammar", given="Waleed"), Author(family="Groeneveld", given="Dirk")],
                issued=[2018])
    meta = MetaFile.from_work(KEY, work, pdf=f"raw/{KEY}.pdf", captured_at="2024-01-01T00:00:00+00:00")
    vault.meta_path(KEY).write_text(meta.model_dump_json(by_alias=True), encoding="utf-8")
    compile_note(vault, Settings(), KEY)
    return pdf


def test_verify_source_says_a_pdf_replaced_by_another_paper_is_not_the_records_work(
        vault: Vault, fixtures_dir: Path) -> None:
    pdf = _compiled_literature_graph(vault, fixtures_dir)
    shutil.copy(fixtures_dir / "pdfs" / "two_column" / "2020.acl-main.207_specter.pdf", pdf)
    result = CliRunner().invoke(main_group, ["--vault", str(vault.root), "verify", "--source"],
                                catch_exceptions=False)
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if KEY in line]
    assert lines == [
        f"PDF CHANGED: raw/{KEY}.pdf: now another work's PDF (its first page shows neither "
        f"the record's title, DOI nor first author); restore the original, or move it out of "
        f"raw/ and `vaultd capture` it as a new work"], result.output
    assert "vaultd compile" not in result.output


def test_verify_source_still_advises_compile_for_a_changed_copy_of_the_same_work(
        vault: Vault, fixtures_dir: Path) -> None:
    import pymupdf

    pdf = _compiled_literature_graph(vault, fixtures_dir)
    doc = pymupdf.open(pdf)
    doc.set_metadata({**doc.metadata, "producer": "re-downloaded copy"})
    data = doc.tobytes()
    doc.close()
    pdf.write_bytes(data)
    from vaultd.pipeline.verify_source import verify_sources

    changed = [f for f in verify_sources(vault, KEY).findings if f.kind == "PDF CHANGED"]
    assert [f.message for f in changed] == [
        f"raw/{KEY}.pdf: PDF bytes changed since compile; run `vaultd compile {KEY}`"]
