"""Inbox items captured in the pool's worker processes (the agent's bursts, ``daemon/burst``).

Capturing a PDF reads its first page (PyMuPDF and the layout rules, ≈ 0.2 s) and asks the
sources: CPU-bound Python that would hold the agent's one interpreter while the pool
parses. In a worker, each item goes through the same ``pipeline.ingest.ingest_item`` (its
compile and index left to the caller's ``finish``); key choice is safe across processes
(``capture.records.capture_lock``). What comes back is the result, or the error's message
and whether retrying later may help (not every exception pickles).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from vaultd.errors import VaultdError
from vaultd.pipeline.bulk import worker_state
from vaultd.pipeline.ingest import Action, IngestResult, ingest_item

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CaptureCall:
    """One Inbox item to capture: its file, the rule's action, the URL a link file holds."""

    path: Path
    action: Action
    url: str | None = None


@dataclass
class CaptureOutcome:
    result: IngestResult | None = None
    error: str | None = None
    transient: bool = False

    def unwrap(self) -> IngestResult:
        """The result, or the item's error raised here (as a ``VaultdError``)."""
        if self.result is None:
            exc = VaultdError(self.error or "capture failed")
            exc.transient = self.transient
            raise exc
        return self.result


def capture_in_worker(call: CaptureCall) -> CaptureOutcome:
    """Capture one item in a pool worker (``BulkCompiler.submit(capture_in_worker, …)``)."""
    vault, settings = worker_state()
    try:
        out = ingest_item(vault, settings, call.path, action=call.action, url=call.url,
                          compile=False, index=False)
    except VaultdError as exc:
        return CaptureOutcome(error=str(exc), transient=exc.transient)
    except Exception as exc:  # a worker survives any one item: it is a loop's top level
        log.exception("capture of %s crashed", call.path)
        return CaptureOutcome(error=f"{call.path.name}: internal error while capturing: {exc}")
    out.errors = {}  # worded into ``failed`` already; exceptions need not cross processes
    return CaptureOutcome(out)
