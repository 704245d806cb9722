"""The printed page of every PDF page: folios read as a sequence, reconciled with the
PDF's ``/PageLabels``, the range printed on page one and a record's first page.

Pure logic, no I/O and no PDF library: ``vaultd.parse.folio_reader`` hands in what each
page prints in its head, foot and margins (``BandLine``), ``vaultd.parse.folio_text``
reads the folios each page may print, and ``decide_labels`` returns one ``PageLabel`` per
PDF page.

How a label is decided (issue 32):

* A folio is read as part of a sequence. Every number (arabic, roman ``i``..``xl``,
  ``e1234``, ``S12``) found at the start or end of a head/foot line, or as ``Page N of M``
  or ``N / M``, proposes an *offset* between the PDF index and the printed page. Pages
  that agree on one offset form a run; a lone odd number (a year, a figure label, a table
  value) proposes an offset no other page shares and so never breaks the run.
* A run must look like a folio, not like chance: its folios keep one place on the page
  (band; centre or outer edge), a short run sits on consecutive pages, and a run lying
  inside another sequence that resumes at its old offset is noise (an insertion would
  have shifted it).
* A run is **confirmed** when at least ``MIN_RUN_PAGES`` pages print a folio on it, or
  when a second source (``/PageLabels``, the printed range, the record's first page)
  agrees with it. Pages inside a confirmed run that print no folio (a full-page figure)
  are **inferred**; so is the first page before a run when the run starts at 1 there or a
  second source says so. Nothing is extrapolated further.
* ``/PageLabels`` are distrusted as soon as they contradict one confirmed folio (many
  publishers write 1..N whatever the pages print).
* Anything else is cited by its PDF page: ``status="pdf"``, ``label=None``. When unsure,
  "pdf": a wrong printed page is a wrong citation, a PDF page is only a less useful one.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from vaultd.parse.folio_text import (
    BandLine,
    Folio,
    Slot,
    line_folios,
    page_folios,
    page_readings,
    parse_folio,
    printed_range,
    to_roman,
)

__all__ = [
    "BandLine",
    "Evidence",
    "Folio",
    "PageLabel",
    "decide_from_folios",
    "decide_labels",
    "find_runs",
    "label_map",
    "line_folios",
    "page_folios",
    "page_readings",
    "parse_folio",
    "printed_range",
    "to_roman",
]

Status = Literal["confirmed", "inferred", "pdf"]
LabelSource = Literal["folio", "page-labels", "printed-range", "record", "pdf"]

#: Pages that must print folios on one offset before the document's own sequence is
#: trusted without a second source (the issue's "at least three pages").
MIN_RUN_PAGES = 3
#: A run this long is never chance, wherever its folios stand; a shorter one must sit on
#: consecutive pages in one slot (``_credible``).
SURE_RUN_PAGES = 5
#: A run shorter than ``MIN_RUN_PAGES`` needs this many folios and a second source.
MIN_BACKED_RUN_PAGES = 2
#: Share of a long run's folios that must stand in one slot (``_credible``).
MIN_SLOT_SHARE = 0.75
#: Largest step, in PDF pages, between two folios of one run: up to three pages in a row
#: may print none (plates, landscape tables) before the run is taken to have ended.
MAX_RUN_STEP_PAGES = 4


@dataclass(frozen=True, slots=True)
class PageLabel:
    """The page a reader cites for one PDF page, how sure vaultd is, and where it came
    from. ``label`` is None exactly when ``status`` is "pdf" (cite the PDF page)."""

    label: str | None
    status: Status
    source: LabelSource


PDF_PAGE = PageLabel(None, "pdf", "pdf")


# ------------------------------------------------------------------ runs


@dataclass(frozen=True, slots=True)
class Run:
    """PDF pages whose folios agree on one offset: page ``i`` prints ``value = i + offset``.

    ``pages`` are the PDF indexes (0-based) that print a folio of the run.
    """

    system: str
    offset: int
    pages: tuple[int, ...]

    @property
    def first(self) -> int:
        return self.pages[0]

    @property
    def last(self) -> int:
        return self.pages[-1]

    def folio(self, index: int) -> Folio | None:
        """The folio this run gives PDF page ``index`` (None below 1)."""
        value = index + self.offset
        return Folio(self.system, value) if value >= 1 else None

    def label(self, index: int) -> str | None:
        folio = self.folio(index)
        return folio.render() if folio else None

    def overlaps(self, other: Run) -> bool:
        return self.first <= other.last and other.first <= self.last


def _slot_share(pages: Sequence[int], slots: Mapping[int, frozenset[Slot]]) -> float:
    """The largest share of a run's pages (the document's first aside, whose folio often
    stands elsewhere: the foot of a page whose head is the title) that one slot holds; a
    line whose words' places are unknown fits every slot of its band."""
    counted = [index for index in pages if index != 0]
    if not counted:
        return 1.0
    tally: dict[Slot, int] = defaultdict(int)
    for index in counted:
        here: set[Slot] = set()
        for band, kind in slots[index]:
            here |= {(band, "centre"), (band, "edge")} if kind == "any" else {(band, kind)}
        for slot in here:
            tally[slot] += 1
    return max(tally.values(), default=0) / len(counted)


