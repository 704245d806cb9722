"""A YouTube video's metadata from a yt-dlp info dict, and YouTube URLs (pure).

``read_info`` takes the parsed ``.info.json`` that ``yt-dlp --write-info-json`` saves (or
``YoutubeDL.extract_info(url, download=False)`` returns) and keeps what a note needs.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import SplitResult, parse_qs, urlsplit

from vaultd.errors import ParseError

WATCH_URL = "https://www.youtube.com/watch?v="
SHORT_URL = "https://youtu.be/"
_ID_RE = re.compile(r"[A-Za-z0-9_-]{11}")
_YOUTUBE_HOSTS = frozenset({"youtube.com", "www.youtube.com", "m.youtube.com",
                            "music.youtube.com", "youtube-nocookie.com",
                            "www.youtube-nocookie.com"})
_SHORT_HOSTS = frozenset({"youtu.be", "www.youtu.be"})
_ID_PATH_PREFIXES = frozenset({"shorts", "embed", "live", "v"})
# "90", "90s", "90.5", "1m30s", "1h2m3s", "1h" (what YouTube writes after t= and start=)
_OFFSET_RE = re.compile(r"(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s?)?", re.IGNORECASE)
_LIVE_CHAT = "live_chat"  # yt-dlp lists the chat replay of a past stream as a "subtitle"


class VideoInfoError(ParseError, ValueError):
    """The data is not the yt-dlp info of one video."""


@dataclass(frozen=True)
class Chapter:
    """A chapter of a video, in seconds from its start."""

    start: float
    end: float
    title: str


@dataclass(frozen=True)
class VideoInfo:
    """What vaultd keeps of a video's yt-dlp info."""

    id: str
    title: str
    channel: str | None
    uploader: str | None
    channel_url: str | None
    upload_date: tuple[int, int, int] | None
    duration: float | None
    chapters: tuple[Chapter, ...]
    description: str | None
    tags: tuple[str, ...]
    language: str | None
    webpage_url: str
    subtitles: tuple[str, ...]
    automatic_captions: tuple[str, ...]


def read_info(data: object) -> VideoInfo:
    """The ``VideoInfo`` of a yt-dlp info dict; ``VideoInfoError`` if it is not one video."""
    if not isinstance(data, Mapping):
        raise VideoInfoError(
            f"yt-dlp info must be a JSON object, not {type(data).__name__}.")
    kind = data.get("_type")
    if kind == "playlist":
        raise VideoInfoError(
            f"This yt-dlp info is a playlist ({_entry_count(data)}), not a single video.")
    if kind not in (None, "video"):
        raise VideoInfoError(
            f"This yt-dlp info is of type {kind!r}, not a single video.")
    video_id = _text(data.get("id"))
    if video_id is None:
        raise VideoInfoError("This yt-dlp info has no video id.")
    title = _text(data.get("title"))
    if title is None:
        raise VideoInfoError(f"The yt-dlp info of video {video_id} has no title.")
    duration = _number(data.get("duration"))
    return VideoInfo(
        id=video_id,
        title=title,
        channel=_text(data.get("channel")),
        uploader=_text(data.get("uploader")),
        channel_url=_text(data.get("channel_url")),
        upload_date=_date(data.get("upload_date")),
        duration=duration,
        chapters=_chapters(data.get("chapters"), duration),
        description=_text(data.get("description")),
        tags=tuple(t for t in _list(data.get("tags")) if isinstance(t, str)),
        language=_text(data.get("language")),
        webpage_url=_text(data.get("webpage_url")) or WATCH_URL + video_id,
        subtitles=tuple(lang for lang in _languages(data.get("subtitles"))
                        if lang != _LIVE_CHAT),
        automatic_captions=_languages(data.get("automatic_captions")),
    )


def youtube_id(url: str) -> str | None:
    """The 11-character video id of a YouTube video URL, else None."""
    parts = _split(url)
    if parts is None:
        return None
    host = (parts.hostname or "").lower()
    segments = [s for s in parts.path.split("/") if s]
    candidate: str | None = None
    if host in _SHORT_HOSTS:
        candidate = segments[0] if segments else None
    elif host in _YOUTUBE_HOSTS:
        if segments == ["watch"]:
            candidate = _first(parse_qs(parts.query).get("v"))
        elif len(segments) >= 2 and segments[0] in _ID_PATH_PREFIXES:
            candidate = segments[1]
    if candidate is not None and _ID_RE.fullmatch(candidate):
        return candidate
    return None


