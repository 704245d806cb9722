"""IEEE reference entries (ieee.csl, IEEE Reference Guide 11.29.2023, is the oracle).

The numeric label ("[1] ") belongs to a reference list, not to one work, so it is left
out."""

from __future__ import annotations

from vaultd.formats._common import (
    MONTHS_IEEE,
    Name,
    date_text,
    given_first,
    initials,
    italic,
    join,
    names,
    page_label,
    place_publisher,
    quoted,
)
from vaultd.models import Work

ET_AL_MIN = 7  # up to 6 authors are listed; 7 or more: the first, then "et al."


def _author(n: Name) -> str:
    return given_first(n, initials(n.given))


def authors(work: Work) -> str:
    ns = [_author(n) for n in names(work.authors)]
    if not ns:
        return ""
    if len(ns) >= ET_AL_MIN:
        return f"{ns[0]} *et al.*"
    if len(ns) == 1:
        return ns[0]
    if len(ns) == 2:
        return f"{ns[0]} and {ns[1]}"
    return ", ".join(ns[:-1]) + ", and " + ns[-1]


def _date(work: Work, *, with_day: bool) -> str:
    return date_text(work.issued, MONTHS_IEEE, "{month} {day:02d}, {year}" if with_day else None)


def _tail(body: str, work: Work, *, sep: str) -> str:
    """DOI ('doi: …' ends the entry with a period) or URL ('Available: …', no period)."""
    link = bool(work.doi or work.url)
    if body.endswith(",” "):
        # Nothing followed the quoted title. ieee.csl closes it ('“T.”') for preprints,
        # theses and link-less entries; otherwise the link follows its comma.
        if work.type in ("article", "thesis") or not link:
            body = body[:-3] + ("”" if body[-4:-3] in ".?!" else ".”")
            if not link:
                return body
        else:
            body = body[:-1]
        sep = " "
    if work.doi:
        return f"{body}{sep}doi: {work.doi}."
    if work.url:
        return f"{body}{sep}Available: {work.url}"
    return body + "."


def render(work: Work) -> str:
    t = work.type
    who = authors(work)
    title = work.title or ""
    if t in ("book", "motion_picture", "report"):
        if t == "motion_picture":
            date = _date(work, with_day=True)
            first = join([who, italic(title)], ", ")
            if date:
                return _tail(f"{first}, ({date})", work, sep=". ")
            return _tail(first, work, sep=". ")
        pub = place_publisher(work)
        first = join([who, italic(title)], ", ")
        rest = join([pub, str(work.year or "")], ", ")
        return _tail(f"{first}. {rest}" if rest else first, work, sep=". ")
    lead = join([who, quoted(title, ",")], ", ")
    if t == "article":
        body = join([_date(work, with_day=True), italic(work.publisher or "")], ", ")
        if work.number:
            body += f": {work.number}"
        return _tail(f"{lead} {body}", work, sep=". ")
    if t == "thesis":
        body = join([work.genre or "", work.publisher or "", str(work.year or "")], ", ")
        return _tail(f"{lead} {body}", work, sep=". ")
    if t == "paper-conference":
        body = join(
            [
                "in " + italic(work.container_title) if work.container_title else "",
                place_publisher(work),
                _date(work, with_day=False),
                _pp(work),
            ],
            ", ",
        )
        # With nothing after the proceedings title, the link follows a comma.
        bare = not (place_publisher(work) or work.issued or work.page)
        return _tail(f"{lead} {body}", work, sep=", " if bare else ". ")
    fields = [
        italic(work.container_title or ""),
        f"vol. {work.volume}" if work.volume else "",
        f"no. {work.issue}" if work.issue else "",
        _pp(work) or (f"Art. no. {work.number}" if work.number else ""),
        _date(work, with_day=False),
    ]
    return _tail(f"{lead} " + join(fields, ", "), work, sep=", ")


def _pp(work: Work) -> str:
    return page_label(work.page, "expanded") if work.page else ""
