"""Web pages saved as sources: an HTML snapshot in ``Inbox/`` becomes ``raw/web/``.

The extension writes pages that are not papers as ``Inbox/<title>.html`` with vaultd's
own ``<meta name="vaultd:url">`` head (docs/bridge.md); a page saved from any browser
works too (its ``og:url``/canonical link and ``<title>`` are read instead). The page is
kept as ``raw/web/<name>-<sha8>.html`` with a ``.json`` record beside it; it is saved,
not compiled: no note and no quotes are made from it yet (docs/extension.md).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from vaultd.errors import InputError
from vaultd.vault import Vault, atomic_write_bytes, atomic_write_text, safe_stem

HEAD_BYTES = 512 * 1024


class _Head(HTMLParser):
    """The page's URL, title and metadata, from its ``<meta>``, ``<link>`` and ``<title>``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.meta: dict[str, str] = {}
        self.canonical: str | None = None
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k.lower(): v or "" for k, v in attrs}
        if tag == "meta":
            name = a.get("name") or a.get("property")
            if name and "content" in a and len(self.meta) < 300:
                self.meta.setdefault(name, a["content"][:2000])
        elif tag == "link" and "canonical" in a.get("rel", "").lower().split():
            self.canonical = self.canonical or a.get("href")
        elif tag == "title":
            self._in_title = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title and len(self.title) < 2000:
            self.title += data


@dataclass(frozen=True)
class WebPage:
    html: Path
    record: Path
    url: str | None
    title: str


def read_head(data: bytes) -> _Head:
    head = _Head()
    head.feed(data[:HEAD_BYTES].decode("utf-8", errors="replace"))
    return head


def save_web_page(vault: Vault, path: Path) -> WebPage:
    """Move the snapshot at ``path`` to ``raw/web/`` with its record; return where."""
    data = path.read_bytes()
    if b"<" not in data[:4096]:
        raise InputError(f"{path.name} is not an HTML page; save the page again from the browser")
    head = read_head(data)
    meta = head.meta
    url = meta.get("vaultd:url") or meta.get("og:url") or head.canonical
    title = (meta.get("vaultd:title") or meta.get("citation_title") or meta.get("og:title")
             or " ".join(head.title.split()) or path.stem)
    sha = hashlib.sha256(data).hexdigest()
    stem = f"{safe_stem(title, url or path.name)}-{sha[:8]}"
    html_path = vault.raw / "web" / f"{stem}.html"
    record = html_path.with_suffix(".json")
    page_meta = {k.removeprefix("vaultd:meta:"): v for k, v in meta.items()
                 if not k.startswith("vaultd:") or k.startswith("vaultd:meta:")}
    atomic_write_bytes(html_path, data)
    atomic_write_text(record, json.dumps({
        "url": url, "title": title, "sha256": sha,
        "captured_at": meta.get("vaultd:captured-at")
        or dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "compiled": False, "meta": page_meta}, indent=2, ensure_ascii=False) + "\n")
    path.unlink()
    return WebPage(html_path, record, url, title)
