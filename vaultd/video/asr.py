"""Speech recognition for videos without captions, behind a ``Transcriber`` protocol.

The one real adapter is faster-whisper (the optional ``vaultd[asr]`` extra), imported only
when a ``FasterWhisper`` is made. It loads the model from the local Hugging Face cache
first and downloads it only when that fails, so once fetched it works offline.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from vaultd.errors import VaultdError

DEFAULT_MODEL = "small"


@dataclass(frozen=True)
class AsrCue:
    start: float  # seconds into the media
    end: float
    text: str


class AsrUnavailableError(VaultdError):
    """No speech recognition here: faster-whisper or its model is missing."""


class AsrError(VaultdError):
    """Speech recognition ran but failed on a file (unreadable audio, unknown language)."""


@runtime_checkable
class Transcriber(Protocol):
    name: str  # e.g. "faster-whisper:small"; chunks record it as origin "asr:<name>"

    def transcribe(self, media: Path, language: str | None) -> list[AsrCue]: ...


def unavailable_message(model: str) -> str:
    return (
        "no speech recognition available: pip install 'vaultd[asr]' (faster-whisper) and "
        f"run once online so it can download the '{model}' model"
    )


def _whisper_language(language: str | None) -> str | None:
    """Whisper wants a bare ISO 639-1 code: YouTube's "en-US" becomes "en"."""
    if not language:
        return None
    return language.replace("_", "-").split("-")[0].lower()


def _load(model: str, device: str, compute_type: str) -> Any:
    try:  # optional extra; import_module keeps mypy quiet whether or not it is installed
        faster_whisper = importlib.import_module("faster_whisper")
    except ImportError as exc:
        raise AsrUnavailableError(unavailable_message(model)) from exc
    is_path_or_repo = "/" in model or Path(model).is_dir()
    if not is_path_or_repo and model not in faster_whisper.available_models():
        known = ", ".join(faster_whisper.available_models())
        raise AsrUnavailableError(f"unknown speech recognition model '{model}'; use one of: {known}")
    error: Exception | None = None
    # The cache first, so a fetched model never touches the network; then one download.
    for local_only in (True, False):
        try:
            return faster_whisper.WhisperModel(
                model, device=device, compute_type=compute_type, local_files_only=local_only
            )
        except (OSError, ValueError, RuntimeError) as exc:  # hub cache/network, ctranslate2
            error = exc
    raise AsrUnavailableError(unavailable_message(model)) from error


class FasterWhisper:
    """faster-whisper on this machine; raises AsrUnavailableError when it cannot run."""

    def __init__(
        self, model: str = DEFAULT_MODEL, *, device: str = "cpu", compute_type: str = "int8"
    ) -> None:
        self.name = f"faster-whisper:{model}"
        self._model = _load(model, device, compute_type)

    def transcribe(self, media: Path, language: str | None) -> list[AsrCue]:
        if not media.is_file():
            raise AsrError(f"{media}: no such audio or video file")
        try:
            # Segments is a generator: recognition runs while it is consumed.
            segments, _info = self._model.transcribe(
                str(media), language=_whisper_language(language), vad_filter=True
            )
            cues = [AsrCue(float(s.start), float(s.end), s.text.strip()) for s in segments]
        except (OSError, ValueError, RuntimeError) as exc:  # PyAV decode, tokenizer language
            raise AsrError(f"speech recognition failed on {media.name} ({exc})") from exc
        return [cue for cue in cues if cue.text]


def transcriber(model: str) -> Transcriber:
    """The speech recognizer to use, or AsrUnavailableError saying how to get one."""
    return FasterWhisper(model)
