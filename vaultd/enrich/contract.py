"""The LLM contract for enrichment: what is asked, what may come back, what is skipped.

The model sees each chunk as numbered sentences and answers, per chunk, a ``paraphrase``,
an ``implication`` and optionally ``key_sentence`` — an *index* into those numbered
sentences. It never returns quote text: an answer whose key sentence is text (or that
carries any field beyond the three) is rejected, and the note shows the key sentence by
looking the index up in the verbatim chunk text (``key_sentence_text``).

Pure: no I/O. Bump ``PROMPT_VERSION`` whenever the prompt or schema changes; the cache is
keyed by it, so a new version re-enriches on request (``vaultd enrich KEY --force``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from vaultd.models import Chunk
from vaultd.sentences import split_sentences

PROMPT_VERSION = "enrich-v1"

#: Chunks with fewer words than this carry too little to paraphrase.
MIN_CONTENT_WORDS = 8
#: LLM text longer than this is cut (advisory text, not an essay).
MAX_ADVISORY_CHARS = 600

SKIPPED_TYPES = {"heading": "heading", "reference": "reference", "page": "page marker"}

SYSTEM_PROMPT = (
    "You help a researcher skim a paper. For every chunk you are given, answer in JSON: "
    "`paraphrase`: one or two plain sentences restating the chunk in your own words; "
    "`implication`: one sentence on why it matters or what follows from it; "
    "`key_sentence`: the NUMBER in brackets of the single most important sentence, or null. "
    "Never copy sentences: give the number, not the text. Answer every chunk id given, "
    'in the same order, inside {"answers": [...]}.'
)


class ChunkAnswer(BaseModel):
    """The model's answer for one chunk."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="the chunk id exactly as given")
    paraphrase: str = Field(description="the chunk restated in other words (advisory)")
    implication: str = Field(description="why it matters (advisory)")
    key_sentence: StrictInt | None = Field(
        None, description="number of the most important sentence; never its text"
    )


class BatchAnswer(BaseModel):
    """One LLM response: answers for every chunk of the request."""

    model_config = ConfigDict(extra="forbid")

    answers: list[ChunkAnswer]


def answer_schema() -> dict[str, Any]:
    """JSON schema of ``BatchAnswer``: passed to Ollama as ``format`` (structured output)."""
    return BatchAnswer.model_json_schema()


@dataclass(frozen=True)
class EnrichItem:
    """One chunk to be enriched, as the LLM sees it."""

    chunk_id: str
    text_sha256: str
    section: str | None
    sentences: tuple[str, ...]

    @classmethod
    def from_chunk(cls, chunk: Chunk) -> EnrichItem:
        return cls(
            chunk_id=chunk.id,
            text_sha256=chunk.provenance.text_sha256,
            section=chunk.provenance.section,
            sentences=tuple(split_sentences(chunk.text)),
        )

    @property
    def chars(self) -> int:
        return sum(len(s) for s in self.sentences)


# A sentence ends at . ! or ? (optionally followed by closing quotes/brackets) before
# whitespace and an uppercase letter, digit, quote or bracket.
def skip_reason(chunk: Chunk) -> str | None:
    """Why ``chunk`` is not sent to the LLM, or None when it is content to enrich.

    Headings, references and page markers are skipped; a figure chunk is enriched only
    through its caption text (a bare image has nothing to paraphrase); tiny chunks too.
    """
    kind = chunk.provenance.chunk_type
    if kind in SKIPPED_TYPES:
        return SKIPPED_TYPES[kind]
    if kind == "figure" and not chunk.text.strip():
        return "figure image without caption"
    if len(chunk.text.split()) < MIN_CONTENT_WORDS:
        return f"under {MIN_CONTENT_WORDS} words"
    return None


def render_item(item: EnrichItem) -> str:
    """One chunk as it appears in the prompt."""
    section = item.section or "(none)"
    lines = [f"### chunk {item.chunk_id} (section: {section})"]
    lines += [f"[{n}] {s}" for n, s in enumerate(item.sentences)]
    return "\n".join(lines)


