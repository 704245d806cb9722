"""A note the user wrote in Zotero (HTML) → Markdown, with markdownify (MIT; BeautifulSoup).

Zotero 6 and later store a note as HTML inside ``<div data-schema-version="N">``; a
highlight quoted into a note is a ``<span class="highlight" data-annotation="…">`` and a
citation a ``<span class="citation" data-citation="…">``: their text is kept, the JSON in
their attributes is not (it names Zotero's items, which the vault does not have). Headings
become ATX headings (``#``), lists use ``-``, emphasis ``*``. A note that is plain text
(RIS ``N1``, an older export) is kept as it is.

Pure.
"""

from __future__ import annotations

import re

_HTML = re.compile(r"<(?:[a-zA-Z][a-zA-Z0-9]*)(?:\s[^>]*)?/?>")
_BLANK_RUNS = re.compile(r"\n{3,}")


def is_html(text: str) -> bool:
    return bool(_HTML.search(text))


def note_markdown(note: str) -> str:
    """The note as Markdown: HTML converted, plain text as it is; no trailing blank lines."""
    if not note.strip():
        return ""
    if not is_html(note):
        return note.strip()
    # Loaded here: markdownify brings BeautifulSoup (≈ 0.35 s measured), which `vaultd
    # capture` and every compile would pay for through this package otherwise.
    # lazy: markdownify costs 142 ms at import
    from markdownify import markdownify

    md = markdownify(note, heading_style="ATX", bullets="-", strong_em_symbol="*",
                     escape_underscores=False, escape_misc=False)
    lines = [line.rstrip() for line in md.splitlines()]
    return _BLANK_RUNS.sub("\n\n", "\n".join(lines)).strip()
