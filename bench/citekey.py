"""Cite-key generation speed: µs per key over 10,000 generated works.

Run: python3 bench/citekey.py
Target (issue 2): well under 1 ms per key.
"""

from __future__ import annotations

import random
import time

from vaultd.citekey import DEFAULT_PATTERN, compile_pattern, make_key, unique_key
from vaultd.models import Author, Work

N_WORKS = 10_000
FAMILIES = ["Vaswani", "LeCun", "Schölkopf", "van der Maaten", "O'Hara", "魏笑", "Иванов",
            "Müller", "Nguyễn", "Smith", "King Jr.", "de Souza"]
WORDS = ["attention", "deep", "learning", "is", "all", "you", "need", "of", "the", "neural",
         "Über", "Ambivalenz", "黄土高原", "BERT:", "pre-training", "a", "graph", "networks"]
PATTERNS = [DEFAULT_PATTERN, "[authEtAl:lower]_[year]_[title:nopunct:skipwords:3:capitalize]",
            "[authors2:lower][shortyear][journal:skipwords:condense:8]"]


def _works(rng: random.Random) -> list[Work]:
    works = []
    for _ in range(N_WORKS):
        authors = [Author.model_validate({"family": rng.choice(FAMILIES), "given": "A."})
                   for _ in range(rng.randint(0, 6))]
        title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))
        issued = [rng.randint(1950, 2026)] if rng.random() > 0.05 else None
        works.append(Work.model_validate({"title": title, "authors": authors, "issued": issued,
                                          "container_title": "Journal of Machine Learning Research"}))
    return works


def main() -> None:
    works = _works(random.Random(42))
    for pattern in PATTERNS:
        compiled = compile_pattern(pattern)
        start = time.perf_counter()
        for work in works:
            make_key(work, compiled)
        elapsed = time.perf_counter() - start
        print(f"make_key {pattern!r}: {elapsed / N_WORKS * 1e6:.1f} µs/key over {N_WORKS:,} works")

    taken: set[str] = set()
    start = time.perf_counter()
    for work in works:
        taken.add(unique_key(make_key(work), taken))
    elapsed = time.perf_counter() - start
    print(f"filling a vault: make_key + unique_key: {elapsed / N_WORKS * 1e6:.1f} µs/key "
          f"on average ({len(taken):,} distinct keys; unique_key scans the taken keys)")

    base = make_key(works[0])
    rounds = 200
    start = time.perf_counter()
    for _ in range(rounds):
        unique_key(base, taken)
    elapsed = time.perf_counter() - start
    print(f"unique_key against a full {len(taken):,}-key vault: {elapsed / rounds * 1e6:.1f} µs")

    start = time.perf_counter()
    for _ in range(N_WORKS):
        compile_pattern.cache_clear()
        compile_pattern(DEFAULT_PATTERN)
    elapsed = time.perf_counter() - start
    print(f"compile_pattern (uncached): {elapsed / N_WORKS * 1e6:.1f} µs/pattern")


if __name__ == "__main__":
    main()
