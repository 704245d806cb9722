"""Reference lists numbered ``(1)``, ``(2)``: entries split at their numbers, notes prose.

ChemRxiv's ACS template (ACS's "References and notes") numbers its entries ``(1)``,
``(2)`` … with no hanging indent, and MuPDF's blocks cut across them (``… Synlett 2021,
32, 14–22.`` | ``(5) (a) Okuda, S.; …`` in one block, most lines a block of their own):
each block became an entry. Read again as one list, the list is split where an entry's number
stands in sequence (``(5)`` after ``(4)``), at a line's start or after the full stop or
semicolon that ends the entry before; a number out of sequence (``21 (2), 4206``, an
issue) is no entry's. An entry that is a note set as prose (``(8) The 3E/3Z ratios were
determined by 1H NMR analysis; …``: no year, ``references.is_note``) is a paragraph.
"""

from __future__ import annotations

import itertools
import re

from vaultd.models import ChunkType
from vaultd.parse.layout import join_lines
from vaultd.parse.paras import Line, Para
from vaultd.parse.references import is_note

#: An entry's number inside a run-in list.
_NUMBER_RE = re.compile(r"(?:^|(?<=[.;]\s))\((\d{1,3})\)(?:\s|$)")
#: Fewest entries in sequence for a list to be read as run in.
RUNIN_MIN = 3


def split_runin(paras: list[Para]) -> None:
    """Runs of ``reference`` paras numbered ``(1)``, ``(2)`` … (module doc) → one para per
    entry, in place."""
    i = 0
    while i < len(paras):
        if paras[i].type != "reference":
            i += 1
            continue
        j = i
        while j < len(paras) and paras[j].type == "reference":
            j += 1
        entries = _entries([ln for p in paras[i:j] for ln in p.lines])
        if entries is not None:
            paras[i:j] = entries
            j = i + len(entries)
        i = j


def _cuts(lines: list[Line]) -> list[tuple[int, int]] | None:
    """Where the entries start: (line, character) of each number in sequence; None
    unless there are ``RUNIN_MIN``."""
    cuts: list[tuple[int, int]] = []
    expect: int | None = None
    for k, ln in enumerate(lines):
        for m in _NUMBER_RE.finditer(ln.text):
            number = int(m.group(1))
            if expect is None or number == expect:
                cuts.append((k, m.start()))
                expect = number + 1
    return cuts if len(cuts) >= RUNIN_MIN else None


def _entries(lines: list[Line]) -> list[Para] | None:
    cuts = _cuts(lines)
    if cuts is None:
        return None
    starts = set(cuts)
    # each line's text in segments, each segment opening an entry or going on with one
    entries: list[list[tuple[Line, str]]] = []
    for k, ln in enumerate(lines):
        offsets = sorted(c for line, c in starts if line == k)
        bounds = [0, *offsets, len(ln.text)] if offsets[:1] != [0] else [*offsets, len(ln.text)]
        for a, b in itertools.pairwise(bounds):
            seg = ln.text[a:b].strip()
            if not seg:
                continue
            if (k, a) in starts or not entries:
                entries.append([])
            entries[-1].append((ln, seg))
    return [_para(entry) for entry in entries]


def _para(entry: list[tuple[Line, str]]) -> Para:
    """An entry's para: its pieces split where it goes on in the next column or page."""
    pieces: list[list[tuple[Line, str]]] = []
    for ln, seg in entry:
        last = pieces[-1][-1][0] if pieces else None
        if last is None or (ln is not last and (ln.page != last.page or ln.bbox[1] < last.bbox[1] - 1.0)):
            pieces.append([])
        pieces[-1].append((ln, seg))
    texts = [join_lines(seg for _, seg in piece) for piece in pieces]
    spans = [_distinct([line for line, _ in piece]) for piece in pieces]
    lines = [ln for span in spans for ln in span]
    text = join_lines(texts)
    kind: ChunkType = "paragraph" if is_note(lines, text) else "reference"
    return Para(kind, lines, text, [(piece[0][0].page, t) for piece, t in zip(pieces, texts, strict=True)],
                spans=[len(span) for span in spans])


def _distinct(lines: list[Line]) -> list[Line]:
    """``lines`` without repeats (a line holding the end of one entry and the start of
    the next comes once per segment), in order."""
    out: dict[int, Line] = {}
    for ln in lines:
        out.setdefault(id(ln), ln)
    return list(out.values())
