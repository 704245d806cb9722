"""What a draft's format scanner (``draft/latex``, ``draft/markdown``) reports, and the
helpers both use: citations, provenance comments, quotation candidates with their
offsets, page locators, ellipses and insertions, edits that keep offsets (pure).
``draft/extract`` assembles the scan into the draft's quotes."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


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
