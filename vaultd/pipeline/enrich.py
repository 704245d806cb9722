"""Enrich stage: fill advisory paraphrase / implication / key sentence of a note's chunks.

Reads ``wiki/<key>.md`` with ``vaultd.notes.markdown.parse_note``, asks the LLM (cache first) for
content chunks, and writes the note back atomically with ``render_note``. Only the
advisory fields and enrichment state of chunks change: the quote text is never touched,
and a note whose quotes would not round-trip byte-identically is not written.

Never raises because the LLM is down: the chunks stay ``pending`` and the result carries
the one-line hint (``ollama serve`` / ``ollama pull MODEL``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from vaultd.config import Settings
from vaultd.enrich.batch import run_batches
from vaultd.enrich.cache import EnrichCache
from vaultd.enrich.contract import PROMPT_VERSION, EnrichItem, ValidatedAnswer, skip_reason
from vaultd.enrich.ollama import LLM, OllamaLLM
from vaultd.errors import InputError, NoteFormatError, VaultdError
from vaultd.models import Chunk, Note
from vaultd.statedb import open_state_db
from vaultd.vault import Vault, atomic_write_text

Progress = Callable[[int, int], None]

UNAVAILABLE_NOTE = "LLM unavailable"


@dataclass
class EnrichResult:
    cite_key: str
    note_path: Path
    content_chunks: int = 0
    enriched: int = 0
    cached: int = 0
    already: int = 0
    skipped: int = 0
    pending: int = 0
    requests: int = 0
    seconds: float = 0.0
    hint: str | None = None
    reasons: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.pending == 0 and self.hint is None

    def to_json(self) -> dict[str, object]:
        return {
            "cite_key": self.cite_key,
            "note": str(self.note_path),
            "content_chunks": self.content_chunks,
            "enriched": self.enriched,
            "cached": self.cached,
            "already": self.already,
            "skipped": self.skipped,
            "pending": self.pending,
            "requests": self.requests,
            "seconds": round(self.seconds, 3),
            "hint": self.hint,
            "reasons": self.reasons,
        }


def enrichment_label(model: str) -> str:
    return f"{model} {PROMPT_VERSION}"


LABEL_SEPARATOR = "; "
UNKNOWN_MODEL = "unknown model"


def _producer(cache: EnrichCache, chunk: Chunk, current: str, previous: str | None) -> str:
    """Label of the model that wrote ``chunk``'s enrichment (kept from an earlier run)."""
    answer = ValidatedAnswer(chunk.paraphrase or "", chunk.implication or "", chunk.key_sentence)
    found = [enrichment_label(m) if v == PROMPT_VERSION else f"{m} {v}"
             for m, v in cache.producers(chunk.provenance.text_sha256, answer)]
    if current in found:
        return current
    if found:
        return found[0]
    # Not in the cache (state.db deleted, or the text was edited): trust the note's own
    # label when it names a single model, never the model configured now.
    if previous and previous != "pending" and LABEL_SEPARATOR not in previous:
        return previous
    return UNKNOWN_MODEL


def build_llm(settings: Settings) -> LLM:
    e = settings.enrich
    return OllamaLLM(e.ollama_host, e.model, timeout_seconds=e.timeout_seconds)


def _apply(chunk: Chunk, answer: ValidatedAnswer) -> Chunk:
    return chunk.model_copy(
        update={
            "paraphrase": answer.paraphrase,
            "implication": answer.implication,
            "key_sentence": answer.key_sentence,
            "enrichment": "done",
            "enrichment_note": None,
        }
    )


def _pending(chunk: Chunk, reason: str) -> Chunk:
    return chunk.model_copy(update={"enrichment": "pending", "enrichment_note": reason})


