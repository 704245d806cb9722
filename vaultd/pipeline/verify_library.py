"""`vaultd verify --library`: does what the lab library holds for this member's works still
match the notes? Drift both ways: a quote whose library text no longer matches its own
SHA-256 (changed in the library), a chunk whose hash differs between note and library (one
side changed since publishing), chunks only one side has, and works published from here
that are gone from the vault (or never were published)."""

from __future__ import annotations

import psycopg

from vaultd import record_store
from vaultd.canonical import text_sha256
from vaultd.config import Settings
from vaultd.errors import NoteFormatError
from vaultd.lab import read as lab_read
from vaultd.lab.connect import failed, open_library
from vaultd.models import Finding, VerifyReport
from vaultd.notes.reader import parse_note
from vaultd.pipeline.publication import configured
from vaultd.vault import Vault

_REPUBLISH = "run `vaultd library publish {key}`"


def verify_library(vault: Vault, settings: Settings, cite_key: str | None = None
                   ) -> VerifyReport:
    """Compare every work this member published to the group (or only ``cite_key``) with
    the vault's note of it."""
    conn = open_library(configured(settings))
    report = VerifyReport()
    try:
        mine = lab_read.mine(conn, settings.library.name)
        keys = [cite_key] if cite_key else sorted(mine)
        for key in keys:
            have = mine.get(key)
            path = vault.note_path(key)
            if have is None:
                report.findings.append(Finding(
                    kind="MISSING", path=vault.rel(path), cite_key=key,
                    message=f"{key} is not in the lab library: {_REPUBLISH.format(key=key)}"))
                continue
            held = {c.chunk_id: c for c in lab_read.chunks(conn, have.work_id)
                    if c.kind == "paper"}
            _compare(vault, key, held, report)
    except psycopg.Error as exc:
        raise failed(exc, "reading what this member published") from exc
    finally:
        conn.close()
    return report


def _compare(vault: Vault, key: str, held: dict[str, lab_read.LibraryChunk],
             report: VerifyReport) -> None:
    path = vault.note_path(key)
    rel = vault.rel(path)
    fix = _REPUBLISH.format(key=key)
    if not path.is_file() or not record_store.exists(vault, key):
        report.findings.append(Finding(
            kind="MISSING", path=rel, cite_key=key,
            message=f"{key} is in the lab library but no longer in this vault: withdraw it "
                    "or capture it again"))
        return
    try:
        note = parse_note(path.read_text(encoding="utf-8"), source=rel)
    except (OSError, NoteFormatError) as exc:
        report.findings.append(Finding(kind="MALFORMED", path=rel, cite_key=key,
                                       message=f"cannot read {rel}: {exc}"))
        return
    local = {c.id: c for c in note.chunks if c.text.strip()}
    report.notes += 1
    report.chunks += len(local)
    for chunk_id, lib in held.items():
        if text_sha256(lib.text) != lib.text_sha256:
            report.findings.append(Finding(
                kind="DRIFT", path=rel, cite_key=key, chunk_id=chunk_id,
                expected=lib.text_sha256, actual=text_sha256(lib.text),
                message=f"{key} {chunk_id}: the library's text was changed there (it no "
                        f"longer matches its published SHA-256): {fix}"))
        mine = local.get(chunk_id)
        if mine is None:
            report.findings.append(Finding(
                kind="MISSING", path=rel, cite_key=key, chunk_id=chunk_id,
                message=f"{key} {chunk_id} is in the library, not in the note: {fix}"))
        elif mine.provenance.text_sha256 != lib.text_sha256:
            report.findings.append(Finding(
                kind="DRIFT", path=rel, cite_key=key, chunk_id=chunk_id,
                expected=mine.provenance.text_sha256, actual=lib.text_sha256,
                message=f"{key} {chunk_id} differs between the note and the library: {fix} "
                        "(after `vaultd verify` finds the note clean)"))
    for chunk_id in local.keys() - held.keys():
        report.findings.append(Finding(
            kind="MISSING", path=rel, cite_key=key, chunk_id=chunk_id,
            message=f"{key} {chunk_id} is in the note, not in the library: {fix}"))
