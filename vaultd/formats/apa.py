"""APA 7th edition reference-list entries (the official apa.csl is the oracle)."""

from __future__ import annotations

from vaultd.formats._common import (
    Name,
    family_first,
    initials,
    italic,
    join,
    link,
    month_day,
    names,
    pages,
    period,
    title_case,
)
from vaultd.models import Work

MAX_AUTHORS = 20  # APA 7: up to 20; from 21 on, the first 19, an ellipsis, the last


def _author(n: Name) -> str:
    return family_first(n, initials(n.given))


def authors(work: Work) -> str:
    ns = [_author(n) for n in names(work.authors)]
    if not ns:
        return ""
    if len(ns) == 1:
        return ns[0]
    if len(ns) > MAX_AUTHORS:
        return ", ".join(ns[:19]) + ", … " + ns[-1]
    return ", ".join(ns[:-1]) + ", & " + ns[-1]


def _date(work: Work) -> str:
    d = work.issued
    if not d:
        return "(n.d.)"
    # Conference papers without volume or pages are presentations: dated to the day.
    presentation = work.type == "paper-conference" and not (work.volume or work.page)
    if (work.type in ("motion_picture", "webpage") or presentation) and len(d) >= 2:
        return f"({d[0]}, {month_day(d)})"
    return f"({d[0]})"


def render(work: Work) -> str:
    t = work.type
    title = work.title or ""
    in_container = t == "motion_picture" and bool(work.container_title)
    italic_title = (t in ("book", "thesis", "motion_picture", "article", "report") and not in_container) or (
        t in ("article-journal", "paper-conference") and not work.container_title
    )
    shown_title = italic(title) if italic_title else title
    # Bracketed description right after the title.
    bracket = ""
    if t == "thesis":
        bracket = join([work.genre or "", (work.publisher or "") if work.url or work.doi else ""], ", ")
    elif t == "motion_picture":
        bracket = work.genre or "Video recording"
    if bracket and work.authors:
        shown_title += f" [{bracket}]"
    if t == "article" and work.number:
        shown_title += f" ({work.number})"

    who = authors(work)
    date = _date(work)
    head = f"{period(who)} {date}." if who else f"{period(shown_title)} {date}."
    body: list[str] = [period(shown_title)] if who else []
    if bracket and not who:
        # Without an author the title leads and the description follows the date.
        body.append(f"[{bracket}].")

    if t in ("article-journal", "paper-conference") or (
        t not in ("book", "thesis", "motion_picture", "article", "report") and work.container_title
    ):
        src = italic(title_case(work.container_title or ""))
        if work.volume:
            src = join([src, italic(work.volume)], ", ")
            if work.issue:
                src += f"({work.issue})"
        elif work.issue:
            src = join([src, f"({work.issue})"], ", ")
        if work.page:
            src = join([src, pages(work.page, "expanded")], ", ")
        elif work.number:
            src = join([src, f"Article {work.number}"], ", ")
        if src:
            body.append(period(src))
    elif t == "thesis":
        if work.publisher and not (work.url or work.doi):
            body.append(period(work.publisher))
    else:
        if in_container:
            body.append(period("In " + italic(work.container_title or "")))
        if work.publisher:
            body.append(period(work.publisher))
    url = link(work)
    if url:
        body.append(url)
    return join([head, *body], " ")
