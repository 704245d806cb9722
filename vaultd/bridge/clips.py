"""What a capture from the extension writes into ``Inbox/`` (docs/bridge.md, /capture).

``plan_clip`` is pure: it validates the request and decides the file (a name made from
the title, never from the caller, and its bytes). ``write_clip`` puts it in ``Inbox/``
under a free name, atomically, so the watcher never reads half a file.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import html
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from vaultd.capture.detect import ARXIV_ID_RE, DOI_RE, detect_id, normalise_doi
from vaultd.vault import Vault, atomic_write_bytes, safe_stem

ClipKind = Literal["pdf", "link", "web"]


class ClipError(ValueError):
    """A capture request the bridge refuses (422), with the sentence to show."""


class CaptureRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    url: str = Field(max_length=8192)
    title: str | None = Field(None, max_length=2000)
    kind: Literal["arxiv", "doi", "pdf", "youtube", "web"] | None = None
    doi: str | None = Field(None, max_length=500)
    arxiv: str | None = Field(None, max_length=100)
    meta: dict[str, str] = Field(default_factory=dict, max_length=200)
    pdf_base64: str | None = None
    pdf_url: str | None = Field(None, max_length=8192)
    html: str | None = None

    @field_validator("url", "pdf_url")
    @classmethod
    def _http(cls, value: str | None) -> str | None:
        if value is not None and not re.match(r"^https?://[^\s/]+", value, re.IGNORECASE):
            raise ValueError("must be an http(s) URL")
        return value


@dataclass(frozen=True)
class Clip:
    stem: str
    suffix: str
    data: bytes
    kind: ClipKind
    url: str


def _ids(req: CaptureRequest) -> tuple[str | None, str | None]:
    """(arXiv id, DOI) the request names: its own fields first, then its URL."""
    arxiv = req.arxiv.strip() if req.arxiv else None
    if arxiv and not ARXIV_ID_RE.match(arxiv.removeprefix("arXiv:")):
        raise ClipError(f"{req.arxiv!r} is not an arXiv id")
    doi = normalise_doi(req.doi.strip()) if req.doi else None
    if doi and not DOI_RE.match(doi):
        raise ClipError(f"{req.doi!r} is not a DOI")
    found = detect_id(req.url)
    if found is not None and found.kind == "arxiv" and not arxiv:
        arxiv = found.value + (f"v{found.version}" if found.version else "")
    if found is not None and found.kind == "doi" and not doi:
        doi = found.value
    return (arxiv.removeprefix("arXiv:") if arxiv else None), doi


def _pdf_bytes(req: CaptureRequest) -> bytes:
    try:
        data = base64.b64decode(req.pdf_base64 or "", validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ClipError("pdf_base64 is not valid base64") from exc
    if not data.startswith(b"%PDF-"):
        raise ClipError("the bytes sent are not a PDF (they do not start with %PDF-); "
                        "the page may need a login the extension could not use")
    return data


def _url_file(url: str) -> bytes:
    return f"[InternetShortcut]\r\nURL={url}\r\n".encode()


def _web_page(req: CaptureRequest, now: dt.datetime) -> bytes:
    """The snapshot with vaultd's own head metadata first, so the web-page rule knows the
    page's URL and title whatever the snapshot holds."""
    head = [f'<meta name="vaultd:url" content="{html.escape(req.url)}">',
            f'<meta name="vaultd:captured-at" content="{now.isoformat(timespec="seconds")}">']
    if req.title:
        head.append(f'<meta name="vaultd:title" content="{html.escape(req.title)}">')
    for name, value in sorted(req.meta.items())[:200]:
        head.append(f'<meta name="vaultd:meta:{html.escape(name)}" content="{html.escape(value)}">')
    body = req.html or f"<title>{html.escape(req.title or req.url)}</title>"
    return ("<!-- saved by the vaultd extension -->\n" + "\n".join(head) + "\n" + body).encode()


def plan_clip(req: CaptureRequest, now: dt.datetime | None = None) -> Clip:
    """What a capture writes: PDF bytes, else a link to its arXiv id / DOI / video, else
    the page as a web source."""
    stem = safe_stem(req.title, req.url)
    if req.pdf_base64 is not None:
        return Clip(stem, ".pdf", _pdf_bytes(req), "pdf", req.pdf_url or req.url)
    arxiv, doi = _ids(req)
    if arxiv:
        url = f"https://arxiv.org/abs/{arxiv}"
    elif doi:
        url = f"https://doi.org/{doi}"
    elif req.kind in {"youtube", "pdf"} or _is_video(req.url):
        url = req.url
    else:
        return Clip(stem, ".html", _web_page(req, now or dt.datetime.now(dt.UTC)), "web", req.url)
    return Clip(stem, ".url", _url_file(url), "link", req.url)


def _is_video(url: str) -> bool:
    found = detect_id(url)
    return found is not None and found.kind == "youtube"


_names = threading.Lock()


def write_clip(vault: Vault, clip: Clip) -> Path:
    """Write ``clip`` into ``Inbox/`` under a name no other file has; return its path."""
    inbox = vault.inbox.resolve()
    with _names:
        for n in range(1, 1000):
            name = f"{clip.stem}{'' if n == 1 else f' ({n})'}{clip.suffix}"
            path = inbox / name
            if path.parent == inbox and not path.exists():
                atomic_write_bytes(path, clip.data)
                return path
    raise ClipError(f"too many files named {clip.stem!r} in Inbox/; process or remove them")
