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
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Literal

Format = Literal["latex", "markdown"]

_SUFFIXES: dict[str, Format] = {".tex": "latex", ".ltx": "latex", ".md": "markdown",
                                ".markdown": "markdown", ".qmd": "markdown",
                                ".rmd": "markdown"}


@dataclass(frozen=True)
class Cite:
    keys: tuple[str, ...]
    locator: str | None  # page part, label removed: "4", "4-5", "xii"; None when none
    line: int
    raw: str


@dataclass(frozen=True)
class Provenance:
    key: str
    chunk_id: str
    sha256: str
    line: int


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
        from vaultd.draft import latex  # imported here: it builds on this module's types

        return _assemble("latex", text, latex.scan(text))
    from vaultd.draft import markdown

    return _assemble("markdown", text, markdown.scan(text))


# --- what a scanner reports -----------------------------------------------------------------

@dataclass(frozen=True)
class Candidate:
    """Quotation marks, a quote environment or a blockquote: a quote if a citation is near."""

    start: int  # offsets of the whole thing, delimiters included
    end: int
    text: str  # as a reader sees it (``reader_text``)
    kind: str
    block: bool
    # The content as written: inside the braces of \enquote, between quotation marks,
    # between \begin and \end of a quote environment (blanks stripped), or a blockquote
    # from after its first ">" marker to the end of its last line.
    span: tuple[int, int]


@dataclass(frozen=True)
class CiteAt:
    start: int
    end: int
    cite: Cite
    textual: bool = False  # author-in-text "@key": may lend its key to a later "[p. 4]"


@dataclass(frozen=True)
class LocatorAt:
    """A bare "[p. 4]", a citation's page only when it follows a quote."""

    start: int
    end: int
    locator: str
    raw: str


@dataclass
class Scan:
    candidates: list[Candidate] = field(default_factory=list)
    cites: list[CiteAt] = field(default_factory=list)
    provenance: list[tuple[int, Provenance]] = field(default_factory=list)
    locators: dict[int, LocatorAt] = field(default_factory=dict)  # by start


class Lines:
    """1-based line numbers and paragraph breaks (blank lines) of a source text."""

    def __init__(self, source: str) -> None:
        self.size = len(source)
        self._newlines = [m.start() for m in re.finditer("\n", source)]
        self.breaks = [m.start() for m in re.finditer(r"\n[ \t\r\f\v]*(?=\n)", source)]

    def line(self, pos: int) -> int:
        return bisect_left(self._newlines, pos) + 1

    def paragraph_end(self, pos: int) -> int:
        i = bisect_left(self.breaks, pos)
        return self.breaks[i] if i < len(self.breaks) else self.size

    def paragraph(self, pos: int) -> int:
        return bisect_left(self.breaks, pos)

    def same_paragraph(self, a: int, b: int) -> bool:
        return self.paragraph(a) == self.paragraph(b)


PROVENANCE_RE = re.compile(r"vaultd:\s*(\S+)\s+(\S+)\s+sha256=(\S+)")


def provenance(comment: str, line: int) -> Provenance | None:
    """A ``vaultd: <key> <chunk_id> sha256=<hash>`` comment's fields."""
    m = PROVENANCE_RE.match(comment.strip())
    return Provenance(m[1], m[2], m[3], line) if m else None


# --- locators, ellipses, insertions -----------------------------------------------------------

_PAGE = r"(?:\d+|[ivxlcdm]+|[IVXLCDM]+)"
_RANGE = rf"{_PAGE}(?:\s*(?:-+|–|—)\s*{_PAGE})?(?:\s*ff?\.?)?"
_LOCATOR_RE = re.compile(rf"(?:(?P<label>pp?\.?|pages?|pg\.|[Ss]\.)\s*)?"
                         rf"(?P<pages>{_RANGE}(?:\s*,\s*{_RANGE})*)(?P<rest>.*)", re.S)


