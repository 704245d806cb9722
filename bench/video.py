#!/usr/bin/env python3
"""A 1-hour talk's caption-only note: time and memory (target ≤ 5 s).

Builds a one-hour subtitle file from the recorded creator captions in
``../shared/fixtures/youtube/vtt/`` (their cues repeated and shifted until 3,600 s: real
caption text, a talk's length) beside a recorded yt-dlp info JSON (with its duration set
to one hour), then runs ``vaultd capture <id>.info.json`` in a fresh process, offline,
which captures and writes the note. Printed, medians of 3: that process's wall time and
peak memory, beside webvtt-py alone reading the same file in the same run (the floor:
what parsing the captions costs at all).

Keyframes + OCR per minute of 720p video: ``python3 bench/video_slides.py``.

    python3 bench/video.py
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compile_eval import eval_dir

HOUR = 3600.0
VIDEO_ID = "JjQDik3yNhA"
RUNS = 3


def stamp(seconds: float) -> str:
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{int(h):02d}:{int(m):02d}:{s:06.3f}"


def hour_of_captions(source: Path) -> str:
    import webvtt

    cues = [(c.start_in_seconds, c.end_in_seconds, c.text) for c in webvtt.read(str(source))]
    span = cues[-1][1] + 2.0
    out = ["WEBVTT", ""]
    shift = 0.0
    while shift < HOUR:
        for start, end, text in cues:
            if shift + end > HOUR:
                break
            out += [f"{stamp(shift + start)} --> {stamp(shift + end)}", text, ""]
        shift += span
    return "\n".join(out)


def child_run(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.perf_counter()
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(peak, before) / 1024


def main() -> None:
    fixtures = eval_dir().parent / "youtube"
    if not fixtures.is_dir():
        sys.exit(f"no recorded YouTube fixtures at {fixtures}; set VAULTD_TEST_FIXTURES")
    tmp = Path(tempfile.mkdtemp(prefix="vaultd-bench-video-"))
    info = json.loads(next((fixtures / "info").glob(f"{VIDEO_ID}_*.info.json")).read_text())
    info["duration"] = HOUR
    vtt = hour_of_captions(fixtures / "vtt" / "human_crash_course_european_history.en.vtt")
    dead = "http://127.0.0.1:9"
    env = {**os.environ, "OLLAMA_HOST": dead, "VAULTD_INDEX_EMBEDDING_PROVIDER": "none"}
    ours, floor, peaks = [], [], []
    for run in range(RUNS):
        vault = tmp / f"vault{run}"
        subprocess.run([sys.executable, "-m", "vaultd", "init", str(vault)], env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        files = tmp / f"dl{run}"
        files.mkdir()
        (files / f"{VIDEO_ID}.info.json").write_text(json.dumps(info), encoding="utf-8")
        (files / f"{VIDEO_ID}.en.vtt").write_text(vtt, encoding="utf-8")
        wall, peak = child_run([sys.executable, "-m", "vaultd", "--vault", str(vault), "capture",
                                str(files / f"{VIDEO_ID}.info.json")], env)
        ours.append(wall)
        peaks.append(peak)
        wall, _ = child_run([sys.executable, "-c", "import sys, webvtt; webvtt.read(sys.argv[1])",
                             str(files / f"{VIDEO_ID}.en.vtt")], env)
        floor.append(wall)
    note = next((tmp / "vault0" / "wiki").glob("*.md"))
    chunks = note.read_text(encoding="utf-8").count("<!-- chunk id=")
    cues = vtt.count(" --> ")
    print(f"1-hour talk, captions only ({cues} cues → {chunks} chunks), medians of {RUNS}:")
    print(f"  vaultd capture + note, whole process {statistics.median(ours):.2f} s "
          f"(target ≤ 5 s), peak RSS {max(peaks):.0f} MB")
    print(f"  webvtt-py reading the same file, whole process {statistics.median(floor):.2f} s")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
