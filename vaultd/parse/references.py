"""Bibliographies: one ``reference`` para per entry, and the ids each entry names.

Entries are split at ``[n]``/``n.`` numbers or at hanging indents inside a block, and a
block indented against its column's left edge continues the entry before it (entries whose
first line is a block of its own, entries going on in the next column or page). A
bibliography set without a heading is told by its first entries (``opens_headless_references``).
"""

from __future__ import annotations

import re

from vaultd.parse.classify import classify
from vaultd.parse.continuation import SIZE_STEP
from vaultd.parse.fontnames import font_family
from vaultd.parse.front import is_declaration, is_front_matter
from vaultd.parse.layout import join_lines
from vaultd.parse.paras import REFS_RE, Line, Para, append_piece

REF_START_RE = re.compile(r"^\s*(\[\d+\]|\d{1,3}\.\s)")
DOI_RE = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+)", re.I)
ARXIV_RE = re.compile(r"(?:arxiv[:\s/]*(?:abs/)?\s*)(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})", re.I)


_BRACKET_START_RE = re.compile(r"^\s*\[\d+\]")


def _split_references(group: list[Line]) -> list[list[Line]]:
    left = min(ln.bbox[0] for ln in group)
    hanging = any(ln.bbox[0] > left + 3.0 for ln in group)
    numbered = sum(1 for ln in group if REF_START_RE.match(ln.text)) >= 1
    if not hanging and not numbered:
        return [group]
    if not numbered and is_prose_block(group):  # paragraphs, each but the first set in
        paras: list[list[Line]] = []
        for ln in group:
            if not paras or ln.bbox[0] > left + 3.0:
                paras.append([ln])
            else:
                paras[-1].append(ln)
        return paras
    # entries labelled ``[1]``: a line opening with a number and a stop is a continuation
    # (``24. 05. 2021) (siehe S. 11).``, the date an entry's URL was visited)
    start = _BRACKET_START_RE if any(_BRACKET_START_RE.match(ln.text) for ln in group) else REF_START_RE
    entries: list[list[Line]] = []
    for ln in group:
        starts = bool(start.match(ln.text)) if numbered else ln.bbox[0] <= left + 1.5
        if starts or not entries:
            entries.append([ln])
        else:
            entries[-1].append(ln)
    return entries


def opens_headless_references(group: list[Line], page: list[Line], last: Para | None) -> bool:
    """Whether ``group`` opens a bibliography set without a heading (REVTeX's ``[1] P.
    Weiss, L'Hypothèse du Champ Moléculaire …, J. Phys. Theor. Appl. 6, 661 (1907).``
    under the last appendix's text): its first line opens with ``[1]``, its entry names a
    year and an author's initial, and the entry ``[2]`` opens a line of its page after it,
    a few lines on (REVTeX sets each line a block); ``last``, the para read before it, is
    the body's text (no heading, nor a short line that may yet be typed one: a slide's
    ``Bibliography I``)."""
    first = group[0]
    if not first.text.lstrip().startswith("[1] ") or first not in page or last is None or last.type == "heading" \
            or (last.type == "paragraph" and len(last.text.split()) < HEADLESS_AFTER_WORDS):
        return False
    at = page.index(first)
    entry: list[str] = []
    for ln in page[at:at + ENTRY_LINES + 1]:
        if ln.text.lstrip().startswith("[2] "):
            text = " ".join(entry)
            return bool(_YEAR_RE.search(text)) and bool(_INITIAL_RE.search(text))
        entry.append(ln.text)
    return False


#: Most lines of a bibliography's first entry; fewest words of the paragraph a
#: bibliography without a heading follows.
ENTRY_LINES = 6
HEADLESS_AFTER_WORDS = 8


def beside_headless_references(group: list[Line], entries: float | None) -> bool:
    """Whether ``group``, read inside a bibliography without a heading whose entries are
    set at ``entries`` points, is the text beside it: set larger (by ``SIZE_STEP``),
    opening with no entry's number (the last appendix's rest in REVTeX's other column,
    read after the first entries)."""
    return entries is not None and group[0].size > entries + SIZE_STEP and not REF_START_RE.match(group[0].text)
#: An author's initial (``P. Weiss``, ``Hu W.,``), which a program's printed output
#: (``[1] 2057 GTGAGTATT…`` | ``[2] 564 …``) has not.
_INITIAL_RE = re.compile(r"(?:^|[\s,(])[A-Z]\.(?:[\s,-]|$)")


