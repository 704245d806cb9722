"""The one pipeline composition: an input → capture → compile → index (``process``);
enrichment is a separate, later pass (``pipeline/enrich``).

The CLI's ``vaultd capture`` calls ``process``; the agent calls ``ingest_item`` (the same
sequence, its errors worded for the Inbox) from a worker thread; the importers call
``process`` per item. Each note is written once per stage: compile writes it with the
Inbox rule's tags, indexing reads it.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from vaultd.citekey import filename_to_key, is_valid_key
from vaultd.config import Settings
from vaultd.errors import InputError, NoMetadataError, VaultdError
from vaultd.vault import Vault, atomic_write_text, file_sha256, unique_path

if TYPE_CHECKING:
    from vaultd.pipeline.bulk import BulkCompiler
    from vaultd.pipeline.capture_store import CaptureResult
    from vaultd.pipeline.compiled import CompileResult

log = logging.getLogger(__name__)

Action = Literal["capture", "import_bib"]

_ARXIV_RE = re.compile(
    r"arxiv\.org/(?:abs|pdf)/([a-z\-]+(?:\.[A-Z]{2})?/\d{7}|\d{4}\.\d{4,5})(?:v\d+)?", re.I
)
_DOI_RE = re.compile(r"(10\.\d{4,9}/[^\s\"<>?#]+)", re.I)


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


# --- the one composition: capture → compile → index --------------------------------------


@dataclass
class Compiled:
    """One captured work's compile: its result, or why it failed (``skipped``: its note
    exists and nothing asked for a refresh)."""

    cite_key: str
    result: CompileResult | None = None
    error: str | None = None
    skipped: bool = False
    transient: bool = False  # the error may pass if tried again later


@dataclass
class IngestResult:
    """What one input gave: the works captured, each one's compile, the items that failed."""

    captured: list[CaptureResult] = field(default_factory=list)
    compiled: dict[str, Compiled] = field(default_factory=dict)
    # Items of a link file or .bib that could not be captured while others were:
    # (item, why). ``write_partial_report`` tells an Inbox user which.
    failed: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: the error of each failed item that raised one (each interface words its advice)
    errors: dict[str, Any] = field(default_factory=dict)

    @property
    def cite_keys(self) -> list[str]:
        return [r.cite_key for r in self.captured]

    @property
    def statuses(self) -> list[str]:
        return [r.status for r in self.captured]

    @property
    def pdf(self) -> Path | None:
        return next((r.pdf for r in self.captured if r.pdf is not None), None)

    @property
    def notes(self) -> list[Path]:
        return [c.result.note_path for c in self.compiled.values() if c.result is not None]


def process(vault: Vault, settings: Settings, source: str, *, doi: str | None = None,
            cite_key: str | None = None, refresh: bool = False, compile: bool = True,
            index: bool = True, tags: Sequence[str] = (), folder: str | None = None,
            keep_going: bool = False, on_wait: Callable[[str], None] | None = None,
            pool: BulkCompiler | None = None) -> IngestResult:
    """Capture ``source`` (a path, URL, DOI, arXiv id, link file or .bib), compile each
    work's note once (with ``tags``, in ``folder``) and index the notes written: the one
    sequence the agent, the CLI and the importers call.

    A local PDF no source knows, whose file name reads as a cite key
    (``smith2020title.pdf``), is saved under that key. ``keep_going``: a compile failure
    is recorded in the result and the other works go on (the CLI); otherwise it raises
    (the agent retries the job). Raises ``VaultdError`` subclasses; ``.transient`` tells
    a queue to retry later. Concurrent callers are safe: capture chooses keys under a
    vault-wide lock."""
    # lazy: vaultd.pipeline.capture costs 497 ms at import (pulls in httpx, click, asyncio, sqlite3)
    from vaultd.pipeline.capture import capture_sync

    try:
        results = capture_sync(vault, settings, source, doi=doi, cite_key=cite_key,
                               refresh=refresh, on_wait=on_wait)
    except NoMetadataError:
        path = Path(source)
        key = named_key(path) if not cite_key and path.suffix.lower() == ".pdf" \
            and path.is_file() else None
        if key is None:
            raise
        results = capture_sync(vault, settings, source, doi=doi, cite_key=key,
                               refresh=refresh, on_wait=on_wait)
    out = IngestResult(captured=list(results), failed=list(getattr(results, "failed", [])),
                       errors=dict(getattr(results, "errors", {})))
    return finish(vault, settings, out, refresh=refresh, compile=compile, index=index,
                  tags=tags, folder=folder, keep_going=keep_going, pool=pool)


