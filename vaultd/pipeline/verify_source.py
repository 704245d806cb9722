"""Source staleness: re-extract each note's PDF and check its chunks still reproduce.

* ``PDF CHANGED``: the PDF's bytes no longer hash to the note's ``pdf_sha256``. When its
  first page no longer shows the record's title, DOI or first author it is another paper:
  that one finding says so (restore it, or capture it as a new work) and its chunks are not
  checked, since recompiling would file the other paper's text under this record.
* ``STALE``: a chunk whose ``text_sha256`` is not produced by re-extracting the PDF with
  the note's parser (same tier, same layout repairs) — the quote no longer reproduces.
  When the note was compiled by other extraction rules (its ``parser_version``, e.g. an
  older vaultd's ``+layoutN``), the message says so: the PDF did not change, the reading
  of it did, and a re-compile refreshes the quotes.
  A chunk whose text reproduces but whose regions (page and rect of each piece) moved
  by more than a point is ``STALE`` too: its links would highlight the wrong place.
* ``MISSING``: the note names a PDF that is not there; ``MALFORMED``: unreadable note.
Notes without a PDF (metadata-only) are counted and skipped.
"""

from __future__ import annotations

from pathlib import Path

from vaultd import record_store
from vaultd.citekey import filename_to_key
from vaultd.config import load_settings
from vaultd.errors import NoteFormatError, VaultdError
from vaultd.models import Chunk, Note, Provenance, VerifyReport
from vaultd.notes.reader import parse_note
from vaultd.parse.chunker import chunk_blocks
from vaultd.parse.tiers import parse_pdf
from vaultd.vault import Vault, file_sha256
from vaultd.verify.identity import is_other_work
from vaultd.verify.notes import finding


def _check_note(vault: Vault, note: Note, rel: str, report: VerifyReport, ocr_language: str) -> None:
    meta = note.meta
    key = meta.cite_key
    report.chunks += len(note.chunks)
    if not meta.raw or not note.chunks:
        return
    if meta.video_id:
        _check_video(vault, note, rel, report)
        return
    pdf = vault.root / meta.raw
    if not pdf.is_file():
        report.findings.append(finding("MISSING", meta.raw, key,
                                        f"{meta.raw}: source PDF is missing; capture {key} again"))
        return
    actual = file_sha256(pdf)
    if meta.pdf_sha256 and actual != meta.pdf_sha256 and is_other_work(pdf, meta):
        # Recompiling would file the other paper's text under this record: one line, no STALE.
        report.findings.append(finding(
            "PDF CHANGED", meta.raw, key,
            f"{meta.raw}: now another work's PDF (its first page shows neither the record's "
            f"title, DOI nor first author); restore the original, or move it out of raw/ and "
            f"`vaultd capture` it as a new work",
            expected=meta.pdf_sha256, actual=actual))
        return
    if meta.pdf_sha256 and actual != meta.pdf_sha256:
        report.findings.append(finding(
            "PDF CHANGED", meta.raw, key,
            f"{meta.raw}: PDF bytes changed since compile; run `vaultd compile {key}`",
            expected=meta.pdf_sha256, actual=actual))
    parser = meta.parser or "pymupdf"
    ocr = "tesseract" in (meta.parser_version or "")
    try:
        doc = parse_pdf(pdf, parser, ocr=ocr, ocr_language=ocr_language)
    except VaultdError as exc:
        for chunk in note.chunks:
            report.findings.append(finding(
                "STALE", rel, key, f"{key}/{chunk.id}: source no longer parses ({exc})",
                chunk_id=chunk.id, expected=chunk.provenance.text_sha256))
        return
    fresh = chunk_blocks(doc.blocks, doc.parser)
    why = f"quote no longer reproduces from {meta.raw}"
    same_pdf = not meta.pdf_sha256 or actual == meta.pdf_sha256
    if same_pdf and meta.parser_version and meta.parser_version != doc.parser_version:
        # same PDF, newer extraction rules: the fix is the same, the cause is not the file
        why = (f"extraction rules changed since compile ({parser} {meta.parser_version}, now "
               f"{doc.parser_version})")
    by_hash: dict[str, list[Chunk]] = {}
    for c in fresh:
        by_hash.setdefault(c.provenance.text_sha256, []).append(c)
    by_id = {c.id: c.provenance.text_sha256 for c in fresh}
    for chunk in note.chunks:
        same = by_hash.get(chunk.provenance.text_sha256)
        if not same:
            report.findings.append(finding(
                "STALE", rel, key,
                f"{key}/{chunk.id}: {why}; run `vaultd compile {key}`",
                chunk_id=chunk.id, expected=chunk.provenance.text_sha256, actual=by_id.get(chunk.id)))
        elif not any(same_regions(chunk.provenance, c.provenance) for c in same):
            report.findings.append(finding(
                "STALE", rel, key,
                f"{key}/{chunk.id}: the quote reproduces, but not where the note's links point "
                f"({_where(chunk.provenance)}; {meta.raw} sets it at {_where(same[0].provenance)}); "
                f"run `vaultd compile {key}`",
                chunk_id=chunk.id, expected=chunk.provenance.text_sha256))


