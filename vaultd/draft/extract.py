"""The quotes and citations of a manuscript, as ``vaultd verify --draft`` checks them (pure).

A format scanner (``vaultd.draft.latex``, ``vaultd.draft.markdown``) reports what
it sees with source offsets: quotation candidates with their text as a reader sees it,
citations and provenance comments. ``_assemble`` then applies the rule that keeps false
alarms out, since every quote becomes a finding: a candidate is a quote only when

- inline marks: a citation follows in its paragraph before the next candidate starts
  (it takes that citation and the others of the same sentence), or, in Markdown, a bare
  "[p. 4]" follows it and an author-in-text "@key" precedes it;
- a block (quote environment, blockquote): a citation is inside it, or after it in its
  paragraph, or is all the next paragraph holds (it takes the first);
- or a provenance comment sits beside it: inside a block, or on the line where it ends
  or the next (of several candidates there: the one citing the comment's key, else one
  with a citation, else the nearest).

So a scare quote (“so-called”) and a motto are never findings.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Literal

from vaultd.draft import latex, markdown
from vaultd.draft.scan import (
    Candidate,
    Cite,
    CiteAt,
    Lines,
    LocatorAt,
    Provenance,
    Scan,
    apply_edits,
    insertions,
    split_parts,
)

Format = Literal["latex", "markdown"]

_SUFFIXES: dict[str, Format] = {".tex": "latex", ".ltx": "latex", ".md": "markdown",
                                ".markdown": "markdown", ".qmd": "markdown",
                                ".rmd": "markdown"}


@dataclass(frozen=True)
class Quote:
    text: str
    parts: tuple[str, ...]  # split at ellipses
    insertions: tuple[str, ...]  # bracketed, without the brackets
    line: int
    end_line: int
    kind: str
    cites: tuple[Cite, ...]
    provenance: tuple[Provenance, ...]
    # [start, end) in the draft's text of the content as written, marks excluded: what
    # ``vaultd verify --draft --fix`` rewrites (``Candidate.span``)
    span: tuple[int, int]


@dataclass(frozen=True)
class Draft:
    format: Format
    quotes: tuple[Quote, ...]
    cites: tuple[Cite, ...]
    provenance: tuple[Provenance, ...]


def draft_format(path_name: str) -> Format:
    """The format of a draft named ``path_name``, from its suffix."""
    fmt = _SUFFIXES.get(PurePath(path_name).suffix.lower())
    if fmt is None:
        raise ValueError(f"{path_name}: not a draft vaultd can read; give a .tex, .ltx, .md, "
                         ".markdown, .qmd or .rmd file")
    return fmt


def extract(text: str, fmt: Format) -> Draft:
    """The quotes, citations and provenance comments of a draft's ``text``."""
    if fmt == "latex":

        return _assemble("latex", text, latex.scan(text))

    return _assemble("markdown", text, markdown.scan(text))


_BLANKS_RE = re.compile(r"\s*")
_ONLY_PUNCTUATION_RE = re.compile(r"(?:[\s()\[\].,;:~\-–—]|\\[A-Za-z]+\*?)*")  # "\hfill"
_SENTENCE_END_RE = re.compile(r"[.!?][\"'”’)\]]*\s")


def _assemble(fmt: Format, source: str, scan: Scan) -> Draft:
    lines = Lines(source)
    cands = _outermost(scan.candidates)
    cites = sorted(scan.cites, key=lambda c: c.start)
    starts = [c.start for c in cites]
    near = [_near(i, cands, cites, starts, scan.locators, source, lines)
            for i in range(len(cands))]
    attached = _attach_provenance(cands, near, scan.provenance, lines)
    quotes = tuple(
        Quote(text=c.text, parts=split_parts(c.text), insertions=insertions(c.text),
              line=lines.line(c.start), end_line=lines.line(max(c.end - 1, c.start)),
              kind=c.kind, cites=n, provenance=p, span=c.span)
        for c, n, p in zip(cands, near, attached, strict=True) if c.text and (n or p))
    return Draft(fmt, quotes, tuple(c.cite for c in cites),
                 tuple(p for _, p in sorted(scan.provenance, key=lambda x: x[0])))


