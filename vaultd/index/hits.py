"""Search hits as users and agents see them: fields, excerpt, links."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import quote as urlquote

from vaultd import record_store
from vaultd.citekey import key_to_filename
from vaultd.trust import retracted_label

if TYPE_CHECKING:
    from vaultd.vault import Vault

EXCERPT_CHARS = 400


@dataclass
class Hit:
    kind: str
    cite_key: str | None
    title: str | None
    authors: str | None
    year: int | None
    page: int | None
    page_label: str | None
    section: str | None
    chunk_id: str
    chunk_type: str | None
    path: str
    line_start: int | None
    line_end: int | None
    excerpt: str
    score: float
    matched: list[str] = field(default_factory=list)  # "bm25", "vector", "phrase"
    agent_written: bool | None = None  # notes only: written by an agent (MCP remember)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def locator(self) -> str | None:
        """The page a reader cites: printed (``p. 4970``), or the PDF's when no printed
        page was confirmed for the passage (``p. 2 of the PDF``)."""
        if self.page is None:
            return None
        return f"p. {self.page_label}" if self.page_label else f"p. {self.page} of the PDF"


def hit_json(vault: Vault, hit: Hit) -> dict[str, Any]:
    """One hit as `vaultd search --json` and MCP recall show it (with a link to open it)."""
    data: dict[str, Any] = {k: v for k, v in hit.to_dict().items() if v not in (None, [])}
    target = f"raw/{key_to_filename(hit.cite_key)}.pdf" if hit.kind == "paper" and hit.cite_key else hit.path
    if hit.kind == "paper" and hit.page:
        data["link"] = f"{target}#page={hit.page}"
        data["locator"] = hit.locator
    elif hit.line_start:
        data["link"] = f"{hit.path}#L{hit.line_start}"
    else:
        data["link"] = hit.path
    data["obsidian"] = (f"obsidian://open?vault={urlquote(vault.root.name)}"
                        f"&file={urlquote(hit.path)}")
    if hit.kind == "paper" and hit.cite_key:
        label = retraction_label(vault, hit.cite_key)
        if label:
            data = {"warning": label, "retracted": True, **data}
    return data


_RETRACTED_RE = re.compile(r'"retracted"\s*:\s*true')


def retraction_label(vault: Vault, cite_key: str) -> str | None:
    """'RETRACTED (…)' when the work's record says it was retracted, else None."""

    meta = record_store.get(vault, cite_key)  # read once per record while it is unchanged
    return retracted_label(meta.work.notices) if meta and meta.work.retracted else None


def hit_from_row(row: dict[str, Any], score: float, matched: list[str], terms: Sequence[str],
         query: str) -> Hit:
    """A hit from its index row (the ``chunks`` columns search fetches)."""
    agent = row["kind"] == "agent"  # an agent's note: a note, labelled as the agent's
    return Hit(kind="note" if agent else row["kind"], cite_key=row["cite_key"],
               title=row["title"], authors=row["authors"], year=row["year"], page=row["page"],
               page_label=row["page_label"], section=row["section"], chunk_id=row["chunk_id"],
               chunk_type=row["chunk_type"], path=row["path"], line_start=row["line_start"],
               line_end=row["line_end"], excerpt=excerpt(row["text"], terms, query),
               score=round(score, 6), matched=matched,
               agent_written=None if row["kind"] == "paper" else agent)


def excerpt(text: str, terms: Sequence[str], query: str = "", size: int = EXCERPT_CHARS) -> str:
    """At most ``size`` characters of ``text`` around its densest cluster of query terms."""
    flat = " ".join(text.split())
    if len(flat) <= size:
        return flat
    low = flat.lower()
    phrase = " ".join(query.lower().split())
    pos = low.find(phrase) if phrase else -1
    if pos < 0:
        hits: list[int] = []
        for t in terms:
            hits.extend(m.start() for m in re.finditer(r"\b" + re.escape(t[:6]), low))
        hits.sort()
        best, best_n = 0, 0
        for i, h in enumerate(hits):
            n = sum(1 for x in hits[i:] if x - h < size * 0.8)
            if n > best_n:
                best, best_n = h, n
        pos = best
    start = max(0, min(pos - size // 4, len(flat) - size))
    end = start + size
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(flat) else ""
    body = flat[start + len(prefix):end - len(suffix)]
    return prefix + body + suffix
