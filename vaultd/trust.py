"""How much a work's metadata can be trusted, in words every interface prints the same way.

A work is *verified* when its title, first author and year were confirmed by two sources
(the reconciler's ``reconciled``), or when each of them was either confirmed by two sources
or entered by the user (``vaultd meta``). Otherwise every citation of it is labelled. The
fields the user entered are labelled "entered by you". A work with a retraction or
withdrawal notice is labelled as retracted wherever it is named. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from vaultd.models import MetaFile, Notice

_SOURCE_NAMES = {"pdf": "the PDF", "pdf-layout": "the PDF's first page", "bib": "a .bib file",
                 "crossref": "CrossRef", "openalex": "OpenAlex", "arxiv": "arXiv",
                 "unpaywall": "Unpaywall", "youtube": "YouTube", "manual": "the user",
                 "user": "you"}
_KIND_WORDS = {"retraction": "Retraction", "withdrawal": "Withdrawal",
               "correction": "Correction", "erratum": "Erratum",
               "expression_of_concern": "Expression of concern", "addendum": "Addendum",
               "other": "Notice"}


#: The fields a citation must get right, as a record names them (title, first author, year).
CORE_FIELDS = ("title", "authors", "issued")
#: How the reconciler's warnings name a disagreement, and how a label says it.
_DISAGREEMENTS = (("title:", "title"), ("first author:", "first author"), ("year:", "year"))
ENTERED = "ENTERED BY YOU"


def unverified_label(sources: Sequence[str], warnings: Sequence[str] = ()) -> str:
    """'UNVERIFIED (from the PDF only)': the one-line label of an unconfirmed record.
    "they do not agree" is said only when the reconciler's ``warnings`` report that the
    sources disagree on the title, first author or year, and names which."""
    names = [_SOURCE_NAMES.get(s, s) for s in dict.fromkeys(sources) if s != "user"]
    fields = [word for prefix, word in _DISAGREEMENTS
              if any(w.startswith(prefix) for w in warnings)]
    if not names:
        return "UNVERIFIED (no source confirmed it)"
    if fields and len(names) > 1:
        return (f"UNVERIFIED (from {', '.join(names)}; they do not agree on the "
                f"{_and(fields)})")
    if len(names) == 1:
        return f"UNVERIFIED (from {names[0]} only)"
    return f"UNVERIFIED (from {', '.join(names)}; not confirmed by two independent sources)"


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def entered_label(fields: Sequence[str]) -> str:
    """'ENTERED BY YOU (title, year)': the fields of a record the user entered."""
    return f"{ENTERED} ({', '.join(fields)})"


def record_verified(meta: MetaFile) -> bool:
    """Title, first author and year each confirmed by two sources or entered by the user
    (a work without authors or year has nothing there to confirm once the user has
    entered its other fields)."""
    if meta.reconciled:
        return True
    if not meta.user or not meta.work.title:
        return False
    for name in CORE_FIELDS:
        if name in meta.user or name in meta.agreed:
            continue
        if name != "title" and not getattr(meta.work, name):
            continue
        return False
    return True


def record_labels(meta: MetaFile, entered: Sequence[str]) -> list[str]:
    """Every label a citation of this record carries: retracted, unverified, and the
    fields entered by the user (``entered``: their names, as `vaultd meta` spells them)."""
    out = citation_warnings(reconciled=record_verified(meta), sources=meta.sources,
                            retracted=meta.work.retracted, notices=meta.work.notices,
                            warnings=meta.warnings)
    if entered:
        out.append(entered_label(entered))
    return out


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
                      notices: Sequence[Notice], warnings: Sequence[str] = ()) -> list[str]:
    """The warnings a citation of this work must carry, most serious first."""
    out: list[str] = []
    if retracted:
        out.append(retracted_label(notices))
    if not reconciled:
        out.append(unverified_label(sources, warnings))
    return out


#: Longest warning shown in a note's frontmatter (the record keeps the whole text).
WARNING_CHARS = 160
_URL_RE = re.compile(r"https?://([^/\s]+)\S*")


def short_warning(text: str) -> str:
    """A warning as a note's frontmatter shows it: one line, each URL cut to its host
    (``https://doi.org/10.1/x`` → ``doi.org``), at most ``WARNING_CHARS`` characters."""
    line = " ".join(_URL_RE.sub(r"\1", text).split())
    return line if len(line) <= WARNING_CHARS else line[: WARNING_CHARS - 1].rstrip() + "…"
