"""What a hit is worth for the kind of passage it is and how it matches (pure): the
weights by chunk type, fragments, queries that read like a reference, and the exact
phrase bonus's matching. ``index/search`` applies them when it fuses the rankings."""

from __future__ import annotations

import re

#: A query of at least this many words is also looked for as a phrase (``search``).
PHRASE_MIN_WORDS = 6
_WORD = re.compile(r"\w+", re.UNICODE)


#: How much of its score a hit keeps for what kind of passage it is: the paper's prose,
#: figures, tables and the user's own text keep all of it; headings, reference entries,
#: front matter and equations are found by what they share with the query, not by
#: answering it, so they rank below a passage that matches as well (a query that reads
#: like a reference keeps reference entries whole). A footnote is the authors' words, set
#: aside from the argument: it ranks a little below a paragraph that matches as well.
TYPE_WEIGHTS = {"heading": 0.5, "reference": 0.5, "front": 0.4, "equation": 0.6, "code": 0.6,
                "footnote": 0.8}
#: A paragraph this short (characters or words) is a fragment: a label, a formula line.
FRAGMENT_CHARS, FRAGMENT_WORDS = 40, 6
FRAGMENT_WEIGHT = 0.6
_REFERENCE_QUERY = re.compile(r"\bet al\b|\b(?:19|20)\d{2}[a-z]?\b|\b10\.\d{4,9}/|\barxiv\b"
                              r"|\bin proceedings\b|\bjournal of\b", re.I)


def looks_like_reference(query: str) -> bool:
    """Whether a query reads like a bibliography entry or a search for one."""
    return _REFERENCE_QUERY.search(query) is not None


def passage_weight(kind: str, chunk_type: str | None, text: str, reference_query: bool) -> float:
    """The share of its score a hit keeps for its kind of passage (``TYPE_WEIGHTS``)."""
    if kind != "paper" or chunk_type is None:
        return 1.0  # the user's own notes
    if chunk_type == "reference" and reference_query:
        return 1.0
    weight = TYPE_WEIGHTS.get(chunk_type, 1.0)
    if chunk_type in ("paragraph", "list") and (
            len(text) < FRAGMENT_CHARS or len(text.split()) < FRAGMENT_WORDS):
        weight = min(weight, FRAGMENT_WEIGHT)
    return weight


def query_phrase(query: str) -> str | None:
    """The query as a word sequence to look for verbatim, when it is long enough (counted
    as typed: "dot-product attention" is two words, looked for as three)."""
    if len(query.split()) < PHRASE_MIN_WORDS:
        return None
    return " ".join(_WORD.findall(query.lower())) or None


def contains_phrase(text: str, phrase: str) -> bool:
    """Whether ``text`` holds ``phrase`` as whole words, ignoring case and punctuation."""
    return f" {phrase} " in f" {' '.join(_WORD.findall(text.lower()))} "
