"""Slides of a talk: key frames from ffmpeg, near-duplicates dropped, text from tesseract.

One ffmpeg pass decodes the video and writes a PNG for the first frame, each frame where
the picture changes (ffmpeg's scene score above ``scene``) and the first frame at or after
each ``extra_times`` entry (chapter starts). ``showinfo`` reports each written frame's
time. Frames whose perceptual hash is within ``max_distance`` bits of the last kept frame
are dropped, so a chapter start inside a slide does not repeat it; a slide shown again
after another one is kept, because its time says when the talk came back to it.

The hash is a 16×16 phash (256 bits), not imagehash's default 8×8: on text slides with
one layout the 64-bit hash puts two different bullet lists 6 bits apart, as close as a
noisy re-encode of one slide, while at 256 bits different slides are 40+ bits apart and
re-encodes (JPEG, noise, a 2-pixel shift) at most 18. The default cut-off, 24 bits, is
the same share of the hash as 6 of 64.

The scene score is ffmpeg's mean absolute luma difference between frames, scaled to 0–1.
Dark text changing on a white slide moves only a few percent of the pixels: a new title
scores about 0.05 and an added bullet about 0.01, while a static picture scores under
0.001. Hence the default threshold of 0.02, not the 0.3 often quoted for film cuts,
which misses every change of a text slide.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import imagehash
from PIL import Image, UnidentifiedImageError

from vaultd.errors import VaultdError
from vaultd.video.tools import missing_message, missing_tools

SCENE_THRESHOLD = 0.02
HASH_SIZE = 16  # phash side: HASH_SIZE**2 bits
MAX_HASH_DISTANCE_BITS = 24
FFMPEG_TIMEOUT_SECONDS = 3600
OCR_TIMEOUT_SECONDS = 120
# tesseract is fastest on many small images as one single-threaded process per core.
OCR_WORKERS = max(1, min(4, os.cpu_count() or 1))

_SHOWINFO = re.compile(r"\[Parsed_showinfo[^\]]*\]\s+n:\s*(\d+)\s.*?\bpts_time:(\S+)")


class SlidesError(VaultdError):
    """ffmpeg or tesseract could not read a video's frames (the message names the file)."""


@dataclass(frozen=True)
class Slide:
    time: float  # seconds into the video
    image: Path  # "<prefix>-<ms>.png" in out_dir
    text: str  # lines joined by spaces, paragraphs by "\n"
    confidence: float | None  # tesseract's mean word confidence, 0–1; None without words


def _stderr_tail(stderr: bytes, *, skip: str = "") -> str:
    lines = [ln.strip() for ln in stderr.decode("utf-8", "replace").splitlines()]
    lines = [ln for ln in lines if ln and not (skip and skip in ln)]
    return lines[-1] if lines else "no error output"


def _require(tool: str) -> None:
    if missing_tools([tool]):
        raise SlidesError(missing_message([tool]))


def _select_expr(scene: float, extra_times: Sequence[float]) -> str:
    terms = ["eq(n,0)", f"gt(scene,{scene:g})"]
    # The first frame at or after t: prev_t is the previous decoded frame's time.
    terms += [f"gte(t,{t:.3f})*lt(prev_t,{t:.3f})" for t in sorted(set(extra_times)) if t > 0]
    return "+".join(terms)


def _ffmpeg(
    video: Path, frames_dir: Path, select: str, width: int, sync: str
) -> subprocess.CompletedProcess[bytes]:
    pattern = str(frames_dir).replace("%", "%%") + "/%06d.png"
    cmd = [
        "ffmpeg", "-hide_banner", "-nostdin", "-nostats", "-loglevel", "info",
        "-i", str(video), "-map", "0:v:0", "-an", "-sn", "-dn",
        "-vf", f"select='{select}',showinfo,scale='min({width},iw)':-1",
        sync, "passthrough", pattern,
    ]  # fmt: skip
    try:
        return subprocess.run(cmd, capture_output=True, timeout=FFMPEG_TIMEOUT_SECONDS, check=False)
    except subprocess.TimeoutExpired as exc:
        raise SlidesError(
            f"ffmpeg took over {FFMPEG_TIMEOUT_SECONDS} s reading frames of {video.name}; "
            "try a shorter video or fewer extra times"
        ) from exc


def _run_ffmpeg(video: Path, frames_dir: Path, select: str, width: int) -> bytes:
    """ffmpeg's log (with a ``showinfo`` line per written frame); one PNG per frame."""
    proc = _ffmpeg(video, frames_dir, select, width, "-fps_mode")
    if proc.returncode != 0 and b"Unrecognized option 'fps_mode'" in proc.stderr:
        proc = _ffmpeg(video, frames_dir, select, width, "-vsync")  # ffmpeg before 5.1
    if proc.returncode != 0:
        raise SlidesError(
            f"ffmpeg could not read video frames from {video.name} "
            f"({_stderr_tail(proc.stderr, skip='showinfo')}); check that it is a video file"
        )
    return proc.stderr


def _frame_times(stderr: bytes) -> dict[int, float]:
    """Output frame index (0-based, as ``showinfo`` counts) -> seconds."""
    times: dict[int, float] = {}
    for match in _SHOWINFO.finditer(stderr.decode("utf-8", "replace")):
        try:
            times[int(match.group(1))] = float(match.group(2))
        except ValueError:  # NOPTS
            continue
    return times


