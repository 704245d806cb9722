"""Hyphens: which a document draws, and whether one at a line's end breaks a word (layout
rule 2, ``vaultd.parse.layout``): the document's own spelling decides first."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

COMPOUND_PREFIXES = frozenset(
    {"self", "cross", "well", "semi", "quasi", "zero", "few", "two", "three", "four", "five"}
)

HYPHENS = ("-", "\u2010")  # hyphen-minus and Unicode hyphen
#: U+00AD, drawn only where a word is broken at a line's end (BMC 2024 sets every
#: line-end hyphen as one): the word is whole, so it goes with the break.
SOFT_HYPHEN = "\u00ad"


#: A word as the hyphenation evidence counts it: letters and digits, inner hyphens kept.
#: (``\w(?:[\w\u2010-]*\w)?`` written so that it never backtracks: the same matches, a
#: quarter faster over a document.)
_WORD_RE = re.compile(r"\w+(?:[\u2010-]+\w+)*")
#: Inside an address or identifier a line-end hyphen is always the text's own.
_IDENTIFIER_RE = re.compile(r"@|://|www\.|/|\w\.\w")


def _evidence_form(text: str) -> str:
    """Lower case, U+2010 HYPHEN written as ``-``: the form the evidence counts words in."""
    text = text.lower()
    return text.replace("\u2010", "-") if "\u2010" in text else text


class HyphenEvidence:
    """How a document spells its words, for line-end hyphens (rule 2).

    Counts every word of the document's lines in lower case, leaving out the two halves of
    each word split at a line end (they are what is being decided).
    """

    def __init__(self, lines: Iterable[str]) -> None:
        lines = list(lines)
        # every word at once (a word never runs over a line break), then the halves of
        # the split words taken out again: the first word after a split line and the
        # last word of the line split
        text = "\n".join(lines)
        self.counts: Counter[str] = Counter(_WORD_RE.findall(_evidence_form(text)))
        #: The document writes hyphens it draws as soft hyphens (a book review re-saved by
        #: iLovePDF: ``pseudo\u00adAvicenne``, ``Arabo\u00adIslamic`` beside ``al-Shifā’``),
        #: so a soft hyphen is a hyphen, kept inside a line and decided at a line's end:
        #: ``SOFT_EVIDENCE`` of them between two letters inside lines or more. (A soft
        #: hyphen no page draws stands at a line's end, or after a hyphen: Wiley's
        #: ``Mixed-\u00adeffect``; one between two letters came in one of 234 PDFs, drawn.)
        self.soft_hyphens = SOFT_HYPHEN in text and len(_INNER_SOFT_RE.findall(text)) >= SOFT_EVIDENCE
        split_before = False
        for line in lines:
            ends_split = line.rstrip().endswith(HYPHENS)
            if split_before or ends_split:
                words = _WORD_RE.findall(_evidence_form(line))
                halves = []
                if split_before and words:
                    halves.append(words.pop(0))
                if ends_split and words:
                    halves.append(words[-1])
                self.counts.subtract(halves)
            split_before = ends_split

    def decide(self, fragment: str, right: str) -> bool | None:
        """True: drop the hyphen (the document writes the word whole); False: keep it (the
        document writes it with a hyphen); None: no evidence either way."""
        head = re.sub(r"^\W+", "", fragment.lower())
        match = _WORD_RE.match(right.lower())
        if not head or match is None:
            return None
        tail = match.group(0)
        hyphenated = self.counts[f"{head}-{tail}"]
        whole = self.counts[head + tail]
        if hyphenated and hyphenated >= whole:
            return False
        if whole:
            return True
        return None


#: A soft hyphen between two letters, and how many tell that a document draws its hyphens
#: as soft hyphens.
_INNER_SOFT_RE = re.compile("[^\\W\\d_]\u00ad[^\\W\\d_]")
SOFT_EVIDENCE = 2

_EVIDENCE: ContextVar[HyphenEvidence | None] = ContextVar("hyphen_evidence", default=None)


@contextmanager
def hyphen_evidence(lines: Iterable[str]) -> Iterator[HyphenEvidence]:
    """Decide line-end hyphens by the spelling of the document whose ``lines`` these are,
    for every join made inside the ``with`` block (this thread or task only)."""
    evidence = HyphenEvidence(lines)
    token = _EVIDENCE.set(evidence)
    try:
        yield evidence
    finally:
        _EVIDENCE.reset(token)


def drops_hyphen(left: str, right: str) -> bool:
    """``left`` ends with a hyphen; decide whether it is a line-break hyphen (rule 2)."""
    body = left[:-1]
    if not body or not right:
        return False
    fragment = body.split()[-1] if body.split() else ""
    if _IDENTIFIER_RE.search(fragment) or "@" in right.split()[0]:
        return False  # an e-mail address, URL or identifier keeps its hyphen
    evidence = _EVIDENCE.get()
    if evidence is not None and body[-1].isalpha() and right[0].isalpha():  # not 3-5
        decided = evidence.decide(fragment, right)
        if decided is not None:
            return decided
    if not (body[-1].isalpha() and body[-1].islower()):
        return False
    if not (right[0].isalpha() and right[0].islower()):
        return False
    if "-" in fragment or any(c.isdigit() for c in fragment):
        return False
    if "-" in right.split()[0].rstrip("-.,;:)]}"):
        return False  # the line goes on with a hyphenated compound: state-/of-the-art
    word = fragment.lstrip("([{\"'“‘").lower()
    return word not in COMPOUND_PREFIXES


def current_evidence() -> HyphenEvidence | None:
    """The evidence of the ``hyphen_evidence`` block joins are made in, if any."""
    return _EVIDENCE.get()
