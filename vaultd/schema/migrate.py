"""One migration registrar for both databases (pure): a database's migrations are an
explicit, ordered tuple of ``(name, function)``; this checks the names and says which are
still to apply. Each database applies them in its own transaction style (statedb.py,
index/store.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

C = TypeVar("C")
Migration = tuple[str, Callable[[C], None]]


def checked(database: str, steps: Sequence[tuple[str, Callable[[C], None]]]
            ) -> tuple[tuple[str, Callable[[C], None]], ...]:
    """``steps`` as a tuple, refusing a name used twice (a migration is known by name)."""
    seen: set[str] = set()
    for name, _ in steps:
        if name in seen:
            raise ValueError(f"duplicate {database} migration name {name!r}")
        seen.add(name)
    return tuple(steps)


def pending(steps: Sequence[tuple[str, Callable[[C], None]]], done: Iterable[str]
            ) -> list[tuple[str, Callable[[C], None]]]:
    """The migrations of ``steps`` not in ``done``, in order."""
    applied = set(done)
    return [(name, fn) for name, fn in steps if name not in applied]
