"""A synthetic talk for the video tests: known slides, known speech, known times.

ffmpeg draws each slide (black text on white, DejaVu Sans) for ``SLIDE_SECONDS``;
espeak-ng speaks one sentence per slide, starting with the slide. The speech times are
measured from the espeak-ng clips themselves (first and last sample above a noise floor),
so tests compare what a tool finds in the finished mp4 with what went into it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import wave
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

REQUIRE_ENV = "VAULTD_REQUIRE_FIXTURES"  # as in conftest: missing tools fail instead of skip
SLIDE_SECONDS = 4.0
FPS = 25
SIZE = "1280x720"
TIMEOUT_SECONDS = 60
_FONTS = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),  # Debian/Ubuntu fonts-dejavu
    Path("/opt/homebrew/share/fonts/dejavu-fonts/DejaVuSans.ttf"),
    Path("/Library/Fonts/Arial.ttf"),
)

# (title, subtitle); the fourth slide shows the first again. No ':' ',' or quotes: they
# would need escaping inside ffmpeg's drawtext.
SLIDES: tuple[tuple[str, str], ...] = (
    ("Glacier Retreat", "Alpine Survey Results"),
    ("Ice Core Methods", "Isotope Ratios by Layer"),
    ("Melting Results", "Summer Melt Doubled"),
    ("Glacier Retreat", "Alpine Survey Results"),
)
SPEECH: tuple[str, ...] = (
    "Welcome to this talk on glacier retreat.",
    "We drilled ice cores and measured isotopes.",
    "Summer melting has doubled.",
    "So the glaciers are retreating.",
)


@dataclass(frozen=True)
class Spoken:
    start: float
    end: float
    text: str


@dataclass(frozen=True)
class Talk:
    video: Path
    slides: tuple[tuple[str, str], ...]
    slide_seconds: float
    speech: tuple[Spoken, ...]

    @property
    def starts(self) -> list[float]:
        return [i * self.slide_seconds for i in range(len(self.slides))]

    @property
    def duration(self) -> float:
        return len(self.slides) * self.slide_seconds


def require_tools(*names: str) -> None:
    """Skip the test when a program is not on PATH; fail under VAULTD_REQUIRE_FIXTURES=1."""
    missing = [name for name in names if shutil.which(name) is None]
    if not missing:
        return
    reason = f"{', '.join(missing)} not on PATH (bash scripts/install.sh --dev installs them)"
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{reason}; {REQUIRE_ENV}=1 requires them")
    pytest.skip(reason)


def font_file() -> Path | None:
    for path in _FONTS:
        if path.is_file():
            return path
    if shutil.which("fc-match"):
        found = subprocess.run(["fc-match", "-f", "%{file}", "sans"], capture_output=True,
                               text=True, timeout=10, check=False).stdout.strip()
        if found and Path(found).is_file():
            return Path(found)
    return None  # drawtext then asks fontconfig itself


def _run(cmd: Sequence[str]) -> None:
    proc = subprocess.run(list(cmd), capture_output=True, timeout=TIMEOUT_SECONDS, check=False)
    if proc.returncode != 0:
        tail = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
        raise RuntimeError(f"{cmd[0]} failed making the synthetic talk: {' | '.join(tail)}")


def _speech_span(wav: Path, floor: int = 500) -> tuple[float, float]:
    """First and last sample louder than ``floor`` (16-bit), in seconds."""
    with wave.open(str(wav)) as w:
        rate = w.getframerate()
        samples = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
    loud = np.flatnonzero(np.abs(samples.astype(np.int32)) > floor)
    if loud.size == 0:
        raise RuntimeError(f"{wav.name}: espeak-ng wrote silence")
    return float(loud[0]) / rate, float(loud[-1] + 1) / rate


def _video_codec() -> list[str]:
    encoders = subprocess.run(["ffmpeg", "-hide_banner", "-encoders"], capture_output=True,
                              text=True, timeout=TIMEOUT_SECONDS, check=False).stdout
    if " libx264 " in encoders:
        return ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
    return ["-c:v", "mpeg4", "-q:v", "3"]


def _drawtext(slides: Sequence[tuple[str, str]], seconds: float) -> str:
    font = font_file()
    fontopt = f":fontfile='{font}'" if font else ""
    parts = []
    for i, (title, subtitle) in enumerate(slides):
        when = f"enable='gte(t,{i * seconds:g})*lt(t,{(i + 1) * seconds:g})'"
        parts.append(f"drawtext=text='{title}':fontsize=88:x=(w-tw)/2:y=240{fontopt}:{when}")
        parts.append(f"drawtext=text='{subtitle}':fontsize=52:x=(w-tw)/2:y=400{fontopt}:{when}")
    return ",".join(parts)


def render_talk(
    out: Path,
    slides: Sequence[tuple[str, str]] = SLIDES,
    speech: Sequence[str] = SPEECH,
    *,
    seconds: float = SLIDE_SECONDS,
    fps: int = FPS,
    camera: bool = False,
) -> Talk:
    """Write ``out`` (mp4): one slide per ``seconds``, sentence i spoken from slide i's start.

    ``speech`` may be shorter than ``slides`` (silence after) or empty (no audio track).
    ``camera`` adds a moving 320×180 inset in the corner, as a speaker's camera would.
    """
    out.parent.mkdir(parents=True, exist_ok=True)
    duration = len(slides) * seconds
    cmd = ["ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", "-y",
           "-f", "lavfi", "-i", f"color=c=white:s={SIZE}:r={fps}:d={duration:g}"]
    spoken: list[Spoken] = []
    for i, sentence in enumerate(speech):
        clip = out.parent / f"{out.stem}-speech-{i}.wav"
        _run(["espeak-ng", "-w", str(clip), sentence])
        start, end = _speech_span(clip)
        if end >= seconds:
            raise RuntimeError(f"sentence {i} lasts {end:.1f} s, longer than its slide")
        spoken.append(Spoken(i * seconds + start, i * seconds + end, sentence))
        cmd += ["-i", str(clip)]
    graph = f"[0:v]{_drawtext(slides, seconds)}[v]"
    if camera:
        cam = f"testsrc2=s=320x180:r={fps}:d={duration:g}"
        graph = f"[0:v]{_drawtext(slides, seconds)}[s];{cam}[c];[s][c]overlay=W-w-20:H-h-20[v]"
    if speech:
        pads = "".join(f"[{i + 1}:a]apad=whole_dur={seconds:g}[a{i}];" for i in range(len(speech)))
        joined = "".join(f"[a{i}]" for i in range(len(speech)))
        graph += f";{pads}{joined}concat=n={len(speech)}:v=0:a=1,apad[a]"
        cmd += ["-filter_complex", graph, "-map", "[v]", "-map", "[a]", "-c:a", "aac"]
    else:
        cmd += ["-filter_complex", graph, "-map", "[v]"]
    _run([*cmd, *_video_codec(), "-t", f"{duration:g}", str(out)])
    return Talk(out, tuple(slides), seconds, tuple(spoken))


_SESSION: dict[str, Talk] = {}


def synthetic_talk(factory: pytest.TempPathFactory) -> Talk:
    """The default talk, rendered once per test session (call from a session fixture)."""
    require_tools("ffmpeg", "espeak-ng")
    if "talk" not in _SESSION:
        _SESSION["talk"] = render_talk(factory.mktemp("talk") / "talk.mp4")
    return _SESSION["talk"]
