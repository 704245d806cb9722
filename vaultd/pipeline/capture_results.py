"""What capturing many items gives (``CaptureResults``: the works, and each item that
failed with why) and how a link file's or a .bib's items are captured one by one, one
failing item never stopping the others (``each``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from vaultd.errors import InputError, VaultdError
from vaultd.pipeline.capture_store import CaptureResult


class CaptureResults(list[CaptureResult]):
    """The items captured, plus ``failed``: (item, error message) for each item of a link
    file or .bib that could not be captured (the others still were)."""

    def __init__(self, items: Sequence[CaptureResult] = (),
                 failed: Sequence[tuple[str, str]] = ()) -> None:
        super().__init__(items)
        self.failed: list[tuple[str, str]] = list(failed)
        #: the error of each failed item that raised one, by item (an interface words
        #: its own advice from it: the CLI's flags are no action in the Inbox)
        self.errors: dict[str, VaultdError] = {}


async def each(items: Sequence[tuple[str, Callable[[], Awaitable[list[CaptureResult]]]]]
                ) -> CaptureResults:
    """Run each item's capture in turn; one item failing does not stop the others.

    When every item failed, the first error is raised (a single item behaves as before).
    """
    out = CaptureResults()
    errors: list[VaultdError] = []
    for label, job in items:
        try:
            out += await job()
        except VaultdError as exc:
            errors.append(exc)
            out.failed.append((label, str(exc)))
            out.errors[label] = exc
    if errors and not out:
        if len(errors) == 1:
            raise errors[0]
        raise ItemsFailedError(out.failed, out.errors)
    return out


class ItemsFailedError(InputError):
    """Every item of a link file or .bib failed: each item with its error."""

    def __init__(self, failed: Sequence[tuple[str, str]], errors: dict[str, VaultdError]) -> None:
        self.failed, self.errors = list(failed), errors
        super().__init__(self.summary(self.failed))
        self.transient = bool(errors) and all(e.transient for e in errors.values())

    @staticmethod
    def summary(failed: Sequence[tuple[str, str]]) -> str:
        listed = "; ".join(f"{label}: {msg}" for label, msg in failed)
        return f"none of the {len(failed)} items could be captured: {listed}"