def start_time(url: str) -> float | None:
    """Seconds from ``t=``/``start=`` in the query or ``#t=`` in the fragment, else None."""
    parts = _split(url)
    if parts is None:
        return None
    query = parse_qs(parts.query)
    value = _first(query.get("t")) or _first(query.get("start"))
    if value is None:
        value = _first(parse_qs(parts.fragment).get("t"))
    return None if value is None else offset_seconds(value)


def watch_link(video_id: str, seconds: float) -> str:
    """A short link that plays ``video_id`` from ``seconds`` (floored to whole seconds)."""
    return f"{SHORT_URL}{video_id}?t={_whole_seconds(seconds)}"


def timestamp(seconds: float) -> str:
    """``seconds`` as YouTube shows it: "3:15", or "1:02:03" from one hour (floored)."""
    hours, rest = divmod(_whole_seconds(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def _whole_seconds(seconds: float) -> int:
    return max(0, math.floor(seconds)) if math.isfinite(seconds) else 0


def _split(url: str) -> SplitResult | None:
    """``url`` split into parts; a bare ``youtu.be/…`` without a scheme is read as https."""
    url = url.strip()
    if not re.match(r"[a-z][a-z0-9+.-]*://", url, re.IGNORECASE):
        url = "https://" + url.removeprefix("//")
    try:
        parts = urlsplit(url)
    except ValueError:  # e.g. an unclosed "[" in the host
        return None
    return parts if parts.scheme.lower() in ("http", "https") else None


def offset_seconds(value: str) -> float | None:
    """Seconds of a YouTube time offset (``195``, ``195s``, ``3m15s``, ``1h2m3s``), else None."""
    match = _OFFSET_RE.fullmatch(value.strip())
    if match is None or not any(match.groups()):
        return None
    hours, minutes, secs = match.groups()
    return int(hours or 0) * 3600.0 + int(minutes or 0) * 60.0 + float(secs or 0)


def _chapters(value: object, duration: float | None) -> tuple[Chapter, ...]:
    """Chapters in yt-dlp's ``[{start_time, end_time, title}]``; empty or backwards ones dropped.

    A chapter without an end ends where the next starts, or with the video.
    """
    raw = [c for c in _list(value) if isinstance(c, Mapping)]
    chapters: list[Chapter] = []
    for i, item in enumerate(raw):
        start = _number(item.get("start_time"))
        end = _number(item.get("end_time"))
        if end is None:
            end = _number(raw[i + 1].get("start_time")) if i + 1 < len(raw) else duration
        if start is None or end is None or end <= start:
            continue
        chapters.append(Chapter(start=start, end=end, title=_text(item.get("title")) or ""))
    return tuple(chapters)


def _languages(value: object) -> tuple[str, ...]:
    """Languages of a yt-dlp ``subtitles``/``automatic_captions`` dict that have a track."""
    if not isinstance(value, Mapping):
        return ()
    return tuple(lang for lang, tracks in value.items() if isinstance(lang, str) and tracks)


def _date(value: object) -> tuple[int, int, int] | None:
    """``(year, month, day)`` of a yt-dlp ``YYYYMMDD`` date, None if it is not a real date."""
    if not isinstance(value, str) or not re.fullmatch(r"\d{8}", value):
        return None
    try:
        day = datetime.date(int(value[:4]), int(value[4:6]), int(value[6:]))
    except ValueError:
        return None
    return day.year, day.month, day.day


def _entry_count(data: Mapping[str, object]) -> str:
    entries = data.get("entries")
    if isinstance(entries, list):
        return f"{len(entries)} entries"
    count = data.get("playlist_count")
    return f"{count} entries" if isinstance(count, int) else "entries not listed"


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) else []


def _first(values: list[str] | None) -> str | None:
    return values[0] if values else None
