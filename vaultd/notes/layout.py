"""The note format's markers, headings and field lists, shared by rendering
(``notes/markdown``) and parsing (``notes/reader``); docs/note-format.md describes them."""

from __future__ import annotations

import re

from vaultd.formats.styles import LABELS
from vaultd.models import NoteMeta, Provenance

CITATIONS_BEGIN = "<!-- vaultd:citations -->"
CITATIONS_END = "<!-- /vaultd:citations -->"
QUOTES_BEGIN = "<!-- vaultd:quotes -->"
QUOTES_END = "<!-- /vaultd:quotes -->"
CHUNK_END = "<!-- /chunk -->"
CHUNK_BEGIN_RE = re.compile(r"<!-- chunk id=(\S+) -->")
YAML_FENCE_RE = re.compile(r"(`{3,})yaml")
MY_NOTES_BLOCK = "## My notes\n\n"
ADVISORY = "_(LLM, advisory)_ "


#: The citations region's heading of each style (the styles' own labels, and BibTeX).
STYLE_HEADINGS = {**LABELS, "bibtex": "BibTeX"}
HEADING_STYLES = {v: k for k, v in STYLE_HEADINGS.items()}
OPTIONAL_FLAGS = frozenset({"retracted", "notices"})  # written only when set
PROVENANCE_FIELDS = tuple(Provenance.model_fields)
CHUNK_EXTRAS = ("figure", "markdown", "refs", "linked_notes", "enrichment", "enrichment_note",
                 "key_sentence", "highlights")
META_FIELDS = frozenset(NoteMeta.model_fields)
USER_HEADING_RE = re.compile(r"#{1,2} ")


def fence(body: str, info: str) -> str:
    """A code fence longer than any backtick run inside ``body`` (CommonMark rule)."""
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{info}\n{body}{'' if body.endswith(chr(10)) or not body else chr(10)}{ticks}\n"

#: Provenance fields that repeat from chunk to chunk: in a note, each is written only
#: where it changes from the chunk before (the first chunk compares with null).
CARRIED = ("section", "parser", "transcript", "page_label_source", "page_label_status")
#: The chunk type written only when it is not this one.
USUAL_TYPE = "paragraph"
#: The folded callout that holds a chunk's LLM text (only when there is some).
ADVISORY_CALLOUT = "> [!note]- LLM notes (advisory, not the authors' words)"
