"""OCR for pages with no text layer: tesseract (subprocess) on the rendered page.

The lines tesseract reads (its hOCR: each line's box, ``x_size`` and words' confidences)
become the parser's ``Line``s of that page, a text layer without fonts, and go through the
same structure as any page's text: furniture, headings, paragraphs running across pages,
front matter. Their blocks carry ``ocr=True`` and the mean confidence of their words,
scaled to 0–1 (``vaultd.parse.blocks``).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from vaultd.errors import ParseError
from vaultd.parse.base import Box
from vaultd.parse.paras import Line

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


def blank(samples: bytes) -> bool:
    """A rendered page's samples all one value: the page shows nothing (tesseract takes a
    second or more to find no word there; this, a few milliseconds)."""
    return not samples or samples.count(samples[:1]) == len(samples)


#: tesseract's ``x_size`` of a line (its height from ascender to descender, in pixels)
#: is this share of the font size it is set in: 9.9 pt for the 10.9 pt body of a page of
#: S2ORC's paper read at 240 dpi.
X_SIZE_SHARE = 0.91
#: Paragraphs whose size is within this share of the usual size of the lines read are set
#: in the body's size (tesseract's ``x_size`` varies by a tenth or so from line to line of
#: one font).
BODY_SHARE = 0.15


@dataclass(frozen=True)
class OcrLine:
    """A line tesseract read: its text, box in page points, size in points (from its
    ``x_size``), the paragraph it is in (numbered over the page) and its words' mean
    confidence (0–100)."""

    text: str
    bbox: Box
    size: float
    par: int
    conf: float


_BBOX_RE = re.compile(r"bbox (\d+) (\d+) (\d+) (\d+)")
_X_SIZE_RE = re.compile(r"x_size ([\d.]+)")
_WCONF_RE = re.compile(r"x_wconf (-?\d+)")
_HOCR_NS = "{http://www.w3.org/1999/xhtml}"


def parse_hocr(hocr: str, scale: float) -> list[OcrLine]:
    """tesseract's hOCR output → its lines, in its order; ``scale``: points a pixel."""
    root = ElementTree.fromstring(hocr)
    out: list[OcrLine] = []
    for par_no, par in enumerate(root.iter(f"{_HOCR_NS}p")):
        for line in par.iter(f"{_HOCR_NS}span"):
            if not line.get("class", "").startswith(("ocr_line", "ocr_caption", "ocr_header", "ocr_textfloat")):
                continue
            words = [w for w in line.iter(f"{_HOCR_NS}span") if w.get("class") == "ocrx_word"]
            texts = ["".join(w.itertext()).strip() for w in words]
            text = " ".join(t for t in texts if t)
            title = line.get("title", "")
            box, size = _BBOX_RE.search(title), _X_SIZE_RE.search(title)
            if not text or box is None:
                continue
            confs = [float(m.group(1)) for w in words if (m := _WCONF_RE.search(w.get("title", "")))]
            x0, y0, x1, y1 = (int(v) * scale for v in box.groups())
            height = float(size.group(1)) * scale if size else y1 - y0
            out.append(OcrLine(text, (round(x0, 2), round(y0, 2), round(x1, 2), round(y1, 2)),
                               round(height / X_SIZE_SHARE, 1), par_no,
                               sum(confs) / len(confs) if confs else 0.0))
    return out


def read_page(page: Any, language: str = "eng") -> list[OcrLine]:
    """OCR one PyMuPDF page: its lines, boxes in page points. A page that renders to one
    colour is not sent to tesseract: it has none."""
    if not tesseract_available():
        raise ParseError("tesseract is not installed; install tesseract-ocr to read scanned pages")
    pix = page.get_pixmap(dpi=OCR_DPI, colorspace="gray")
    if blank(pix.samples):
        return []  # one colour all over (a page left blank, a blank sheet scanned): no text to read
    with tempfile.TemporaryDirectory(prefix="vaultd-ocr-") as tmp:
        img = Path(tmp) / "page.png"
        pix.save(img)
        try:
            proc = subprocess.run(
                ["tesseract", str(img), "-", "-l", language, "--psm", "1", "hocr"],
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
    try:
        return parse_hocr(proc.stdout.decode("utf-8", "replace"), 72.0 / OCR_DPI)
    except ElementTree.ParseError as exc:
        raise ParseError(f"page {page.number + 1}: tesseract's output cannot be read ({exc}); try again") from exc


#: The font name of the lines tesseract read (one font: a text layer without fonts).
OCR_FONT = "tesseract"


def to_lines(read: dict[int, list[OcrLine]], body: float | None = None) -> dict[int, list[Line]]:
    """The lines tesseract read, by 1-based page, as the parser's ``Line``s: each paragraph
    one block, set in one size (the median of its lines'); a paragraph within
    ``BODY_SHARE`` of the usual size of the lines read is set in ``body`` (the text layer's
    body size, when other pages have one), so that the body's paragraphs share one size
    and headings, titles and notes stand out from it as a text layer's would."""
    sizes = sorted(ln.size for lines in read.values() for ln in lines)
    usual = sizes[len(sizes) // 2] if sizes else 0.0
    out: dict[int, list[Line]] = {}
    for page, lines in read.items():
        by_par: dict[int, list[OcrLine]] = {}
        for ln in lines:
            by_par.setdefault(ln.par, []).append(ln)
        size_of: dict[int, float] = {}
        for par, members in by_par.items():
            own = sorted(m.size for m in members)[len(members) // 2]
            size_of[par] = (body or usual) if abs(own - usual) <= BODY_SHARE * usual else own
        out[page] = [Line(ln.text, ln.bbox, size_of[ln.par], False, ln.par, page, font=OCR_FONT, conf=ln.conf)
                     for ln in lines]
    return out