def _credible(pages: Sequence[int], slots: Mapping[int, frozenset[Slot]]) -> bool:
    """Whether a run's folios can be told from chance. A real folio keeps its place (one
    band; the centre, or the outer edges of odd and even pages): a short run (fewer than
    ``SURE_RUN_PAGES``) must hold one slot on consecutive pages, a long one on
    ``MIN_SLOT_SHARE`` of its pages (a landscape page prints its folio elsewhere)."""
    if len(pages) >= SURE_RUN_PAGES:
        return _slot_share(pages, slots) >= MIN_SLOT_SHARE
    consecutive = pages[-1] - pages[0] == len(pages) - 1
    return consecutive and _slot_share(pages, slots) == 1.0


ReadingsLike = Mapping[Folio, frozenset[Slot]] | set[Folio]


def folio_support(readings: Sequence[ReadingsLike],
                  ) -> tuple[dict[tuple[str, int], list[int]], dict[tuple[str, int], dict[int, frozenset[Slot]]]]:
    """For each (system, offset): the pages printing a folio on it, in order, and the
    slots it stands in there. Readings without slots (plain sets) fit any slot."""
    support: dict[tuple[str, int], list[int]] = defaultdict(list)
    where: dict[tuple[str, int], dict[int, frozenset[Slot]]] = defaultdict(dict)
    anywhere = frozenset({("top", "any"), ("bottom", "any")})
    for index, page in enumerate(readings):
        for folio in page:
            key = (folio.system, folio.value - index)
            support[key].append(index)
            where[key][index] = page[folio] if isinstance(page, Mapping) else anywhere
    return support, where


def find_runs(readings: Sequence[ReadingsLike]) -> list[Run]:
    """Every run the readings support, longest first: each (system, offset) split where
    more than ``MAX_RUN_STEP_PAGES`` pass between two of its folios, kept when
    ``_credible``. Readings without slots (plain sets of folios) fit any slot."""
    return _runs(*folio_support(readings))


def _runs(support: Mapping[tuple[str, int], Sequence[int]],
          where: Mapping[tuple[str, int], Mapping[int, frozenset[Slot]]]) -> list[Run]:
    runs: list[Run] = []
    for (system, offset), pages in support.items():
        start = 0
        for k in range(1, len(pages) + 1):
            if k == len(pages) or pages[k] - pages[k - 1] > MAX_RUN_STEP_PAGES:
                chunk = tuple(pages[start:k])
                if _credible(chunk, where[(system, offset)]):
                    runs.append(Run(system, offset, chunk))
                start = k
    runs.sort(key=lambda r: (-len(r.pages), r.first, r.system, r.offset))
    return runs


# ------------------------------------------------------------------ reconciling


@dataclass(frozen=True, slots=True)
class Evidence:
    """What a document says about its pages besides its folios."""

    page_labels: Sequence[str] | None = None
    first_page_range: tuple[str, str] | None = None
    record_first_page: str | None = None


def _usable_labels(labels: Sequence[str] | None, n: int) -> list[str | None] | None:
    """``/PageLabels`` per page with empty labels as None; None when there are none."""
    if not labels or len(labels) != n or not any(s.strip() for s in labels):
        return None
    return [s.strip() or None for s in labels]


