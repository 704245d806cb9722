"""Chicago Manual of Style 17th edition, author-date reference lists
(chicago-author-date-17th-edition.csl is the oracle)."""

from __future__ import annotations

from vaultd.formats._common import (
    MONTHS,
    Name,
    date_text,
    given_first,
    italic,
    join,
    link,
    month_day,
    names,
    pages,
    period,
    place_publisher,
    quoted,
    title_case,
)
from vaultd.models import Work

ET_AL_MIN = 11  # 11 or more authors: the first 7, then "et al."
ET_AL_FIRST = 7


def _first(n: Name) -> str:
    # The first author is inverted with the particle demoted: "Maaten, Laurens van der".
    if n.literal is not None:
        return n.literal
    given = join([n.given, n.dropping, n.particle], " ")
    out = n.family + (", " + given if given else "")
    return out + (", " + n.suffix if n.suffix else "")


def authors(work: Work) -> str:
    ns = names(work.authors)
    if not ns:
        return ""
    shown = [_first(ns[0])] + [given_first(n, n.given) for n in ns[1:]]
    if len(shown) == 1:
        return shown[0]
    if len(shown) >= ET_AL_MIN:
        return ", ".join(shown[:ET_AL_FIRST]) + ", et al."
    return ", ".join(shown[:-1]) + ", and " + shown[-1]


def render(work: Work) -> str:
    t = work.type
    title = title_case(work.title or "")
    year = str(work.year) if work.year else "n.d."
    who = authors(work)
    italic_title = t in ("book", "report") or (
        t in ("motion_picture", "article-journal") and not work.container_title
    )
    shown_title = period(italic(title)) if italic_title else quoted(title, ".")
    parts: list[str] = [f"{period(who)} {period(year)}" if who else f"{shown_title} {period(year)}"]
    if who:
        parts.append(shown_title)
    if t in ("article-journal", "paper-conference"):
        src = italic(title_case(work.container_title or ""))
        if t == "paper-conference" and work.publisher_place:
            src = join([src, f"({work.publisher_place})"], " ")
        page = pages(work.page, "chicago-16") if work.page else (work.number or "")
        if work.volume:
            src = join([src, work.volume], " ")
            if work.issue:
                src += f" ({work.issue})"
            elif work.issued:
                src += f" ({_long_date(work.issued[:2])})"
            if page:
                src += f": {page}"
        elif t == "paper-conference" or not work.issue:
            # A journal article with nothing but a DOI is an online-first article.
            ahead = (
                "ahead of print"
                if t == "article-journal" and not page and work.doi and work.issued
                else ""
            )
            src = join([src, ahead, _long_date(work.issued or []), page], ", ")
        elif work.issue:
            src = join([src, f"({work.issue})"], " ") + (f": {page}" if page else "")
        elif page:
            src = f"{src}, {page}" if src else page
        parts.append(period(src))
    elif t == "article":
        parts.append(period(work.number or ""))
        d = work.issued or []
        when = month_day(d) if len(d) >= 2 else ""
        parts.append(period(join(["Preprint", work.publisher or "", when], ", ")))
    elif t == "thesis":
        parts.append(period(join([work.genre or "", work.publisher or ""], ", ")))
    elif t == "book":
        parts.append(period(place_publisher(work)))
    else:
        if work.genre:
            parts.append(period(work.genre))
        if work.container_title:
            parts.append(period(italic(title_case(work.container_title))))
        parts.append(period(work.publisher or ""))
    url = link(work)
    if url:
        parts.append(period(url))
    return join(parts, " ")


def _long_date(d: list[int]) -> str:
    """'April 5, 2003', 'November 2020', '2001' (the date Chicago puts in a source
    that lacks volume or issue)."""
    return date_text(d, MONTHS, "{month} {day}, {year}")