def _check_video(vault: Vault, note: Note, rel: str, report: VerifyReport) -> None:
    """A video's transcript chunks against the stored subtitle file, re-read and re-cut
    the way compile did. Slide text (OCR of frames whose media is usually not kept) and
    speech-recognition transcripts cannot be re-derived: they are not reported."""
    # lazy: vaultd.pipeline.video_note costs 294 ms at import (pulls in httpx, click, asyncio, ssl)
    from vaultd.pipeline.video_note import rederive

    key = note.meta.cite_key
    try:
        fresh = rederive(vault, load_settings(vault.config_path), record_store.load(vault, key))
    except VaultdError as exc:
        report.findings.append(finding("MISSING", note.meta.raw or rel, key, f"{key}: {exc}"))
        return
    if fresh is None:
        return
    hashes = set(fresh.values())
    for chunk in note.chunks:
        if chunk.provenance.chunk_type != "transcript" or chunk.provenance.transcript is None \
                or chunk.provenance.transcript.startswith("asr:"):
            continue
        if chunk.provenance.text_sha256 not in hashes:
            report.findings.append(finding(
                "STALE", rel, key,
                f"{key}/{chunk.id}: quote no longer reproduces from the stored subtitles in "
                f"raw/youtube/{note.meta.video_id}/; run `vaultd compile {key}`",
                chunk_id=chunk.id, expected=chunk.provenance.text_sha256,
                actual=fresh.get(chunk.id)))


#: How far a region's edge may move (PDF points) and still be the same region: rounding.
REGION_SLACK = 1.0


def regions(prov: Provenance) -> list[list[float]]:
    """``[page, left, bottom, right, top]`` of every region of a chunk (none without a rect)."""
    if prov.regions:
        return [[float(v) for v in r] for r in prov.regions]
    return [[float(prov.page), *prov.pdf_rect]] if prov.pdf_rect else []


def same_regions(a: Provenance, b: Provenance) -> bool:
    """Whether two provenances put a chunk in the same places (a note without rects, as
    OCR or older notes may be, is judged by its page)."""
    ra, rb = regions(a), regions(b)
    if not ra or not rb:
        return a.page == b.page
    return len(ra) == len(rb) and all(
        x[0] == y[0] and all(abs(u - v) <= REGION_SLACK for u, v in zip(x[1:], y[1:], strict=True))
        for x, y in zip(ra, rb, strict=True))


def _where(prov: Provenance) -> str:
    return "; ".join(f"p. {int(r[0])} [{', '.join(f'{v:.0f}' for v in r[1:])}]" for r in regions(prov)) \
        or f"p. {prov.page}"


def verify_sources(
    vault: Vault, cite_key: str | None = None, *, ocr_language: str | None = None
) -> VerifyReport:
    """Re-extract the PDF of every note (or of ``cite_key``) and report what changed.

    OCRed pages are re-read with ``ocr_language`` — by default the vault's
    ``parse.ocr_language`` setting (config file, then ``VAULTD_*`` variables), the same
    language compile used, so an OCR quote in another script does not read as STALE.
    """
    if ocr_language is None:
        ocr_language = load_settings(vault.config_path).parse.ocr_language
    report = VerifyReport()
    paths: list[Path] = [vault.note_path(cite_key)] if cite_key else vault.paper_notes()
    for path in paths:
        rel = vault.rel(path) if path.exists() else f"wiki/{path.name}"
        if not path.is_file():
            report.findings.append(finding("MISSING", rel, cite_key or filename_to_key(path.stem), f"{rel}: no such note"))
            continue
        report.notes += 1
        try:
            note = parse_note(path.read_text(encoding="utf-8"), source=rel)
        except NoteFormatError as exc:
            report.findings.append(finding("MALFORMED", rel, filename_to_key(path.stem), str(exc)))
            continue
        _check_note(vault, note, rel, report, ocr_language)
    return report
