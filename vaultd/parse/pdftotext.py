"""Fallback tier: poppler's ``pdftotext``, one ``page`` chunk per page, no boxes."""

from __future__ import annotations

import subprocess
from pathlib import Path

from vaultd.errors import ParseError
from vaultd.parse.base import Block, ParsedDocument, ProgressFn
from vaultd.parse.hyphens import hyphen_evidence
from vaultd.parse.layout import LAYOUT_VERSION, join_lines

TIMEOUT_SECONDS = 120


def run_pdftotext(pdf: Path, *args: str) -> str:
    """``pdftotext [args] pdf -`` → text; ParseError on failure."""
    try:
        proc = subprocess.run(
            ["pdftotext", "-enc", "UTF-8", *args, str(pdf), "-"],
            capture_output=True,
            timeout=TIMEOUT_SECONDS,
            check=False,
        )
    except FileNotFoundError as exc:
        raise ParseError(f"{pdf}: pdftotext is not installed; install poppler-utils") from exc
    except subprocess.TimeoutExpired as exc:
        raise ParseError(f"{pdf}: pdftotext timed out; try --parser pymupdf") from exc
    if proc.returncode != 0:
        msg = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ParseError(f"{pdf}: pdftotext failed ({msg[-1] if msg else proc.returncode}); download it again")
    return proc.stdout.decode("utf-8", "replace")


def _version() -> str:
    try:
        proc = subprocess.run(["pdftotext", "-v"], capture_output=True, timeout=10, check=False)
    except (FileNotFoundError, subprocess.TimeoutExpired):
        return "unknown"
    first = (proc.stderr or proc.stdout).decode("utf-8", "replace").splitlines()
    return first[0].split()[-1] if first else "unknown"


class PdftotextParser:
    name = "pdftotext"

    @property
    def version(self) -> str:
        return f"{_version()}+layout{LAYOUT_VERSION}"

    def parse(self, pdf: Path, progress: ProgressFn | None = None) -> ParsedDocument:
        # lazy: vaultd.parse.pymupdf costs 81 ms at import (pulls in difflib)
        from vaultd.parse.pymupdf import open_pdf

        open_pdf(pdf).close()  # same clean errors for bad files as the default tier
        pages = run_pdftotext(pdf).split("\f")
        if pages and not pages[-1].strip():
            pages = pages[:-1]
        blocks: list[Block] = []
        with hyphen_evidence(line for page in pages for line in page.splitlines()):
            for i, page_text in enumerate(pages, start=1):
                text = join_lines(page_text.splitlines())
                if text.strip():
                    blocks.append(Block(type="page", text=text, page=i, section_token="0"))
                if progress:
                    progress(i, len(pages))
        return ParsedDocument(self.name, self.version, len(pages), blocks)
