"""Shared pieces of the citation styles: the normalised view of a Work, names, dates,
page ranges, title case and punctuation joining. Pure and dependency-free, because a
note renders all five styles and this must stay far below a millisecond per item."""

from __future__ import annotations

import re
from dataclasses import dataclass

from vaultd.models import Author, Work

MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)
# CSL en-US short month terms (MLA, Chicago); IEEE overrides three of them.
MONTHS_SHORT = (
    "Jan.", "Feb.", "Mar.", "Apr.", "May", "June",
    "July", "Aug.", "Sept.", "Oct.", "Nov.", "Dec.",
)
MONTHS_IEEE = (
    "Jan.", "Feb.", "Mar.", "Apr.", "May", "Jun.",
    "Jul.", "Aug.", "Sep.", "Oct.", "Nov.", "Dec.",
)

ARXIV_DOI_PREFIX = "10.48550/arXiv."


def normalise(work: Work) -> Work:
    """The Work as the styles (and the CSL-JSON export) read it.

    arXiv preprints get the fields CSL styles expect of a preprint (publisher "arXiv",
    number "arXiv:<id>", arXiv's DataCite DOI and abs URL) unless already set; videos carry
    their platform as publisher and default to genre "Video" (APA 7's "[Video]").
    """
    updates: dict[str, object] = {}
    if work.arxiv_id and work.type == "article":
        if not work.publisher:
            updates["publisher"] = "arXiv"
        if not work.number:
            updates["number"] = f"arXiv:{work.arxiv_id}"
        if not work.doi:
            updates["doi"] = ARXIV_DOI_PREFIX + work.arxiv_id
        if not work.url:
            updates["url"] = f"https://arxiv.org/abs/{work.arxiv_id}"
    if work.type == "motion_picture":
        if not work.publisher and work.container_title:
            updates["publisher"] = work.container_title
            updates["container_title"] = None
        if not work.genre:
            updates["genre"] = "Video"
    return work.model_copy(update=updates) if updates else work


@dataclass(frozen=True, slots=True)
class Name:
    literal: str | None
    family: str  # with non-dropping particle when displayed first
    given: str
    particle: str  # non-dropping ("van der")
    dropping: str  # dropping ("de" in "Charles de Gaulle")
    suffix: str


def names(authors: list[Author]) -> list[Name]:
    out: list[Name] = []
    for a in authors:
        if not a.family:
            # Corporate names, and single names stored only as 'given' (Plato); an
            # author with no name at all is dropped.
            whole = a.literal or join([a.given or "", a.dropping_particle or ""], " ")
            if whole:
                out.append(Name(whole, "", "", "", "", ""))
        else:
            out.append(
                Name(
                    None,
                    a.family or "",
                    a.given or "",
                    a.non_dropping_particle or "",
                    a.dropping_particle or "",
                    a.suffix or "",
                )
            )
    return out


def initials(given: str) -> str:
    """'Martin Luther' -> 'M. L.', 'Jean-Paul' -> 'J.-P.', 'A. N.' -> 'A. N.'."""
    parts = []
    for word in given.replace(".", ". ").split():
        pieces = [p for p in word.split("-") if p]
        if not pieces:
            continue
        parts.append("-".join(p[0] + "." for p in pieces))
    return " ".join(parts)


def join(parts: list[str], sep: str) -> str:
    return sep.join(p for p in parts if p)


def family_first(n: Name, given: str, suffix_sep: str = ", ") -> str:
    """'van der Maaten, L.' / 'King, M. L., Jr.'."""
    if n.literal is not None:
        return n.literal
    fam = join([n.particle, n.family], " ")
    giv = join([given, n.dropping], " ")
    out = fam + (", " + giv if giv else "")
    return out + (suffix_sep + n.suffix if n.suffix else "")


def given_first(n: Name, given: str, suffix_sep: str = " ") -> str:
    """'Laurens van der Maaten' / 'Martin Luther King Jr.'."""
    if n.literal is not None:
        return n.literal
    out = join([given, n.dropping, n.particle, n.family], " ")
    return out + (suffix_sep + n.suffix if n.suffix else "")


# --- punctuation -------------------------------------------------------------------

_TERMINAL = ".?!"


def _last_visible(text: str) -> str:
    stripped = text.rstrip("*”’\"_)")
    return stripped[-1:] if stripped else ""


def period(text: str) -> str:
    """Append '.' unless the text already ends in terminal punctuation (inside
    closing italics or quotes, as citeproc collapses '?.' to '?')."""
    if not text:
        return text
    if _last_visible(text) in _TERMINAL:
        return text
    return text + "."


_STRAIGHT_PAIR = re.compile(r'"([^"]*)"')


