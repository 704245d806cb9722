"""Speech recognition: the Transcriber interface, and why faster-whisper is unavailable.

faster-whisper is an optional extra and no model can be fetched in tests, so the adapter
is checked against a stand-in ``faster_whisper`` module shaped like its documented API
(``WhisperModel(..., local_files_only=...)``, ``transcribe() -> (segments, info)``), and
the interface on the synthetic talk with a transcriber that knows the script but has to
find when each line is spoken.
"""

from __future__ import annotations

import re
import subprocess
import sys
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from video_support import Talk, require_tools, synthetic_talk

from vaultd.video.asr import (
    AsrCue,
    AsrError,
    AsrUnavailableError,
    FasterWhisper,
    Transcriber,
    transcriber,
)

UNAVAILABLE_SMALL = (
    "no speech recognition available: pip install 'vaultd[asr]' (faster-whisper) and run "
    "once online so it can download the 'small' model"
)


@pytest.fixture(scope="session")
def talk(tmp_path_factory: pytest.TempPathFactory) -> Talk:
    return synthetic_talk(tmp_path_factory)


def test_transcriber_without_faster_whisper_says_how_to_get_it_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "faster_whisper", None)  # as if not installed

    with pytest.raises(AsrUnavailableError) as info:
        transcriber("small")

    assert str(info.value) == UNAVAILABLE_SMALL


class _Segment(NamedTuple):  # the fields of faster_whisper.transcribe.Segment we read
    start: float
    end: float
    text: str


class _FakeWhisperModel:
    """Records how it was built and called; ``cached`` says whether the model is local."""

    cached = True
    built: list[dict[str, Any]] = []  # noqa: RUF012 (reset per test by _fake_faster_whisper)

    def __init__(self, model: str, **kwargs: Any) -> None:
        type(self).built.append({"model": model, **kwargs})
        if kwargs.get("local_files_only") and not type(self).cached:
            raise FileNotFoundError("model not in the local cache")  # hub's LocalEntryNotFound
        if not kwargs.get("local_files_only"):
            raise OSError("cannot reach huggingface.co")
        self.calls: list[tuple[str, str | None]] = []

    def transcribe(self, audio: str, language: str | None = None, **kwargs: Any) -> tuple[Any, Any]:
        self.calls.append((audio, language))
        segments = iter([_Segment(0.0, 2.1, " Welcome to the talk."), _Segment(2.1, 2.5, " "),
                         _Segment(4.0, 6.3, " We drilled ice cores.")])
        return segments, object()


@pytest.fixture
def fake_faster_whisper(monkeypatch: pytest.MonkeyPatch) -> type[_FakeWhisperModel]:
    module = types.ModuleType("faster_whisper")
    model_cls = type("WhisperModel", (_FakeWhisperModel,), {"built": [], "cached": True})
    module.WhisperModel = model_cls  # type: ignore[attr-defined]
    module.available_models = lambda: ["tiny", "base", "small"]  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "faster_whisper", module)
    return model_cls


def test_faster_whisper_loads_the_cached_model_without_downloading_and_maps_segments(
    fake_faster_whisper: type[_FakeWhisperModel], tmp_path: Path
) -> None:
    media = tmp_path / "talk.m4a"
    media.write_bytes(b"audio")

    asr = FasterWhisper("small")
    cues = asr.transcribe(media, "en-US")

    assert asr.name == "faster-whisper:small"
    assert isinstance(asr, Transcriber)
    assert fake_faster_whisper.built == [
        {"model": "small", "device": "cpu", "compute_type": "int8", "local_files_only": True}
    ]
    assert asr._model.calls == [(str(media), "en")]
    assert cues == [AsrCue(0.0, 2.1, "Welcome to the talk."), AsrCue(4.0, 6.3, "We drilled ice cores.")]


def test_faster_whisper_without_the_model_offline_is_unavailable_after_one_download_try(
    fake_faster_whisper: type[_FakeWhisperModel],
) -> None:
    fake_faster_whisper.cached = False

    with pytest.raises(AsrUnavailableError) as info:
        transcriber("small")

    assert str(info.value) == UNAVAILABLE_SMALL
    assert [b["local_files_only"] for b in fake_faster_whisper.built] == [True, False]


def test_an_unknown_model_name_is_unavailable_and_lists_the_known_ones(
    fake_faster_whisper: type[_FakeWhisperModel],
) -> None:
    with pytest.raises(AsrUnavailableError, match=r"unknown speech recognition model 'huge'; use one of: tiny, base, small"):
        transcriber("huge")
    assert fake_faster_whisper.built == []


def test_faster_whisper_on_a_missing_file_raises_asr_error(
    fake_faster_whisper: type[_FakeWhisperModel], tmp_path: Path
) -> None:
    with pytest.raises(AsrError, match=r"gone\.mp4: no such audio or video file"):
        FasterWhisper("small").transcribe(tmp_path / "gone.mp4", None)


class ScriptedTranscriber:
    """Knows what is said (the script) but not when: ffmpeg's silencedetect splits the
    audio into speech runs and line i of the script is given run i."""

    name = "script:silencedetect"

    def __init__(self, script: Sequence[str]) -> None:
        self.script = list(script)

    def transcribe(self, media: Path, language: str | None) -> list[AsrCue]:
        proc = subprocess.run(
            ["ffmpeg", "-hide_banner", "-nostdin", "-i", str(media), "-map", "0:a:0",
             "-af", "silencedetect=noise=-40dB:d=0.4", "-f", "null", "-"],
            capture_output=True, text=True, timeout=60, check=True,
        )
        log = proc.stderr
        starts = [float(x) for x in re.findall(r"silence_start: (-?[\d.]+)", log)]
        ends = [float(x) for x in re.findall(r"silence_end: ([\d.]+)", log)]
        clock = re.findall(r"time=(\d+):(\d+):([\d.]+)", log)
        h, m, s = clock[-1]
        duration = int(h) * 3600 + int(m) * 60 + float(s)
        run_starts = [0.0, *ends] if not starts or starts[0] > 0 else ends
        run_ends = [t for t in starts if t > 0] + [duration]
        runs = [(a, b) for a, b in zip(run_starts, run_ends, strict=False) if b - a > 0.2]
        return [AsrCue(a, b, line) for (a, b), line in zip(runs, self.script, strict=False)]


def test_a_transcriber_gives_cues_at_the_times_the_talk_speaks_them(talk: Talk) -> None:
    require_tools("ffmpeg")
    asr: Transcriber = ScriptedTranscriber([s.text for s in talk.speech])

    cues = asr.transcribe(talk.video, "en")

    assert [c.text for c in cues] == [s.text for s in talk.speech]
    for cue, spoken in zip(cues, talk.speech, strict=True):
        assert abs(cue.start - spoken.start) < 0.25, (cue, spoken)
        assert abs(cue.end - spoken.end) < 0.25, (cue, spoken)