def finish(vault: Vault, settings: Settings, out: IngestResult, *, refresh: bool = False,
           compile: bool = True, index: bool = True, tags: Sequence[str] = (),
           folder: str | None = None, keep_going: bool = False,
           pool: BulkCompiler | None = None,
           progress: Callable[[int, int], None] | None = None,
           after_compile: Callable[[IngestResult], Sequence[Path]] | None = None,
           figures: bool = True) -> IngestResult:
    """The stages after capture for works already captured (``out.captured``): compile
    each note once, then index the notes written. ``pool``: PDFs are parsed by its worker
    processes (``pipeline.bulk``); ``progress(done, total)`` follows the compiles;
    ``after_compile``: the caller's last touches to the notes (an import's child notes),
    returning the notes it changed, indexed with the rest; ``figures`` false (with a
    pool): figure crops are left for ``pool.draw_figures`` (``pipeline.figure_crops``)."""
    for r in out.captured:
        out.warnings.extend(r.warnings)
    if compile:
        _compile(vault, settings, out, refresh=refresh, tags=tags, folder=folder,
                 keep_going=keep_going, pool=pool, progress=progress, figures=figures)
    touched = list(after_compile(out)) if after_compile is not None else []
    notes = list(dict.fromkeys([*out.notes, *touched]))
    if index and notes:
        _index(vault, settings, notes)
    if compile and settings.library.url and settings.library.publish:
        from vaultd.pipeline.publish import publish_after  # lazy: psycopg only with a library

        warning = publish_after(vault, settings, [k for k, c in out.compiled.items()
                                                  if not c.skipped and c.error is None])
        if warning:
            out.warnings.append(warning)
    return out


def _compile(vault: Vault, settings: Settings, out: IngestResult, *, refresh: bool,
             tags: Sequence[str], folder: str | None, keep_going: bool,
             pool: BulkCompiler | None = None,
             progress: Callable[[int, int], None] | None = None,
             figures: bool = True) -> None:
    # lazy: vaultd.pipeline.citations costs 128 ms at import (pulls in sqlite3, subprocess)
    from vaultd.pipeline.citations import renderer_for

    # lazy: vaultd.pipeline.compile costs 207 ms at import (pulls in yaml, rispy, sqlite3, subprocess)
    from vaultd.pipeline.compile import compile_note

    citer = renderer_for(vault, settings)  # one renderer for every work of the input
    try:
        todo = []
        for r in out.captured:
            if not _to_compile(vault, r, refresh):
                out.compiled[r.cite_key] = Compiled(r.cite_key, skipped=True)
                continue
            todo.append(r)
        if pool is not None and any(r.pdf is not None for r in todo):
            pool.start(wait=False)  # the workers start up while the citations render
        if len(todo) > 1:  # every citation of the batch in one processor call (before the
            # pool parses: the workers find them stored; rendered meanwhile, the two compete
            # for the cores and the first notes miss them)
            citer.render({r.cite_key: r.meta.work for r in todo})
        if pool is not None:
            _compile_in_pool(vault, settings, out, todo, citer, pool, tags=tags,
                             folder=folder, keep_going=keep_going, progress=progress,
                             figures=figures)
            return
        for done, r in enumerate(todo, start=1):
            try:
                result = compile_note(vault, settings, r.cite_key, parser=settings.parse.parser,
                                      folder=folder, citer=citer, tags=tags)
            except VaultdError as exc:
                if not keep_going:
                    raise
                out.compiled[r.cite_key] = Compiled(r.cite_key, error=str(exc),
                                                    transient=exc.transient)
            else:
                out.compiled[r.cite_key] = Compiled(r.cite_key, result)
                out.warnings.extend(result.warnings)
            if progress is not None:
                progress(done, len(todo))
    finally:
        citer.close()


