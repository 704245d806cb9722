"""How much a work's metadata can be trusted, in words every interface prints the same way.

A work is *verified* when its title, first author and year were confirmed by two sources
(the reconciler's ``reconciled``). Otherwise every citation of it is labelled. A work with
a retraction or withdrawal notice is labelled as retracted wherever it is named. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from vaultd.models import Notice

_SOURCE_NAMES = {"pdf": "the PDF", "pdf-layout": "the PDF's first page", "bib": "a .bib file",
                 "crossref": "CrossRef", "openalex": "OpenAlex", "arxiv": "arXiv",
                 "unpaywall": "Unpaywall", "youtube": "YouTube", "manual": "the user"}
_KIND_WORDS = {"retraction": "Retraction", "withdrawal": "Withdrawal",
               "correction": "Correction", "erratum": "Erratum",
               "expression_of_concern": "Expression of concern", "addendum": "Addendum",
               "other": "Notice"}


def unverified_label(sources: Sequence[str]) -> str:
    """'UNVERIFIED (from the PDF only)': the one-line label of an unconfirmed record."""
    names = [_SOURCE_NAMES.get(s, s) for s in dict.fromkeys(sources)]
    if not names:
        return "UNVERIFIED (no source confirmed it)"
    if len(names) == 1:
        return f"UNVERIFIED (from {names[0]} only)"
    return f"UNVERIFIED (from {', '.join(names)}; they do not agree)"


def notice_line(notice: Notice) -> str:
    """'Retraction: https://doi.org/10.x/y (crossref, 2021-03-04)'."""
    what = _KIND_WORDS.get(notice.kind, "Notice")
    where = f"https://doi.org/{notice.doi}" if notice.doi else "no DOI"
    when = "-".join(f"{p:02d}" if i else str(p) for i, p in enumerate(notice.date or []))
    detail = ", ".join(x for x in (notice.source, when) if x)
    return f"{what}: {where} ({detail})"


def retracted_label(notices: Sequence[Notice]) -> str:
    """'RETRACTED (Retraction: https://doi.org/…)': the label of a retracted work."""
    hard = [n for n in notices if n.kind in ("retraction", "withdrawal")]
    return "RETRACTED" + (f" ({notice_line(hard[0])})" if hard else "")


def citation_warnings(*, reconciled: bool, sources: Sequence[str], retracted: bool,
                      notices: Sequence[Notice]) -> list[str]:
    """The labels a citation of this work must carry, most serious first."""
    out: list[str] = []
    if retracted:
        out.append(retracted_label(notices))
    if not reconciled:
        out.append(unverified_label(sources))
    return out


#: Longest warning shown in a note's frontmatter (the record keeps the whole text).
WARNING_CHARS = 160
_URL_RE = re.compile(r"https?://([^/\s]+)\S*")


def short_warning(text: str) -> str:
    """A warning as a note's frontmatter shows it: one line, each URL cut to its host
    (``https://doi.org/10.1/x`` → ``doi.org``), at most ``WARNING_CHARS`` characters."""
    line = " ".join(_URL_RE.sub(r"\1", text).split())
    return line if len(line) <= WARNING_CHARS else line[: WARNING_CHARS - 1].rstrip() + "…"
