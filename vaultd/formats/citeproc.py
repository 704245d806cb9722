"""The CSL processor: pandoc's citeproc (the ``pandoc`` binary ``pypandoc-binary`` ships),
driven by ``vaultd/data/citeproc.lua``.

pandoc's citeproc passes the CSL test suite; one pandoc process renders any number of
works in any number of styles, so callers batch. Each work must come out as the one work
of its note (no year suffixes like ``2017a``, no reference numbers or repeated-author
dashes shared across works), so works are rendered together only in groups that share no
name; numeric styles render each work alone.

For every work and style the processor gives the reference-list entry (as Markdown for
notes and as plain text), the in-text citation, and the in-text citation with a page
locator, rendered with the sentinel page ``LOCATOR_SENTINEL`` that ``Rendering.cite``
replaces with a real page label.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
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
# Renderings per pandoc process before a batch is split over processes (start-up ≈ 0.1 s).
WORKS_PER_PROCESS = 40
# Works rendered in one reference list (they share no names; see independent_groups).
GROUP_SIZE = 100
# Changes whenever this module changes what a rendering is (part of the stored key).
RENDERING_VERSION = "2"


NO_ENTRY = "No reference-list entry in this style; cite it in the text"

# Obsidian reads more than CommonMark: %%comments%%, ==highlights==, $math$ and [[links]]
# would hide or restyle a title's characters. Escaped outside link targets.
_OBSIDIAN_RE = re.compile(r"(<https?://[^>]*>|\]\([^)]*\))|(%%|==|\$|\[\[)")
_OBSIDIAN_ESCAPES = {"%%": "\\%\\%", "==": "\\=\\=", "$": "\\$", "[[": "\\[\\["}


def obsidian_safe(markdown: str) -> str:
    """CommonMark from pandoc with the characters Obsidian would read as its own syntax
    backslash-escaped (link targets left alone)."""
    return _OBSIDIAN_RE.sub(lambda m: m.group(1) or _OBSIDIAN_ESCAPES[m.group(2)], markdown)
_SINGLE_PAGE_RE = re.compile(r"[^\W_]+")


def is_single_page(page: str) -> bool:
    """One page label (letters and digits only): the style prints it as it is, so the
    sentinel can stand in for it. Ranges ("4-5") and lists get the style's own form."""
    return bool(_SINGLE_PAGE_RE.fullmatch(page.strip()))


@dataclass(frozen=True, slots=True)
class Rendering:
    """One work in one style."""

    markdown: str  # reference-list entry, CommonMark (italics as *…*, <sub>/<sup> kept)
    text: str  # the same entry as plain text (what a word processor gets)
    intext: str  # in-text citation: "(Vaswani et al., 2017)", "[1]"
    intext_locator: str  # in-text citation with the sentinel page

    def cite(self, page: str | None = None) -> str:
        """The in-text citation, pointing at ``page`` if given: one printed page label
        (``4``, ``xii``, ``S3``); a range or list needs ``CitationRenderer.cite``."""
        if not page:
            return self.intext
        if not is_single_page(page):
            raise ValueError(f"{page!r} is not a single page label")
        return self.intext_locator.replace(LOCATOR_SENTINEL, page)

    def entry_markdown(self) -> str:
        """The entry as Markdown for Obsidian; a style that gives this kind of work no
        reference-list entry (Chicago cites encyclopedia entries in the text only) gets a
        line saying so."""
        return obsidian_safe(self.markdown) if self.markdown else f"*{NO_ENTRY}: {self.intext}*"

    def entry_text(self) -> str:
        """The entry as plain text, with the same line when the style gives none."""
        return self.text or f"{NO_ENTRY}: {self.intext}"

    def to_json(self) -> dict[str, str]:
        return {"markdown": self.markdown, "text": self.text, "intext": self.intext,
                "intext_locator": self.intext_locator}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rendering:
        # A style may give a work no reference-list entry (Chicago: encyclopedia entries).
        return cls(str(data.get("markdown", "")), str(data.get("text", "")),
                   str(data["intext"]), str(data["intext_locator"]))


