"""Compiling in bulk (pipeline/bulk): notes compiled by a pool of spawned worker processes
through the one composition (``ingest.finish``), figure crops left pending and drawn by the
pool afterwards (pipeline/figure_crops), citation-only notes written here meanwhile."""

from __future__ import annotations

import json

import pymupdf

from vaultd.config import load_settings
from vaultd.models import MetaFile, Work
from vaultd.pipeline.bulk import BulkCompiler
from vaultd.pipeline.capture_store import CaptureResult
from vaultd.pipeline.compile import compile_note
from vaultd.pipeline.ingest import IngestResult, finish
from vaultd.vault import Vault


def _figure_pdf(vault: Vault, key: str) -> CaptureResult:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_textbox(pymupdf.Rect(72, 72, 523, 200), "We ran the experiment twice. " * 8,
                        fontsize=11)
    page.draw_rect(pymupdf.Rect(150, 220, 450, 420), color=(0, 0, 1), fill=(0.8, 0.8, 1))
    page.insert_textbox(pymupdf.Rect(72, 430, 523, 470), "Figure 1: A box.", fontsize=10)
    doc.save(vault.pdf_path(key))
    return _record(vault, key, pdf=True)


def _record(vault: Vault, key: str, *, pdf: bool) -> CaptureResult:
    meta = MetaFile.from_work(key, Work(title=f"Work {key}", issued=[2020]),
                              pdf=f"raw/{key}.pdf" if pdf else None)
    vault.meta_path(key).write_text(meta.model_dump_json(), encoding="utf-8")
    return CaptureResult(key, "created", vault.pdf_path(key) if pdf else None, meta)


def test_the_pool_compiles_pdfs_and_draws_the_crops_it_left_pending_afterwards(
        vault: Vault) -> None:
    settings = load_settings(vault.config_path)
    captured = [_figure_pdf(vault, "fig"), _record(vault, "bare", pdf=False)]
    done: list[tuple[int, int]] = []
    with BulkCompiler(vault, settings, workers=1) as pool:
        out = finish(vault, settings, IngestResult(captured=captured), keep_going=True,
                     index=False, pool=pool, figures=False,
                     progress=lambda n, total: done.append((n, total)))
        assert done == [(1, 2), (2, 2)] and not any(c.error for c in out.compiled.values())
        assert "![[raw/figs/fig_fig1.png]]" in vault.note_path("fig").read_text(encoding="utf-8")
        png, index = vault.figs / "fig_fig1.png", vault.figs / ".fig_figs.json"
        assert not png.exists() and json.loads(index.read_text())["fig_fig1.png"][1] is None
        assert "### APA" in vault.note_path("bare").read_text(encoding="utf-8")
        assert pool.draw_figures(["fig", "bare"]) == 1
    drawn = png.read_bytes()
    assert drawn.startswith(b"\x89PNG") and len(json.loads(index.read_text())["fig_fig1.png"]) == 2
    compile_note(vault, settings, "fig")  # a compile finds the crop drawn: the same bytes
    assert png.read_bytes() == drawn
