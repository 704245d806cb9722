"""A video's bibliographic record from its yt-dlp info (pure).

The mapping follows Zotero's YouTube translator (item type ``videoRecording`` → CSL
``motion_picture``; the channel as a single-field author; upload date; the canonical
watch URL; the running time as ``dimensions``), plus ``genre: Video`` and
``publisher: YouTube``, the two variables the official CSL styles read to print
"[Video]. YouTube." (APA) and "Video. YouTube" (MLA, Chicago). Citations are then
rendered by the CSL processor like any work's.
"""

from __future__ import annotations

from vaultd.models import Author, Work
from vaultd.video.info import VideoInfo, timestamp


def video_work(info: VideoInfo) -> Work:
    channel = info.channel or info.uploader
    return Work(
        type="motion_picture",
        title=" ".join(info.title.split()) or None,
        authors=[Author(literal=channel)] if channel else [],
        issued=list(info.upload_date) if info.upload_date else None,
        url=f"https://www.youtube.com/watch?v={info.id}",
        genre="Video",
        publisher="YouTube",
        dimensions=timestamp(info.duration) if info.duration else None,
        abstract=info.description or None,
        language=info.language,
        sources=["youtube"],
    )