def _lua_path() -> Path:
    return Path(str(resources.files("vaultd") / "data" / "citeproc.lua"))


def find_pandoc(explicit: str | None = None) -> Path:
    """The pandoc binary: ``explicit`` (``VAULTD_PANDOC``), else the one ``pypandoc-binary``
    ships, else ``pandoc`` on PATH."""
    candidates: list[str] = []
    if explicit:
        candidates.append(explicit)
    else:
        # The binary pypandoc-binary ships, found without importing pypandoc (whose import
        # pulls in an HTTP stack: a third of `vaultd cite`'s own time).
        spec = importlib.util.find_spec("pypandoc")
        if spec is not None and spec.origin:
            candidates.append(str(Path(spec.origin).parent / "files" / "pandoc"))
        found = shutil.which("pandoc")
        if found:
            candidates.append(found)
    for cand in candidates:
        if Path(cand).is_file() and os.access(cand, os.X_OK):
            return Path(cand)
    if explicit:
        raise CitationError(f"pandoc {explicit} (VAULTD_PANDOC or [citations] pandoc) not found "
                            "or not executable; fix the path or unset it to use vaultd's own")
    raise CitationError("pandoc (the citation processor) not found; reinstall vaultd with "
                        "`bash scripts/install.sh` or point VAULTD_PANDOC at a pandoc ≥ 3.1")


@cache
def filter_sha() -> str:
    """Hash of the Lua filter (part of the stored renderings' key)."""
    return hashlib.sha256(_lua_path().read_bytes()).hexdigest()[:16]


def _name_keys(item: dict[str, Any]) -> set[str]:
    """What makes two works' renderings depend on each other: the names they share (year
    suffixes, added initials, repeated-author dashes), or, without names, their title."""
    keys: set[str] = set()
    for value in item.values():
        if isinstance(value, list) and value and all(isinstance(n, dict) for n in value):
            for n in value:
                # The last word of the name as displayed: "van der Berg" with or without
                # its particle split off, "Berg", "World Health Organization" all meet
                # whatever form another record gives them (over-grouping is only slower).
                name = n.get("family") or n.get("literal") or n.get("given") or ""
                words = re.findall(r"\w+", str(name).casefold())
                keys.add("n:" + (words[-1] if words else ""))
    if not keys:
        keys.add("t:" + " ".join(str(item.get("title", "")).split()).casefold())
    return keys


def independent_groups(items: Sequence[dict[str, Any]],
                       max_size: int = GROUP_SIZE) -> list[list[dict[str, Any]]]:
    """Items in groups whose members share no name (nor, unnamed, a title), so rendering a
    group in one reference list gives each work exactly what it gets alone."""
    groups: list[tuple[list[dict[str, Any]], set[str]]] = []
    for item in items:
        keys = _name_keys(item)
        for members, used in groups:
            if len(members) < max_size and not keys & used:
                members.append(item)
                used |= keys
                break
        else:
            groups.append(([item], set(keys)))
    return [members for members, _ in groups]


@dataclass
class _Task:
    style: Style
    items: list[dict[str, Any]]


def _tasks(items: Sequence[dict[str, Any]], styles: Sequence[Style]) -> list[_Task]:
    grouped = independent_groups(items)
    tasks: list[_Task] = []
    for style in styles:
        # A numeric style numbers works in the order cited: each is rendered alone.
        groups = [[item] for item in items] if style.numeric else grouped
        tasks += [_Task(style, group) for group in groups]
    return tasks


