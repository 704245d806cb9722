"""MLA 9th edition works-cited entries (modern-language-association.csl is the oracle)."""

from __future__ import annotations

from vaultd.formats._common import (
    MONTHS_SHORT,
    date_text,
    family_first,
    given_first,
    italic,
    join,
    link,
    names,
    page_label,
    period,
    quoted,
    title_case,
)
from vaultd.models import Work


def authors(work: Work) -> str:
    ns = names(work.authors)
    if not ns:
        return ""
    first = family_first(ns[0], ns[0].given)
    if len(ns) == 1:
        return first
    if len(ns) == 2:
        return f"{first}, and {given_first(ns[1], ns[1].given)}"
    return f"{first}, et al."


def _date(work: Work, *, with_day: bool) -> str:
    return date_text(work.issued, MONTHS_SHORT, "{day} {month} {year}" if with_day else None)


def render(work: Work) -> str:
    t = work.type
    title = title_case(work.title or "")
    head = period(authors(work))
    url = link(work)
    standalone = t == "article-journal" and not work.container_title
    if t in ("book", "thesis", "report") or (t == "motion_picture" and not work.container_title):
        parts = [period(italic(title))]
        if t == "thesis":
            parts.append(period(join([str(work.year or ""), url], ", ")))
            parts.append(period(join([work.publisher or "", work.genre or ""], ", ")))
        elif t == "motion_picture":
            if work.genre:
                parts.append(period(work.genre))
            year = str(work.year) if work.year else ""
            parts.append(period(join([work.publisher or "", year, url], ", ")))
        else:
            year = str(work.year) if work.year else ""
            pub = work.publisher or work.publisher_place or ""
            parts.append(period(join([pub, year, url], ", ")))
        return join([head, *parts], " ")
    container: list[str] = []
    if t == "article":
        container = [work.number or "", work.publisher or "", _date(work, with_day=True)]
    elif t == "motion_picture":
        container = [italic(title_case(work.container_title or "")), work.publisher or ""]
        container.append(str(work.year) if work.year else "")
    else:
        container = [italic(title_case(work.container_title or ""))]
        if t == "paper-conference" and work.publisher_place:
            container[0] = join([container[0], f"[{work.publisher_place}]"], " ")
        if work.volume:
            container.append(f"vol. {work.volume}")
        if work.issue:
            container.append(f"no. {work.issue}")
        if work.number:
            container.append(f"no. {work.number}")
        if t == "article-journal":
            container.append(_date(work, with_day=False))
        elif work.year:
            container.append(str(work.year))
        if work.page:
            container.append(page_label(work.page, "minimal-two"))
    container.append(url)
    genre = period(work.genre or "") if t == "motion_picture" else ""
    shown = period(italic(title)) if standalone else quoted(title, ".")
    return join([head, shown, genre, period(join(container, ", "))], " ")
