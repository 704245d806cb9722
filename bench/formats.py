"""Per-item citation rendering time for each style (target: well under 1 ms).

Run: python3 bench/formats.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from _formats_works import WORKS

from vaultd.formats import STYLES, render, render_all, to_csl_json

ROUNDS = 200


def _per_item_us(fn: object) -> float:
    works = list(WORKS.items())
    start = time.perf_counter()
    for _ in range(ROUNDS):
        for key, work in works:
            fn(work, key)  # type: ignore[operator]
    return (time.perf_counter() - start) / (ROUNDS * len(works)) * 1e6


def main() -> None:
    print(f"{len(WORKS)} works x {ROUNDS} rounds (journal, preprint, conference, book, thesis, video)")
    for style in STYLES:
        us = _per_item_us(lambda w, k, s=style: render(w, k, s))
        print(f"  {style:<8} {us:8.1f} µs/item")
    print(f"  {'all five':<8} {_per_item_us(render_all):8.1f} µs/item (render_all)")
    print(f"  {'csl-json':<8} {_per_item_us(to_csl_json):8.1f} µs/item")


if __name__ == "__main__":
    main()
