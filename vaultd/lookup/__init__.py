"""The citation and lookup service: cite, quote, bibliography and recall over a vault, for
every interface (``vaultd cite``/``quote``/``bib``/``search`` and the MCP tools are thin
callers). It reads records through the record store, notes through ``notes``, passages
through ``index``; it renders with the vault's ``CitationRenderer``, which callers pass in
(``pipeline.citations.renderer_for`` builds it from the vault's settings).

- ``keys``: the record of a key, unknown keys with suggestions;
- ``citing``: one citation or a bibliography in any style, BibTeX or CSL-JSON, with labels;
- ``quoting``: a chunk's verbatim, hash-checked text with its locator and citation;
- ``recall``: hybrid search answered as hits, keyword-only when embeddings are down;
- ``times``: a time in a video as a reader writes it.
"""

from vaultd.lookup.citing import (
    BIBTEX,
    CSL_JSON,
    Bibliography,
    Citation,
    bibliography,
    bibliography_of,
    checked_page,
    citation,
    cite,
    no_citation_hint,
)
from vaultd.lookup.keys import UnknownKeyError, known_works, load_meta, suggest
from vaultd.lookup.quoting import QUOTE_CONTRACT, quote
from vaultd.lookup.times import parse_time

__all__ = [
    "BIBTEX",
    "CSL_JSON",
    "QUOTE_CONTRACT",
    "Bibliography",
    "Citation",
    "UnknownKeyError",
    "bibliography",
    "bibliography_of",
    "checked_page",
    "citation",
    "cite",
    "known_works",
    "load_meta",
    "no_citation_hint",
    "parse_time",
    "quote",
    "suggest",
]
