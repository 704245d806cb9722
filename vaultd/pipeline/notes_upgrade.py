"""Move paper notes to the current note layout (``vaultd notes upgrade``), losing nothing.

Each note is read with the parser that understands every layout, re-rendered in the current
one (``vaultd.models.NOTE_FORMAT``) and written back atomically, only when both hold:

* the re-rendered note reads back to the same chunks (ids, quotes, hashes, provenance,
  enrichment), the same citations, the same annotations and user blocks;
* note verify finds nothing in it that it did not find before (a quote that was already
  drifted stays reported, and nothing new appears).

A note already in the current layout is left as it is. Re-compiling a note also writes the
current layout; this command does it for every note at once without touching the PDFs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from vaultd.errors import NoteFormatError
from vaultd.models import NOTE_FORMAT, VerifyReport
from vaultd.notes.markdown import render_note
from vaultd.notes.places import as_stored
from vaultd.notes.reader import parse_note
from vaultd.vault import Vault, atomic_write_text
from vaultd.verify import verify_text


@dataclass
class UpgradeReport:
    upgraded: list[str] = field(default_factory=list)  # vault-relative paths rewritten
    current: int = 0  # already in the current layout
    failed: list[tuple[str, str]] = field(default_factory=list)  # (path, why), left as they were


def _findings(text: str, rel: str) -> set[tuple[str, str | None]]:
    report = VerifyReport()
    verify_text(text, rel, report)
    return {(f.kind, f.chunk_id) for f in report.findings}


def upgrade_notes(vault: Vault, progress: Callable[[int, int], None] | None = None) -> UpgradeReport:
    """Rewrite every paper note in an older layout in the current one (see module doc)."""
    report = UpgradeReport()
    paths = vault.paper_notes()
    for done, path in enumerate(paths, start=1):
        rel = vault.rel(path)
        try:
            text = path.read_text(encoding="utf-8")
            note = parse_note(text, source=rel)
        except (OSError, UnicodeDecodeError, NoteFormatError) as exc:
            report.failed.append((rel, f"{exc}"))
            continue
        if note.meta.note_format >= NOTE_FORMAT:
            report.current += 1
        else:
            new = render_note(note)
            again = parse_note(new, source=rel)
            same = (again.chunks == as_stored(note).chunks and again.citations == note.citations
                    and again.annotations == note.annotations
                    and again.user_blocks == note.user_blocks)
            if not same:
                report.failed.append((rel, "the note would not read back the same in the new "
                                           "layout; left as it is (recompile it instead)"))
            elif not _findings(new, rel) <= _findings(text, rel):
                report.failed.append((rel, "verify would report more in the new layout; left as it is"))
            else:
                atomic_write_text(path, new)
                report.upgraded.append(rel)
        if progress is not None:
            progress(done, len(paths))
    return report
