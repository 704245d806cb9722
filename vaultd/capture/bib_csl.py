"""The CSL items of a ``.bib`` text as pandoc's biblatex reader reads them.

pandoc's reader (the one its citeproc uses) knows biblatex's whole data model: ``volumes``,
``maintitle`` and ``volume`` of multi-volume works, ``bookauthor``, ``and others``, date
ranges, ``origdate``, ``pagetotal`` … vaultd's own reading (vaultd/capture/bib.py) keeps
names, case protection, math and identifiers as the file means them; this module adds
every CSL variable pandoc found that the own reading has no value for, so no field a CSL
variable exists for is lost.
"""

from __future__ import annotations

import json
import logging
import re
import subprocess
from pathlib import Path
from typing import Any

from vaultd.errors import InputError
from vaultd.formats.citeproc import find_pandoc
from vaultd.models import Author, Work

log = logging.getLogger(__name__)

# The biblatex fields (and name lists, and date ranges) that fill a variable the own
# reading lacks: only a file holding one of them is worth a pandoc process (~60 ms).
NEEDS_PANDOC_RE = re.compile(
    r"\b(?:volumes|maintitle|mainsubtitle|bookauthor|orig(?:date|year|title|publisher|"
    r"location|language)|pagetotal|chapter|part|eventdate|editor[abc]|editor[abc]?type|"
    r"annotator|commentator|introduction|foreword|afterword|library|shelfmark|"
    r"archiveprefix|eprinttype|reviewed\w*|crossref|xdata)\s*="
    r"|\band\s+others\b|\bdate\s*=\s*[{\"][^}\"]*/"
    r"|\b(?:author|editor)\s*=\s*[{\"][^\n]*\s(?-i:AND)\s",  # names split by a capital AND
    re.IGNORECASE)

PANDOC_TIMEOUT_SECONDS = 60
# pandoc's variables that carry no citation data (notes to self, tags) or that vaultd
# reads itself under another name (pandoc's "event" is CSL 1.0.1's event-title).
_SKIPPED = frozenset({"id", "type", "annote", "keyword", "note", "title-short", "event",
                      "citation-key", "DOI", "issued"})
# CSL 1.0.2 variables that biblatex fields fill and vaultd's own reading has no field for
# (the variables it does read, such as issue or container-title, stay its own: pandoc
# fills some of them from other fields, e.g. a @periodical's title as its container).
_FIELDS = {"title": "title", "container-title": "container_title", "volume": "volume"}
_CSL_VARIABLES = frozenset({
    "archive", "archive_location", "authority", "chapter-number", "collection-editor",
    "container-author", "editorial-director", "event-date", "illustrator", "jurisdiction",
    "number-of-pages", "number-of-volumes", "original-author", "original-date",
    "original-publisher", "original-publisher-place", "original-title", "part-number",
    "reviewed-author", "reviewed-title", "section", "volume-title"})


def pandoc_items(text: str, source: str, pandoc: Path | None = None) -> dict[str, dict[str, Any]]:
    """Key → CSL item of every entry pandoc reads in ``text`` (biblatex dialect, which
    reads classic BibTeX too). A file pandoc cannot read whole (a syntax error that
    bibtexparser reports entry by entry) gives none: the own reading stands alone. A file
    with no field that fills a variable of ``_CSL_VARIABLES`` is not sent at all."""
    if not NEEDS_PANDOC_RE.search(text):
        return {}
    binary = pandoc or find_pandoc()
    try:
        proc = subprocess.run([str(binary), "-f", "biblatex", "-t", "csljson"], input=text,
                              capture_output=True, text=True, timeout=PANDOC_TIMEOUT_SECONDS,
                              check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InputError(f"cannot read {source}: pandoc failed ({exc}); check VAULTD_PANDOC")\
            from exc
    if proc.returncode != 0:
        log.info("%s: pandoc's reader refused the file (%s); vaultd's own reading only",
                 source, (proc.stderr.strip().splitlines() or ["no message"])[-1])
        return {}
    items = json.loads(proc.stdout or "[]")
    return {str(i["id"]): i for i in items if isinstance(i, dict) and i.get("id")}


def work_from_item(item: dict[str, Any], own: Work) -> Work:
    """vaultd's own reading of an entry (``own``: names with their particles and braces,
    case protection, math, DOIs, arXiv ids), completed with every CSL variable pandoc's
    reader found that the own reading has no value for (``number-of-volumes``,
    ``volume-title``, ``container-author``, a date range, ``and others`` …).

    pandoc's CSL-JSON output is not used for what vaultd reads itself: it drops the case
    protection of braced words and turns particles and math into other forms than pandoc's
    own citeproc reads from the same file."""
    have = own.to_csl("_")
    extra: dict[str, Any] = {}
    for variable, value in item.items():
        if variable in _SKIPPED or variable in have or value in (None, "", [], {}):
            continue
        if variable not in _CSL_VARIABLES:
            continue
        extra[variable] = value
    issued = item.get("issued") or {}
    if len(issued.get("date-parts") or []) > 1 or "literal" in issued:
        extra["issued"] = issued  # a range ("1984/1986") or a date only pandoc could read
    updates: dict[str, Any] = _with_others(item, own)
    if "volume-title" in item:
        # One volume of a multi-volume work: pandoc's title is the whole work's
        # (maintitle) and volume-title the volume's; the two go together.
        for variable in ("title", "container-title", "volume"):
            if isinstance(item.get(variable), str):
                updates[_FIELDS[variable]] = item[variable]
        updates["title_rich"] = None
        updates["rich"] = {k: v for k, v in own.rich.items() if k != "container-title"}
    preprint = own.arxiv_id is not None and own.type == "article"
    if not own.url and not preprint and isinstance(item.get("URL"), str):
        # built from eprint/eprinttype (arXiv, HAL, …); an arXiv preprint gets its links
        # from formats/csl (the abstract page and arXiv's DOI)
        updates["url"] = item["URL"]
    if not extra and not updates:
        return own
    return own.model_copy(update={"csl_extra": {**own.csl_extra, **extra}, **updates})


def _with_others(item: dict[str, Any], own: Work) -> dict[str, list[Author]]:
    """Name lists pandoc read better: ``and others`` kept (pandoc reads it as a name
    "others", which its citeproc prints as "et al."; the own reading drops it), and a list
    the own reading could not split (``AND`` in capitals, names in other scripts) taken
    from pandoc when it found more names."""
    out: dict[str, list[Author]] = {}
    for role, field in (("author", "authors"), ("editor", "editors")):
        theirs = [n for n in item.get(role) or [] if isinstance(n, dict)]
        mine: list[Author] = getattr(own, field)
        others = bool(theirs) and theirs[-1] == {"literal": "others"}
        named = theirs[:-1] if others else theirs
        if len(named) > len(mine):
            mine = [Author.model_validate(n) for n in named]
        if others:
            mine = [*mine, Author(literal="others")]
        if mine != getattr(own, field):
            out[field] = mine
    return out
