"""What one work publishes to the library, as plain data (pure): its record, its chunks and
their embeddings. Built by ``pipeline.publish`` from the vault; written by ``lab.publish``."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ChunkRow:
    chunk_id: str
    text: str
    text_sha256: str
    kind: str = "paper"  # "note": the member's own text (published only with publish_notes)
    chunk_type: str | None = None
    section: str | None = None
    page: int | None = None
    page_label: str | None = None
    page_label_source: str | None = None
    page_label_status: str | None = None
    regions: list[list[float]] | None = None
    text_layer: str | None = None
    start: float | None = None
    end: float | None = None


@dataclass(frozen=True)
class Publication:
    """One work as a member publishes it."""

    cite_key: str
    aliases: list[str]
    work: dict[str, Any]  # the Work as JSON (what citations are rendered from)
    title: str | None
    authors: str | None
    year: int | None
    type: str | None
    language: str | None
    doi: str | None
    arxiv_id: str | None
    pdf_sha256: str | None
    labels: list[str]
    retracted: bool
    verified: bool
    chunks: list[ChunkRow]
    model: str | None = None  # the embedding model of ``vectors``
    vectors: dict[str, list[float]] = field(default_factory=dict)  # text_sha256 → vector
    pdf: bytes | None = None  # only with [library] share_pdfs

    @property
    def fingerprint(self) -> str:
        """A digest of everything published: equal → publishing again changes nothing."""
        h = hashlib.sha256()
        head = {k: getattr(self, k) for k in (
            "cite_key", "aliases", "work", "labels", "retracted", "verified", "pdf_sha256",
            "model")}
        h.update(json.dumps(head, sort_keys=True, default=str).encode())
        h.update("".join([_json_list([c.chunk_id, c.text_sha256, c.kind, c.chunk_type,
                                      c.section, c.page, c.page_label, c.regions])
                          for c in self.chunks]).encode())
        h.update(",".join(sorted(k for k in self.vectors if self.vectors[k])).encode())
        h.update(b"pdf" if self.pdf is not None else b"")
        return h.hexdigest()


def _json_list(values: list[Any]) -> str:
    """``json.dumps(values)``, written here for a list of strings, integers and nulls (a
    chunk's fields: half the time ``json.dumps`` takes); anything else by it."""
    parts = []
    for v in values:
        kind = type(v)
        if kind is str:
            parts.append(_json_str(v))
        elif v is None:
            parts.append("null")
        elif kind is int:
            parts.append(int.__repr__(v))
        else:
            return json.dumps(values)
    return f"[{', '.join(parts)}]"


_json_str = json.encoder.encode_basestring_ascii  # what json.dumps writes a string with


#: ISO 639-1 codes → PostgreSQL's text search configurations (those it ships); any other
#: language is searched with ``simple`` (no stemming, no stop words).
TS_CONFIGS = {
    "ar": "arabic", "hy": "armenian", "eu": "basque", "ca": "catalan", "da": "danish",
    "nl": "dutch", "en": "english", "fi": "finnish", "fr": "french", "de": "german",
    "el": "greek", "hi": "hindi", "hu": "hungarian", "id": "indonesian", "ga": "irish",
    "it": "italian", "lt": "lithuanian", "ne": "nepali", "no": "norwegian", "nb": "norwegian",
    "nn": "norwegian", "pt": "portuguese", "ro": "romanian", "ru": "russian", "sr": "serbian",
    "es": "spanish", "sv": "swedish", "ta": "tamil", "tr": "turkish", "yi": "yiddish",
}


def ts_config(language: str | None) -> str:
    """The text search configuration of a work's language (``en-GB`` → ``english``); works
    without a language are taken as English, as most of a research library is."""
    if not language:
        return "english"
    return TS_CONFIGS.get(language.split("-")[0].split("_")[0].lower(), "simple")