def _spread(frames: list[tuple[float, Path]], limit: int) -> list[tuple[float, Path]]:
    """At most ``limit`` frames, picked nearest to evenly spaced times over the video."""
    if len(frames) <= limit:
        return frames
    first, last = frames[0][0], frames[-1][0]
    chosen: set[int] = set()
    for k in range(limit):
        target = first + (last - first) * k / max(1, limit - 1)
        free = (i for i in range(len(frames)) if i not in chosen)
        chosen.add(min(free, key=lambda i: abs(frames[i][0] - target)))
    return [frames[i] for i in sorted(chosen)]


def keyframes(
    video: Path,
    out_dir: Path,
    *,
    prefix: str,
    extra_times: Sequence[float] = (),
    scene: float = SCENE_THRESHOLD,
    max_frames: int = 60,
    width: int = 1280,
) -> list[tuple[float, Path]]:
    """PNG frames of ``video`` at its first frame, scene changes and ``extra_times``.

    Returns ``(seconds, png)`` sorted by time, at most ``max_frames`` (evenly spread over
    the video when there are more); PNGs are named ``<prefix>-<ms>.png`` in ``out_dir``
    and are at most ``width`` pixels wide.
    """
    if max_frames < 1:
        raise ValueError("max_frames must be at least 1")
    if not video.is_file():
        raise SlidesError(f"{video}: no such video file")
    _require("ffmpeg")
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".frames-", dir=out_dir) as tmp:
        frames_dir = Path(tmp)
        stderr = _run_ffmpeg(video, frames_dir, _select_expr(scene, extra_times), width)
        times = _frame_times(stderr)
        written = sorted(frames_dir.glob("*.png"))
        found = [(times[i], png) for i, png in enumerate(written) if i in times]
        found.sort(key=lambda frame: frame[0])
        kept: list[tuple[float, Path]] = []
        for time, png in _spread(found, max_frames):
            target = out_dir / f"{prefix}-{round(time * 1000)}.png"
            png.replace(target)
            kept.append((time, target))
    return kept


def _phash(png: Path) -> imagehash.ImageHash:
    try:
        with Image.open(png) as img:
            return imagehash.phash(img, hash_size=HASH_SIZE)
    except (OSError, UnidentifiedImageError) as exc:
        raise SlidesError(f"{png.name}: cannot read the frame image ({exc})") from exc


def dedupe(
    frames: Sequence[tuple[float, Path]], *, max_distance: int = MAX_HASH_DISTANCE_BITS
) -> list[tuple[float, Path]]:
    """Drop (and delete) each frame within ``max_distance`` phash bits of the last kept one."""
    kept: list[tuple[float, Path]] = []
    last: imagehash.ImageHash | None = None
    for time, png in frames:
        digest = _phash(png)
        if last is not None and digest - last <= max_distance:
            png.unlink(missing_ok=True)
            continue
        kept.append((time, png))
        last = digest
    return kept


def _paragraphs(tsv: str) -> tuple[str, list[float]]:
    """Text (lines joined by spaces, paragraphs by newlines) and word confidences 0–100."""
    rows = tsv.splitlines()
    if not rows:
        return "", []
    header = rows[0].split("\t")
    paras: dict[tuple[int, int], list[str]] = {}
    confs: list[float] = []
    for row in rows[1:]:
        cols = row.split("\t")
        if len(cols) != len(header):
            continue
        rec = dict(zip(header, cols, strict=True))
        word = rec["text"].strip()
        if rec["level"] != "5" or not word:
            continue
        paras.setdefault((int(rec["block_num"]), int(rec["par_num"])), []).append(word)
        if float(rec["conf"]) >= 0:
            confs.append(float(rec["conf"]))
    return "\n".join(" ".join(words) for words in paras.values()), confs


def _ocr(png: Path, language: str) -> tuple[str, float | None]:
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    cmd = ["tesseract", str(png), "-", "-l", language, "--psm", "3", "tsv"]
    try:
        proc = subprocess.run(
            cmd, capture_output=True, timeout=OCR_TIMEOUT_SECONDS, check=False, env=env
        )
    except subprocess.TimeoutExpired as exc:
        raise SlidesError(f"tesseract took over {OCR_TIMEOUT_SECONDS} s on {png.name}") from exc
    if proc.returncode != 0:
        raise SlidesError(
            f"tesseract failed on {png.name} ({_stderr_tail(proc.stderr)}); "
            f"check the language pack for '{language}'"
        )
    text, confs = _paragraphs(proc.stdout.decode("utf-8", "replace"))
    return text, (round(sum(confs) / len(confs) / 100, 3) if confs else None)


def read_slides(
    video: Path,
    out_dir: Path,
    *,
    prefix: str,
    extra_times: Sequence[float] = (),
    language: str = "eng",
    max_frames: int = 60,
) -> list[Slide]:
    """Key frames of ``video``, near-duplicates dropped, each with its OCR text.

    ``language`` is tesseract's (``eng``, ``deu``, ``eng+fra``). Frames without text are
    kept with text ``""`` and confidence None.
    """
    missing = missing_tools(["ffmpeg", "tesseract"])  # both, before the slow ffmpeg pass
    if missing:
        raise SlidesError(missing_message(missing))
    frames = dedupe(
        keyframes(video, out_dir, prefix=prefix, extra_times=extra_times, max_frames=max_frames)
    )
    with ThreadPoolExecutor(max_workers=OCR_WORKERS) as pool:
        texts = list(pool.map(lambda frame: _ocr(frame[1], language), frames))
    return [
        Slide(time=time, image=png, text=text, confidence=conf)
        for (time, png), (text, conf) in zip(frames, texts, strict=True)
    ]
