"""A compiled note: what a compile stage reports (``CompileResult``) and the one way it
writes a note (``write_merged``: merged with the note already there, atomically). Shared
by the PDF compile (``pipeline/compile``) and the video compile (``pipeline/video_note``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from vaultd.models import Note
from vaultd.notes import markdown as note_mod
from vaultd.notes.merge import merge_for_recompile
from vaultd.vault import Vault, atomic_write_text


@dataclass
class CompileResult:
    cite_key: str
    note_path: Path
    parser: str | None
    chunks: int
    pages: int
    warnings: list[str] = field(default_factory=list)
    pending: int = 0  # content chunks of the note written still awaiting enrichment


def write_merged(vault: Vault, note_path: Path, new: Note) -> Note:
    """Write ``new`` at ``note_path`` (atomically), merged with the note already there:
    the user's own sections and the enrichment of unchanged chunks are kept. Returns the
    note written."""
    old = None
    if note_path.is_file():
        old = note_mod.parse_note(note_path.read_text(encoding="utf-8"), source=vault.rel(note_path))
    merged = merge_for_recompile(old, new)
    atomic_write_text(note_path, note_mod.render_note(merged))
    return merged
