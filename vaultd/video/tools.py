"""The external programs video notes run, and one message saying how to install the missing.

yt-dlp counts as present when its Python module imports (it is a vaultd dependency) or its
command is on PATH; ffmpeg, ffprobe and tesseract must be on PATH.
"""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Install:
    """How to install one tool with each package manager (None: not offered there)."""

    apt: str | None = None
    brew: str | None = None
    pip: str | None = None

    def commands(self) -> list[str]:
        return [c for c in (self.apt, self.brew, self.pip) if c]


TOOLS: dict[str, Install] = {
    # Debian's yt-dlp package lags YouTube's changes by months; pip or brew keep up.
    "yt-dlp": Install(brew="brew install yt-dlp", pip="pip install yt-dlp"),
    "ffmpeg": Install(apt="apt install ffmpeg", brew="brew install ffmpeg"),
    "ffprobe": Install(apt="apt install ffmpeg", brew="brew install ffmpeg"),
    "tesseract": Install(apt="apt install tesseract-ocr", brew="brew install tesseract"),
}

INSTALL_SCRIPT = "scripts/install.sh"


def _present(name: str) -> bool:
    if name == "yt-dlp" and importlib.util.find_spec("yt_dlp") is not None:
        return True
    return shutil.which(name) is not None


def missing_tools(needed: Iterable[str]) -> list[str]:
    """The names in ``needed`` that cannot be run here, in the order given, each once."""
    missing: list[str] = []
    for name in needed:
        if name not in missing and not _present(name):
            missing.append(name)
    return missing


def missing_message(missing: Sequence[str]) -> str:
    """One line naming each missing tool with its install commands."""
    parts = []
    for name in missing:
        commands = TOOLS[name].commands() if name in TOOLS else []
        parts.append(f"{name} ({' · '.join(commands)})" if commands else name)
    return f"missing tools for video notes: {', '.join(parts)}; or run {INSTALL_SCRIPT}"
