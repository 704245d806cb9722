"""Capture a YouTube video: its yt-dlp files into ``raw/youtube/<id>/`` and its record.

Two ways in, one path: files yt-dlp already wrote (``<id>.info.json`` with
``<id>.<lang>.vtt`` and optionally the media, dropped into ``Inbox/`` together or given
to ``vaultd capture``) are taken as they are, with no network; a YouTube URL is first
fetched with yt-dlp's Python API into a scratch folder (info JSON and subtitles, no
media unless ``[video] download_media``), then taken the same way. The note is written
by ``vaultd.pipeline.video_note``.
"""

from __future__ import annotations

import json
import re
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from vaultd import citekey, record_store
from vaultd.capture import records
from vaultd.capture.user import apply_user, rebased
from vaultd.config import Settings
from vaultd.errors import InputError, VaultdError
from vaultd.models import MetaFile
from vaultd.pipeline import video_playlist
from vaultd.pipeline.capture_store import CaptureResult, CaptureRun
from vaultd.vault import Vault, atomic_copy
from vaultd.video.info import VideoInfo, read_info
from vaultd.video.tools import missing_message, missing_tools
from vaultd.video.work import video_work

INFO_SUFFIX = ".info.json"
SUBTITLE_SUFFIXES = (".vtt",)
MEDIA_SUFFIXES = (".mp4", ".webm", ".mkv", ".m4a", ".mp3", ".opus", ".mov")


class VideoDownloadError(VaultdError):
    """YouTube refused the video (sign-in, age gate, removed, private) or is rate-limiting."""


@dataclass(frozen=True)
class VideoFiles:
    info_path: Path
    data: dict[str, Any]  # the info JSON as yt-dlp wrote it
    info: VideoInfo
    subtitles: dict[str, Path]  # language → .vtt
    media: Path | None


def video_folder(vault: Vault, video_id: str) -> Path:
    return vault.raw / "youtube" / video_id


def read_json(info_path: Path) -> dict[str, Any]:
    try:
        data = json.loads(info_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{info_path.name} is not a yt-dlp info JSON ({exc}); download it again "
                         "with `yt-dlp --write-info-json --skip-download`") from exc
    if not isinstance(data, dict):
        raise InputError(f"{info_path.name} is not a yt-dlp info JSON (not an object)")
    return data


def read_video_files(info_path: Path) -> VideoFiles:
    """The info JSON and the files beside it that belong to the same video."""
    data = read_json(info_path)
    info = read_info(data)
    subtitles: dict[str, Path] = {}
    media = None
    for path in sorted(info_path.parent.iterdir()):
        name = path.name
        if not path.is_file() or not name.startswith(info.id + ".") or name.endswith(INFO_SUFFIX):
            continue
        middle = name[len(info.id) + 1:]
        if path.suffix.lower() in SUBTITLE_SUFFIXES:
            lang = middle[: -len(path.suffix)] or "und"
            if lang != "live_chat":
                subtitles[lang] = path
        elif path.suffix.lower() in MEDIA_SUFFIXES and media is None:
            media = path
    return VideoFiles(info_path, data, info, subtitles, media)


def store_video(vault: Vault, files: VideoFiles) -> Path:
    """Copy the video's files into ``raw/youtube/<id>/``; the media stays only until its
    slides are read, unless ``[video] keep_media`` (see ``vaultd.pipeline.video_note``)."""
    folder = video_folder(vault, files.info.id)
    folder.mkdir(parents=True, exist_ok=True)
    atomic_copy(files.info_path, folder / f"{files.info.id}{INFO_SUFFIX}")
    for path in files.subtitles.values():
        atomic_copy(path, folder / path.name)
    if files.media is not None:
        atomic_copy(files.media, folder / files.media.name)
    return folder


def _existing_key(vault: Vault, video_id: str) -> str | None:
    want = f"raw/youtube/{video_id}/"
    for path in record_store.paths(vault):
        meta = record_store.read_path(path)
        if meta is not None and meta.video == want:
            return meta.cite_key
    return None