async def enrich_note_async(
    vault: Vault,
    settings: Settings,
    cite_key: str,
    *,
    force: bool = False,
    progress: Progress | None = None,
    llm: LLM | None = None,
) -> EnrichResult:
    """Enrich one note; see the module doc. ``llm`` defaults to Ollama from settings."""
    # lazy: vaultd.notes.markdown costs 59 ms at import (pulls in yaml, difflib)
    from vaultd.notes.markdown import render_note

    # lazy: vaultd.notes.reader costs 54 ms at import (pulls in yaml, difflib)
    from vaultd.notes.reader import parse_note

    started = time.monotonic()
    path = vault.note_path(cite_key)
    if not path.is_file():
        raise InputError(
            f"no note for {cite_key} at {vault.rel(path)}; run `vaultd compile {cite_key}` first"
        )
    original = path.read_text(encoding="utf-8")
    note = parse_note(original, vault.rel(path))
    model = settings.enrich.model
    result = EnrichResult(cite_key=cite_key, note_path=path)
    db = open_state_db(vault.state_db)
    try:
        cache = EnrichCache(db, model, PROMPT_VERSION)
        label = enrichment_label(model)
        # Which model wrote each chunk kept from an earlier run (the frontmatter label
        # must name the model that produced the text, not the one configured now).
        producers: dict[tuple[str, str], str] = {}
        ours: set[tuple[str, str]] = set()  # (id, text hash) answered by `model` this run
        chunks = list(note.chunks)
        todo: dict[str, int] = {}
        for n, chunk in enumerate(chunks):
            reason = skip_reason(chunk)
            if reason is not None:
                result.skipped += 1
                if chunk.enrichment != "skipped":
                    chunks[n] = chunk.model_copy(
                        update={"enrichment": "skipped", "enrichment_note": reason}
                    )
                continue
            result.content_chunks += 1
            if not force and chunk.enrichment == "done" and chunk.paraphrase:
                result.already += 1
                writer = _producer(cache, chunk, label, note.meta.enrichment)
                producers[(chunk.id, chunk.provenance.text_sha256)] = writer
                continue
            hit = None if force else cache.get(chunk.provenance.text_sha256)
            if hit is not None:
                chunks[n] = _apply(chunk, hit)
                result.cached += 1
                ours.add((chunk.id, chunk.provenance.text_sha256))
                continue
            todo[chunk.id] = n
        total = result.content_chunks
        done = total - len(todo)
        if progress is not None:
            progress(done, total)

        def advance(k: int) -> None:
            nonlocal done
            done += k
            if progress is not None:
                progress(done, total)

        if todo and settings.enrich.enabled:
            items = [EnrichItem.from_chunk(chunks[n]) for n in todo.values()]
            own = llm is None
            client = llm if llm is not None else build_llm(settings)
            try:
                outcome = await run_batches(
                    client,
                    items,
                    max_chunks=settings.enrich.batch_size,
                    concurrency=settings.enrich.concurrency,
                    on_done=advance,
                )
            finally:
                if own:
                    await _close(client)
            result.requests = outcome.requests
            result.hint = outcome.unavailable
            for cid, n in todo.items():
                chunk = chunks[n]
                if cid in outcome.answers:
                    answer = outcome.answers[cid]
                    cache.put(chunk.provenance.text_sha256, answer)
                    chunks[n] = _apply(chunk, answer)
                    result.enriched += 1
                    ours.add((cid, chunk.provenance.text_sha256))
                else:
                    reason = outcome.reasons.get(cid, UNAVAILABLE_NOTE)
                    chunks[n] = _pending(chunk, reason)
                    result.pending += 1
                    if cid in outcome.reasons:
                        result.reasons[cid] = reason
        elif todo:
            for n in todo.values():
                chunks[n] = _pending(chunks[n], "enrichment disabled in config")
            result.pending = len(todo)
    finally:
        db.close()
    source = vault.rel(path)
    current = path.read_text(encoding="utf-8")
    if current != original:
        # Recompiled or edited while the LLM was thinking: carry our answers over to the
        # chunks that are still the same text, and keep everything else as it now is.
        note, original = parse_note(current, source), current
        chunks = _carry_over(note.chunks, chunks)
    content = [c for c in chunks if skip_reason(c) is None]
    written: str | None  # what the note's `enrichment` says: true to what was written
    if not content:
        written = None  # nothing for an LLM to write here: no model is named
    elif any(c.enrichment != "done" for c in content):
        written = "pending"
    else:
        written = _note_label(vault, content, label, ours, producers, note.meta.enrichment)
    updated = note.model_copy(
        update={"chunks": chunks, "meta": note.meta.model_copy(update={"enrichment": written})}
    )
    _write_checked(path, original, note, updated, render_note, parse_note, source)
    result.seconds = time.monotonic() - started
    return result


