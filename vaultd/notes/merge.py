"""Re-compile merging: a freshly compiled note takes over what the user and the LLM left in
the old one (their sections, the text they typed beside quotes, extra frontmatter, tags
and aliases, and the enrichment of every quote whose text is unchanged)."""

from __future__ import annotations

from vaultd.models import Chunk, Note
from vaultd.notes.layout import MY_NOTES_BLOCK
from vaultd.notes.markdown import annotation_text


def merge_for_recompile(old: Note | None, new: Note) -> Note:
    """``new`` (fresh from compile) with the user's blocks, extra frontmatter, tags and
    aliases from ``old``, and the enrichment of every chunk whose text hash is unchanged.
    A first render gets an empty ``## My notes`` section."""
    if old is None:
        return new.model_copy(update={"user_blocks": list(new.user_blocks) or [MY_NOTES_BLOCK]})
    enriched = {c.provenance.text_sha256: c for c in old.chunks if c.enrichment != "pending"}
    chunks = []
    for chunk in new.chunks:
        prior = enriched.get(chunk.provenance.text_sha256)
        if prior is not None and chunk.enrichment == "pending":
            keep = ("paraphrase", "implication", "key_sentence", "enrichment", "enrichment_note")
            chunk = chunk.model_copy(update={k: getattr(prior, k) for k in keep})
        chunks.append(chunk)
    meta = new.meta.model_copy(
        update={
            "tags": _union(old.meta.tags, new.meta.tags),
            "aliases": _union(old.meta.aliases, new.meta.aliases),
            "enrichment": _meta_enrichment(old, new, chunks),
        }
    )
    extra = {**old.frontmatter_extra, **new.frontmatter_extra}
    notes, orphans = _carry_annotations(old, new)
    return new.model_copy(
        update={"meta": meta, "chunks": chunks, "user_blocks": _append_blocks(old.user_blocks, orphans),
                "annotations": notes, "frontmatter_extra": extra}
    )


def _carry_annotations(old: Note, new: Note) -> tuple[dict[str, str], list[str]]:
    """The user's text between chunks, each piece after the new chunk with its old chunk's
    quote (``_successors``), so a note never stands beside another quote; a piece whose
    quote is gone goes after the quotes region (the second value)."""
    successor = _successors(old.chunks, new.chunks)
    notes: dict[str, str] = {}
    orphans: list[str] = []
    for key, text in old.annotations.items():
        target = "" if key == "" else successor.get(key)
        if target is None:
            orphans.append(annotation_text(text))
        else:
            notes[target] = notes.get(target, "") + annotation_text(text)
    return notes, orphans


def _successors(old: list[Chunk], new: list[Chunk]) -> dict[str, str]:
    """Old chunk id → the new chunk holding the same quote: the same id when its text hash
    is unchanged, else, per text hash, the remaining old and new chunks paired in order
    (two chunks with one text, e.g. a repeated caption, keep their own notes)."""
    def by_hash(chunks: list[Chunk]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for c in chunks:
            out.setdefault(c.provenance.text_sha256, []).append(c.id)
        return out

    new_ids = by_hash(new)
    pairs: dict[str, str] = {}
    for sha, olds in by_hash(old).items():
        news = new_ids.get(sha, [])
        same = [i for i in olds if i in news]
        pairs.update((i, i) for i in same)
        pairs.update(zip([i for i in olds if i not in same], [i for i in news if i not in same],
                         strict=False))
    return pairs


def _append_blocks(blocks: list[str], texts: list[str]) -> list[str]:
    """``blocks`` with ``texts`` after them, each set off by a blank line (a last block
    without its final newline gets one, so no two texts share a line)."""
    out = list(blocks)
    for text in texts:
        if out and not out[-1].endswith("\n"):
            out[-1] += "\n"
        out.append(text if not out or out[-1].endswith("\n\n") else "\n" + text)
    return out


def _meta_enrichment(old: Note, new: Note, chunks: list[Chunk]) -> str | None:
    """The model/prompt label stays when every chunk kept its enrichment."""
    carried = chunks and all(c.enrichment != "pending" for c in chunks)
    if carried and new.meta.enrichment in (None, "pending") and old.meta.enrichment:
        return old.meta.enrichment
    return new.meta.enrichment


def _union(first: list[str], second: list[str]) -> list[str]:
    return first + [x for x in second if x not in first]
