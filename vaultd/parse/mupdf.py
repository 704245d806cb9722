"""PyMuPDF, loaded once on first use (``import pymupdf`` costs ≈ 0.1 s and 60 MiB, so
importing vaultd's parser stays cheap), and the lock page text and table searches hold."""

from __future__ import annotations

import contextlib
import functools
import importlib
import threading
from collections.abc import Iterator
from typing import Any

#: MuPDF keeps one process-wide "small glyph heights" switch, which changes every text
#: box it reports. ``find_tables`` turns it on for the length of its call and restores what
#: it found, so two calls at once in two threads can leave it on for good, and text read in
#: one thread while another thread's call runs comes with smaller boxes: the same PDF would
#: then give other chunks. Page text and table searches hold this lock (``mupdf_text``).
_TEXT_LOCK = threading.Lock()


@contextlib.contextmanager
def mupdf_text() -> Iterator[Any]:
    """Hold the lock for reading text or searching tables; the switch is off inside."""
    mod = load_pymupdf()
    with _TEXT_LOCK:
        if mod.TOOLS.set_small_glyph_heights():  # left on by someone else: the default back
            mod.TOOLS.set_small_glyph_heights(False)
        yield mod


@functools.cache
def load_pymupdf() -> Any:
    """``import pymupdf`` on first use (≈ 0.1 s, 60 MiB), typed loosely; once per process
    (every page read asks for it)."""
    mod = importlib.import_module("pymupdf")
    mod.TOOLS.mupdf_display_errors(False)  # failures become ParseErrors, not stderr noise
    return mod
