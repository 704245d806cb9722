"""Builders shared by the index, search and MCP tests: real paper notes (rendered with
vaultd.notes.markdown.render_note) and their raw/<key>.meta.json, plus a small user note."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx

from vaultd.canonical import text_sha256
from vaultd.models import Chunk, MetaFile, Note, NoteMeta, Work
from vaultd.vault import Vault, atomic_write_text

ATTENTION = [
    ("p1s1c1", 1, "Abstract",
     "The dominant sequence transduction models are based on complex recurrent or "
     "convolutional neural networks that include an encoder and a decoder."),
    ("p3s2c1", 3, "3.2 Attention",
     "We call our particular attention Scaled Dot-Product Attention. The input consists of "
     "queries and keys of dimension dk, and values of dimension dv."),
    ("p5s3c1", 5, "3.5 Positional Encoding",
     "Since our model contains no recurrence and no convolution, in order for the model to "
     "make use of the order of the sequence, we must inject some information about the "
     "relative or absolute position of the tokens in the sequence."),
]
DROPOUT = [
    ("p1s1c1", 1, "Abstract",
     "Deep neural nets with a large number of parameters are very powerful machine learning "
     "systems. However, overfitting is a serious problem in such networks."),
    ("p2s2c1", 2, "2 Motivation",
     "The key idea is to randomly drop units (along with their connections) from the neural "
     "network during training. This prevents units from co-adapting too much."),
]


def paper(vault: Vault, key: str, title: str, authors: list[tuple[str, str]], year: int,
          chunks: list[tuple[str, int, str, str]]) -> Path:
    """Write wiki/<key>.md and raw/<key>.meta.json for a paper with these chunks."""
    from vaultd.notes.markdown import render_note

    work = Work.model_validate({
        "title": title, "authors": [{"given": g, "family": f} for g, f in authors],
        "issued": [year], "container_title": "Proceedings of Tests", "doi": f"10.1234/{key}"})
    meta = MetaFile.from_work(key, work, pdf=f"raw/{key}.pdf")
    atomic_write_text(vault.meta_path(key), meta.model_dump_json(indent=2, by_alias=True))
    pos = 0
    built = []
    for cid, page, section, text in chunks:
        built.append(Chunk.model_validate({"id": cid, "text": text, "provenance": {
            "page": page, "page_label": str(page + 100), "section": section,
            "text_sha256": text_sha256(text), "char_range": [pos, pos + len(text)],
            "chunk_type": "paragraph", "parser": "pymupdf"}}))
        pos += len(text) + 1
    meta_fields = {"cite_key": key, "title": title, "authors": [f"{g} {f}" for g, f in authors],
                   "year": year, "raw": f"raw/{key}.pdf", "chunks": len(built)}
    note = Note(meta=NoteMeta.model_validate(meta_fields), chunks=built)
    path = vault.note_path(key)
    atomic_write_text(path, render_note(note))
    return path


def sample_vault(vault: Vault) -> None:
    paper(vault, "vaswani2017attention", "Attention Is All You Need",
          [("Ashish", "Vaswani"), ("Noam", "Shazeer")], 2017, ATTENTION)
    paper(vault, "srivastava2014dropout", "Dropout: A Simple Way to Prevent Overfitting",
          [("Nitish", "Srivastava"), ("Geoffrey", "Hinton")], 2014, DROPOUT)
    atomic_write_text(vault.root / "Projects" / "thesis.md", (
        "---\ntags: [thesis]\n---\n# Thesis plan\n\nIntro paragraph about my thesis.\n\n"
        "## Open questions\n\nDoes the zebra-striped gradient trick help small models?\n"
        "Check it against dropout.\n\n## Reading list\n\n- attention papers\n"))


# A deterministic "semantic" test embedding: words map to concept axes, so a paraphrase
# that shares no keyword with the passage still lands near it.
CONCEPTS = [
    {"overfitting", "overfit", "memorise", "memorize", "memorising", "generalise"},
    {"drop", "dropout", "remove", "removing", "delete", "randomly", "random"},
    {"units", "neurons", "neuron", "unit", "cells"},
    {"training", "learning", "fitting", "learn"},
    {"attention", "attend", "focus"},
    {"position", "order", "positional", "ordering", "place"},
    {"recurrence", "recurrent", "rnn", "loops"},
    {"sequence", "tokens", "words", "sentence"},
]


def concept_embedding(text: str) -> list[float]:
    words = re.findall(r"[a-z]+", text.lower())
    vec = [float(sum(1 for w in words if w in axis)) for axis in CONCEPTS] + [0.05]
    norm = sum(x * x for x in vec) ** 0.5
    return [x / norm for x in vec]


def ollama_transport(calls: list[int] | None = None) -> httpx.MockTransport:
    """Ollama's POST /api/embed (response shape per ollama docs/api.md) with test vectors."""

    def handler(request: httpx.Request) -> httpx.Response:
        import json

        assert request.url.path == "/api/embed"
        body: dict[str, Any] = json.loads(request.content)
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        if calls is not None:
            calls.append(len(texts))
        return httpx.Response(200, json={
            "model": body["model"], "embeddings": [concept_embedding(t) for t in texts],
            "total_duration": 14143917, "load_duration": 1019500,
            "prompt_eval_count": sum(len(t.split()) for t in texts)})

    return httpx.MockTransport(handler)