def is_prose_block(lines: list[Line]) -> bool:
    """Whether lines are set as paragraphs of prose, such as a note on the bibliography
    set under its heading: most lines flush left, and each line set in (by one indent)
    opens a paragraph, under the short last line of the one before (in a hanging-indent
    list the lines set in go on from full ones). No year stands in them: an entry names
    its year."""
    if len(lines) < 2 or _YEAR_RE.search(" ".join(ln.text for ln in lines)):
        return False
    flush = min(ln.bbox[0] for ln in lines)
    right = max(ln.bbox[2] for ln in lines)
    width = max(right - flush, 1.0)
    indents = {round(ln.bbox[0] - flush) for ln in lines if ln.bbox[0] > flush + 3.0}
    if len(indents) != 1:
        return False
    for before, ln in zip([None, *lines], lines, strict=False):
        if ln.bbox[0] > flush + 3.0 and before is not None and before.bbox[2] >= right - 0.1 * width:
            return False  # set in under a full line: a hanging entry's next line
    return sum(1 for ln in lines if ln.bbox[0] <= flush + 1.5) * 3 >= len(lines) * 2


#: Fewest words of a note on a reference list (an entry's last line or two have fewer).
NOTE_WORDS = 15


def is_note(entry: list[Line], text: str) -> bool:
    """Whether an unnumbered block in a reference list is a note on it, set as prose: two
    lines or more, ``NOTE_WORDS`` or more, a sentence's end, and no year (``Die meisten
    Einträge in diesem Literaturverzeichnis verweisen auf LaTeX-Pakete. …``)."""
    return len(entry) >= 2 and len(text.split()) >= NOTE_WORDS and text.rstrip().endswith((".", "!", "?")) \
        and not _YEAR_RE.search(text)


_YEAR_RE = re.compile(r"(?<!\d)(?:1[5-9]|20)\d\d(?!\d)")  # (``2009c``, ``(2010a)`` too)


def refs_of(text: str) -> list[str]:
    """``doi:`` and ``arxiv:`` ids mentioned in a bibliography entry, in order."""
    out: list[str] = []
    for m in DOI_RE.finditer(text):
        doi = m.group(1).rstrip(".,;)]}").lower()
        out.append(f"doi:{doi}")
    for m in ARXIV_RE.finditer(text):
        out.append(f"arxiv:{m.group(1)}")
    return list(dict.fromkeys(out))


#: How far right of an entry's first line (points) its continuation lines may be indented
#: (APA's and Chicago's half inch, 36 pt, included).
HANGING_MAX = 40.0

#: What opens the back matter after a bibliography: an appendix or supplement, set as a
#: line of its own (APA's ``Appendix A`` in the body's size and weight, which nothing else
#: marks as a heading; a larger one is typed a heading and ends the list already).
_BACK_MATTER_RE = re.compile(
    r"^(?:[A-Z]\.?\s+)?(?:appendix|appendices|online appendix|supplementary\s+(?:materials?|"
    r"information|data|methods)|supporting\s+information|anhang|annexe?s?|ap[ée]ndices?|anexos?)"
    r"\b(?:\s+[A-Z0-9]{1,3}\b)?[.:]?(?:\s+\S.*)?$", re.I)
#: Methods set after the bibliography, a heading alone on its line: Cell Press's
#: ``STAR★METHODS`` (the star read as ``+`` by some text layers) and its fixed heads
#: (``KEY RESOURCES TABLE``, ``RESOURCE AVAILABILITY``, ``METHOD DETAILS`` …), the Nature
#: journals' ``Online Methods``.
_METHODS_AFTER_RE = re.compile(
    r"star\W?methods|online\s+methods|key\s+resources\s+table|resource\s+availability|method\s+details"
    r"|experimental\s+model\s+and\s+(?:study\s+participant|subject)\s+details"
    r"|quantification\s+and\s+statistical\s+analysis", re.I)
#: The Nature journals' declarations after the bibliography, each a heading of its own,
#: and their Methods (*Nature Nanotechnology* 2024 sets ``Methods`` after the main text's
#: references, in their heading's style).
_DECLARATIONS_RE = re.compile(
    r"^(?:acknowledge?ments?|author\s+contributions?|competing\s+(?:interests?|financial\s+interests?)"
    r"|additional\s+information|data\s+availability|code\s+availability|ethics\s+declarations"
    r"|author\s+information|funding|methods)$", re.I)


def ends_references(group: list[Line], refs_head: Line | None = None) -> bool:
    """Whether ``group`` opens the back matter after the bibliography: its first line a
    short ``_BACK_MATTER_RE`` line (six words at most, no sentence: an entry never opens
    so), a methods section's head alone on its line (``_METHODS_AFTER_RE``), or a
    declaration's heading (``Acknowledgements``, ``Competing interests``) set as
    the bibliography's own heading ``refs_head`` is (the Nature journals set theirs after
    it; F1000's, set in another style, stand beside its columns of entries)."""
    first = group[0]
    head = first.text.strip()
    if len(head.split()) > 6 or head.endswith((".", ",")):
        return False
    return bool(_BACK_MATTER_RE.match(head)) or bool(_METHODS_AFTER_RE.fullmatch(head)) or (
        refs_head is not None and bool(_DECLARATIONS_RE.match(head)) and first.bold == refs_head.bold
        and abs(first.size - refs_head.size) <= 0.3 and font_family(first.font) == font_family(refs_head.font))


