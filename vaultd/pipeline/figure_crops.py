"""Figure crops: a figure's region of its page drawn to ``raw/figs/<key>_figN.png``, now or
later.

Drawing a crop (MuPDF renders the region at 144 dpi, then the PNG is encoded) is about a
fifth of a compile. A bulk compile (`vaultd import`, the agent with a burst of PDFs) can
leave it for later: the compile still finds each figure's region and links the PNG's
path in the note, and writes the region in the crop index (``raw/figs/.<key>_figs.json``)
as pending: ``[source, null, page, [x0, y0, x1, y1]]``. ``render_pending_figures`` draws
them (when the queue is idle, or at the end of an import); the next compile of a note
whose crops are still pending draws them itself.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeGuard

from vaultd.citekey import key_to_filename
from vaultd.parse.figures import png_bytes
from vaultd.parse.pymupdf import load_pymupdf
from vaultd.vault import Vault, atomic_write_bytes, file_sha256

FIGURE_ZOOM = 2.0  # render figures at 144 dpi


def crop_index_path(vault: Vault, cite_key: str) -> Path:
    return vault.figs / f".{key_to_filename(cite_key)}_figs.json"


def write_crop(path: Path, data: bytes) -> None:
    """Temp file + rename (never a partial PNG under its name), without an fsync per crop:
    crops are derived data, and the crop index records each PNG's SHA-256, so a crop lost
    in a crash is drawn again on the next compile (an fsync costs ≈ 8 ms here, more than
    rendering a figure)."""
    atomic_write_bytes(path, data, durable=False)


def draw(pymupdf: Any, display_list: Any, region: Sequence[float]) -> bytes | None:
    """The PNG of ``region`` (PyMuPDF page space) of a page's display list; None for a
    degenerate region."""
    pix = display_list.get_pixmap(matrix=pymupdf.Matrix(FIGURE_ZOOM, FIGURE_ZOOM),
                                  clip=pymupdf.Rect(region), alpha=False,
                                  colorspace=pymupdf.csRGB)
    if pix.width == 0 or pix.height == 0:
        return None
    # rendered as RGB without alpha just above: what png_bytes encodes
    return png_bytes(pix.width, pix.height, pix.n, pix.stride, pix.samples_mv,
                     (pix.xres, pix.yres))


def is_pending(entry: object) -> TypeGuard[list[Any]]:
    """A crop index entry whose drawing was left for later."""
    return isinstance(entry, list) and len(entry) == 4 and entry[1] is None


def render_pending_figures(vault: Vault, cite_key: str) -> int:
    """Draw the crops a compile left pending for ``cite_key``; returns how many were drawn.
    A crop whose PDF changed since is left for the next compile."""
    index_path = crop_index_path(vault, cite_key)
    try:
        index: Any = json.loads(index_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0
    if not isinstance(index, dict) or not any(is_pending(e) for e in index.values()):
        return 0
    pdf = vault.pdf_path(cite_key)
    try:
        sha = file_sha256(pdf)
    except OSError:
        return 0
    pymupdf = load_pymupdf()
    drawn = 0
    lists: dict[int, Any] = {}
    with pymupdf.open(pdf) as doc:
        for name, entry in sorted(index.items()):
            if not is_pending(entry) or json.loads(entry[0])[0] != sha:
                continue
            page = int(entry[2])
            if page not in lists:
                lists[page] = doc[page - 1].get_displaylist()
            png = draw(pymupdf, lists[page], entry[3])
            if png is None:
                continue
            write_crop(vault.figs / name, png)
            index[name] = [entry[0], hashlib.sha256(png).hexdigest()]
            drawn += 1
        lists.clear()
    if drawn:
        text = json.dumps(index, indent=1, sort_keys=True) + "\n"
        atomic_write_bytes(index_path, text.encode("utf-8"), durable=False)
    return drawn
