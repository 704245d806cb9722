"""Input detection: what kind of thing the user handed to `vaultd capture` (pure).

Order matters (first match wins): local file kinds, YouTube, arXiv, DOI, PDF URL.
"""

from __future__ import annotations

import plistlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import unquote, urlparse

Kind = Literal[
    "pdf", "arxiv", "doi", "pdf_url", "url_file", "webloc", "link_list", "bib", "youtube",
    "video_info", "library",
]

# New-style ids: YYMM.NNNN(N) with optional version; old-style: archive(.SUBJ)/YYMMNNN.
_NEW_ID = r"\d{4}\.\d{4,5}(?:v\d+)?"
_OLD_ID = r"[a-z]+(?:-[a-z]+)*(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?"
ARXIV_ID_RE = re.compile(rf"^(?:{_NEW_ID}|{_OLD_ID})$")
_ARXIV_URL_RE = re.compile(
    rf"^(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/({_NEW_ID}|{_OLD_ID})(?:\.pdf)?/?"
    r"(?:[?#].*)?$",  # ?context=cs, a trailing #
    re.IGNORECASE,
)
_ARXIV_PREFIX_RE = re.compile(rf"^arxiv:\s*({_NEW_ID}|{_OLD_ID})$", re.IGNORECASE)
# A DOI is 10.<registrant>/<suffix>; the suffix may hold ()<>;/: and most printable chars.
DOI_RE = re.compile(r"^10\.\d{4,9}(?:\.\d+)*/\S+$")
_DOI_URL_RE = re.compile(r"^(?:https?://)?(?:dx\.|www\.)?doi\.org/(10\.[^?#]+)(?:[?#].*)?$",
                         re.IGNORECASE)
_DOI_PREFIX_RE = re.compile(r"^doi:\s*(10\..+)$", re.IGNORECASE)
_YOUTUBE_RE = re.compile(
    r"^(?:https?://)?(?:www\.|m\.|music\.)?(?:youtube\.com/(?:watch\?|shorts/|live/|embed/"
    r"|playlist\?|@|channel/|c/|user/|v/)|youtube-nocookie\.com/|youtu\.be/)",
    re.IGNORECASE,
)
# Old-style archives, so a bare ``hep-th/9901001`` in prose is found but not any "a/1234567".
_OLD_ARCHIVES = (
    "acc-phys|adap-org|alg-geom|ao-sci|astro-ph|atom-ph|bayes-an|chao-dyn|chem-ph|cmp-lg|"
    "comp-gas|cond-mat|cs|dg-ga|funct-an|gr-qc|hep-ex|hep-lat|hep-ph|hep-th|math|math-ph|"
    "mtrl-th|nlin|nucl-ex|nucl-th|patt-sol|physics|plasm-ph|q-alg|q-bio|quant-ph|solv-int|"
    "supr-con"
)
_TOKEN_RE = re.compile(
    r"(?:https?://|doi:|arxiv:|10\.\d{4,9}/)\S+|\b" + _NEW_ID + r"\b"
    rf"|(?<![\w/.-])(?:{_OLD_ARCHIVES})(?:\.[A-Z]{{2}})?/\d{{7}}(?:v\d+)?\b",
    re.IGNORECASE)


@dataclass(frozen=True)
class Detected:
    """One recognised input. ``value`` is the normalised id, URL or file path."""

    kind: Kind
    value: str
    version: int | None = None  # arXiv version, when the input named one


def split_arxiv_version(arxiv_id: str) -> tuple[str, int | None]:
    m = re.match(r"^(.*?)v(\d+)$", arxiv_id)
    if m and ARXIV_ID_RE.match(arxiv_id):
        return m.group(1), int(m.group(2))
    return arxiv_id, None


def normalise_doi(doi: str) -> str:
    """DOIs are case-insensitive; CrossRef returns them lower-cased, so store them so."""
    return unquote(doi.strip()).rstrip(".,;").lower()


def detect(text: str) -> Detected | None:
    """Recognise one input string; None when it is nothing vaultd knows."""
    s = text.strip()
    if not s or "\x00" in s:
        return None
    file_kind = _detect_file(s)
    if file_kind is not None:
        return file_kind
    return detect_id(s)


