"""A time in a video as a reader writes it, in seconds (pure)."""

from __future__ import annotations

from vaultd.errors import InputError
from vaultd.video.info import offset_seconds


def parse_time(value: str) -> float:
    """Seconds from ``3:15``, ``1:02:03``, ``195``, ``195s`` or ``1h2m3s``; InputError if none."""
    text = value.strip()
    parts = text.split(":")
    if 2 <= len(parts) <= 3 and all(p.isdigit() for p in parts):
        seconds = 0.0
        for p in parts:
            seconds = seconds * 60 + int(p)
        return seconds
    found = offset_seconds(text)
    if found is None:
        raise InputError(f"{value!r} is not a time in a video; give it as 3:15, 1:02:03 or 195")
    return found