def _to_compile(vault: Vault, captured: CaptureResult, refresh: bool) -> bool:
    """Whether ``finish`` compiles this work: not a work already in the vault with its note
    (unless ``refresh``)."""
    return not (captured.status == "existing" and not refresh
                and vault.note_path(captured.cite_key).exists())


def render_citations(vault: Vault, settings: Settings, captured: Sequence[CaptureResult],
                     *, refresh: bool = False) -> None:
    """Render and store, in one processor call, the citations of the works ``finish`` is
    to compile, ahead of it: a caller whose captures come in groups (the agent's bursts)
    renders one group while the pool compiles another; ``finish`` then finds them stored.
    Raises ``VaultdError`` (``CitationError``) when the processor fails."""
    # lazy: vaultd.pipeline.citations costs 128 ms at import (pulls in sqlite3, subprocess)
    from vaultd.pipeline.citations import renderer_for

    works = {r.cite_key: r.meta.work for r in captured if _to_compile(vault, r, refresh)}
    if not works:
        return
    citer = renderer_for(vault, settings)
    try:
        citer.render(works)
    finally:
        citer.close()


def _compile_in_pool(vault: Vault, settings: Settings, out: IngestResult,
                     todo: Sequence[CaptureResult], citer: Any, pool: BulkCompiler, *,
                     tags: Sequence[str], folder: str | None, keep_going: bool,
                     progress: Callable[[int, int], None] | None, figures: bool) -> None:
    # lazy: vaultd.pipeline.bulk costs 345 ms at import (pulls in yaml, rispy, sqlite3, subprocess)
    from vaultd.pipeline.bulk import CompileJob

    jobs = [CompileJob(r.cite_key, settings.parse.parser, folder, tuple(tags),
                       has_pdf=r.pdf is not None and r.meta.video is None, figures=figures)
            for r in todo]
    for done, outcome in enumerate(pool.compile(jobs, citer), start=1):
        if progress is not None:
            progress(done, len(jobs))
        if outcome.error is not None:
            if not keep_going:
                outcome.raise_error()
            out.compiled[outcome.cite_key] = Compiled(outcome.cite_key, error=outcome.error,
                                                      transient=outcome.transient)
            continue
        assert outcome.result is not None
        out.compiled[outcome.cite_key] = Compiled(outcome.cite_key, outcome.result)
        out.warnings.extend(outcome.result.warnings)


# --- the Inbox's wording of the same sequence ------------------------------------------


def _inbox_worded(failed: list[tuple[str, str]], errors: dict[str, Any]
                  ) -> list[tuple[str, str]]:
    return [(item, _inbox_advice(errors[item]) if isinstance(errors.get(item), NoMetadataError)
             else why) for item, why in failed]


def _inbox_advice(exc: NoMetadataError) -> str:
    """What to do in the Inbox about an item no source knows (the CLI's --cite-key is no
    action there: a .bib entry is)."""
    return (f"no metadata source knows {exc.subject or 'this item'}; drop a .bib file with its "
            "entry (title, authors, year, DOI) into Inbox/ and it is saved from that")