def _near(i: int, cands: Sequence[Candidate], cites: Sequence[CiteAt], starts: Sequence[int],
          locators: dict[int, LocatorAt], source: str, lines: Lines) -> tuple[Cite, ...]:
    """The citations of candidate ``i``: for a block the first inside it or else the first
    after it; for inline marks those after it in its paragraph before the next candidate
    (the first and the rest of its sentence)."""
    cand = cands[i]
    limit = min(cands[i + 1].start if i + 1 < len(cands) else len(source),
                lines.paragraph_end(cand.end))
    after = cites[bisect_left(starts, cand.end):bisect_left(starts, limit)]
    if cand.block:
        inside = cites[bisect_left(starts, cand.start):bisect_left(starts, cand.end)]
        first = (inside or after or _citation_paragraph(cand.end, cites, starts, source, lines))
        return tuple(c.cite for c in first[:1])
    borrowed = _borrowed(cand, cands[i - 1].end if i else 0, cites,
                         bisect_left(starts, cand.start), locators, source, lines)
    return (borrowed.cite,) if borrowed else tuple(c.cite for c in _same_sentence(after, source))


def _outermost(cands: Iterable[Candidate]) -> list[Candidate]:
    """Candidates in order, without those inside another (a quote inside a quote)."""
    out: list[Candidate] = []
    for c in sorted(cands, key=lambda c: (c.start, -c.end)):
        if not out or c.start >= out[-1].end:
            out.append(c)
    return out


def _citation_paragraph(end: int, cites: Sequence[CiteAt], starts: Sequence[int],
                        source: str, lines: Lines) -> Sequence[CiteAt]:
    """The citations of the paragraph after ``end`` when they are all it holds (a block
    quote with its reference set below it)."""
    gap = _BLANKS_RE.match(source, lines.paragraph_end(end))
    start = gap.end() if gap else len(source)
    found = cites[bisect_left(starts, start):bisect_left(starts, lines.paragraph_end(start))]
    rest = apply_edits(source, start, lines.paragraph_end(start),
                       [(c.start, c.end, "") for c in found])
    return found if found and _ONLY_PUNCTUATION_RE.fullmatch(rest) else ()


def _same_sentence(after: Sequence[CiteAt], source: str) -> list[CiteAt]:
    """The first citation after a quote, and those following it in the same sentence."""
    out = list(after[:1])
    for c in after[1:]:
        if _SENTENCE_END_RE.search(source, out[-1].end, c.start):
            break
        out.append(c)
    return out


def _borrowed(cand: Candidate, floor: int, cites: Sequence[CiteAt], before: int,
              locators: dict[int, LocatorAt], source: str, lines: Lines) -> CiteAt | None:
    """"@smith writes “…” [p. 4]": the page right after the quote with the key of the
    author-in-text citation before it (``cites[:before]``: in the same paragraph, after
    the previous candidate ``floor``)."""
    gap = _BLANKS_RE.match(source, cand.end)
    loc = locators.get(gap.end()) if gap else None
    t = next((c for c in (cites[k] for k in range(before - 1, -1, -1))
              if c.textual or c.start < floor), None)
    if loc is None or t is None or not t.textual or t.start < floor \
            or not lines.same_paragraph(t.start, cand.start):
        return None
    return CiteAt(loc.start, loc.end, Cite(t.cite.keys, loc.locator, t.cite.line,
                                           f"{t.cite.raw} … {loc.raw}"))


def _attach_provenance(cands: Sequence[Candidate], near: Sequence[tuple[Cite, ...]],
                       found: Sequence[tuple[int, Provenance]],
                       lines: Lines) -> list[tuple[Provenance, ...]]:
    """Each candidate's provenance comments: those inside a block quote, and those after a
    candidate ending on their line or the one before: of several, the one citing the
    comment's key, else one with a citation, else the nearest."""
    out: list[list[Provenance]] = [[] for _ in cands]
    ends = [c.end for c in cands]
    for pos, prov in sorted(found, key=lambda x: x[0]):
        i = bisect_right(ends, pos) - 1
        if i + 1 < len(cands) and cands[i + 1].block and cands[i + 1].start <= pos:
            out[i + 1].append(prov)
            continue
        line = lines.line(pos)
        eligible = []
        while i >= 0 and line - lines.line(cands[i].end - 1) in (0, 1):
            eligible.append(i)
            i -= 1
        ranked = sorted(eligible, key=lambda j: (not any(prov.key in c.keys for c in near[j]),
                                                 not near[j]))
        if ranked:
            out[ranked[0]].append(prov)
    return [tuple(p) for p in out]