def normalise_locator(text: str) -> str | None:
    """The page part of a citation's postnote ("p. 4" → "4", "pp. 4--5" → "4-5"), or None
    when it does not start with pages. Without a page label only a leading number, or a
    whole postnote of roman numerals, is a page ("cf. below" is none)."""
    m = _LOCATOR_RE.fullmatch(" ".join(text.replace("~", " ").split()))
    if m is None or not (m["label"] or m["pages"][0].isdigit() or not m["rest"]):
        return None
    if m["rest"][:1].isalnum():
        return None
    pages = re.sub(r"\s*(?:-+|–|—)\s*", "-", m["pages"])
    return re.sub(r"\s*,\s*", ", ", re.sub(r"\s+(?=f)|\.$", "", pages))


_ELLIPSIS_RE = re.compile(r"\[\s*(?:…|\.\s?\.\s?\.)\s*\]|\(\s*(?:…|\.\s?\.\s?\.)\s*\)"
                          r"|…|\.\s?\.\s?\.\.*")
_INSERTION_RE = re.compile(r"\[([^\[\]]+)\]")


def split_parts(text: str) -> tuple[str, ...]:
    """``text`` cut at its ellipses, each part stripped, empty parts dropped."""
    return tuple(p.strip() for p in _ELLIPSIS_RE.split(text) if p.strip())


def insertions(text: str) -> tuple[str, ...]:
    """The bracketed insertions of a quote ("[sic]" → "sic"), ellipses excluded."""
    found = (m[1].strip() for m in _INSERTION_RE.finditer(_ELLIPSIS_RE.sub(" ", text)))
    return tuple(i for i in found if i)


_OPEN_CLOSE = {"“": "”", '"': '"', "„": "“", "«": "»", "‘": "’"}


def unwrap(text: str) -> str:
    """A block quote's text without quotation marks enclosing all of it."""
    close = _OPEN_CLOSE.get(text[:1])
    if close and len(text) > 2 and text.endswith(close) \
            and text.count(text[0]) == 1 and text.count(close) == (1 if close != text[0] else 2):
        return text[1:-1].strip()
    return text


def apply_edits(source: str, start: int, end: int,
                edits: Sequence[tuple[int, int, str]]) -> str:
    """``source[start:end]`` with the (start, end, replacement) edits inside it applied;
    edits are sorted, and one inside an earlier one is skipped."""
    out: list[str] = []
    at = start
    for a, b, repl in edits[bisect_left(edits, (start, start, "")):]:
        if a >= end:
            break
        if a < at or b > end:
            continue
        out += [source[at:a], repl]
        at = b
    out.append(source[at:end])
    return "".join(out)


def pair_marks(marks: Iterable[tuple[int, int, str, bool]],
               lines: Lines) -> list[tuple[int, int, int, int, str]]:
    """Quotation marks (pos, end, kind, opening) paired like brackets within a paragraph,
    so that “a “nested” quote” is one: (start, end, inner start, inner end, kind). An
    opening mark left unclosed also pairs with the paragraph's last closing mark: in
    “pasted text with an “unbalanced mark” the whole is the quote, not its tail."""
    groups: dict[tuple[str, int], list[tuple[int, int, bool]]] = {}
    for pos, end, kind, opening in sorted(marks):
        groups.setdefault((kind, lines.paragraph(pos)), []).append((pos, end, opening))
    out: list[tuple[int, int, int, int, str]] = []
    for (kind, _), group in groups.items():
        stack: list[tuple[int, int]] = []
        for pos, end, opening in group:
            if opening:
                stack.append((pos, end))
            elif stack:
                start, inner = stack.pop()
                out.append((start, end, inner, pos, kind))
        last = next(((pos, end) for pos, end, opening in reversed(group) if not opening), None)
        out += [(start, last[1], inner, last[0], kind) for start, inner in stack
                if last and last[0] > start]
    return out


# --- the rule -----------------------------------------------------------------------------

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