def _note_label(
    vault: Vault,
    content: list[Chunk],
    current: str,
    ours: set[tuple[str, str]],
    producers: dict[tuple[str, str], str],
    previous: str | None,
) -> str:
    """The labels of the models that wrote the (all done) content chunks, sorted."""
    labels: set[str] = set()
    others: list[Chunk] = []
    for c in content:
        key = (c.id, c.provenance.text_sha256)
        if key in ours:
            labels.add(current)
        elif key in producers:
            labels.add(producers[key])
        else:  # kept by a recompile that happened while the LLM was answering
            others.append(c)
    if others:
        db = open_state_db(vault.state_db)
        try:
            cache = EnrichCache(db, "", PROMPT_VERSION)
            labels.update(_producer(cache, c, current, previous) for c in others)
        finally:
            db.close()
    return LABEL_SEPARATOR.join(sorted(labels))


def _write_checked(
    path: Path,
    original: str,
    before: Note,
    after: Note,
    render: Callable[[Note], str],
    parse: Callable[[str, str], Note],
    source: str,
) -> None:
    """Write ``after`` over ``original`` unless a quote would change."""
    text = render(after)
    if text == original:
        return
    reread = parse(text, source)
    quotes_before = [(c.id, c.text, c.provenance) for c in before.chunks]
    quotes_after = [(c.id, c.text, c.provenance) for c in reread.chunks]
    if quotes_before != quotes_after:
        raise NoteFormatError(
            f"{source}: enrichment would alter a quote; note left unchanged (please report this)"
        )
    atomic_write_text(path, text)


def _carry_over(fresh: list[Chunk], ours: list[Chunk]) -> list[Chunk]:
    done = {(c.id, c.provenance.text_sha256): c for c in ours if c.enrichment != "pending"}
    out: list[Chunk] = []
    for chunk in fresh:
        mine = done.get((chunk.id, chunk.provenance.text_sha256))
        if mine is None or chunk.enrichment == "done":
            out.append(chunk)
            continue
        keep = ("paraphrase", "implication", "key_sentence", "enrichment", "enrichment_note")
        out.append(chunk.model_copy(update={k: getattr(mine, k) for k in keep}))
    return out


async def _close(llm: LLM) -> None:
    closer = getattr(llm, "aclose", None)
    if closer is not None:
        await closer()


def enrich_note(
    vault: Vault,
    settings: Settings,
    cite_key: str,
    *,
    force: bool = False,
    progress: Progress | None = None,
    llm: LLM | None = None,
) -> EnrichResult:
    """Synchronous ``enrich_note_async`` (for the CLI and worker threads)."""
    return asyncio.run(
        enrich_note_async(vault, settings, cite_key, force=force, progress=progress, llm=llm)
    )


def notes_with_pending(vault: Vault) -> list[str]:
    """Cite keys of notes that have at least one chunk waiting for enrichment."""
    # lazy: vaultd.notes.reader costs 54 ms at import (pulls in yaml, difflib)
    from vaultd.notes.reader import parse_note

    keys: list[str] = []
    # Every note with pending chunks, whether or not raw/ still holds its record.
    for path in sorted(vault.wiki_markdown()):
        try:
            note = parse_note(path.read_text(encoding="utf-8"), vault.rel(path))
        except (VaultdError, OSError):
            continue
        if any(c.enrichment == "pending" and skip_reason(c) is None for c in note.chunks):
            keys.append(note.meta.cite_key)
    return keys


async def enrich_pending_async(
    vault: Vault, settings: Settings, progress: Progress | None = None, llm: LLM | None = None
) -> list[EnrichResult]:
    """Fill pending chunks of every note; stops asking once the LLM is unavailable."""
    results: list[EnrichResult] = []
    for key in notes_with_pending(vault):
        result = await enrich_note_async(vault, settings, key, progress=progress, llm=llm)
        results.append(result)
        if result.hint is not None:
            break
    return results


def enrich_pending(
    vault: Vault, settings: Settings, progress: Progress | None = None, llm: LLM | None = None
) -> list[EnrichResult]:
    return asyncio.run(enrich_pending_async(vault, settings, progress=progress, llm=llm))