def capture_video_files(run: CaptureRun, info_path: Path, cite_key: str | None) -> CaptureResult:
    """Record the video ``info_path`` describes (same video again: its existing record)."""
    files = read_video_files(info_path)
    vault, settings = run.vault, run.settings
    known = _existing_key(vault, files.info.id)
    work = video_work(files.info)
    if known is not None and not run.refresh:
        meta = record_store.get(vault, known)
        if meta is not None:
            store_video(vault, files)
            video_playlist.remember(vault, files.data, cite_key=known)
            return CaptureResult(known, "existing", None, meta, list(meta.warnings))
    taken = records.taken_keys(vault, run.db)
    if known is not None:
        key = known
    elif cite_key:
        if cite_key.lower() in {k.lower() for k in taken}:
            raise InputError(f"cite key {cite_key!r} already belongs to another record; "
                             "choose another --cite-key")
        key = cite_key
    else:
        key = citekey.unique_key(citekey.make_key(work, settings.citekey.video_pattern), taken,
                                 max_chars=citekey.MAX_KEY_CHARS)
    folder = store_video(vault, files)
    if not files.subtitles and files.media is None:
        work.warnings.append("no subtitles and no media file: the note has no transcript; "
                             "drop the video's .vtt (yt-dlp --write-subs --write-auto-subs)")
    now = datetime.now(UTC).replace(microsecond=0).isoformat()
    work.reconciled = True  # YouTube's own record of its own video: nothing to cross-check
    old = record_store.get(vault, key) if known is not None else None
    user = rebased(old.user, work, {}) if old is not None else {}
    fields: dict[str, list[str]] = {}
    if user:  # the fields the user entered stay theirs
        work, fields = apply_user(work, fields, user)
    meta = MetaFile.from_work(key, work, video=vault.rel(folder) + "/", captured_at=now,
                              field_sources=fields, user=user)
    record_store.write(vault, meta)
    records.record(run.db, meta)
    video_playlist.remember(vault, files.data, cite_key=key)
    return CaptureResult(key, "refreshed" if known else "created", None, meta,
                         list(work.warnings))


def capture_video_input(run: CaptureRun, info_path: Path,
                        cite_key: str | None) -> list[CaptureResult]:
    """A video's info JSON, or a playlist's own with its videos' info JSONs beside it."""
    data = read_json(info_path)
    if not video_playlist.is_playlist(data):
        return [capture_video_files(run, info_path, cite_key)]
    if cite_key:
        raise InputError("--cite-key names one video; a playlist holds several")
    members = video_playlist.members_beside(info_path, str(data.get("id")))
    if not members:
        raise video_playlist.no_members(info_path)
    results = [capture_video_files(run, path, None) for path in members]
    video_playlist.remember(run.vault, data)
    return results


# --- from a URL, with yt-dlp ----------------------------------------------------------

_REFUSALS = (
    (re.compile(r"sign in to confirm your age|age[- ]restricted", re.I),
     "YouTube asks to sign in to confirm the viewer's age; download it with "
     "`yt-dlp --cookies-from-browser chrome` and drop the files into Inbox/"),
    (re.compile(r"sign in to confirm you.re not a bot|sign in", re.I),
     "YouTube asks to sign in; download it with `yt-dlp --cookies-from-browser chrome` "
     "and drop the files into Inbox/"),
    (re.compile(r"private video", re.I), "the video is private"),
    (re.compile(r"video unavailable|has been removed|no longer available|account .* terminated",
                re.I), "the video is unavailable (removed or blocked)"),
)
_RATE_LIMIT = re.compile(r"HTTP Error 429|too many requests", re.I)
_OFFLINE = re.compile(r"timed out|temporary failure|connection (reset|refused|aborted)|"
                      r"network is unreachable|failed to establish|name or service not known|"
                      r"nodename nor servname|unable to connect to proxy", re.I)


