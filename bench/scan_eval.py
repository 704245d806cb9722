"""Score the parser on scans: papers of the open set rendered to images, read by tesseract.

Each chosen paper of ``../shared/fixtures/pdfs-eval`` is rendered page by page (grey,
``--dpi``, 200 by default) into a PDF of images alone, with no text layer, as a flatbed
scan of the printed paper would be; its test file is the paper's own, so the truth is the
one written from the rendered pages. ``bench/compile_eval.py --set`` then scores the
scans (tesseract reads every page: about 10 s a page on this machine, so it is run by
hand, not in the suite). Passages are matched in the loose form, so tesseract's
misreadings of single characters cost a passage only when they fall inside it.

    python3 bench/scan_eval.py                       # three papers (32 pages), ≈ 6 min
    python3 bench/scan_eval.py --papers plos bmc     # papers by stem prefix
    PYTHONPATH=OTHER python3 bench/scan_eval.py      # another tree's vaultd, same scans
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from compile_eval import eval_dir

#: The default papers (stem prefixes): a BMC protocol, Frontiers with its sidebars, PLOS.
PAPERS = ("bmc_trials", "frontiers", "plos")


def rasterise(pdf: Path, out: Path, dpi: int) -> int:
    """``pdf``'s pages as images in a PDF of their own at ``out``; returns the page count."""
    import pymupdf

    src = pymupdf.open(pdf)
    scan = pymupdf.open()
    for page in src:
        pix = page.get_pixmap(dpi=dpi, colorspace="gray")
        sheet = scan.new_page(width=page.rect.width, height=page.rect.height)
        sheet.insert_image(sheet.rect, pixmap=pix)
    scan.save(out, deflate=True)
    return int(src.page_count)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--papers", nargs="*", default=list(PAPERS), help="stem prefixes of the open set's papers")
    ap.add_argument("--dpi", type=int, default=200, help="the scan's resolution")
    ap.add_argument("--json", action="store_true", help="compile_eval's JSON output")
    args = ap.parse_args()
    if shutil.which("tesseract") is None:
        print("scan_eval: tesseract is not installed; run scripts/install.sh", file=sys.stderr)
        return 1
    src = eval_dir()
    chosen = [p for p in sorted((src / "pdfs").glob("*.pdf")) if p.stem.startswith(tuple(args.papers))]
    if not chosen:
        print(f"scan_eval: no paper of {src} starts with {' or '.join(args.papers)}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="vaultd-scans-") as tmp:
        root = Path(tmp)
        (root / "pdfs").mkdir()
        (root / "tests").mkdir()
        pages = 0
        for pdf in chosen:
            pages += rasterise(pdf, root / "pdfs" / pdf.name, args.dpi)
            shutil.copy(src / "tests" / f"{pdf.stem}.tests.json", root / "tests")
        print(f"scan_eval: {len(chosen)} papers, {pages} pages rendered at {args.dpi} dpi", file=sys.stderr)
        cmd = [sys.executable, str(Path(__file__).with_name("compile_eval.py")), "--set", str(root), "--no-speed"]
        return subprocess.run([*cmd, "--json"] if args.json else cmd, check=False).returncode


if __name__ == "__main__":
    raise SystemExit(main())