def _run_tasks(pandoc: Path, tasks: Sequence[_Task], lang: str | None, locator: str,
               workdir: Path, n: int) -> dict[str, dict[str, Any]]:
    entries = []
    for i, task in enumerate(tasks):
        path = workdir / f"{n}-{i}.json"
        path.write_text(json.dumps(task.items, ensure_ascii=False), encoding="utf-8")
        entries.append({"style": task.style.name, "bibliography": str(path),
                        "ids": [str(item["id"]) for item in task.items],
                        "split": task.style.positional})
    job = workdir / f"{n}-job.json"
    out = workdir / f"{n}-out.json"
    styles = {t.style.name: str(t.style.path) for t in tasks}
    job.write_text(json.dumps({"styles": styles, "tasks": entries, "locator": locator,
                               "lang": lang}), encoding="utf-8")
    env = {**os.environ, "VAULTD_CITEPROC_JOB": str(job), "VAULTD_CITEPROC_OUT": str(out)}
    cmd = [str(pandoc), os.devnull, "--from", "markdown", "--to", "plain",
           "--lua-filter", str(_lua_path()), "--output", os.devnull]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env,
                              timeout=PANDOC_TIMEOUT_SECONDS, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        raise CitationError(f"citation processor failed to run ({pandoc}): {exc}") from exc
    if proc.returncode != 0 or not out.is_file():
        detail = " ".join(proc.stderr.split())[:300] or f"exit {proc.returncode}, no output"
        raise CitationError(f"citation processor {pandoc} failed: {detail}; it must be pandoc "
                            "≥ 3.1 (set VAULTD_PANDOC or [citations] pandoc, or reinstall vaultd)")
    data: dict[str, dict[str, Any]] = json.loads(out.read_text(encoding="utf-8"))
    return data


def _split(tasks: list[_Task], workers: int) -> list[list[_Task]]:
    """Tasks over ``workers`` processes, balanced by the number of works."""
    shares: list[list[_Task]] = [[] for _ in range(workers)]
    loads = [0] * workers
    for task in sorted(tasks, key=lambda t: -len(t.items)):
        i = loads.index(min(loads))
        shares[i].append(task)
        loads[i] += len(task.items) + 2  # + a call's own cost
    return [s for s in shares if s]


def render(items: Sequence[dict[str, Any]], styles: Sequence[Style], *,
           pandoc: Path | None = None, lang: str | None = None,
           processes: int | None = None,
           locator: str = LOCATOR_SENTINEL) -> dict[str, dict[str, Rendering]]:
    """``{style name: {item id: Rendering}}`` for every CSL item in every style.

    ``locator`` is the page the located in-text citation points at (the sentinel, which
    ``Rendering.cite`` replaces, unless a caller needs a page range rendered for real).
    Large batches are split over ``processes`` pandoc processes (default: one per CPU)."""
    if not items or not styles:
        return {s.name: {} for s in styles}
    exe = pandoc or find_pandoc()
    ids = [str(item["id"]) for item in items]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate item ids in one citation batch")
    tasks = _tasks(items, styles)
    calls = sum(len(t.items) for t in tasks)
    workers = processes or max(1, min(os.cpu_count() or 1, -(-calls // WORKS_PER_PROCESS)))
    shares = _split(tasks, workers)
    with tempfile.TemporaryDirectory(prefix="vaultd-citeproc-") as tmp:
        workdir = Path(tmp)
        with ThreadPoolExecutor(max_workers=len(shares)) as pool:
            results = list(pool.map(
                lambda ns: _run_tasks(exe, ns[1], lang, locator, workdir, ns[0]),
                enumerate(shares)))
    out: dict[str, dict[str, Rendering]] = {s.name: {} for s in styles}
    for result in results:
        for style_name, per in result.items():
            for item_id, data in per.items():
                if style_name in out:
                    out[style_name][item_id] = Rendering.from_json(data)
    for style in styles:
        missing = [i for i in ids if i not in out[style.name]]
        if missing:
            raise CitationError(f"citation processor gave no {style.name} entry for "
                                f"{', '.join(missing[:5])}")
    return out