def _transient(message: str) -> VaultdError:
    err = VideoDownloadError(message)
    err.transient = True
    return err


def explain_download_error(message: str, *, proxy: str | None = None) -> VaultdError:
    """yt-dlp's error as one sentence; rate limits and network trouble are transient.
    The proxy is named from the settings, not read from yt-dlp's wording (which varies with
    the environment's own proxy variables)."""
    text = " ".join(message.split()).removeprefix("ERROR: ")
    if _RATE_LIMIT.search(text):
        return _transient("YouTube is rate-limiting this machine (HTTP 429); try again later")
    if _OFFLINE.search(text):
        via = " through the configured proxy" if proxy else ""
        return _transient(f"cannot reach YouTube{via} (no network?); try again when online")
    for pattern, why in _REFUSALS:
        if pattern.search(text):
            return VideoDownloadError(f"cannot download this video: {why}")
    return VideoDownloadError(f"yt-dlp could not download the video: {text[:200]}")


class _Silent:
    """yt-dlp's logger: its messages are not the user's; its errors come back as exceptions."""

    def debug(self, msg: str) -> None:
        pass

    def info(self, msg: str) -> None:
        pass

    def warning(self, msg: str) -> None:
        pass

    def error(self, msg: str) -> None:
        pass


def is_playlist_url(url: str) -> bool:
    """A playlist page, or a link to a video inside one? Only the page is a playlist."""
    parts = urlsplit(url if "://" in url else f"https://{url}")
    query = parse_qs(parts.query)
    return "list" in query and "v" not in query and "/watch" not in parts.path


def download_video(url: str, into: Path, settings: Settings, *, playlist: bool = False) -> Path:
    """The info JSON (and subtitles, and the media when configured) of ``url`` in ``into``;
    with ``playlist``, every video's and the playlist's own (returned)."""
    missing = missing_tools(["yt-dlp", *(["ffmpeg"] if settings.video.download_media else [])])
    if missing:
        raise InputError(missing_message(missing))
    # lazy: yt_dlp costs 487 ms at import
    import yt_dlp

    languages = [settings.video.language] if settings.video.language else ["en.*", "en"]
    options: dict[str, Any] = {
        "quiet": True, "no_warnings": True, "noprogress": True, "logger": _Silent(),
        "skip_download": not settings.video.download_media,
        "writeinfojson": True, "writesubtitles": True, "writeautomaticsub": True,
        "subtitleslangs": languages, "subtitlesformat": "vtt",
        "outtmpl": {"default": str(into / "%(id)s.%(ext)s")},
        "format": "bv*[height<=720]+ba/b[height<=720]/b",
        "noplaylist": not playlist, "socket_timeout": settings.capture.timeout_seconds,
        "extractor_retries": settings.capture.max_retries,
    }
    if settings.video.proxy:
        options["proxy"] = settings.video.proxy
    try:
        with yt_dlp.YoutubeDL(options) as ydl:
            info = ydl.extract_info(url, download=True)
    except yt_dlp.utils.DownloadError as exc:
        raise explain_download_error(str(exc), proxy=settings.video.proxy) from exc
    video_id = info.get("id") if isinstance(info, dict) else None
    found = into / f"{video_id}{INFO_SUFFIX}"
    if not video_id or not found.is_file():
        raise VideoDownloadError(f"yt-dlp wrote no info JSON for {url}")
    return found


def capture_video_url(run: CaptureRun, url: str, cite_key: str | None) -> list[CaptureResult]:
    with tempfile.TemporaryDirectory(prefix="vaultd-video-") as tmp:
        info_path = download_video(url, Path(tmp), run.settings, playlist=is_playlist_url(url))
        return capture_video_input(run, info_path, cite_key)


def remove_media(folder: Path) -> None:
    """Media kept only until slides were read (``[video] keep_media = false``)."""
    for path in folder.iterdir():
        if path.suffix.lower() in MEDIA_SUFFIXES:
            path.unlink(missing_ok=True)
