"""The CSL processor: pandoc's citeproc (the ``pandoc`` binary ``pypandoc-binary`` ships),
driven by ``vaultd/data/citeproc.lua``.

pandoc's citeproc passes the CSL test suite; one pandoc process renders any number of
works in any number of styles (≈ 0.2 s for one work in four styles, ≈ 12 ms per further
work and style), so callers batch. Each work is rendered on its own, as the one work of
its note: there are no year suffixes (``2017a``) or reference numbers shared across works.

For every work and style the processor gives the reference-list entry (as Markdown for
notes and as plain text), the in-text citation, and the in-text citation with a page
locator, rendered with the sentinel page ``LOCATOR_SENTINEL`` that ``Rendering.cite``
replaces with a real page label.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from vaultd.errors import CitationError
from vaultd.formats.styles import Style

LOCATOR_SENTINEL = "987654321"
PANDOC_TIMEOUT_SECONDS = 600.0
# Works per pandoc process when a batch is split over processes (start-up ≈ 0.1 s).
WORKS_PER_PROCESS = 40


@dataclass(frozen=True, slots=True)
class Rendering:
    """One work in one style."""

    markdown: str  # reference-list entry, CommonMark (italics as *…*, <sub>/<sup> kept)
    text: str  # the same entry as plain text (what a word processor gets)
    intext: str  # in-text citation: "(Vaswani et al., 2017)", "[1]"
    intext_locator: str  # in-text citation with the sentinel page

    def cite(self, page: str | None = None) -> str:
        """The in-text citation, pointing at ``page`` (a printed page label) if given."""
        if not page:
            return self.intext
        return self.intext_locator.replace(LOCATOR_SENTINEL, page)

    def to_json(self) -> dict[str, str]:
        return {"markdown": self.markdown, "text": self.text, "intext": self.intext,
                "intext_locator": self.intext_locator}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rendering:
        return cls(str(data["markdown"]), str(data["text"]), str(data["intext"]),
                   str(data["intext_locator"]))


def _lua_path() -> Path:
    return Path(str(resources.files("vaultd") / "data" / "citeproc.lua"))


def find_pandoc(explicit: str | None = None) -> Path:
    """The pandoc binary: ``explicit`` (``VAULTD_PANDOC``), else the one ``pypandoc-binary``
    ships, else ``pandoc`` on PATH."""
    candidates: list[str] = []
    if explicit:
        candidates.append(explicit)
    else:
        try:
            import pypandoc

            candidates.append(str(Path(pypandoc.__file__).parent / "files" / "pandoc"))
        except ImportError:
            pass
        found = shutil.which("pandoc")
        if found:
            candidates.append(found)
    for cand in candidates:
        if Path(cand).is_file() and os.access(cand, os.X_OK):
            return Path(cand)
    raise CitationError("pandoc (the citation processor) not found; reinstall vaultd with "
                        "`bash scripts/install.sh` or point VAULTD_PANDOC at a pandoc ≥ 3.1")


@cache
def filter_sha() -> str:
    """Hash of the Lua filter (part of the stored renderings' key)."""
    return hashlib.sha256(_lua_path().read_bytes()).hexdigest()[:16]


def _run_batch(pandoc: Path, items: Sequence[dict[str, Any]], styles: Sequence[Style],
               lang: str | None, workdir: Path, n: int) -> dict[str, dict[str, Any]]:
    paths = []
    for i, item in enumerate(items):
        path = workdir / f"{n}-{i}.json"
        path.write_text(json.dumps([item], ensure_ascii=False), encoding="utf-8")
        paths.append({"id": str(item["id"]), "path": str(path)})
    job = workdir / f"{n}-job.json"
    out = workdir / f"{n}-out.json"
    job.write_text(json.dumps({
        "styles": [{"name": s.name, "path": str(s.path)} for s in styles],
        "items": paths, "locator": LOCATOR_SENTINEL, "lang": lang,
    }), encoding="utf-8")
    env = {**os.environ, "VAULTD_CITEPROC_JOB": str(job), "VAULTD_CITEPROC_OUT": str(out)}
    cmd = [str(pandoc), os.devnull, "--from", "markdown", "--to", "plain",
           "--lua-filter", str(_lua_path()), "--output", os.devnull]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env,
                              timeout=PANDOC_TIMEOUT_SECONDS, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        raise CitationError(f"citation processor failed to run ({pandoc}): {exc}") from exc
    if proc.returncode != 0 or not out.is_file():
        detail = " ".join(proc.stderr.split())[:300] or f"exit {proc.returncode}"
        raise CitationError(f"citation processor failed: {detail}")
    data: dict[str, dict[str, Any]] = json.loads(out.read_text(encoding="utf-8"))
    return data


def render(items: Sequence[dict[str, Any]], styles: Sequence[Style], *,
           pandoc: Path | None = None, lang: str | None = None,
           processes: int | None = None) -> dict[str, dict[str, Rendering]]:
    """``{style name: {item id: Rendering}}`` for every CSL item in every style.

    Large batches are split over ``processes`` pandoc processes (default: one per CPU)."""
    if not items or not styles:
        return {s.name: {} for s in styles}
    exe = pandoc or find_pandoc()
    ids = [str(item["id"]) for item in items]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate item ids in one citation batch")
    workers = processes or max(1, min(os.cpu_count() or 1, -(-len(items) // WORKS_PER_PROCESS)))
    size = -(-len(items) // workers)
    batches = [items[i : i + size] for i in range(0, len(items), size)]
    with tempfile.TemporaryDirectory(prefix="vaultd-citeproc-") as tmp:
        workdir = Path(tmp)
        with ThreadPoolExecutor(max_workers=len(batches)) as pool:
            results = list(pool.map(
                lambda nb: _run_batch(exe, nb[1], styles, lang, workdir, nb[0]),
                enumerate(batches)))
    out: dict[str, dict[str, Rendering]] = {s.name: {} for s in styles}
    for result in results:
        for style_name, per in result.items():
            for item_id, data in per.items():
                out[style_name][item_id] = Rendering.from_json(data)
    for style in styles:
        missing = [i for i in ids if i not in out[style.name]]
        if missing:
            raise CitationError(f"citation processor gave no {style.name} entry for "
                                f"{', '.join(missing[:5])}")
    return out