def build_messages(items: list[EnrichItem]) -> list[dict[str, str]]:
    """Chat messages for one request covering ``items``."""
    ids = ", ".join(i.chunk_id for i in items)
    body = "\n\n".join(render_item(i) for i in items)
    user = f"Chunk ids: {ids}\n\n{body}\n\nAnswer in JSON for each chunk id."
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def sanitize_advisory(text: str) -> str:
    """LLM text made safe to place in a note: one line, no HTML comments, bounded."""
    flat = " ".join(text.replace("<!--", "").replace("-->", "").split())
    flat = flat.lstrip(">#-*+ ")
    if len(flat) > MAX_ADVISORY_CHARS:
        flat = flat[: MAX_ADVISORY_CHARS - 1].rstrip() + "\u2026"
    return flat


@dataclass(frozen=True)
class ValidatedAnswer:
    paraphrase: str
    implication: str
    key_sentence: int | None


def validate_batch(
    raw: str, items: list[EnrichItem]
) -> tuple[dict[str, ValidatedAnswer], dict[str, str]]:
    """Check one response against the items asked; returns (answers, reasons by chunk id).

    Every chunk id asked ends up in exactly one of the two maps. An answer is refused when
    the JSON is broken, when ``key_sentence`` is not an integer index (quote text in place
    of an index), when it is out of range, when paraphrase/implication are empty, or when
    they copy a whole sentence of the chunk (quote text passed off as a paraphrase).
    """
    by_id = {i.chunk_id: i for i in items}
    reasons: dict[str, str] = {}
    answers: dict[str, ValidatedAnswer] = {}
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, TypeError):
        return {}, {cid: "LLM answer is not valid JSON" for cid in by_id}
    entries = data.get("answers") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return {}, {cid: "LLM answer has no `answers` list" for cid in by_id}
    for entry in entries:
        cid = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(cid, str) or cid not in by_id or cid in answers:
            continue
        try:
            parsed = ChunkAnswer.model_validate(entry)
        except ValidationError as exc:
            reasons[cid] = _reason(exc)
            continue
        n = len(by_id[cid].sentences)
        paraphrase = sanitize_advisory(parsed.paraphrase)
        implication = sanitize_advisory(parsed.implication)
        if parsed.key_sentence is not None and not 0 <= parsed.key_sentence < n:
            reasons[cid] = f"key_sentence {parsed.key_sentence} is not a sentence number 0..{n - 1}"
        elif not paraphrase or not implication:
            reasons[cid] = "LLM answer has an empty paraphrase or implication"
        elif (copied := _copied_sentence(by_id[cid], paraphrase, implication)) is not None:
            reasons[cid] = f"LLM copied sentence [{copied}] verbatim instead of paraphrasing"
        else:
            reasons.pop(cid, None)
            answers[cid] = ValidatedAnswer(paraphrase, implication, parsed.key_sentence)
    for cid in by_id:
        if cid not in answers and cid not in reasons:
            reasons[cid] = "LLM answer left this chunk out"
    return answers, reasons


def _copied_sentence(item: EnrichItem, *texts: str) -> int | None:
    """Index of a long chunk sentence repeated word for word in the advisory text."""
    haystack = " ".join(" ".join(t.split()).casefold() for t in texts)
    for n, sentence in enumerate(item.sentences):
        words = sentence.split()
        if len(words) >= MIN_CONTENT_WORDS and " ".join(words).casefold() in haystack:
            return n
    return None


def _reason(exc: ValidationError) -> str:
    err = exc.errors()[0]
    field = ".".join(str(p) for p in err["loc"]) or "answer"
    if field == "key_sentence":
        return "LLM gave quote text instead of a sentence number for key_sentence"
    if err["type"] == "extra_forbidden":
        return f"LLM answer carries an unexpected field `{field}` (quote text is never accepted)"
    return f"LLM answer field `{field}`: {err['msg']}"
