"""OCR tier for pages with no text layer: tesseract (subprocess) on the rendered page.

Each tesseract paragraph becomes a ``paragraph`` block with ``ocr=True`` and the mean
word confidence of its words, scaled to 0–1; boxes are converted back to PDF points.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from vaultd.errors import ParseError
from vaultd.parse.base import Block, user_rect
from vaultd.parse.layout import join_lines

OCR_DPI = 240
TIMEOUT_SECONDS = 300


def tesseract_available() -> bool:
    return shutil.which("tesseract") is not None


def tesseract_version() -> str:
    try:
        proc = subprocess.run(["tesseract", "--version"], capture_output=True, timeout=10, check=False)
    except (FileNotFoundError, subprocess.TimeoutExpired):
        return "unknown"
    first = (proc.stdout or proc.stderr).decode("utf-8", "replace").splitlines()
    return first[0].split()[-1] if first else "unknown"


def _parse_tsv(tsv: str) -> list[tuple[tuple[int, int, int], list[dict[str, Any]]]]:
    """Words grouped by (block, paragraph, line), in tesseract's order."""
    rows = tsv.splitlines()
    if not rows:
        return []
    header = rows[0].split("\t")
    lines: dict[tuple[int, int, int], list[dict[str, Any]]] = {}
    for row in rows[1:]:
        cols = row.split("\t")
        if len(cols) != len(header):
            continue
        rec = dict(zip(header, cols, strict=True))
        if rec["level"] != "5" or not rec["text"].strip():
            continue
        key = (int(rec["block_num"]), int(rec["par_num"]), int(rec["line_num"]))
        lines.setdefault(key, []).append(rec)
    return list(lines.items())


def blank(samples: bytes) -> bool:
    """A rendered page's samples all one value: the page shows nothing (tesseract takes a
    second or more to find no word there; this, a few milliseconds)."""
    return not samples or samples.count(samples[:1]) == len(samples)


def ocr_page(page: Any, language: str = "eng") -> list[Block]:
    """OCR one PyMuPDF page; blocks carry boxes in page points and a confidence. A page
    that renders to one colour is not sent to tesseract: it has no blocks."""
    if not tesseract_available():
        raise ParseError("tesseract is not installed; install tesseract-ocr to read scanned pages")
    scale = 72.0 / OCR_DPI
    inv = ~page.transformation_matrix
    to_user = (inv.a, inv.b, inv.c, inv.d, inv.e, inv.f)
    label = page.get_label() or None
    pix = page.get_pixmap(dpi=OCR_DPI, colorspace="gray")
    if blank(pix.samples):
        return []  # one colour all over (a page left blank, a blank sheet scanned): no text to read
    with tempfile.TemporaryDirectory(prefix="vaultd-ocr-") as tmp:
        img = Path(tmp) / "page.png"
        pix.save(img)
        try:
            proc = subprocess.run(
                ["tesseract", str(img), "-", "-l", language, "--psm", "1", "tsv"],
                capture_output=True,
                timeout=TIMEOUT_SECONDS,
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise ParseError(f"page {page.number + 1}: tesseract timed out; try again") from exc
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ParseError(
            f"page {page.number + 1}: tesseract failed ({err[-1] if err else proc.returncode}); "
            f"check the language pack for '{language}'"
        )
    paras: dict[tuple[int, int], list[list[dict[str, Any]]]] = {}
    for (blk, par, _ln), words in _parse_tsv(proc.stdout.decode("utf-8", "replace")):
        paras.setdefault((blk, par), []).append(words)
    blocks: list[Block] = []
    for lines in paras.values():
        words = [w for line in lines for w in line]
        text = join_lines(" ".join(w["text"] for w in line) for line in lines)
        confs = [float(w["conf"]) for w in words if float(w["conf"]) >= 0]
        x0 = min(int(w["left"]) for w in words) * scale
        y0 = min(int(w["top"]) for w in words) * scale
        x1 = max(int(w["left"]) + int(w["width"]) for w in words) * scale
        y1 = max(int(w["top"]) + int(w["height"]) for w in words) * scale
        bbox = (round(x0, 2), round(y0, 2), round(x1, 2), round(y1, 2))
        blocks.append(
            Block(
                type="paragraph",
                text=text,
                page=page.number + 1,
                page_label=label,
                bbox=bbox,
                pdf_rect=user_rect(bbox, to_user),
                ocr=True,
                ocr_confidence=round(sum(confs) / len(confs) / 100, 3) if confs else 0.0,
                pieces=[(page.number + 1, text)],
            )
        )
    return blocks