def ingest_item(vault: Vault, settings: Settings, path: Path, *, action: Action,
                url: str | None = None, compile: bool = True, tags: list[str] | None = None,
                folder: str | None = None, index: bool = True,
                pool: BulkCompiler | None = None) -> IngestResult:
    """One Inbox item through ``process``, with the Inbox's advice in its errors (a .bib
    entry or a renamed file, never a CLI flag); ``pool``: the agent's compile workers."""
    # lazy: vaultd.pipeline.capture costs 497 ms at import (pulls in httpx, click, asyncio, sqlite3)
    from vaultd.pipeline.capture import ItemsFailedError

    try:
        out = process(vault, settings, str(path), compile=compile, index=index,
                      tags=tags or (), folder=folder, pool=pool)
    except ItemsFailedError as exc:
        err = InputError(ItemsFailedError.summary(_inbox_worded(exc.failed, exc.errors)))
        err.transient = exc.transient
        raise err from None
    except NoMetadataError as exc:
        suffix = path.suffix.lower()
        if suffix == ".bib":
            raise InputError(f"{path.name}: no metadata source knows "
                             f"{exc.subject or 'this item'}; give its entry a title, "
                             "authors and year and drop it into Inbox/ again") from None
        if suffix != ".pdf":
            raise InputError(f"{path.name}: {_inbox_advice(exc)}") from None
        raise InputError(
            f"{path.name}: no metadata found (the PDF names no DOI or arXiv id, and no "
            "source knows its title); rename it to the cite key you want, with a year "
            "in it (e.g. smith2020title.pdf), and drop it into Inbox/ again to save it "
            "under that key, or drop a .url file with its DOI instead") from None
    if not out.captured:
        what = "entry" if action == "import_bib" else "item"
        raise InputError(f"{path.name}: no {what} could be captured; check its content")
    out.failed = _inbox_worded(out.failed, out.errors)
    for item, why in out.failed:
        log.warning("%s: could not capture %s: %s", path.name, item, why)
    return out


def partial_summary(result: IngestResult) -> str:
    """The job-list line for a file some of whose items failed, e.g. '1 of 3 items failed'."""
    total = len(result.cite_keys) + len(result.failed)
    return f"{len(result.failed)} of {total} items failed (see Inbox/_failed/)"


def write_partial_report(vault: Vault, name: str, kept_at: str, result: IngestResult) -> Path:
    """``Inbox/_failed/<name>.error.md`` for a link file or .bib whose other items were
    captured: each failed item and why, and the cite keys that were made."""
    note = unique_path(vault.failed / f"{name}.error.md")
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


def _index(vault: Vault, settings: Settings, notes: list[Path]) -> None:
    # lazy: vaultd.pipeline.index costs 72 ms at import (pulls in apsw)
    from vaultd.pipeline.index import index_after_compile

    for warning in index_after_compile(vault, settings, notes):
        log.warning("index: %s", warning)


def enrich_after(vault: Vault, settings: Settings, cite_keys: list[str]) -> list[str]:
    """The LLM pass for freshly written notes (``pipeline.enrich_pass``); never raises for
    a down LLM."""
    # lazy: vaultd.pipeline.enrich_pass costs 114 ms at import (pulls in asyncio)
    from vaultd.pipeline.enrich_pass import enrich_notes

    return enrich_notes(vault, settings, cite_keys).messages


def retry_pending_records(vault: Vault, settings: Settings) -> list[str]:
    """Records saved while every metadata source was down (``needs_retry``): ask the
    sources again (the cite key is kept), then recompile and re-index each note whose
    metadata came back. Returns those cite keys; records still unanswered stay pending."""
    # lazy: asyncio costs 114 ms at import
    import asyncio

    # lazy: vaultd.pipeline.capture costs 497 ms at import (pulls in httpx, click, asyncio, sqlite3)
    from vaultd.pipeline.capture import retry_pending

    # lazy: vaultd.pipeline.compile costs 207 ms at import (pulls in yaml, rispy, sqlite3, subprocess)
    from vaultd.pipeline.compile import compile_note
    results = asyncio.run(retry_pending(vault, settings))
    for item, why in getattr(results, "failed", []):
        log.warning("retry of %s failed: %s", item, why)
    keys = [r.cite_key for r in results if not r.needs_retry]
    notes = [compile_note(vault, settings, key).note_path for key in keys]
    if notes:
        _index(vault, settings, notes)
    return keys