def detect_id(s: str) -> Detected | None:
    """Recognise an id or URL (no filesystem access)."""
    s = s.strip().strip("<>\"'")
    if not s:
        return None
    if _YOUTUBE_RE.match(s):
        return Detected("youtube", s)
    for rx in (_ARXIV_URL_RE, _ARXIV_PREFIX_RE):
        m = rx.match(s)
        if m:
            return _arxiv(m.group(1))
    if ARXIV_ID_RE.match(s):
        return _arxiv(s)
    for rx in (_DOI_URL_RE, _DOI_PREFIX_RE):
        m = rx.match(s)
        if m:
            doi = normalise_doi(m.group(1))
            return Detected("doi", doi) if DOI_RE.match(doi) else None
    if DOI_RE.match(s):
        return Detected("doi", normalise_doi(s))
    if re.match(r"^https?://", s, re.IGNORECASE):
        parsed = urlparse(s)
        if parsed.netloc:
            # Any other http(s) URL may answer application/pdf; capture sniffs the bytes.
            return Detected("pdf_url", s)
    return None


def _arxiv(raw: str) -> Detected:
    base, version = split_arxiv_version(raw)
    return Detected("arxiv", base, version)


def _detect_file(s: str) -> Detected | None:
    if len(s) > 4096 or "\n" in s:
        return None
    try:
        path = Path(s).expanduser()
        if not path.is_file():
            return None
    except (OSError, ValueError, RuntimeError):  # RuntimeError: '~user' with no such home
        return None
    if path.name.lower().endswith(".info.json"):  # yt-dlp's record of a video
        return Detected("video_info", str(path.resolve()))
    suffix = path.suffix.lower()
    kinds: dict[str, Kind] = {
        ".pdf": "pdf", ".url": "url_file", ".webloc": "webloc", ".txt": "link_list",
        ".md": "link_list", ".bib": "bib",
        ".ris": "library", ".json": "library",  # RIS, CSL-JSON, Better BibTeX JSON
    }
    if suffix in kinds:
        return Detected(kinds[suffix], str(path.resolve()))
    try:
        with path.open("rb") as fh:
            if fh.read(5) == b"%PDF-":
                return Detected("pdf", str(path.resolve()))
    except OSError:
        return None
    return None


def links_in_url_file(text: str) -> list[str]:
    """The URL of a Windows/Obsidian ``.url`` shortcut (``[InternetShortcut]`` / ``URL=``)."""
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip().lower() == "url" and value.strip():
            return [value.strip()]
    return []


def links_in_webloc(data: bytes) -> list[str]:
    """The URL in a macOS ``.webloc`` (XML or binary plist)."""
    try:
        plist = plistlib.loads(data)
    except Exception:  # plistlib raises several unrelated types for bad input
        return []
    url = plist.get("URL") if isinstance(plist, dict) else None
    return [url.strip()] if isinstance(url, str) and url.strip() else []


def links_in_text(text: str) -> list[str]:
    """Every URL, DOI or arXiv id in a .txt/.md file, in order, without duplicates."""
    found: list[str] = []
    seen: set[tuple[str, str]] = set()
    for m in _TOKEN_RE.finditer(text):
        token = trim_id(m.group(0))
        item = detect_id(token)
        # The same paper named twice (hep-th/9901001 and its abs URL) is one capture.
        if item is not None and (item.kind, item.value) not in seen:
            seen.add((item.kind, item.value))
            found.append(token)
    return found


_CLOSERS = {")": "(", "]": "[", "}": "{", ">": "<"}


def trim_id(token: str) -> str:
    """Drop trailing punctuation of the surrounding prose or markup, keeping balanced
    brackets (DOIs such as ``10.1002/(SICI)1097-4636(199606)31:2<147::AID-JBM1>3.0.CO;2-O``)
    and dropping unbalanced ones (BibTeX's ``doi = {10.1115/1.4042912}}``)."""
    while token and token[-1] in ".,;\"'" + "".join(_CLOSERS):
        last = token[-1]
        opener = _CLOSERS.get(last)
        if opener is not None and token.count(opener) >= token.count(last):
            break
        token = token[:-1]
    return token
