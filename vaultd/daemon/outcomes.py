"""Where an inbox file goes once its job ends. Nothing dropped in the inbox is deleted:
a file leaves the inbox only by a rename (or after an identical copy exists elsewhere)."""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
from pathlib import Path

from vaultd.vault import Vault, atomic_copy, atomic_write_text, unique_path


def _sha(path: Path) -> str | None:
    try:
        digest = hashlib.sha256()
        with path.open("rb") as fh:
            while block := fh.read(1 << 20):
                digest.update(block)
        return digest.hexdigest()
    except OSError:
        return None


def move_file(src: Path, dst: Path) -> Path:
    """Rename ``src`` to ``dst`` (a unique name beside it if taken); copy+unlink across devices."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst = unique_path(dst)
    try:
        src.rename(dst)
    except OSError:
        atomic_copy(src, dst)
        src.unlink()
    return dst


def place_processed_pdf(vault: Vault, src: Path, cite_key: str) -> Path:
    """A processed PDF ends at raw/<key>.pdf; if capture already copied it there, the
    inbox copy is removed only after its bytes are confirmed identical; else archived."""
    target = vault.pdf_path(cite_key)
    if not target.exists():
        return move_file(src, target)
    if _sha(target) == _sha(src):
        src.unlink()
        return target
    return archive(vault, src)


def archive_video_files(vault: Vault, info: Path) -> Path:
    """A processed ``<id>.info.json`` and the files beside it of the same video (subtitles,
    media; copied to raw/youtube/<id>/ by capture) go to .vaultd/processed/ together."""
    video_id = info.name[: -len(".info.json")]
    for sibling in sorted(info.parent.glob(f"{video_id}.*")):
        if sibling != info and sibling.is_file():
            archive(vault, sibling)
    return archive(vault, info)


def archive(vault: Vault, src: Path) -> Path:
    """Processed link files, duplicates and ignored items: kept under .vaultd/processed/."""
    stamp = dt.date.today().isoformat()
    return move_file(src, vault.processed_dir / stamp / src.name)


def fail_item(vault: Vault, src: Path, what: str, todo: str, detail: str | None = None) -> Path:
    """Move to Inbox/_failed/ and write ``<name>.error.md`` beside it; returns the error note."""
    if src.exists() or src.is_symlink():
        moved = move_file(src, vault.failed / src.name)
    else:
        moved = vault.failed / src.name
    note = moved.with_name(moved.name + ".error.md")
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    lines = [
        f"# vaultd could not process {moved.name}",
        "",
        f"**What failed:** {what}",
        "",
        f"**What to do:** {todo}",
        "",
        f"- File: `Inbox/_failed/{moved.name}` (moved here, unchanged)",
        f"- When: {now}",
    ]
    if detail:
        lines += ["", "```", detail.strip(), "```"]
    with contextlib.suppress(OSError):
        atomic_write_text(note, "\n".join(lines) + "\n")
    return note
