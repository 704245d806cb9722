"""Benchmark: slides from a talk — key frames + OCR seconds per minute of 720p video.

Run: python3 bench/video_slides.py [MINUTES] [--fps N]

Renders a synthetic 720p talk (12 slides a minute: 11 changes, black text on
white) twice: plain slides, and slides with a moving 320x180 "speaker camera" inset. For
each it times plain decoding (``ffmpeg -i video -f null -``), ``keyframes`` (decode +
scene score + PNGs), ``dedupe`` and the OCR of the kept frames, and checks that every
slide change was found. Synthetic frames compress far better than camera footage, so
decode is a lower bound for real videos; OCR time per slide carries over.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from video_support import render_talk  # noqa: E402

from vaultd.video.slides import OCR_WORKERS, dedupe, keyframes, read_slides  # noqa: E402

SLIDE_SECONDS = 5.0
TOPICS = ["Glacier", "Ice Core", "Isotope", "Melt", "Albedo", "Moraine", "Firn", "Calving",
          "Runoff", "Snowline", "Crevasse", "Drumlin"]


DECK: list[tuple[str, str]] = []


def deck(n: int) -> list[tuple[str, str]]:
    """``n`` slides with distinct titles and subtitles (drawtext-safe text)."""
    return [(f"{TOPICS[i % len(TOPICS)]} Study {i + 1}",
             f"Finding {i + 1} from site {chr(65 + i % 26)} in year {1990 + i}") for i in range(n)]


def seconds_of(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, timeout=600)
    return time.perf_counter() - start


def bench(video: Path, out: Path, minutes: float, changes: list[float]) -> None:
    decode = seconds_of(["ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error",
                         "-i", str(video), "-f", "null", "-"])
    start = time.perf_counter()
    frames = keyframes(video, out / "k", prefix="bench")
    t_key = time.perf_counter() - start
    kept = dedupe(frames)
    t_dedupe = time.perf_counter() - start - t_key
    start = time.perf_counter()
    slides = read_slides(video, out / "e2e", prefix="bench")
    t_e2e = time.perf_counter() - start
    t_ocr = max(0.0, t_e2e - t_key - t_dedupe)  # read_slides = keyframes + dedupe + OCR
    found = sum(any(abs(s.time - c) <= 0.5 for s in slides) for c in changes)
    read = sum(all(w in s.text for w in title.split()) for s, (title, _) in zip(slides, DECK, strict=False))
    per_min = 1.0 / minutes
    print(f"  {len(frames)} key frames, {len(kept)} after dedupe, {found}/{len(changes)} slide "
          f"starts found, {read} titles read in full")
    print(f"  plain decode (ffmpeg -f null -):  {decode * per_min:6.2f} s per video minute")
    print(f"  keyframes (decode+scene+PNG):     {t_key * per_min:6.2f} s per video minute")
    print(f"  dedupe (phash):                   {t_dedupe * per_min:6.2f} s per video minute")
    print(f"  OCR ({OCR_WORKERS} tesseract at a time):      {t_ocr * per_min:6.2f} s per video "
          f"minute ({t_ocr / max(1, len(slides)):.2f} s per slide)")
    print(f"  read_slides (keyframes+dedupe+OCR): {t_e2e * per_min:6.2f} s per video minute")


def main() -> None:
    global DECK
    parser = argparse.ArgumentParser(description="key frames + OCR seconds per video minute")
    parser.add_argument("minutes", nargs="?", type=float, default=1.0)
    parser.add_argument("--fps", type=int, default=30)
    args = parser.parse_args()
    DECK = deck(round(args.minutes * 60 / SLIDE_SECONDS))
    with tempfile.TemporaryDirectory(prefix="vaultd-bench-video-") as tmp:
        root = Path(tmp)
        for label, camera in (("slides", False), ("slides + moving camera inset", True)):
            start = time.perf_counter()
            talk = render_talk(root / f"{label[:6]}{camera}.mp4", DECK, (),
                               seconds=SLIDE_SECONDS, fps=args.fps, camera=camera)
            print(f"{label}: {args.minutes:g} min, 1280x720, {args.fps} fps, {len(DECK)} slides "
                  f"(rendered in {time.perf_counter() - start:.1f} s)")
            bench(talk.video, root / f"out-{camera}", args.minutes, talk.starts)


if __name__ == "__main__":
    main()
