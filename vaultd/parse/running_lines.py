"""Lines at a page's edge told for running lines by the other pages' lines: the same text at
the same height (``placed_again``), the same letters whatever numbers stand with them
(``spelt_again``), a running line opening a longer one (``extends_repeated``) or sharing a
side with one (``shares_running_end``), or two pages' heads sharing a side (``shared_sides``);
and a line inside a run of text, none of them (``inside_text``); whether a line is its
page's outermost toward the edge it is near (``outermost``). ``vaultd.parse.furniture``
drops what they find.
Pure: lines and what the other pages hold in, yes or no out.
"""

from __future__ import annotations

from collections import Counter

from vaultd.parse.paras import Line
from vaultd.parse.sentence_ends import ITEM_RE

#: Fewest characters a repeated running line needs to be recognised inside a longer one.
EXTENDS_MIN = 12
#: ... and fewest its end shared with a band line's end needs (``shared_end``).
SHARED_END_MIN = 20

#: Fewest letters of a running line told by its letters alone.
SPELT_MIN_LETTERS = 7
#: Two lines this close (points) stand at the same height.
SAME_TOP = 1.5
#: ... and a line sharing a long end with another's (``shares_running_end``): its other
#: side may be set in a taller face, which moves the line's top (LWW's ``Sun et al.
#: Medicine (2019) 98:10`` beside ``Medicine`` in the logo's face on three pages, beside
#: ``www.md-journal.com`` on the fourth, two points lower).
SHARED_TOP = 3.0
#: How far apart (share of the page height) one running line stands on two pages.
SAME_HEIGHT = 0.025


def extends_repeated(key: str, seen: Counter[str]) -> bool:
    """Whether a band line opens with a running line other pages repeat, and goes on
    (a report's last page footer ``https://crsreports.congress.gov | IF12024 · VERSION 6``
    under the bare address of the others)."""
    return any(seen[k] >= 2 and len(k) >= EXTENDS_MIN and key.startswith(k) and key != k for k in seen)


def shared_end(a: str, b: str) -> int:
    """The length of the longest run of whole words (but one) at an end of ``a`` and an
    end of ``b``: both open with it, both end with it, or one opens and the other ends
    with it (a running line's two sides swapped on facing pages)."""
    aw, bw = a.split(), b.split()
    best = 0
    for n in range(1, min(len(aw), len(bw))):
        for run in (aw[:n], aw[-n:]):
            if run == bw[:n] or run == bw[-n:]:
                best = max(best, len(" ".join(run)))
    return best


def placed_again(placed: dict[str, list[tuple[int, float]]], ln: Line, key: str, page: int,
                  h: float) -> bool:
    """Whether the same digit-masked text (``key``: ``ln``'s) stands in the wide band of
    another page at the same height (to ``SAME_TOP`` points), or of two other pages within
    ``SAME_HEIGHT`` of the page height (a scan's pages are set a few points apart; two
    lines that merely read alike, a caption's last words or a footnote's URL, rarely
    stand on three)."""
    apart = [(p, abs(top - ln.bbox[1])) for p, top in placed.get(key, ()) if p != page]
    return any(d <= SAME_TOP for _, d in apart) or len({p for p, d in apart if d <= SAME_HEIGHT * h}) >= 2


def running_lines(placed: dict[str, list[tuple[int, float]]]) -> list[tuple[str, list[float]]]:
    """The wide band's lines standing at one height (``SAME_TOP``) on two pages or more,
    as (digit-masked text, their tops), those ``EXTENDS_MIN`` long or longer."""
    out = []
    for key, where in placed.items():
        if len(key) >= EXTENDS_MIN and len({p for p, _ in where}) >= 2:
            tops = [top for p, top in where if any(q != p and abs(t - top) <= SAME_TOP for q, t in where)]
            if tops:
                out.append((key, tops))
    return out


def shares_running_end(running: list[tuple[str, list[float]]], ln: Line, key: str) -> bool:
    """Whether a wide-band line shares a long end (``shared_end``) with a running line
    standing at its height on other pages (``running_lines``): ACM's odd pages set
    ``Title … SIGCSE TS 2026, February 18–21, 2026, St. Louis, Missouri, USA`` where the
    even pages repeat ``SIGCSE TS 2026, … USA Koutcheme et al.``; in a short paper the
    title's side of it stands on one page only; eNeuro's first page sets ``May/June 2018,
    5(3) e0098-18.2018 1–5`` where the others set ``… e0098-18.2018 eNeuro.org``. (Asked
    only of a line set under the body's size, as running lines are: a template's sample
    text repeats in the body's.)"""
    return any(k != key and any(abs(top - ln.bbox[1]) <= SHARED_TOP for top in tops)
               and shared_end(key, k) >= SHARED_END_MIN for k, tops in running)