def _same(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and a.casefold() == b.casefold()


def _agreeing_sources(run: Run, index: int, labels: list[str | None] | None,
                      ev: Evidence, n: int) -> list[LabelSource]:
    """The sources other than the folios that give PDF page ``index`` the run's label."""
    label = run.label(index)
    if label is None:
        return []
    sources: list[LabelSource] = []
    if labels is not None and _same(labels[index], label):
        sources.append("page-labels")
    if ev.first_page_range is not None and run.system == "arabic":
        first, last = ev.first_page_range
        if (index == 0 and label == first) or (index == n - 1 and label == last):
            sources.append("printed-range")
    if index == 0 and _same(ev.record_first_page, label):
        sources.append("record")
    return sources


def _corroborated(run: Run, labels: list[str | None] | None, ev: Evidence, n: int) -> bool:
    """Whether a run too short to stand alone is confirmed by a second source: it has
    at least ``MIN_BACKED_RUN_PAGES`` folios, and the page labels give every one of them,
    or it starts the article (within its first pages) where the range or the record says."""
    if len(run.pages) < MIN_BACKED_RUN_PAGES:
        return False
    if labels is not None and all(_same(labels[i], run.label(i)) for i in run.pages):
        return True
    near_start = run.first < MAX_RUN_STEP_PAGES
    return near_start and bool({"printed-range", "record"} & set(_agreeing_sources(run, 0, None, ev, n)))


def _labels_contradict(labels: list[str | None], runs: Sequence[Run]) -> bool:
    """Whether the page labels disagree with a folio the document prints."""
    return any(not _same(labels[i], run.label(i)) for run in runs for i in run.pages)


def _accept_runs(runs: Sequence[Run], support: Mapping[tuple[str, int], Sequence[int]],
                 labels: list[str | None] | None, ev: Evidence, n: int) -> list[Run]:
    """The runs taken as the document's pagination: long ones first, then short ones a
    second source backs; a run overlapping one already taken is noise, and so is a short
    one inside another sequence (``_sandwiched``)."""
    # A run needs two folios to be taken at all; sequences of one page sandwich nothing.
    runs = [run for run in runs if len(run.pages) >= MIN_BACKED_RUN_PAGES]
    multi = {key: pages for key, pages in support.items() if len(pages) >= MIN_BACKED_RUN_PAGES}
    runs = [run for run in runs if not _sandwiched(run, multi)]
    taken: list[Run] = []
    for run in runs:
        if len(run.pages) >= MIN_RUN_PAGES and not any(run.overlaps(t) for t in taken):
            taken.append(run)
    strong = list(taken)
    trusted = labels if labels is not None and not _labels_contradict(labels, strong) else None
    for run in runs:
        if (len(run.pages) < MIN_RUN_PAGES and not any(run.overlaps(t) for t in taken)
                and _corroborated(run, trusted, ev, n)):
            taken.append(run)
    return sorted(taken, key=lambda r: r.first)


def _sandwiched(run: Run, support: Mapping[tuple[str, int], Sequence[int]]) -> bool:
    """Whether a run lies inside a sequence of its system that prints on both sides of it
    at one other offset, on as many pages. Pages inserted into a document shift its
    numbering after them; a sequence that resumes unshifted had no insertion, so the run
    is chance (numbers in a table or a list that happen to count up)."""
    for (system, offset), pages in support.items():
        if system != run.system or offset == run.offset or len(pages) < len(run.pages):
            continue
        if pages[0] < run.first and pages[-1] > run.last:
            return True
    return False


def _rivals(runs: Sequence[Run], taken: Sequence[Run]) -> set[int]:
    """Pages where a sequence other than the taken one also prints (two articles, an
    inserted page): not inferred from the taken run, since the page may print the other."""
    pages: set[int] = set()
    for run in runs:
        if run in taken or len(run.pages) < 2:
            continue
        pages.update(run.pages)
    return pages


def _label_inside(run: Run, index: int, printed: bool, rivals: set[int]) -> PageLabel:
    label = run.label(index)
    if label is None:
        return PDF_PAGE
    if printed:
        return PageLabel(label, "confirmed", "folio")
    if index in rivals:
        return PDF_PAGE
    return PageLabel(label, "inferred", "folio")


def _label_before(run: Run, index: int, labels: list[str | None] | None, ev: Evidence,
                  n: int) -> PageLabel:
    """Page ``index`` before the run's first folio: only the page right before it, and
    only when the run starts the article there (label "1") or a second source agrees."""
    if index != run.first - 1:
        return PDF_PAGE
    label = run.label(index)
    if label is None:
        return PDF_PAGE
    sources = _agreeing_sources(run, index, labels, ev, n)
    if sources:
        return PageLabel(label, "inferred", sources[0])
    if index == 0 and run.system == "arabic" and label == "1":
        return PageLabel(label, "inferred", "folio")
    return PDF_PAGE


def _label_after(run: Run, index: int, labels: list[str | None] | None, ev: Evidence,
                 n: int) -> PageLabel:
    """Page ``index`` after the run's last folio: only the page right after it, and only
    when a second source (page labels, the range's last page) agrees."""
    if index != run.last + 1:
        return PDF_PAGE
    label = run.label(index)
    sources = _agreeing_sources(run, index, labels, ev, n)
    if label is None or not sources:
        return PDF_PAGE
    return PageLabel(label, "inferred", sources[0])


def _without_folios(n: int, labels: list[str | None] | None, ev: Evidence) -> list[PageLabel]:
    """Labels for a document whose folios give nothing: two sources must agree on the
    first page (page labels and the record, or the printed range and the record), and the
    numbering must then run on one page at a time."""
    record = ev.record_first_page
    if record is None or not record.isdigit():
        return [PDF_PAGE] * n
    first = int(record)
    if labels is not None and all(_same(labels[i], str(first + i)) for i in range(n)):
        return [PageLabel(str(first + i), "confirmed", "page-labels") for i in range(n)]
    rng = ev.first_page_range
    if rng is not None and rng[0] == record and int(rng[1]) - int(rng[0]) + 1 == n:
        return [PageLabel(str(first + i), "confirmed", "printed-range") for i in range(n)]
    return [PDF_PAGE] * n


def decide_labels(pages: Sequence[Sequence[BandLine]], evidence: Evidence | None = None,
                  ) -> list[PageLabel]:
    """One ``PageLabel`` per PDF page, from the lines each page prints in its bands.

    ``pages[i]`` holds the head/foot/margin lines of PDF page ``i``. ``evidence`` carries
    the other sources. Never a label that no sequence or no two sources support.
    """
    return decide_from_folios([page_readings(lines) for lines in pages], evidence)


def decide_from_folios(readings: Sequence[ReadingsLike], evidence: Evidence | None = None,
                       ) -> list[PageLabel]:
    """``decide_labels`` on folios already read from each page (``page_readings``, or
    plain sets of folios whose places are unknown)."""
    ev = evidence or Evidence()
    n = len(readings)
    labels = _usable_labels(ev.page_labels, n)
    support, where = folio_support(readings)
    runs = _runs(support, where)
    taken = _accept_runs(runs, support, labels, ev, n)
    if not taken:
        return _without_folios(n, labels, ev)
    trusted = labels if labels is not None and not _labels_contradict(labels, taken) else None
    rivals = _rivals(runs, taken)
    out = [PDF_PAGE] * n
    edges: dict[int, list[PageLabel]] = defaultdict(list)
    for run in taken:
        printed = set(run.pages)
        for i in range(run.first, run.last + 1):
            out[i] = _label_inside(run, i, i in printed, rivals)
        if run.first > 0:
            edges[run.first - 1].append(_label_before(run, run.first - 1, trusted, ev, n))
        if run.last + 1 < n:
            edges[run.last + 1].append(_label_after(run, run.last + 1, trusted, ev, n))
    inside = {i for run in taken for i in range(run.first, run.last + 1)}
    for i, proposals in edges.items():
        given = {p for p in proposals if p.label is not None}
        # A page between two runs that both claim it, differently, is left to the PDF.
        if i not in inside and len({p.label for p in given}) == 1:
            out[i] = min(given, key=lambda p: p.source)
    return out


def label_map(labels: Sequence[PageLabel]) -> Mapping[int, str]:
    """PDF page number (1-based) → printed label, for the pages that have one."""
    return {i + 1: lab.label for i, lab in enumerate(labels) if lab.label is not None}
