"""Python's cyclic garbage collector paused while a parse builds its many small objects.

Reading a PDF makes hundreds of thousands of dicts, lists and tuples (PyMuPDF's ``dict``
of every page, then vaultd's lines and blocks), none of them in a reference cycle. Each
700 allocations start a collection that walks them all again for nothing: 5–6 % of a
parse (``bench/compile_eval.py``). The pause is process-wide, so it is counted: the
collector is switched back on when the last of overlapping pauses (the agent parses in
worker threads) ends, and only if it was on when the first began.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def gc_paused() -> Iterator[None]:
    """Run the body with the cyclic collector off; reference counting still frees every
    acyclic object at once, and cycles made meanwhile are collected after."""
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