def spelt_again(spelt: dict[str, list[tuple[int, float]]], ln: Line, page: int, h: float) -> bool:
    """Whether ``ln``'s letters alone (``SPELT_MIN_LETTERS`` or more) stand in the wide band
    of two other pages within ``SAME_HEIGHT`` of the page height, whatever numbers are set
    with them: a running line whose folio moves from end to end (a scan's ``February 1985
    1``, ``2 February 1985``, ``February 1985``) keeps its letters."""
    spelled = letters(ln.text)
    return len(spelled) >= SPELT_MIN_LETTERS and len(
        {p for p, top in spelt.get(spelled, ()) if p != page and abs(top - ln.bbox[1]) <= SAME_HEIGHT * h}) >= 2


def letters(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalpha())


def shared_sides(edges: list[tuple[int, float, str]]) -> set[int]:
    """The indices of ``edges`` (a page's outermost line set apart from its text, as
    (page, top, digit-masked text)) that share a long end (``shared_end``) with another
    page's at the same height (``SAME_TOP``): a book's running head naming its section on
    one side and its chapter on the other (``5.2. Semantics of First-Order Logic`` …
    ``Chapter 5. First-Order Logic``; the section changes every few pages, the chapter's
    side stays). Only lines opening or ending with the same word are compared."""
    by_word: dict[str, list[int]] = {}
    for i, (_, _, key) in enumerate(edges):
        words = key.split()
        for word in {words[0], words[-1]} if words else ():
            by_word.setdefault(word, []).append(i)
    out: set[int] = set()
    for group in by_word.values():
        for n, i in enumerate(group):
            page, top, key = edges[i]
            for j in group[n + 1:]:
                other, at, key2 = edges[j]
                if other != page and abs(at - top) <= SAME_TOP and (i not in out or j not in out) \
                        and shared_end(key, key2) >= SHARED_END_MIN:
                    out.update((i, j))
    return out


def inside_text(ln: Line, lines: list[Line]) -> bool:
    """Whether a line stands inside a run of text, lines of its size right over it and
    right under it, across it: a record's field line repeating from page to
    page with its digits (Pensoft's ``locality: Riserva Naturale di Pantalica; eventDate:
    27/04/2023; …`` near a page's foot) is no running line, which stands apart."""
    height = ln.bbox[3] - ln.bbox[1]

    def beside(other: Line) -> bool:
        return other is not ln and abs(other.size - ln.size) <= 0.5 and other.bbox[0] < ln.bbox[2] \
            and ln.bbox[0] < other.bbox[2]

    def right_over(line: Line) -> list[Line]:
        return [o for o in lines if beside(o) and 0.0 <= line.bbox[1] - o.bbox[3] <= 0.5 * height]

    def right_under(line: Line) -> list[Line]:
        return [o for o in lines if beside(o) and 0.0 <= o.bbox[1] - line.bbox[3] <= 0.5 * height]

    # (or under two lines of a run of text, or over two: a running head or foot of two
    # lines stands apart from the text; or an item's next line, hanging under its text
    # right of its mark: ``a. country: Italy; …`` | ``locality: …``)
    over, under = right_over(ln), right_under(ln)
    return bool(over and under) or any(
        right_over(o) or (ITEM_RE.match(o.text) is not None and ln.bbox[0] > o.bbox[0] + 0.6 * height)
        for o in over) or any(right_under(o) for o in under)


def outermost(ln: Line, lines: list[Line], h: float, slack: float = 0.0) -> bool:
    """Whether no line of the page stands further toward the edge ``ln`` is near (by more
    than ``slack`` points: the lines of one running head, its title and its folio)."""
    if (ln.bbox[1] + ln.bbox[3]) / 2 > h / 2:
        return all(other.bbox[3] <= ln.bbox[3] + slack for other in lines)
    return all(other.bbox[1] >= ln.bbox[1] - slack for other in lines)