def column_lefts(lines: list[Line], width: float) -> tuple[float, float]:
    """The left edge of the page's left and right columns: the leftmost line starting in
    each half (the same edge twice on a one-column page)."""
    mid = width / 2
    left = [ln.bbox[0] for ln in lines if ln.bbox[0] < mid]
    right = [ln.bbox[0] for ln in lines if ln.bbox[0] >= mid]
    first = min(left, default=0.0)
    return first, min(right, default=first)


def add_references(group: list[Line], paras: list[Para], body: float,
                    lefts: tuple[float, float], width: float) -> bool:
    """Bibliography lines → one ``reference`` para per entry; False once a heading ends it.

    ``lefts``: the page's ``column_lefts``. A block whose first line is indented against
    its column's left edge (3 to ``HANGING_MAX`` points) continues the entry before, even
    set as a block of its own (SciELO sets each entry's first line apart) or at the top of
    the next column or page. A block that opens like front matter
    (``Received: …``, ``Citation: …``, set after the references by Frontiers) is a
    ``front`` chunk, not an entry; one set as a paragraph of prose (``is_prose_block``: a
    note on the list under its heading) is a paragraph."""
    in_refs = True
    for entry in _split_references(group):
        text = join_lines(ln.text for ln in entry)
        kind, number = classify(text, max(ln.size for ln in entry), all(ln.bold for ln in entry),
                                len(entry), body, False)
        if kind == "heading" and not REF_START_RE.match(text):
            in_refs = bool(REFS_RE.match(text))
            paras.append(Para(kind, entry, text, [(entry[0].page, text)], number, [len(entry)]))
            continue
        if kind in ("figure", "table"):  # a float's caption set among the entries
            paras.append(Para(kind, entry, text, [(entry[0].page, text)], number, [len(entry)],
                              floating=True))
            continue
        x = entry[0].bbox[0]
        column_left = lefts[0] if x < width / 2 else lefts[1]
        indented = x > min(ln.bbox[0] for ln in group) + 3.0 or 3.0 < x - column_left <= HANGING_MAX
        if indented and paras and paras[-1].type == "reference" and not REF_START_RE.match(text):
            append_piece(paras[-1], entry, text)
            continue
        if is_front_matter(text, at_edge=False) or is_declaration(text):
            # (and the publisher's boilerplate after the entries: Springer Nature's
            # ``Publisher's note …``)
            paras.append(Para("front", entry, text, [(entry[0].page, text)], spans=[len(entry)],
                               floating=True))
            continue
        kind = "paragraph" if not REF_START_RE.match(text) and (is_prose_block(entry) or is_note(entry, text)) \
            else "reference"
        paras.append(Para(kind, entry, text, [(entry[0].page, text)], spans=[len(entry)]))
    return in_refs


#: What a bibliography's entry holds and a paragraph's sentence rarely does: a year alone
#: in brackets, a volume's pages, a DOI, a proceedings' name.
_CITED_RE = re.compile(r"\(\d{4}[a-z]?\)|\b\d{1,4}\s*[,:(]\s*\d{1,6}\)?\s*[–-]\s*\d{1,6}\b|\bdoi\b"
                       r"|\bin\s+proceedings\b|\bpp\.\s*\d", re.I)


def body_past_references(group: list[Line], paras: list[Para], head: Line | None) -> Para | None:
    """The paragraph a block read after the bibliography's heading goes on, when the block
    stands above that heading in the next column and opens in lowercase, and the paragraph
    right before the heading was left open (*Frontiers*' ``AUTHOR CONTRIBUTIONS`` going on
    at the right column's top, ``editing. S-JY and S-GL: …``, over ``FUNDING``, while the
    left column's ``REFERENCES`` and its entries stand under it): text over the
    bibliography's band, no entry."""
    first = group[0]
    if head is None or first.page != head.page or not first.text[:1].islower() \
            or first.bbox[1] >= head.bbox[1] or first.bbox[0] <= head.bbox[2] \
            or _CITED_RE.search(" ".join(ln.text for ln in group)):
        return None  # (an entry's rest at the column's top: ``machine. Optica 7, 1535–1543 (2020).``)
    at = next((i for i in range(len(paras) - 1, -1, -1) if any(ln is head for ln in paras[i].lines)), None)
    if at is None or at == 0:
        return None
    before = paras[at - 1]
    last = before.text.split()[-1] if before.text.split() else ""
    # (left open on a word: a sentence broken at the column's foot, not an address's end)
    return before if before.type == "paragraph" and last.rstrip(",;").isalpha() else None
