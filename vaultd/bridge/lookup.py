""""Is this already in my vault?": find a work by URL, DOI or arXiv id (docs/bridge.md).

Reads ``raw/*.meta.json`` (cached until ``raw/`` changes), the web pages saved under
``raw/web/``, and the bridge's own record of what it wrote into ``Inbox/`` (so a PDF
captured from a URL is found by that URL once the agent has made it a note).
"""

from __future__ import annotations

import contextlib
import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from vaultd.capture.detect import detect_id, normalise_doi, split_arxiv_version
from vaultd.vault import Vault


def normalise_url(url: str) -> str:
    """One spelling per page: lower-case scheme and host, no ``www.``, no fragment, no
    trailing ``/``; ``http`` and ``https`` are the same page."""
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").lower().removeprefix("www.")
    if parts.port and parts.port not in (80, 443):
        host = f"{host}:{parts.port}"
    return urlunsplit(("https", host, parts.path.rstrip("/") or "/", parts.query, ""))


def url_ids(url: str) -> tuple[str | None, str | None]:
    """(arXiv id without version, DOI) an arXiv or doi.org URL stands for."""
    found = detect_id(url)
    if found is None:
        return None, None
    if found.kind == "arxiv":
        return split_arxiv_version(found.value)[0], None
    if found.kind == "doi":
        return None, found.value.lower()
    return None, None


@dataclass
class _Works:
    stamp: tuple[int, int] = (0, 0)
    by_doi: dict[str, dict[str, Any]] = field(default_factory=dict)
    by_arxiv: dict[str, dict[str, Any]] = field(default_factory=dict)
    by_url: dict[str, dict[str, Any]] = field(default_factory=dict)
    by_sha: dict[str, dict[str, Any]] = field(default_factory=dict)


def _stamp(*dirs: Path) -> tuple[int, int]:
    out = [0, 0]
    for i, d in enumerate(dirs):
        with contextlib.suppress(OSError):
            out[i] = d.stat().st_mtime_ns
    return out[0], out[1]


class Lookup:
    def __init__(self, vault: Vault) -> None:
        self.vault = vault
        self._works = _Works(stamp=(-1, -1))
        self._lock = threading.Lock()

    @property
    def _log(self) -> Path:
        return self.vault.machine_dir / "bridge" / "captures.jsonl"

    def record(self, url: str, inbox_name: str, sha256: str) -> None:
        """Remember that a capture of ``url`` was written as ``Inbox/<inbox_name>``."""
        self._log.parent.mkdir(parents=True, exist_ok=True)
        line = json.dumps({"url": normalise_url(url), "file": inbox_name, "sha256": sha256})
        with self._lock, self._log.open("a", encoding="utf-8") as f:
            f.write(line + "\n")

    def _captures(self, url: str) -> list[dict[str, str]]:
        want = normalise_url(url)
        out = []
        with contextlib.suppress(FileNotFoundError), self._log.open(encoding="utf-8") as f:
            for line in f:
                with contextlib.suppress(ValueError):
                    item = json.loads(line)
                    if isinstance(item, dict) and item.get("url") == want:
                        out.append(item)
        return out

    def _load(self) -> _Works:
        stamp = _stamp(self.vault.raw, self.vault.raw / "web")
        with self._lock:
            if stamp == self._works.stamp:
                return self._works
            works = _Works(stamp=stamp)
            for path in sorted(self.vault.raw.glob("*.meta.json")):
                with contextlib.suppress(OSError, ValueError):
                    meta = json.loads(path.read_text(encoding="utf-8"))
                    _add_work(works, meta)
            for path in sorted((self.vault.raw / "web").glob("*.json")):
                with contextlib.suppress(OSError, ValueError):
                    page = json.loads(path.read_text(encoding="utf-8"))
                    if isinstance(page, dict) and isinstance(page.get("url"), str):
                        works.by_url.setdefault(normalise_url(page["url"]), {
                            "found": True, "title": page.get("title"),
                            "web": self.vault.rel(path.with_suffix(".html"))})
            self._works = works
            return works

    def find(self, *, url: str | None = None, doi: str | None = None,
             arxiv: str | None = None) -> dict[str, Any]:
        hit = self._find(url=url, doi=doi, arxiv=arxiv)
        if "cite_key" in hit:  # where its note is now (the user may have filed it)
            return {**hit, "note": self.vault.rel(self.vault.note_path(hit["cite_key"]))}
        return hit

    def _find(self, *, url: str | None, doi: str | None, arxiv: str | None) -> dict[str, Any]:
        works = self._load()
        if url:
            url_arxiv, url_doi = url_ids(url)
            arxiv, doi = arxiv or url_arxiv, doi or url_doi
        if doi and (hit := works.by_doi.get(normalise_doi(doi).lower())):
            return hit
        if arxiv and (hit := works.by_arxiv.get(split_arxiv_version(arxiv)[0])):
            return hit
        if url:
            if hit := works.by_url.get(normalise_url(url)):
                return hit
            for capture in reversed(self._captures(url)):
                if hit := works.by_sha.get(capture.get("sha256", "")):
                    return hit
                if (self.vault.inbox / capture.get("file", "")).is_file():
                    return {"found": False, "pending": f"Inbox/{capture['file']}"}
        return {"found": False}


def _add_work(works: _Works, meta: Any) -> None:
    if not isinstance(meta, dict) or not isinstance(meta.get("cite_key"), str):
        return
    key = meta["cite_key"]
    hit = {"found": True, "cite_key": key, "title": meta.get("title")}
    if isinstance(meta.get("doi"), str):
        works.by_doi.setdefault(meta["doi"].lower(), hit)
    if isinstance(meta.get("arxiv_id"), str):
        works.by_arxiv.setdefault(split_arxiv_version(meta["arxiv_id"])[0], hit)
    if isinstance(meta.get("pdf_sha256"), str):
        works.by_sha.setdefault(meta["pdf_sha256"], hit)
    work = meta.get("work")
    for url in (work.get("url"), work.get("pdf_url")) if isinstance(work, dict) else ():
        if isinstance(url, str) and url.startswith("http"):
            works.by_url.setdefault(normalise_url(url), hit)
