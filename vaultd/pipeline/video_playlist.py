"""Playlists: one note per video (``video_capture``) plus a playlist index note.

yt-dlp writes a playlist's own info JSON (``_type: playlist``, no entries) beside one
info JSON per video, each naming its ``playlist_id``, ``playlist_title`` and
``playlist_index``. vaultd keeps what it learns in ``raw/youtube/playlists/<id>.json``
and writes ``wiki/playlists/<title>.md``: the videos in playlist order, each a link to its
note. The index is vaultd's; text under its ``## My notes`` heading is yours and kept.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from vaultd.citekey import key_to_filename
from vaultd.errors import InputError
from vaultd.vault import Vault, atomic_write_text, safe_stem

MY_NOTES = "## My notes"


def is_playlist(data: object) -> bool:
    return isinstance(data, Mapping) and data.get("_type") == "playlist"


def _record_path(vault: Vault, playlist_id: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", playlist_id)[:100]
    return vault.raw / "youtube" / "playlists" / f"{safe}.json"


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def note_path(vault: Vault, title: str, playlist_id: str) -> Path:
    return vault.wiki / "playlists" / f"{safe_stem(title, playlist_id)}.md"


def remember(vault: Vault, data: Mapping[str, Any], *, cite_key: str | None = None) -> Path | None:
    """Record what ``data`` (a video's or the playlist's own info) says about its playlist
    and rewrite the index note; None when it belongs to no playlist."""
    own = is_playlist(data)
    playlist_id = data.get("id") if own else data.get("playlist_id")
    if not isinstance(playlist_id, str) or not playlist_id:
        return None
    path = _record_path(vault, playlist_id)
    record = _read(path)
    record["id"] = playlist_id
    title = data.get("title") if own else data.get("playlist_title")
    if isinstance(title, str) and title.strip():
        record["title"] = " ".join(title.split())
    if own and isinstance(data.get("webpage_url"), str):
        record["url"] = data["webpage_url"]
    videos: dict[str, Any] = record.setdefault("videos", {})
    if not own and isinstance(data.get("id"), str):
        index = data.get("playlist_index")
        videos[data["id"]] = {"index": index if isinstance(index, int) else None,
                              "cite_key": cite_key, "title": data.get("title")}
    atomic_write_text(path, json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    return write_index(vault, record)


def write_index(vault: Vault, record: Mapping[str, Any]) -> Path:
    title = str(record.get("title") or record["id"])
    path = note_path(vault, title, str(record["id"]))
    kept = ""
    if path.is_file():
        old = path.read_text(encoding="utf-8")
        if MY_NOTES in old:
            kept = old[old.index(MY_NOTES):]
    videos = sorted(record.get("videos", {}).items(),
                    key=lambda kv: (kv[1].get("index") is None, kv[1].get("index") or 0, kv[0]))
    lines = ["---", f"title: {json.dumps(title, ensure_ascii=False)}", "tags:", "- playlist",
             f"playlist_id: {json.dumps(str(record['id']))}"]
    if record.get("url"):
        lines.append(f"url: {json.dumps(record['url'])}")
    lines += ["---", "", f"# {title}", "",
              "<!-- vaultd: this list is rewritten as videos are captured; write below "
              "\"My notes\" -->", ""]
    for video_id, video in videos:
        n = f"{video['index']}. " if video.get("index") is not None else "- "
        name = " ".join(str(video.get("title") or video_id).split()).replace("]", ")")
        if video.get("cite_key"):
            lines.append(f"{n}[[{key_to_filename(video['cite_key'])}|{name}]]")
        else:
            lines.append(f"{n}{name} (not captured)")
    lines.append("")
    atomic_write_text(path, "\n".join(lines) + "\n" + (kept or f"{MY_NOTES}\n\n"))
    return path


def members_beside(info_path: Path, playlist_id: str) -> list[Path]:
    """The video info JSONs next to a playlist's own info JSON that belong to it."""
    out = []
    for path in sorted(info_path.parent.glob("*.info.json")):
        if path == info_path:
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("playlist_id") == playlist_id \
                and not is_playlist(data):
            out.append(path)
    return out


def no_members(info_path: Path) -> InputError:
    return InputError(f"{info_path.name} is a playlist's own record and no video of it is "
                      "here; drop the videos' .info.json files (yt-dlp writes one per video) "
                      "with it")
