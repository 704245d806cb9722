"""Section depths: how deep each heading of a document stands (the title 0, a numbered
one by its number, an unnumbered one by the numbered heads of its style), for the section
paths of its chunks (``3 Experiments › 3.1 Setup``). Pure."""

from __future__ import annotations

import re
from collections import Counter

from vaultd.parse.paras import REFS_RE, Para


def heading_levels(paras: list[Para]) -> dict[int, int]:
    """Depth of every heading (by ``id``): 0 for the title, the number's depth for a
    numbered one (``3.1`` → 2), and for an unnumbered one the depth numbered headings of
    its style have, else one below the deepest stronger style (larger, or as large and
    bolder), or its rank among the styles when nothing is numbered."""
    heads = [p for p in paras if p.type == "heading" and not p.title]

    def style(p: Para) -> tuple[float, bool, bool]:
        return (round(max(ln.size for ln in p.lines) * 2) / 2, all(ln.bold for ln in p.lines),
                not all(ln.italic for ln in p.lines))

    # sections numbered in roman numerals (II, III …) number their subsections by letter
    # (IEEE's and the social sciences' ``III. Experimental protocol`` › ``A. General setting``)
    # (a court opinion's bare ``I`` heads its part before an ``A`` does)
    marks = [(p.number or p.text).strip().rstrip(".") for p in heads]
    roman = any(_ROMAN_RE.fullmatch(m) for m in marks) or (
        "I" in marks and any(m in _SUBSECTION_LETTERS for m in marks[marks.index("I") + 1:]))

    def depth(number: str) -> int:
        parts = number.rstrip(".").split(".")
        return len(parts) + (roman and len(parts) == 1 and parts[0] in _SUBSECTION_LETTERS)

    # a head set smaller than every head numbered in figures, opening with a capital
    # letter and a space, opens with an article, no number (a book's boxed ``A COMMON
    # CLASSIFICATION IS:`` under its ``1.2.2`` subsection): it goes under the section
    sizes = [style(p)[0] for p in heads if p.number and p.number[:1].isdigit()]
    # nor is a lone ``A`` with no ``B`` after it (the British Ecological Society's ``A FIRST
    # INSIGHT INTO …`` in small capitals): a numbering needs its sequence
    letters = {p.number for p in heads if p.number and len(p.number) == 1}
    unnumbered = {id(p) for p in heads if p.number and len(p.number) == 1 and p.number.isalpha()
                  and p.text.lstrip().startswith(p.number + " ")
                  and ((sizes and style(p)[0] < min(sizes)) or (p.number == "A" and "B" not in letters))}

    def number(p: Para) -> str | None:
        return None if id(p) in unnumbered else p.number

    votes: dict[tuple[float, bool, bool], Counter[int]] = {}
    for p in heads:
        if (n := number(p)):
            votes.setdefault(style(p), Counter())[depth(n)] += 1
    known = {s: c.most_common(1)[0][0] for s, c in votes.items()}
    ranked = sorted({style(p) for p in heads}, reverse=True)
    out: dict[int, int] = {}
    for p in paras:
        if p.type != "heading":
            continue
        if p.title:
            out[id(p)] = 0
        elif p.plain and not p.number:
            out[id(p)] = 1  # an OCR layer's sizes wander: no depth from style
        elif REFS_RE.match(p.text.strip()):
            out[id(p)] = 1  # the bibliography is never a subsection
        elif (n := number(p)):
            out[id(p)] = depth(n)
        elif style(p) in known:
            out[id(p)] = known[style(p)]
        elif known:
            out[id(p)] = 1 + max((d for s, d in known.items() if s > style(p)), default=0)
        else:
            out[id(p)] = 1 + ranked.index(style(p))
    return out


#: A section number in roman numerals of two letters or more (``II``, ``III``, ``XIV``).
_ROMAN_RE = re.compile(r"(?=[IVX]{2,}$)X{0,3}(?:IX|IV|V?I{0,3})")
#: The letters numbering such a section's subsections (not ``I``, ``V``, ``X``: roman).
_SUBSECTION_LETTERS = frozenset("ABCDEFGHJKLMNOPQRSTUWYZ")


#: Between the levels of a section path (``3 Experiments › 3.1 Setup``).
PATH_SEP = " › "
