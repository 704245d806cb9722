"""One inbox item → capture → compile → index; enrichment is a separate, later pass.

The daemon calls ``ingest_item`` from a worker thread and ``enrich_after`` from its
background enrichment thread, so the LLM never holds a queue slot.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from vaultd.citekey import filename_to_key, is_valid_key
from vaultd.config import Settings
from vaultd.errors import InputError, NoMetadataError
from vaultd.vault import Vault, atomic_write_text, file_sha256

log = logging.getLogger(__name__)

Action = Literal["capture", "import_bib"]

_ARXIV_RE = re.compile(
    r"arxiv\.org/(?:abs|pdf)/([a-z\-]+(?:\.[A-Z]{2})?/\d{7}|\d{4}\.\d{4,5})(?:v\d+)?", re.I
)
_DOI_RE = re.compile(r"(10\.\d{4,9}/[^\s\"<>?#]+)", re.I)


@dataclass
class IngestResult:
    cite_keys: list[str]
    statuses: list[str]
    pdf: Path | None = None
    notes: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # Items of a link file or .bib that could not be captured while others were:
    # (item, why). The job is done; ``write_partial_report`` tells the user which.
    failed: list[tuple[str, str]] = field(default_factory=list)


def idempotency_key(path: Path, url: str | None) -> str:
    """The identity of what an item captures: arXiv id, DOI, URL, else content SHA-256."""
    if url:
        if m := _ARXIV_RE.search(url):
            return f"arxiv:{m.group(1).lower()}"
        if "doi.org/" in url.lower() and (m := _DOI_RE.search(url)):
            return f"doi:{m.group(1).lower().rstrip('.')}"
        return f"url:{url.strip()}"
    return f"sha256:{file_sha256(path)}"


#: A file name the user chose as a cite key: a letter first and a year in it.
_NAMED_KEY_RE = re.compile(r"[^\W\d_].*(?:19|20)\d\d.*")


def named_key(path: Path) -> str | None:
    """The cite key a PDF's file name gives (``smith2020title.pdf``, ``Sen.2016.BV.pdf``,
    a key's encoded file name ``baez%2Farticle2020.pdf``), or None when its name does not
    read as one (``download.pdf``, ``scan 3.pdf``): only a name the user chose as a key
    saves a work no source knows."""
    # Composed (NFC): macOS and sync tools may hand the name over decomposed, and the key
    # is what the user types in \cite{…}.
    key = unicodedata.normalize("NFC", filename_to_key(path.stem))
    return key if _NAMED_KEY_RE.fullmatch(key) and is_valid_key(key) else None


def _capture(vault: Vault, settings: Settings, source: str, cite_key: str | None = None
             ) -> tuple[list[Any], list[tuple[str, str]]]:
    from vaultd.pipeline.capture import ItemsFailedError, capture_sync
    try:
        results = capture_sync(vault, settings, source, cite_key=cite_key)
    except ItemsFailedError as exc:
        err = InputError(ItemsFailedError.summary(_inbox_worded(exc.failed, exc.errors)))
        err.transient = exc.transient
        raise err from None
    return list(results), _inbox_worded(getattr(results, "failed", []),
                                         getattr(results, "errors", {}))


def _inbox_worded(failed: list[tuple[str, str]], errors: dict[str, Any]
                  ) -> list[tuple[str, str]]:
    return [(item, _inbox_advice(errors[item]) if isinstance(errors.get(item), NoMetadataError)
             else why) for item, why in failed]


def _inbox_advice(exc: NoMetadataError) -> str:
    """What to do in the Inbox about an item no source knows (the CLI's --cite-key is no
    action there: a .bib entry is)."""
    return (f"no metadata source knows {exc.subject or 'this item'}; drop a .bib file with its "
            "entry (title, authors, year, DOI) into Inbox/ and it is saved from that")


def _apply_tags(vault: Vault, cite_key: str, tags: list[str]) -> None:
    from vaultd.notes.markdown import parse_note, render_note
    path = vault.note_path(cite_key)
    if not tags or not path.is_file():
        return
    note = parse_note(path.read_text(encoding="utf-8"), str(path))
    merged = list(dict.fromkeys([*note.meta.tags, *tags]))
    if merged != note.meta.tags:
        note.meta.tags = merged
        atomic_write_text(path, render_note(note))


def _index(vault: Vault, settings: Settings, notes: list[Path]) -> None:
    from vaultd.pipeline.index import index_after_compile
    for warning in index_after_compile(vault, settings, notes):
        log.warning("index: %s", warning)


def ingest_item(vault: Vault, settings: Settings, path: Path, *, action: Action,
                url: str | None = None, compile: bool = True, tags: list[str] | None = None,
                folder: str | None = None, index: bool = True) -> IngestResult:
    """Capture what ``path`` holds, compile its note(s) and index them.

    Raises ``VaultdError`` subclasses; ``.transient`` tells the queue to retry later.
    Concurrent callers are safe: capture chooses cite keys under a vault-wide lock.
    """
    # capture reads link files (every URL in them) and .bib files (every entry) itself.
    try:
        results, failed = _capture(vault, settings, str(path))
    except NoMetadataError as exc:
        if path.suffix.lower() != ".pdf":
            # The CLI's advice (--cite-key) is no action in the Inbox: a .bib entry is.
            if path.suffix.lower() == ".bib":
                raise InputError(f"{path.name}: no metadata source knows "
                                 f"{exc.subject or 'this item'}; give its entry a title, "
                                 "authors and year and drop it into Inbox/ again") from None
            raise InputError(f"{path.name}: {_inbox_advice(exc)}") from None
        key = named_key(path)
        if key is None:
            raise InputError(
                f"{path.name}: no metadata found (the PDF names no DOI or arXiv id, and no "
                "source knows its title); rename it to the cite key you want, with a year "
                "in it (e.g. smith2020title.pdf), and drop it into Inbox/ again to save it "
                "under that key, or drop a .url file with its DOI instead") from None
        results, failed = _capture(vault, settings, str(path), cite_key=key)
    if not results:
        what = "entry" if action == "import_bib" else "item"
        raise InputError(f"{path.name}: no {what} could be captured; check its content")
    out = IngestResult(cite_keys=[r.cite_key for r in results],
                       statuses=[r.status for r in results], failed=failed)
    for item, why in failed:
        log.warning("%s: could not capture %s: %s", path.name, item, why)
    for r in results:
        out.warnings.extend(r.warnings)
        if r.pdf is not None and out.pdf is None:
            out.pdf = r.pdf
    if compile:
        from vaultd.pipeline.compile import compile_note
        for key in out.cite_keys:
            result = compile_note(vault, settings, key, parser=settings.parse.parser,
                                 folder=folder)
            out.notes.append(result.note_path)
            out.warnings.extend(result.warnings)
            if tags:
                _apply_tags(vault, key, tags)
    if index and out.notes:
        _index(vault, settings, out.notes)
    return out


def partial_summary(result: IngestResult) -> str:
    """The job-list line for a file some of whose items failed, e.g. '1 of 3 items failed'."""
    total = len(result.cite_keys) + len(result.failed)
    return f"{len(result.failed)} of {total} items failed (see Inbox/_failed/)"


def write_partial_report(vault: Vault, name: str, kept_at: str, result: IngestResult) -> Path:
    """``Inbox/_failed/<name>.error.md`` for a link file or .bib whose other items were
    captured: each failed item and why, and the cite keys that were made."""
    from vaultd.daemon.outcomes import _unique

    note = _unique(vault.failed / f"{name}.error.md")
    lines = [
        f"# vaultd captured only part of {name}",
        "",
        f"**What failed:** {len(result.failed)} of {len(result.cite_keys) + len(result.failed)}"
        " items could not be captured:",
        "",
        *[f"- `{item}`: {why}" for item, why in result.failed],
        "",
        "**What to do:** fix or remove the items above and drop a file with just those "
        "items into Inbox/ again (the captured ones are not captured twice).",
        "",
        f"- Captured: {', '.join(result.cite_keys)}",
        f"- File: `{kept_at}` (processed; kept unchanged)",
        f"- When: {dt.datetime.now(dt.UTC).strftime('%Y-%m-%d %H:%M:%S UTC')}",
    ]
    try:  # the captured items are done; a report that cannot be written is only logged
        note.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(note, "\n".join(lines) + "\n")
    except OSError as exc:
        log.warning("cannot write %s: %s", note, exc)
    return note


def enrich_after(vault: Vault, settings: Settings, cite_keys: list[str]) -> list[str]:
    """The LLM pass for freshly written notes; never raises for a down LLM."""
    if not settings.enrich.enabled:
        return []
    try:
        from vaultd.pipeline.enrich import enrich_note
    except ImportError:
        return ["enrichment module not installed; chunks stay pending"]
    messages: list[str] = []
    for key in cite_keys:
        result = enrich_note(vault, settings, key)
        hint = getattr(result, "hint", None) or getattr(result, "message", None)
        if hint:
            messages.append(f"{key}: {hint}")
    if cite_keys:
        _index(vault, settings, [vault.note_path(k) for k in cite_keys if vault.note_path(k).is_file()])
    return messages


def retry_pending_records(vault: Vault, settings: Settings) -> list[str]:
    """Records saved while every metadata source was down (``needs_retry``): ask the
    sources again (the cite key is kept), then recompile and re-index each note whose
    metadata came back. Returns those cite keys; records still unanswered stay pending."""
    import asyncio

    from vaultd.pipeline.capture import retry_pending
    from vaultd.pipeline.compile import compile_note
    results = asyncio.run(retry_pending(vault, settings))
    for item, why in getattr(results, "failed", []):
        log.warning("retry of %s failed: %s", item, why)
    keys = [r.cite_key for r in results if not r.needs_retry]
    notes = [compile_note(vault, settings, key).note_path for key in keys]
    if notes:
        _index(vault, settings, notes)
    return keys