def smart_quotes(text: str) -> str:
    """Straight double-quote pairs become “…” (citeproc does the same)."""
    return _STRAIGHT_PAIR.sub(r"“\1”", text) if '"' in text else text


def quoted(text: str, punct: str = "") -> str:
    """“Text.” with the punctuation inside the quotes (American style); quotes inside
    become single quotes."""
    if "“" in text:
        text = text.replace("“", "‘").replace("”", "’")
    if punct and text and text[-1] in _TERMINAL and punct in ".,":
        return f"“{text}”"
    return f"“{text}{punct}”"


def italic(text: str) -> str:
    return f"*{text}*" if text else ""


# --- titles --------------------------------------------------------------------------

_STOP_WORDS = frozenset(
    ["a", "an", "and", "as", "at", "but", "by", "down", "for", "from", "in", "into", "nor", "of", "on", "onto", "or", "over", "so", "the", "till", "to", "up", "via", "with", "yet"]
)
_WORD = re.compile(r"\S+")


def title_case(text: str) -> str:
    """CSL 'title' text-case: capitalise lowercase words except stop words (unless first,
    last, or after a colon); words with capitals ('t-SNE', 'LeCun') stay as they are."""
    words = list(_WORD.finditer(text))
    if not words:
        return text
    out: list[str] = []
    pos = 0
    after_colon = True
    last = len(words) - 1
    for i, m in enumerate(words):
        w = m.group()
        out.append(text[pos : m.start()])
        pos = m.end()
        core = w.lstrip("“”\"'‘’([{")
        lead = w[: len(w) - len(w.lstrip("“”\"'‘’([{"))]
        if core and core == core.lower() and any(c.isalpha() for c in core):
            bare = core.rstrip(".,;:?!)]}”’\"'")
            if bare in _STOP_WORDS and not after_colon and i != last:
                pass
            else:
                w = lead + "-".join(p[:1].upper() + p[1:] for p in core.split("-"))
        out.append(w)
        after_colon = w.endswith((":", "?", "!")) or w == "|"
    out.append(text[pos:])
    return "".join(out)


# --- pages ---------------------------------------------------------------------------

_RANGE = re.compile(r"^\s*(\d+)\s*[-–—]+\s*(\d+)\s*$")


def pages(page: str, fmt: str) -> str:
    """A page range in one of CSL's formats: 'expanded', 'minimal-two', 'chicago-16'."""
    m = _RANGE.match(page)
    if not m:
        return re.sub(r"\s*-+\s*", "–", page.strip()) if re.fullmatch(r"[\w.]+\s*-+\s*[\w.]+", page.strip()) else page.strip()
    first, second = m.group(1), m.group(2)
    if len(second) < len(first):
        second = first[: len(first) - len(second)] + second
    if fmt == "expanded" or len(first) != len(second):
        return f"{first}–{second}"
    a = int(first)
    if fmt == "chicago-16":
        if a < 100 or a % 100 == 0:
            return f"{first}–{second}"
        keep = 1 if a % 100 < 10 else 2
    else:
        keep = 2
    i = 0
    while i < len(first) - keep and first[i] == second[i]:
        i += 1
    return f"{first}–{second[i:]}"


def is_range(page: str) -> bool:
    return bool(re.search(r"\w\s*[-–—]\s*\w", page))


def page_label(page: str, fmt: str) -> str:
    """'pp. 436–44' for a range, 'p. 7' for one page (MLA, IEEE)."""
    return f"{'pp.' if is_range(page) else 'p.'} {pages(page, fmt)}"


def doi_url(doi: str) -> str:
    return doi if doi.lower().startswith("http") else "https://doi.org/" + doi


def link(work: Work) -> str:
    """The entry's link: the DOI as a URL, else the URL, else ''."""
    if work.doi:
        return doi_url(work.doi)
    return work.url or ""


def place_publisher(work: Work) -> str:
    """'Boston: MIT Press', or whichever of the two is known."""
    pub = work.publisher or ""
    if work.publisher_place:
        return f"{work.publisher_place}: {pub}" if pub else work.publisher_place
    return pub


# --- dates ---------------------------------------------------------------------------


def date_text(d: list[int] | None, months: tuple[str, ...], day_format: str | None = None) -> str:
    """'2001', 'Month 2001', or with a day ``day_format`` filled from {year}, {month}, {day}
    (None: the day is left out); '' without a date."""
    if not d:
        return ""
    if len(d) == 1:
        return str(d[0])
    month = months[d[1] - 1]
    if len(d) >= 3 and day_format:
        return day_format.format(year=d[0], month=month, day=d[2])
    return f"{month} {d[0]}"


def month_day(d: list[int]) -> str:
    """'March 5' or 'March' of a date that has at least a month (APA, Chicago)."""
    return MONTHS[d[1] - 1] + (f" {d[2]}" if len(d) >= 3 else "")
